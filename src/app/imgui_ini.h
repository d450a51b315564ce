// imgui_ini.h - the panel layout file (imgui.ini in the settings folder), read and written by
// the demo instead of by ImGui: ImGui's own writer truncates the file in place (a symlink's
// target is overwritten, a full disk leaves half a file) and reports nothing.
#pragma once

#include <string>

namespace fabrik {

// Reads `path` into ImGui's layout when it is a regular file of at most kMaxSettingsBytes.
// Returns whether the layout may be saved back there: false for a FIFO, device or folder,
// which is left alone (one line on stderr says so). A missing file is fine (true).
bool LoadImGuiIni(const std::string& path);

// Writes ImGui's current layout to `path` atomically, through a symlink to its target
// (io/file_write.h). Returns the error line, or "" when written.
std::string SaveImGuiIni(const std::string& path);

}  // namespace fabrik
