// The `screenshot` console command (docs/settings.md): the F12 key as
// a line, so scripts and --exec can take one too.
#include "core/app_state.h"
#include "core/command_table.h"
#include "core/screenshot.h"

namespace fabrik {
namespace {

using Args = std::span<const std::string>;

Result<std::vector<std::string>> ParseScreenshot(Args args) {
  if (!args.empty()) return MakeError("screenshot: takes no arguments (usage: screenshot)");
  return std::vector<std::string>{};
}

bool ApplyScreenshot(AppState& state, Args, CommandOutput&) {
  RequestScreenshot(state);  // the shell writes it at the end of this frame and reports
  return true;
}

constexpr std::string_view kScreenshotDetails[] = {
    "  As the F12 key: a PNG of the window (without the help overlay) in --screenshot-dir",
    "  (default: the working directory), named fabrik-YYYY-MM-DD-HHMMSS.png."};

const CommandEntry kCaptureEntries[] = {
    {{"screenshot",
      "screenshot",
      "save a PNG of the window (as F12)",
      kScreenshotDetails,
      ParseScreenshot,
      {}},
     ApplyScreenshot,
     nullptr,
     nullptr,
     nullptr,
     EveryLineAWholeFrame},
};

}  // namespace

std::span<const CommandEntry> CaptureCommandEntries() { return kCaptureEntries; }

}  // namespace fabrik
