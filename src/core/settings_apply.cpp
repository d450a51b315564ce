// From the state to saved settings and back (docs/settings.md).
// Restoring goes through commands, so a saved value meets the same checks as a typed one and
// a file that no longer loads (a moved spline) gives the command's own error line. What each
// command saves, and how, is its entry's (core/saved_setting.h); this file only loops over
// the table.
#include <algorithm>
#include <glm/common.hpp>

#include "core/app_state.h"
#include "core/settings.h"

namespace fabrik {
namespace {

bool Given(std::span<const std::string> given, std::string_view name) {
  return std::find(given.begin(), given.end(), name) != given.end();
}

}  // namespace

Settings CaptureSettings(const AppState& state, std::optional<glm::ivec2> window_size,
                         std::optional<glm::ivec2> window_position) {
  Settings s;
  for (const SettingRow& row : SettingsTable()) {
    nlohmann::json value = row.capture(state);
    if (!value.is_null()) s.values[row.key] = std::move(value);
  }
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
  for (const SettingRow& row : SettingsTable()) {
    for (const std::string_view option : row.overridden_by) {
      if (Given(given, option)) s.values.erase(row.key);
    }
  }
  // The camera looked at the saved scene; --bvh and --markers start a scene, as --scene would.
  if (Given(given, "--scene") || Given(given, "--bvh") || Given(given, "--markers")) {
    s.camera.reset();
  }
  if (Given(given, "--size")) s.window_size.reset();
}

std::vector<AppCommand> SettingsCommands(const Settings& s) {
  RestoreLines lines;
  for (const SettingRow& row : SettingsTable()) {
    const auto it = s.values.find(row.key);
    if (it != s.values.end()) row.restore(it->second, s.values, lines);
  }
  std::vector<AppCommand> out;
  for (std::vector<std::string>* part : {&lines.now, &lines.last}) {
    for (std::string& text : *part) out.emplace_back(app::Line{std::move(text)});
  }
  if (s.camera) {
    out.emplace_back(
        app::CameraPose{s.camera->pivot, s.camera->yaw, s.camera->pitch, s.camera->distance});
  }
  return out;
}

}  // namespace fabrik
