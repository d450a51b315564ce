// libFuzzer target: the demo's settings file (core/settings.h, docs/settings.md), read by
// ReadSettingsFile, the function the start-up uses (LoadStartSettings). The input is the
// file's bytes, written to a scratch folder. Checks:
//   - a file ignored whole gives the defaults (no field set), one problem line, and is marked
//     to be kept as a backup;
//   - otherwise every field that is set holds a value in the range settings.h documents, and
//     the problem is at most one printable line;
//   - what was read round-trips: written again (SettingsJson) and read back, it is read whole
//     with no problem and gives the same settings, and writing those gives the same text;
//   - the lines that restore it (SettingsCommands) parse as console lines, and a quoted path
//     comes back from the line unchanged.
#include <unistd.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "camera/orbit_camera.h"
#include "core/command_table.h"
#include "core/scene_registry.h"
#include "core/settings.h"
#include "ik/solver.h"
#include "lang/command.h"
#include "lang/text.h"

namespace {

using fabrik::Settings;

std::string g_folder;              // its scratch folder
std::string g_file;                // the scratch settings.json
fabrik::CommandContext g_context;  // as the app parses console lines

void Check(bool condition, const char* what) {
  if (!condition) {
    std::fprintf(stderr, "fuzz_settings: broken promise: %s\n", what);
    std::abort();
  }
}

bool Printable(const std::string& s) {
  for (const char ch : s) {
    const auto c = static_cast<unsigned char>(ch);
    if (c < 0x20 || c == 0x7f) return false;
  }
  return true;
}

bool InRange(float v, float lo, float hi) { return std::isfinite(v) && v >= lo && v <= hi; }

// Paths: 1..4096 bytes, no control character or '"' (settings.h).
bool ValidPath(const std::optional<std::string>& path) {
  if (!path) return true;
  if (path->empty() || path->size() > 4096) return false;
  return Printable(*path) && path->find('"') == std::string::npos;
}

bool SameFloat(float a, float b) { return std::memcmp(&a, &b, sizeof a) == 0; }

// The same keys, and under each the same JSON text (a float's text is exact, -0 included).
bool SameValues(const fabrik::SettingValues& a, const fabrik::SettingValues& b) {
  if (a.size() != b.size()) return false;
  for (auto i = a.begin(), j = b.begin(); i != a.end(); ++i, ++j) {
    if (i->first != j->first || i->second.dump() != j->second.dump()) return false;
  }
  return true;
}

bool Same(const Settings& a, const Settings& b) {
  bool same = SameValues(a.values, b.values) && a.window_size == b.window_size &&
              a.window_position == b.window_position;
  same = same && a.camera.has_value() == b.camera.has_value();
  if (same && a.camera) {
    for (int i = 0; i < 3; ++i) same = same && SameFloat(a.camera->pivot[i], b.camera->pivot[i]);
    same = same && SameFloat(a.camera->yaw, b.camera->yaw) &&
           SameFloat(a.camera->pitch, b.camera->pitch) &&
           SameFloat(a.camera->distance, b.camera->distance);
  }
  return same;
}

bool Empty(const Settings& s) {
  return s.values.empty() && !s.camera && !s.window_size && !s.window_position;
}

bool IsScene(const std::string& name) {
  for (const std::string_view s : fabrik::RegisteredSceneNames()) {
    if (s == name) return true;
  }
  return false;
}

void CheckRanges(const Settings& s) {
  using namespace fabrik;
  // Every key is a saved setting's.
  for (const auto& [key, value] : s.values) {
    bool known = false;
    for (const SettingRow& row : SettingsTable()) known = known || row.key == key;
    Check(known, "a key that no command saves");
  }
  const auto scene = s.Get<std::string>("scene");
  Check(!scene || IsScene(*scene), "scene is not a registered scene");
  const auto mode = s.Get<std::string>("mode");
  Check(!mode || *mode == "drag" || *mode == "spline" || *mode == "console" || *mode == "script",
        "mode is not drag, spline, console or script");
  const auto length = s.Get<float>("length");
  Check(!length || InRange(*length, kMinSegmentLength, kMaxSegmentLength), "length out of range");
  if (const auto lengths = s.Get<std::vector<float>>("lengths")) {
    Check(!lengths->empty() && lengths->size() <= static_cast<std::size_t>(kMaxJoints - 1),
          "lengths: not 1 to 9999 of them");
    for (const float l : *lengths) {
      Check(InRange(l, kMinSegmentLength, kMaxSegmentLength), "a length out of range");
    }
  }
  const auto moe = s.Get<float>("moe");
  Check(!moe || (std::isfinite(*moe) && *moe > 0.0f && *moe <= kMaxTolerance),
        "moe not in (0, 100]");
  const auto max_iterations = s.Get<int>("max_iterations");
  Check(!max_iterations || (*max_iterations >= 1 && *max_iterations <= kMaxIterations),
        "max_iterations out of range");
  const auto solver = s.Get<std::string>("solver");
  Check(!solver || ParseSolverKind(*solver).has_value(), "unknown solver");
  for (const CommandEntry& flag : CommandRegistry()) {
    const auto it = s.values.find(flag.language.name);
    if (!flag.is_flag() || it == s.values.end()) continue;
    Check(flag.flag.saved, "a flag that is not saved");
    Check(it->second.is_boolean(), "a flag that is not true or false");
  }
  for (const CommandEntry& entry : CommandRegistry()) {
    const auto it = s.values.find(entry.language.name);
    if (it == s.values.end() || entry.is_flag() || entry.typed) continue;
    Check(entry.saved != nullptr, "a command that is not saved");
    Check(it->second.is_string(), "a saved command's words are not a string");
    // Canonical: the entry's parse gives the same words back.
    auto split = text::Tokenize(it->second.get<std::string>());
    Check(split.ok(), "a saved command's words do not tokenize");
    auto parsed = entry.language.parse(split.value());
    Check(parsed.ok() && parsed.value() == split.value(), "a saved command is not canonical");
  }
  const auto spline = s.Get<std::string>("spline");
  const auto script = s.Get<std::string>("script");
  const auto clip = s.Get<std::string>("clip");
  Check(ValidPath(spline) && ValidPath(script) && ValidPath(clip), "a path out of rule");
  if (s.camera) {
    const SavedCamera& c = *s.camera;
    for (int i = 0; i < 3; ++i) {
      Check(InRange(c.pivot[i], -OrbitCamera::kMaxPivot, OrbitCamera::kMaxPivot),
            "camera pivot out of range");
    }
    Check(InRange(c.yaw, -1e3f, 1e3f), "camera yaw out of range");
    Check(InRange(c.pitch, -OrbitCamera::kMaxPitch, OrbitCamera::kMaxPitch),
          "camera pitch out of range");
    Check(InRange(c.distance, OrbitCamera::kMinDistance, OrbitCamera::kMaxDistance),
          "camera distance out of range");
  }
  if (s.window_size) {
    Check(s.window_size->x >= kMinWindowSize.x && s.window_size->x <= kMaxWindowSize.x &&
              s.window_size->y >= kMinWindowSize.y && s.window_size->y <= kMaxWindowSize.y,
          "window size out of range");
  }
  if (s.window_position) {
    Check(std::abs(s.window_position->x) <= 100000 && std::abs(s.window_position->y) <= 100000,
          "window position out of range");
  }
}

// The restoring lines: each a console line the language takes (a file load: the path comes
// back from the quoted word; the file itself need not exist here).
void CheckRestoreLines(const Settings& s) {
  for (const fabrik::AppCommand& command : fabrik::SettingsCommands(s)) {
    const auto* line = std::get_if<fabrik::app::Line>(&command);
    if (line == nullptr) continue;
    bool load = false;
    for (const char* prefix : {"spline load ", "script run ", "mocap load "}) {
      if (line->text.rfind(prefix, 0) != 0) continue;
      load = true;
      auto words = fabrik::text::Tokenize(line->text);
      Check(words.ok() && words.value().size() == 3, "a load line is not three words");
      const std::string& path = words.value()[2];
      Check(path == s.Get<std::string>("spline") || path == s.Get<std::string>("script") ||
                path == s.Get<std::string>("clip"),
            "a load line does not give its path back");
    }
    if (!load) {
      auto parsed = fabrik::ParseCommand(line->text, g_context);
      if (!parsed.ok()) {
        std::fprintf(stderr, "%s: %s\n", line->text.c_str(), parsed.error().c_str());
      }
      Check(parsed.ok(), "a restoring line does not parse");
    }
  }
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  // In memory when the system has /dev/shm: a file rewritten in place on a disk's file
  // system is flushed at every close, which took most of the fuzzer's time.
  char in_memory[] = "/dev/shm/fuzz_settings.XXXXXX";
  char on_disk[] = "/tmp/fuzz_settings.XXXXXX";
  const char* scratch = ::mkdtemp(in_memory);
  if (scratch == nullptr) scratch = ::mkdtemp(on_disk);
  if (scratch == nullptr) std::abort();
  g_file = std::string(scratch) + "/settings.json";
  g_folder = scratch;
  // libFuzzer ends with exit(): the scratch folder goes with it.
  std::atexit([] {
    ::unlink(g_file.c_str());
    ::rmdir(g_folder.c_str());
  });
  g_context.extensions = fabrik::AppCommandLanguage();
  const auto scenes = fabrik::RegisteredSceneNames();
  g_context.scene_names.assign(scenes.begin(), scenes.end());
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  {
    std::ofstream out(g_file, std::ios::binary | std::ios::trunc);
    out.write(text.data(), static_cast<std::streamsize>(text.size()));
    if (!out) std::abort();
  }
  const fabrik::SettingsRead read = fabrik::ReadSettingsFile(g_file);
  Check(read.problem.empty() || Printable(read.problem), "the problem is not one printable line");
  if (read.ignored_whole) {
    Check(Empty(read.settings), "a file ignored whole still set a field");
    Check(!read.problem.empty(), "a file ignored whole without a problem line");
    Check(read.unread.has_value(), "a file ignored whole is not kept as a backup");
    return 0;
  }
  Check(!read.unread.has_value(), "a file that was read is marked unread");
  CheckRanges(read.settings);

  const std::string written = fabrik::SettingsJson(read.settings);
  const fabrik::SettingsRead again = fabrik::ParseSettings(written, "round trip");
  if (!again.problem.empty()) std::fprintf(stderr, "%s\n", again.problem.c_str());
  Check(!again.ignored_whole && again.problem.empty(), "written settings are not read back whole");
  Check(Same(again.settings, read.settings), "settings read back differ from those written");
  Check(fabrik::SettingsJson(again.settings) == written, "the written text is not a fixed point");
  CheckRestoreLines(read.settings);
  return 0;
}
