#include "core/screenshot.h"

#include <filesystem>

#include "core/app_state.h"
#include "core/execute.h"
#include "core/frame.h"

namespace fabrik {

std::string ScreenshotPath(const std::string& folder, std::time_t when) {
  std::tm local{};
  localtime_r(&when, &local);
  char stamp[64];
  std::strftime(stamp, sizeof(stamp), "fabrik-%Y-%m-%d-%H%M%S", &local);
  // Absolute, so the console line says where the file is whatever the working directory.
  std::error_code ec;
  std::filesystem::path dir = std::filesystem::absolute(folder.empty() ? "." : folder, ec);
  if (ec) dir = folder.empty() ? "." : folder;
  const std::string base = (dir.lexically_normal() / stamp).string();
  std::string path = base + ".png";
  for (int n = 2; n <= 999 && std::filesystem::exists(path, ec); ++n) {
    path = base + "-" + std::to_string(n) + ".png";
  }
  return path;
}

void RequestScreenshot(AppState& state) {
  if (!state.screenshot_pending.empty()) return;
  state.screenshot_pending = ScreenshotPath(state.screenshot_dir, std::time(nullptr));
}

bool FinishScreenshot(AppState& state, const app::ScreenshotDone& done) {
  state.screenshot_pending.clear();
  if (!done.error.empty()) {
    ConsolePrint(state, "screenshot: " + done.error, ConsoleLine::Kind::kError);
    SetMessage(state, "screenshot: " + done.error, true);
    return false;
  }
  state.last_screenshot = done.path;
  ConsolePrint(state, "screenshot: " + done.path);
  SetMessage(state, "screenshot saved to " + done.path, false);
  return true;
}

}  // namespace fabrik
