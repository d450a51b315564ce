// The mocap scene in the shell: its entry in the scene list, its panel section
// (mocap_panel.cpp) and its look (mocap_look.h).
#include "app/scene_shell.h"
#include "scenes/mocap/mocap_look.h"

namespace fabrik {

void MocapPanel(const AppState& state, UiState& ui, CommandQueue& queue);  // mocap_panel.cpp

namespace {

void MocapDraw(SceneDrawer& drawer, const AppState& state, Renderer& renderer) {
  const MocapScene* scene = state.scene.As<MocapScene>();
  if (scene == nullptr) return;
  drawer.Own<MocapLook>().DrawMocap(state, *scene, renderer);
}

}  // namespace

SceneShell MocapShell() {
  return {.label = "mocap (a captured clip + full-body IK)",
          .solver_note = "FABRIK on legs, arms and neck over the clip",
          .panel = MocapPanel,
          .draw = MocapDraw};
}

}  // namespace fabrik
