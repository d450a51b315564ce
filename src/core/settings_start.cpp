// The settings folder at start and exit (README "Settings, help and screenshots").
#include "core/settings.h"

namespace fabrik {

SettingsSession LoadStartSettings(bool enabled, std::span<const std::string> given,
                                  StartOptions& start) {
  SettingsSession session;
  if (!enabled) return session;  // --no-settings
  session.folder = SettingsFolder();
  if (!session.folder) return session;
  session.file = *session.folder + "/settings.json";
  SettingsRead read = ReadSettingsFile(*session.file);
  DropOverridden(read.settings, given);
  session.window_size = read.settings.window_size;
  session.window_position = read.settings.window_position;
  start.saved = SettingsCommands(read.settings);
  start.settings_problem = std::move(read.problem);
  return session;
}

std::string SaveSettings(const SettingsSession& session, const AppState& state,
                         std::optional<glm::ivec2> window_size,
                         std::optional<glm::ivec2> window_position) {
  if (!session.file) return {};
  const Status written =
      WriteSettingsFile(*session.file, CaptureSettings(state, window_size, window_position));
  return written ? std::string() : written.error();
}

}  // namespace fabrik
