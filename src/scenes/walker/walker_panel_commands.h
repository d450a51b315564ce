// walker_panel_commands.h - what the walker scene's panel sends
// (scenes/walker/walker_shell.cpp) as a typed app command; the frame's apply step
// (core/apply.cpp) hands it to ApplyPanelCommand below, which passes it to
// WalkerScene::SetDebug and ignores it in any other scene. They travel as app::ScenePanelEdit
// (core/app_command.h).
#pragma once

namespace fabrik {
struct AppState;
}  // namespace fabrik

namespace fabrik::app {

// The walker's debug views: the pre-solve ghosts on or off, and the leg (0-based) whose solve
// the step view records; -1, or a leg the walker does not have, records none.
struct WalkerView {
  bool pre_solve = false;
  int step_leg = -1;
};

// Applied at the frame's apply step only (walker_panel_commands.cpp): changes the scene when
// it is the current one, as each struct above says; ignored in any other scene.
void ApplyPanelCommand(AppState& state, const WalkerView& command);

}  // namespace fabrik::app
