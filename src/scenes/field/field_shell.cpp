// The field in the shell: its panel section (the batched solve's readouts) and its look
// (field_draw.h).
#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <glm/geometric.hpp>

#include "app/panel_widgets.h"
#include "app/scene_palette.h"
#include "app/scene_shell.h"
#include "ik/batch_fabrik.h"
#include "scenes/field/field_draw.h"
#include "scenes/field/field_scene.h"

namespace fabrik {
namespace {

using namespace panel;

void FieldPanel(const AppState& state, UiState&, CommandQueue&) {
  const FieldScene* field = state.scene.As<FieldScene>();
  if (field == nullptr || field->chain_count() == 0) return;
  const BatchSolveResult& r = field->last();
  ImGui::Text("chains %zu x %zu joints", field->chain_count(), field->joint_count());
  ImGui::Text("field solve %.2f ms / frame (%s, all cores)", state.solve_us / 1000.0,
              BatchSimdTarget());
  const double share = field->reached_share();
  ImGui::TextColored(share >= 0.99 ? kGood : kWarn, "reached %.2f %% of %zu reachable",
                     share * 100.0, r.reachable_count);
  ImGui::TextColored(kDim, "lanes busy %.0f %%, iterations up to %d", r.lane_utilisation * 100.0,
                     r.max_iterations_run);
  ImGui::TextColored(kDim, "each chain leans to the target; pink: the two sampled chains");
}

void FieldDraw(SceneDrawer& drawer, const AppState& state, Renderer& renderer) {
  const FieldScene* field = state.scene.As<FieldScene>();
  if (field == nullptr || field->chain_count() == 0) {
    drawer.DrawChainScene(state, renderer, ChainLook{});
    return;
  }
  renderer.SetCamera(state.view.view, state.view.projection, state.view.camera.eye());
  DrawField(drawer, state, *field, renderer);
}

}  // namespace

// Refuses a field larger than it holds before any window opens (--chains x --joints).
static std::string CheckFieldOptions(const Options& o) {
  const int chains = static_cast<int>(o.scene_options.Number("--chains", kFieldDefaultChains));
  const int joints = FieldJointsGiven(o.given, o.joints, kFieldDefaultJoints);
  if (static_cast<long>(chains) * joints <= kFieldMaxTotalJoints) return "";
  return "--chains " + std::to_string(chains) + " x " + std::to_string(joints) +
         " joints is more than the field's " + std::to_string(kFieldMaxTotalJoints) + " joints";
}

SceneShell FieldShell() {
  return {.label = "field (many chains, batched)",
          .solver_note = "batched FABRIK (SIMD lanes on every core)",
          .panel = FieldPanel,
          .draw = FieldDraw,
          .check_options = CheckFieldOptions};
}

}  // namespace fabrik
