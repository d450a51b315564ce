// settings.h - the demo's saved settings (docs/settings.md): read and
// checked from `settings.json` in the settings folder, turned into commands applied at start
// (before --exec lines, through the same ApplyCommand as everything else), and captured from
// the state and written back on exit. No GL: tests/app_core drives all of it.
//
// The file is one JSON object; every key is optional and unknown keys are ignored:
//   {"version": 1, "scene": "arm", "mode": "spline", "length": 1.0, "lengths": [1, 1, 0.5],
//    "moe": 0.01, "max_iterations": 10, "solver": "fabrik", "accelerate": true,
//    "spline": "assets/splines/loop.txt", "script": "assets/scripts/tour.txt",
//    "camera": {"pivot": [0, 2, 0], "yaw": 0.35, "pitch": 0.35, "distance": 14},
//    "window": {"size": [1280, 800], "position": [40, 30]}}
#pragma once

#include <glm/vec2.hpp>
#include <glm/vec3.hpp>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "core/app_command.h"
#include "core/saved_setting.h"
#include "core/startup.h"
#include "core/window_limits.h"
#include "ik/result.h"
#include "io/file_write.h"

namespace fabrik {

struct AppState;

// Files larger than this are not read (a settings file is a few kilobytes; 9999 lengths
// take about 200 kB).
inline constexpr std::size_t kMaxSettingsBytes = 1u << 20;

struct SavedCamera {
  glm::vec3 pivot{0.0f};  // world units, each |coordinate| <= OrbitCamera::kMaxPivot
  float yaw = 0.0f;       // radians, finite
  float pitch = 0.0f;     // radians, |pitch| <= OrbitCamera::kMaxPitch
  float distance = 1.0f;  // [OrbitCamera::kMinDistance, OrbitCamera::kMaxDistance]
};

// Every field is checked when read: a field that is present holds a value in range.
struct Settings {
  // The commands' saved values by key (scene, mode, length, lengths, moe, max_iterations,
  // solver, accelerate, soften, spline, script, clip, ...): each one checked by the saved
  // setting of its command's entry (SettingsTable(), core/saved_setting.h); a key that is
  // absent was not in the file or had nothing to save.
  SettingValues values;
  // The settings file's own entries, which are not commands.
  std::optional<SavedCamera> camera;
  std::optional<glm::ivec2> window_size;      // screen coordinates, core/window_limits.h
  std::optional<glm::ivec2> window_position;  // screen coordinates, |x|, |y| <= 100000

  // The value under `key` as a T (float, int, bool, std::string, std::vector<float>), or
  // nullopt when absent. The value must be a T (what the key's check keeps).
  template <class T>
  std::optional<T> Get(std::string_view key) const {
    const auto it = values.find(key);
    if (it == values.end()) return std::nullopt;
    return it->second.get<T>();
  }
  // Sets the value under `key`, unchecked (tests build settings by hand with it).
  void Set(std::string_view key, nlohmann::json value) {
    values[std::string(key)] = std::move(value);
  }
};

// The settings folder: $XDG_CONFIG_HOME/fabrik-demo when that is an absolute path, else
// $HOME/.config/fabrik-demo when $HOME is an existing folder; nullopt when neither helps
// (then nothing is read or saved, and no folder is created).
std::optional<std::string> SettingsFolder();
// Why SettingsFolder() found none, as one line for the console ("" when no variable was set,
// which is not a problem).
std::string NoSettingsFolderReason();

// What reading a settings file gave: the fields that passed their checks, and at most one
// line saying what was ignored ("" when nothing was). A missing file is not a problem.
// A file that is not a regular file or cannot be read, is larger than kMaxSettingsBytes, is not
// valid JSON, is nested deeper than a settings file is, or is not an object is ignored whole;
// otherwise each field of the wrong type or out of range is ignored alone and the others are kept.
// A file ignored whole is never replaced by a later save: `unread` identifies it, and the
// save renames it to settings.json.bak first (the problem line says so).
struct SettingsRead {
  Settings settings;
  std::string problem;
  bool ignored_whole = false;
  std::optional<io::FileId> unread;
};
SettingsRead ReadSettingsFile(const std::string& path);
SettingsRead ParseSettings(std::string_view text, const std::string& name);

// The settings as the file's JSON text (two-space indent, ending in a newline).
std::string SettingsJson(const Settings& settings);
// Writes the file (through a temporary file renamed over it, so a crash never leaves half a
// file; a symlink is written through), creating its folder. When the file there is still
// `keep`, it is renamed to PATH.bak first. Fails with one line naming the path and the
// reason, and leaves the file as it was.
Status WriteSettingsFile(const std::string& path, const Settings& settings,
                         std::optional<io::FileId> keep = std::nullopt);

// The settings the state holds now; the window's size and position come from the shell.
Settings CaptureSettings(const AppState& state, std::optional<glm::ivec2> window_size,
                         std::optional<glm::ivec2> window_position);

// Removes the fields that the given command-line options set (docs/settings.md: Settings, help and
// screenshots): each saved setting's `overridden_by` (--moe drops moe, --scene scene, ...);
// --scene and --bvh also drop the camera, --size the window size. `given` holds option
// names ("--scene").
void DropOverridden(Settings& settings, std::span<const std::string> given);

// The commands that restore `settings`, in the order they must be applied: each saved
// setting's lines in RestoreOrder (length, lengths, solver, the saved flags, the saved app
// commands, moe, iterations, spline, script, the mocap clip, scene, mode), then their `last`
// lines (`script pause` for a restored script in script mode: a saved script never runs on its
// own, it may end in `quit`), then the camera. Console lines (app::Line), so they are checked
// as typed lines; the camera as app::CameraPose.
std::vector<AppCommand> SettingsCommands(const Settings& settings);

// The start-up's use of the settings folder. With `enabled` false (--no-settings) nothing is
// read and `file` stays empty, so nothing is written either. Otherwise reads
// SettingsFolder()/settings.json, drops what the options in `given` override, and fills
// start.saved and start.settings_problem; the window's saved size and place are returned
// for the shell.
struct SettingsSession {
  std::optional<std::string> folder;  // where imgui.ini and settings.json live
  std::optional<std::string> file;    // settings.json, or empty: do not save
  std::optional<io::FileId> unread;   // the file there at start, ignored whole: kept as .bak
  std::optional<glm::ivec2> window_size;
  std::optional<glm::ivec2> window_position;
};
SettingsSession LoadStartSettings(bool enabled, std::span<const std::string> given,
                                  StartOptions& start);
// Writes the state's settings to session.file (nothing when it is empty). Returns the
// error line, or "" when written or nothing was to be written.
std::string SaveSettings(const SettingsSession& session, const AppState& state,
                         std::optional<glm::ivec2> window_size,
                         std::optional<glm::ivec2> window_position);

// Saving while the app runs, so that a crash or a kill loses at most one period of changes.
// Each frame, Due(now) with the wall clock (seconds, any origin): true once a period (the
// first call starts the clock). When it is, Save captures the settings and writes
// session.file if their text differs from what this autosave last wrote: nothing is written
// while nothing changes, and nothing at all without a file. Save returns an error line the
// first time a write fails and again only after a write has succeeded; "" otherwise.
class SettingsAutosave {
 public:
  explicit SettingsAutosave(double period_seconds = 2.0) : period_(period_seconds) {}
  bool Due(double now_seconds);
  std::string Save(const SettingsSession& session, const AppState& state,
                   std::optional<glm::ivec2> window_size,
                   std::optional<glm::ivec2> window_position);

 private:
  double period_;
  std::optional<double> next_;
  std::string written_;   // the text last written
  bool failing_ = false;  // the last write failed (its error was returned)
};

}  // namespace fabrik
