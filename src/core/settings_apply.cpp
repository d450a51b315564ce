// From the state to saved settings and back (docs/settings.md).
// Restoring goes through commands, so a saved value meets the same checks as a typed one and
// a file that no longer loads (a moved spline) gives the command's own error line.
#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <glm/common.hpp>

#include "core/app_state.h"
#include "core/command_table.h"
#include "core/settings.h"

namespace fabrik {
namespace {

std::string Real(float v) {
  char buf[32];
  std::snprintf(buf, sizeof(buf), "%.9g", static_cast<double>(v));  // reads back the same float
  return buf;
}

// A relative path that names a file from the working directory is saved absolute, so the
// next start finds it from any folder; other paths (found under the data folder) as written.
std::string SavedPath(const std::string& path) {
  namespace fs = std::filesystem;
  std::error_code ec;
  const fs::path p(path);
  if (p.is_relative() && fs::is_regular_file(p, ec)) {
    const fs::path absolute = fs::absolute(p, ec);
    if (!ec) return absolute.lexically_normal().string();
  }
  return path;
}

bool Given(std::span<const std::string> given, std::string_view name) {
  return std::find(given.begin(), given.end(), name) != given.end();
}

// Settings paths never hold '"' or control characters (settings.h), so quoting is enough.
std::string QuotedAfter(const char* words, const std::string& path) {
  std::string out = words;
  out += " \"";
  out += path;
  out += '"';
  return out;
}

}  // namespace

Settings CaptureSettings(const AppState& state, std::optional<glm::ivec2> window_size,
                         std::optional<glm::ivec2> window_position) {
  Settings s;
  s.scene = std::string(state.scene.name());
  s.mode = std::string(ModeName(state.mode));
  s.length = state.uniform_length;
  // The chain scene's lengths, also while another scene has its own chain.
  const std::vector<float>& lengths = state.scene.free_chain() || state.scene.chain_lengths.empty()
                                          ? state.lengths
                                          : state.scene.chain_lengths;
  if (!lengths.empty()) s.lengths = lengths;
  s.moe = state.settings.tolerance;
  s.max_iterations = state.settings.max_iterations;
  s.solver = SolverName(state.solver);
  for (const FlagEntry& flag : FlagTable()) {
    if (flag.saved) s.flags[std::string(flag.name)] = FlagValue(state, flag);
  }
  for (const AppCommandEntry& entry : AppCommandTable()) {
    if (entry.saved == nullptr) continue;
    std::string words = entry.saved(state);
    if (!words.empty()) s.commands[std::string(entry.language.name)] = std::move(words);
  }
  if (state.spline.follower.has_spline() && !state.spline.path.empty()) {
    s.spline = SavedPath(state.spline.path);
  }
  if (state.script.player.has_script() && !state.script.path.empty()) {
    s.script = SavedPath(state.script.path);
  }
  if (state.mocap.clip_path != kDefaultClipPath) s.clip = SavedPath(state.mocap.clip_path);
  const OrbitCamera& camera = state.view.camera;
  s.camera = SavedCamera{camera.pivot(), camera.yaw(), camera.pitch(), camera.distance()};
  // Never saved as what the next start would refuse (docs/limits.md): the size within the
  // --size range, the position within the range the reader takes.
  if (window_size) {
    s.window_size = glm::clamp(*window_size, kMinWindowSize, kMaxWindowSize);
  }
  if (window_position) {
    s.window_position = glm::clamp(*window_position, glm::ivec2(-100000), glm::ivec2(100000));
  }
  return s;
}

void DropOverridden(Settings& s, std::span<const std::string> given) {
  // --bvh starts the mocap scene with its clip, as --scene would.
  if (Given(given, "--scene") || Given(given, "--bvh")) {
    s.scene.reset();
    s.camera.reset();  // it looked at the saved scene
  }
  if (Given(given, "--bvh")) s.clip.reset();
  if (Given(given, "--joints") || Given(given, "--length") || Given(given, "--lengths")) {
    s.length.reset();
    s.lengths.reset();
  }
  if (Given(given, "--moe")) s.moe.reset();
  if (Given(given, "--max-iterations")) s.max_iterations.reset();
  if (Given(given, "--solver")) s.solver.reset();
  // A spline or script on the command line sets the mode: the saved mode and files would
  // take it back.
  if (Given(given, "--spline") || Given(given, "--script") || Given(given, "--mode")) {
    s.mode.reset();
    s.spline.reset();
    s.script.reset();
  }
  if (Given(given, "--size")) s.window_size.reset();
}

std::vector<AppCommand> SettingsCommands(const Settings& s) {
  std::vector<AppCommand> out;
  auto line = [&](std::string text) { out.emplace_back(app::Line{std::move(text)}); };
  if (s.length) line("length " + Real(*s.length));
  if (s.lengths) {
    std::string text = "lengths";
    for (float v : *s.lengths) {
      text += ' ';
      text += Real(v);
    }
    line(std::move(text));
  }
  if (s.solver) line("solver " + *s.solver);
  for (const auto& [name, on] : s.flags) line(name + (on ? " on" : " off"));
  for (const auto& [name, words] : s.commands) line(name + " " + words);
  if (s.moe) line("moe " + Real(*s.moe));
  if (s.max_iterations) line("iterations " + std::to_string(*s.max_iterations));
  if (s.spline) line(QuotedAfter("spline load", *s.spline));
  if (s.script) {
    line(QuotedAfter("script run", *s.script));
    // Loaded for the panel's picker, but only running when it was the saved mode.
    if (s.mode && *s.mode != "script") line("script stop");
  }
  // The clip only matters to the scenes that play it; `mocap load` switches to the mocap
  // scene, and the scene line after it picks the saved one.
  if (s.clip && s.scene && (*s.scene == "mocap" || *s.scene == "crowd")) {
    line(QuotedAfter("mocap load", *s.clip));
  }
  if (s.scene) line("scene " + *s.scene);
  if (s.mode) line("mode " + *s.mode);
  // Never running on its own: a saved script may end in `quit`, which would end every later
  // start. In script mode it waits, paused, for `script play` (after the mode line, which
  // plays it).
  if (s.script && (!s.mode || *s.mode == "script")) line("script pause");
  if (s.camera) {
    out.emplace_back(
        app::CameraPose{s.camera->pivot, s.camera->yaw, s.camera->pitch, s.camera->distance});
  }
  return out;
}

}  // namespace fabrik
