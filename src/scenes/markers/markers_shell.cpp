// The markers scene in the shell: its entry in the scene list, its panel section
// (markers_panel.cpp) and its drawing (markers_draw.cpp).
#include "app/scene_shell.h"
#include "scenes/markers/markers_draw.h"

namespace fabrik {

void MarkersPanel(const AppState& state, UiState& ui, CommandQueue& queue);  // markers_panel.cpp

SceneShell MarkersShell() {
  return {.label = "markers (optical markers to a skeleton)",
          .solver_note = "FABRIK tree fitted to the markers' joint centres",
          .panel = MarkersPanel,
          .draw = DrawMarkersScene};
}

}  // namespace fabrik
