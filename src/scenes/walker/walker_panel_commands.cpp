// The walker panel's command, applied at the frame's apply step (core/apply.cpp).
#include "scenes/walker/walker_panel_commands.h"

#include "core/app_state.h"
#include "scenes/walker/walker_scene.h"

namespace fabrik::app {

void ApplyPanelCommand(AppState& state, const WalkerView& c) {
  if (WalkerScene* walker = state.scene.As<WalkerScene>())
    walker->SetDebug(c.pre_solve, c.step_leg);
}

}  // namespace fabrik::app
