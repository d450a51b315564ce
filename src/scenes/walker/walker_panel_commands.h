// walker_panel_commands.h - what the walker scene's panel sends
// (scenes/walker/walker_shell.cpp) as a typed app command; the frame's apply step
// (core/apply.cpp) passes it to WalkerScene::SetDebug and ignores it in any other scene.
// Listed in AppCommand (core/app_command.h).
#pragma once

namespace fabrik::app {

// The walker's debug views: the pre-solve ghosts on or off, and the leg (0-based) whose solve
// the step view records; -1, or a leg the walker does not have, records none.
struct WalkerView {
  bool pre_solve = false;
  int step_leg = -1;
};

}  // namespace fabrik::app
