// screenshot.h - the screenshot key's file names and its two steps in the core
// (docs/settings.md: Screenshots). F12 (or `screenshot`) asks; the apply step picks the
// file name; the shell writes the PNG at the end of that frame, without the help overlay, and
// reports back with app::ScreenshotDone, which sets `last_screenshot` and prints the path.
#pragma once

#include <ctime>
#include <string>

#include "core/app_command.h"

namespace fabrik {

struct AppState;

// `folder` (made absolute)/fabrik-YYYY-MM-DD-HHMMSS.png for the local time `when`; when that file
// exists already (two shots within a second), -2, -3, ... is added before .png, up to -999, after
// which the last name is returned (and overwritten).
std::string ScreenshotPath(const std::string& folder, std::time_t when);

// Sets state.screenshot_pending to a fresh path in state.screenshot_dir, unless a shot is
// pending already this frame.
void RequestScreenshot(AppState& state);
// The shell's report: sets last_screenshot and prints "screenshot: PATH", or prints the error.
// Clears the pending shot either way. Returns false on an error.
bool FinishScreenshot(AppState& state, const app::ScreenshotDone& done);

}  // namespace fabrik
