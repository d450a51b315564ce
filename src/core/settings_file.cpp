// Reading, checking and writing settings.json (docs/settings.md).
// The file is the user's to edit, so everything in it is treated as hostile: a value is used
// only after its type and range are checked here, and a file that is not a settings file at
// all is ignored whole with one line saying why.
#include <unistd.h>

#include <array>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "camera/orbit_camera.h"
#include "core/command_table.h"
#include "core/scene_registry.h"
#include "core/settings.h"
#include "ik/solver.h"
#include "io/file_write.h"
#include "lang/command.h"
#include "lang/text.h"

namespace fabrik {
namespace {

using nlohmann::json;

// A settings file nests two levels (window.size); anything deeper is not one.
constexpr int kMaxDepth = 4;
constexpr std::size_t kMaxPathBytes = 4096;

// Checks one field; on a problem, returns a short reason for the one-line report.
struct Checker {
  const json& root;
  std::vector<std::string> ignored;

  const json* Get(const char* key) const {
    const auto it = root.find(key);
    return it == root.end() ? nullptr : &*it;
  }
  void Ignore(const char* key, const std::string& why) {
    ignored.push_back(std::string(key) + " (" + why + ")");
  }
  // Every number is kept as a float: the range holds for the float too, so a value that
  // rounds out of it (1e-50 for `moe`, which must stay above 0) is refused, not kept as 0.
  static bool Number(const json& v, double lo, double hi, bool lo_open, double& out) {
    if (!v.is_number()) return false;
    const double d = v.get<double>();
    const double f = static_cast<float>(d);
    for (const double x : {d, f}) {
      if (!std::isfinite(x) || x > hi || (lo_open ? x <= lo : x < lo)) return false;
    }
    out = d;
    return true;
  }
  static bool Integer(const json& v, long lo, long hi, long& out) {
    if (!v.is_number_integer()) return false;
    const long long n =
        v.is_number_unsigned()
            ? static_cast<long long>(std::min<std::uint64_t>(v.get<std::uint64_t>(), 1ull << 62))
            : v.get<long long>();
    if (n < lo || n > hi) return false;
    out = static_cast<long>(n);
    return true;
  }
  std::optional<float> Real(const char* key, double lo, double hi, bool lo_open,
                            const char* range) {
    const json* v = Get(key);
    if (v == nullptr) return std::nullopt;
    double d = 0.0;
    if (!Number(*v, lo, hi, lo_open, d)) {
      Ignore(key, std::string("expected a number ") + range);
      return std::nullopt;
    }
    return static_cast<float>(d);
  }
  std::optional<std::string> Word(const char* key, bool (*valid)(const std::string&),
                                  const char* what) {
    const json* v = Get(key);
    if (v == nullptr) return std::nullopt;
    if (!v->is_string() || !valid(v->get<std::string>())) {
      Ignore(key, std::string("expected ") + what);
      return std::nullopt;
    }
    return v->get<std::string>();
  }
  // Two whole numbers [a, b] within the bounds.
  std::optional<glm::ivec2> Pair(const json& parent, const char* key, glm::ivec2 lo, glm::ivec2 hi,
                                 const char* what) {
    const auto it = parent.find(key);
    if (it == parent.end()) return std::nullopt;
    long a = 0, b = 0;
    if (!it->is_array() || it->size() != 2 || !Integer((*it)[0], lo.x, hi.x, a) ||
        !Integer((*it)[1], lo.y, hi.y, b)) {
      Ignore(key, std::string("expected ") + what);
      return std::nullopt;
    }
    return glm::ivec2(static_cast<int>(a), static_cast<int>(b));
  }
};

SettingsRead Unread(std::string problem) {
  SettingsRead read;
  read.problem = std::move(problem);
  read.ignored_whole = true;
  return read;
}

bool IsScene(const std::string& name) {
  for (const SceneEntry& e : RegisteredScenes()) {
    if (e.name == name) return true;
  }
  return false;
}
bool IsMode(const std::string& name) {
  for (TargetMode m :
       {TargetMode::kDrag, TargetMode::kSpline, TargetMode::kConsole, TargetMode::kScript}) {
    if (name == ModeName(m)) return true;
  }
  return false;
}
bool IsSolver(const std::string& name) { return ParseSolverKind(name).has_value(); }
// A path the console line `spline load "PATH"` reads back unchanged.
bool IsPath(const std::string& path) {
  if (path.empty() || path.size() > kMaxPathBytes) return false;
  for (const char ch : path) {
    const auto c = static_cast<unsigned char>(ch);
    if (c < 0x20 || c == 0x7f || c == '"') return false;
  }
  return true;
}

void CheckCamera(Checker& check, Settings& out) {
  const json* v = check.Get("camera");
  if (v == nullptr) return;
  SavedCamera cam;
  double yaw = 0.0, pitch = 0.0, distance = 0.0, p[3] = {0.0, 0.0, 0.0};
  const double pivot_max = OrbitCamera::kMaxPivot;
  bool ok = v->is_object() && v->contains("pivot") && v->contains("yaw") && v->contains("pitch") &&
            v->contains("distance");
  ok = ok && (*v)["pivot"].is_array() && (*v)["pivot"].size() == 3;
  for (int i = 0; ok && i < 3; ++i) {
    ok = Checker::Number((*v)["pivot"][static_cast<std::size_t>(i)], -pivot_max, pivot_max, false,
                         p[i]);
  }
  ok = ok && Checker::Number((*v)["yaw"], -1e3, 1e3, false, yaw) &&
       Checker::Number((*v)["pitch"], -OrbitCamera::kMaxPitch, OrbitCamera::kMaxPitch, false,
                       pitch) &&
       Checker::Number((*v)["distance"], OrbitCamera::kMinDistance, OrbitCamera::kMaxDistance,
                       false, distance);
  if (!ok) {
    check.Ignore("camera", "expected pivot [X, Y, Z], yaw, pitch and distance in range");
    return;
  }
  cam.pivot =
      glm::vec3(static_cast<float>(p[0]), static_cast<float>(p[1]), static_cast<float>(p[2]));
  cam.yaw = static_cast<float>(yaw);
  cam.pitch = static_cast<float>(pitch);
  cam.distance = static_cast<float>(distance);
  out.camera = cam;
}

void CheckWindow(Checker& check, Settings& out) {
  const json* v = check.Get("window");
  if (v == nullptr) return;
  if (!v->is_object()) {
    check.Ignore("window", "expected an object with size and position");
    return;
  }
  out.window_size =
      check.Pair(*v, "size", kMinWindowSize, kMaxWindowSize, "[W, H] from 200x150 to 4096x4096");
  out.window_position = check.Pair(*v, "position", {-100000, -100000}, {100000, 100000},
                                   "[X, Y], each within +-100000");
}

void CheckLengths(Checker& check, Settings& out) {
  const json* v = check.Get("lengths");
  if (v == nullptr) return;
  bool ok = v->is_array() && !v->empty() && v->size() < static_cast<std::size_t>(kMaxJoints);
  std::vector<float> lengths;
  for (std::size_t i = 0; ok && i < v->size(); ++i) {
    double d = 0.0;
    ok = Checker::Number((*v)[i], kMinSegmentLength, kMaxSegmentLength, false, d);
    lengths.push_back(static_cast<float>(d));
  }
  if (!ok) {
    check.Ignore("lengths", "expected 1 to 9999 numbers from 0.0001 to 1000");
    return;
  }
  out.lengths = std::move(lengths);
}

}  // namespace

std::optional<std::string> SettingsFolder() {
  // XDG Base Directory Specification: a relative $XDG_CONFIG_HOME is invalid and ignored.
  const char* xdg = std::getenv("XDG_CONFIG_HOME");
  if (xdg != nullptr && xdg[0] == '/') return std::string(xdg) + "/fabrik-demo";
  const char* home = std::getenv("HOME");
  if (home != nullptr && home[0] == '/') return std::string(home) + "/.config/fabrik-demo";
  return std::nullopt;
}

SettingsRead ParseSettings(std::string_view text, const std::string& name) {
  SettingsRead read;
  const std::string prefix = "settings: " + name + " ";
  if (text.size() > kMaxSettingsBytes) {
    read.problem = prefix + "is larger than 1 MiB; ignored it, using the defaults";
    read.ignored_whole = true;
    return read;
  }
  bool too_deep = false;
  // Values nested too deep are dropped as they are parsed, so a hostile file never builds a
  // deep tree.
  const json::parser_callback_t limit = [&](int depth, json::parse_event_t, json&) {
    if (depth > kMaxDepth) too_deep = true;
    return depth <= kMaxDepth;
  };
  json root = json::parse(text.begin(), text.end(), limit, /*allow_exceptions=*/false);
  if (root.is_discarded()) {
    read.problem = prefix + "is not valid JSON; ignored it, using the defaults";
    read.ignored_whole = true;
    return read;
  }
  if (too_deep || !root.is_object()) {
    read.problem = prefix + "is not a settings object; ignored it, using the defaults";
    read.ignored_whole = true;
    return read;
  }
  Checker check{root, {}};
  Settings& s = read.settings;
  s.scene = check.Word("scene", IsScene, "a scene name");
  s.mode = check.Word("mode", IsMode, "drag, spline, console or script");
  s.length =
      check.Real("length", kMinSegmentLength, kMaxSegmentLength, false, "from 0.0001 to 1000");
  CheckLengths(check, s);
  s.moe = check.Real("moe", 0.0, kMaxTolerance, true, "> 0 and <= 100");
  if (const json* v = check.Get("max_iterations")) {
    long n = 0;
    if (Checker::Integer(*v, 1, kMaxIterations, n)) {
      s.max_iterations = static_cast<int>(n);
    } else {
      check.Ignore("max_iterations", "expected a whole number from 1 to 100000");
    }
  }
  s.solver = check.Word("solver", IsSolver, "a solver name");
  for (const FlagEntry& flag : FlagTable()) {
    if (!flag.saved) continue;
    const std::string key(flag.name);
    if (const json* v = check.Get(key.c_str())) {
      if (v->is_boolean()) {
        s.flags[key] = v->get<bool>();
      } else {
        check.Ignore(key.c_str(), "expected true or false");
      }
    }
  }
  for (const AppCommandEntry& entry : AppCommandTable()) {
    if (entry.saved == nullptr) continue;
    const std::string key(entry.language.name);
    if (const json* v = check.Get(key.c_str())) {
      // Held to what the console would take: the entry's own parse, words written back
      // canonical.
      Result<std::vector<std::string>> words =
          v->is_string() ? text::Tokenize(v->get<std::string>())
                         : Result<std::vector<std::string>>(MakeError("not a string"));
      Result<std::vector<std::string>> args =
          words.ok() ? entry.language.parse(words.value()) : MakeError(words.error());
      if (args.ok()) {
        std::string joined;
        for (const std::string& w : args.value()) joined += (joined.empty() ? "" : " ") + w;
        s.commands[key] = joined;
      } else {
        check.Ignore(key.c_str(),
                     "expected what '" + std::string(entry.language.usage) + "' takes");
      }
    }
  }
  s.spline = check.Word("spline", IsPath, "a path");
  s.script = check.Word("script", IsPath, "a path");
  s.clip = check.Word("clip", IsPath, "a path");
  CheckCamera(check, s);
  CheckWindow(check, s);
  if (!check.ignored.empty()) {
    std::string list;
    for (const std::string& f : check.ignored) list += (list.empty() ? "" : ", ") + f;
    read.problem = prefix + "ignored " + list + "; kept the rest";
  }
  return read;
}

static SettingsRead ReadWholeSettingsFile(const std::string& path) {
  std::error_code ec;
  if (!std::filesystem::exists(path, ec)) return {};
  // A FIFO or device would block the start or never end: only a regular file is read.
  if (!std::filesystem::is_regular_file(path, ec)) {
    // Never replaced either: the settings writer refuses what is not a regular file.
    SettingsRead read;
    read.problem = "settings: " + path + " is not a regular file; ignored it, using the defaults";
    return read;
  }
  const auto size = std::filesystem::file_size(path, ec);
  if (!ec && size > kMaxSettingsBytes) {
    return Unread("settings: " + path + " is larger than 1 MiB; ignored it, using the defaults");
  }
  std::ifstream in(path, std::ios::binary);
  std::string text;
  // In chunks, stopping past the limit: a file that grew (or a device) is still bounded, and
  // a file of a few kilobytes does not cost a buffer of the limit's size.
  std::array<char, 16 * 1024> chunk;
  while (in && text.size() <= kMaxSettingsBytes) {
    in.read(chunk.data(), static_cast<std::streamsize>(chunk.size()));
    text.append(chunk.data(), static_cast<std::size_t>(in.gcount()));
  }
  if (!in && !in.eof()) {
    return Unread("settings: cannot read " + path + "; ignored it, using the defaults");
  }
  return ParseSettings(text, path);
}

SettingsRead ReadSettingsFile(const std::string& path) {
  SettingsRead read = ReadWholeSettingsFile(path);
  // A file that was there but not used is never replaced by what this session saves: it is
  // kept as settings.json.bak first (io/file_write.h, WriteOptions::back_up).
  if (read.ignored_whole) {
    read.unread = io::IdentifyFile(path);
    if (read.unread) read.problem += " (it is kept as " + path + ".bak when settings are saved)";
  }
  return read;
}

std::string SettingsJson(const Settings& s) {
  json j = json::object();
  j["version"] = 1;
  if (s.scene) j["scene"] = *s.scene;
  if (s.mode) j["mode"] = *s.mode;
  if (s.length) j["length"] = *s.length;
  if (s.lengths) j["lengths"] = *s.lengths;
  if (s.moe) j["moe"] = *s.moe;
  if (s.max_iterations) j["max_iterations"] = *s.max_iterations;
  if (s.solver) j["solver"] = *s.solver;
  for (const auto& [name, on] : s.flags) j[name] = on;
  for (const auto& [name, words] : s.commands) j[name] = words;
  if (s.spline) j["spline"] = *s.spline;
  if (s.script) j["script"] = *s.script;
  if (s.clip) j["clip"] = *s.clip;
  if (s.camera) {
    j["camera"] = {{"pivot", {s.camera->pivot.x, s.camera->pivot.y, s.camera->pivot.z}},
                   {"yaw", s.camera->yaw},
                   {"pitch", s.camera->pitch},
                   {"distance", s.camera->distance}};
  }
  if (s.window_size || s.window_position) {
    json w = json::object();
    if (s.window_size) w["size"] = {s.window_size->x, s.window_size->y};
    if (s.window_position) w["position"] = {s.window_position->x, s.window_position->y};
    j["window"] = std::move(w);
  }
  // Non-finite floats cannot reach here (every field was checked or captured from a state
  // that holds none); "replace" keeps any invalid UTF-8 in a path from throwing.
  return j.dump(2, ' ', false, json::error_handler_t::replace) + "\n";
}

Status WriteSettingsFile(const std::string& path, const Settings& settings,
                         std::optional<io::FileId> keep) {
  namespace fs = std::filesystem;
  std::error_code ec;
  const fs::path target(path);
  if (target.has_parent_path()) fs::create_directories(target.parent_path(), ec);
  if (ec)
    return MakeError("settings: cannot create " + target.parent_path().string() + ": " +
                     ec.message());
  // Through a temporary file renamed over the target (a symlink is written through); the
  // file that could not be read is kept as a backup first.
  io::WriteOptions options;
  options.back_up = keep;
  const Status written = io::WriteFileAtomic(path, SettingsJson(settings), options);
  if (!written) return MakeError("settings: " + written.error());
  return Ok{};
}

}  // namespace fabrik
