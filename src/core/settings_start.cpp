// The settings folder at start and exit (docs/settings.md).
#include <cmath>

#include "core/settings.h"

namespace fabrik {

SettingsSession LoadStartSettings(bool enabled, std::span<const std::string> given,
                                  StartOptions& start) {
  SettingsSession session;
  if (!enabled) return session;  // --no-settings
  session.folder = SettingsFolder();
  if (!session.folder) {
    start.settings_problem = NoSettingsFolderReason();
    return session;
  }
  session.file = *session.folder + "/settings.json";
  SettingsRead read = ReadSettingsFile(*session.file);
  DropOverridden(read.settings, given);
  session.window_size = read.settings.window_size;
  session.window_position = read.settings.window_position;
  start.saved = SettingsCommands(read.settings);
  start.settings_problem = std::move(read.problem);
  session.unread = read.unread;
  return session;
}

std::string SaveSettings(const SettingsSession& session, const AppState& state,
                         std::optional<glm::ivec2> window_size,
                         std::optional<glm::ivec2> window_position) {
  if (!session.file) return {};
  const Status written = WriteSettingsFile(
      *session.file, CaptureSettings(state, window_size, window_position), session.unread);
  return written ? std::string() : written.error();
}

bool SettingsAutosave::Due(double now_seconds) {
  if (!std::isfinite(now_seconds)) return false;
  if (!next_) next_ = now_seconds + period_;
  if (now_seconds < *next_) return false;
  next_ = now_seconds + period_;
  return true;
}

std::string SettingsAutosave::Save(const SettingsSession& session, const AppState& state,
                                   std::optional<glm::ivec2> window_size,
                                   std::optional<glm::ivec2> window_position) {
  if (!session.file) return {};
  const Settings settings = CaptureSettings(state, window_size, window_position);
  std::string text = SettingsJson(settings);
  if (text == written_) return {};
  const Status status = WriteSettingsFile(*session.file, settings, session.unread);
  if (!status) {
    const bool first = !failing_;
    failing_ = true;
    return first ? status.error() : std::string();
  }
  failing_ = false;
  written_ = std::move(text);
  return {};
}

}  // namespace fabrik
