// The walker in the shell: its panel section (readouts and debug views, docs/walker.md: The walker
// scene) and its look (walker_draw.h: terrain, body, legs).
#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <glm/geometric.hpp>

#include "app/panel_widgets.h"
#include "app/scene_palette.h"
#include "app/scene_shell.h"
#include "scenes/walker/walker_draw.h"
#include "scenes/walker/walker_panel_commands.h"
#include "scenes/walker/walker_scene.h"

namespace fabrik {
namespace {

using namespace panel;

// The body: the procedural spider or the packaged quadruped (or the model loaded with
// `walker model PATH`), with the model's cycle and its cost a frame.
void ModelPicker(const WalkerScene& scene, CommandQueue& queue) {
  const std::string current =
      scene.quadruped ? std::filesystem::path(scene.model_path).filename().string() : "procedural";
  if (ImGui::BeginCombo("body", current.c_str())) {
    if (ImGui::Selectable("procedural", !scene.quadruped)) {
      SendCommand(queue, "walker", {"model", "procedural"});
    }
    const std::string packaged = std::filesystem::path(kPackagedQuadrupedPath).filename().string();
    if (ImGui::Selectable(packaged.c_str(), current == packaged)) {
      SendCommand(queue, "walker", {"model", kPackagedQuadrupedPath});
    }
    ImGui::EndCombo();
  }
  if (!scene.quadruped) return;
  const character::QuadrupedWalker& q = *scene.quadruped;
  ImGui::TextColored(kDim, "%d bones, %zu vertices; %s at %.2fx; IK %.1f us, skin %.1f us",
                     q.model().skeleton.bone_count(), q.model().vertices.size(),
                     q.running() ? "run" : "walk", q.playback_rate(), scene.ik_us, scene.skin_us);
}

// The walker's readouts and debug views (docs/walker.md: The walker scene).
void WalkerPanel(const AppState& state, UiState&, CommandQueue& queue) {
  const WalkerScene* walker = state.scene.As<WalkerScene>();
  if (walker == nullptr || !walker->active()) return;
  const WalkerScene& scene = *walker;
  const Walker& w = *scene.active();
  ModelPicker(scene, queue);
  int planted = 0;
  for (const WalkerLegState& leg : w.legs()) planted += leg.planted ? 1 : 0;
  ImGui::TextColored(w.arrived() ? kGood : kWarn, "%s",
                     w.arrived() ? "standing at the goal" : "walking to the goal");
  ImGui::Text("feet planted %d / %d   steps %lld", planted, static_cast<int>(w.legs().size()),
              static_cast<long long>(w.foot_steps()));
  ImGui::TextColored(kDim, "terrain %s  %.0f x %.0f, %.1f high",
                     state.terrain.path.empty() ? "(flat)" : state.terrain.path.c_str(),
                     state.terrain.size, state.terrain.size, state.terrain.height);
  app::WalkerView view{scene.show_pre_solve, scene.step_leg};
  bool changed =
      ImGui::Checkbox("legs before their solve (ghosts, poles, swings)", &view.pre_solve);
  const char* legs[] = {"none", "leg 0", "leg 1", "leg 2", "leg 3", "leg 4", "leg 5"};
  int choice = view.step_leg + 1;
  const int count = std::min(scene.leg_count() + 1, 7);
  if (ImGui::Combo("step view leg", &choice, legs, count)) {
    view.step_leg = choice - 1;
    changed = true;
  }
  if (changed) queue.Push(view);
  ImGui::TextColored(kDim, "Drag on the hills, or type 'target X Y Z': it walks there.");
}

void WalkerDraw(SceneDrawer& drawer, const AppState& state, Renderer& renderer) {
  const WalkerScene* walker = state.scene.As<WalkerScene>();
  if (walker == nullptr || !walker->active()) {
    drawer.DrawChainScene(state, renderer, ChainLook{});
    return;
  }
  drawer.Own<WalkerDrawer>().Draw(state, *walker, renderer);
}

}  // namespace

SceneShell WalkerShell() {
  return {.label = "walker (4 legs on hills)",
          .solver_note = "FABRIK on each leg",
          .panel = WalkerPanel,
          .draw = WalkerDraw};
}

}  // namespace fabrik
