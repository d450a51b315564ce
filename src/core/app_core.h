// app_core.h - the app's state behind one door, for the shell (src/app). The shell reads the
// state and changes it only by running whole frames and applying commands through this class:
// it never holds a mutable AppState&, so the core's state-changing functions (every function
// taking an AppState&: frame.h's steps, SetScene, SetStepView, the scenes' Enter and Solve,
// ...) cannot be called from it. The compiler enforces it; the tests (tests/app_core) drive the
// AppState directly.
#pragma once

#include <memory>
#include <utility>

#include "core/frame.h"
#include "core/scene_registry.h"

namespace fabrik {

class AppCore {
 public:
  // `state` from StartApp (core/startup.h); never null.
  explicit AppCore(std::unique_ptr<AppState> state) : state_(std::move(state)) {}

  const AppState& state() const { return *state_; }
  // One whole frame in the frame order (SimulateFrame, core/frame.h).
  void Frame(CommandQueue& queue, float real_dt, FrameShell& shell) {
    SimulateFrame(*state_, queue, real_dt, &shell);
  }
  // One command now, outside a frame (the window's first viewport, before the first frame).
  // Returns false when it was refused (ApplyCommand).
  bool Apply(const AppCommand& command, CommandSource source) {
    return ApplyCommand(*state_, command, source);
  }
  // The current scene's export to `path`, headless (--export; ExportScene in
  // core/scene_registry.h): the line to print, or one error line.
  Result<std::string> Export(const std::string& path) { return ExportScene(*state_, path); }

 private:
  std::unique_ptr<AppState> state_;
};

}  // namespace fabrik
