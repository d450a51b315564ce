// The crowd scene in the shell: its entry in the scene list, its panel section (size and
// timings) and its look (scenes/mocap/mocap_look.h).
#include <imgui.h>

#include <algorithm>
#include <string>

#include "app/panel_widgets.h"
#include "app/scene_shell.h"
#include "scenes/mocap/mocap_look.h"
#include "scenes/mocap/mocap_panel.h"

namespace fabrik {
namespace {

void CrowdPanel(const AppState& state, UiState&, CommandQueue& queue) {
  const CrowdScene* scene = state.scene.As<CrowdScene>();
  if (scene == nullptr) return;
  const mocap::Crowd& crowd = scene->crowd();
  const mocap::CrowdTiming& t = crowd.last_timing();
  ImGui::Text("%d characters, %d clip(s)", static_cast<int>(crowd.size()),
              static_cast<int>(scene->clips().size()));
  ImGui::Text("IK %.2f ms (batched leg solve %.2f ms)", t.ik_seconds * 1e3, t.solve_seconds * 1e3);
  ImGui::Text("sampling %.2f ms, whole update %.2f ms", t.sample_seconds * 1e3,
              t.frame_seconds * 1e3);
  // The count being typed lives in ImGui's storage until it is sent.
  int& wanted = *ImGui::GetStateStorage()->GetIntRef(
      ImGui::GetID("crowd characters"), state.scene.configs.Get<MocapConfig>().characters);
  ImGui::SetNextItemWidth(160.0f);
  ImGui::InputInt("##characters", &wanted, 50, 500);
  wanted = std::clamp(wanted, 1, kMaxCharacters);
  ImGui::SameLine();
  if (ImGui::Button("set characters")) {
    queue.Push(Command(cmd::Extension{"characters", {std::to_string(wanted)}}),
               CommandSource::kQuiet);
  }
  ImGui::TextColored(panel::kDim, "Draws the %d nearest the camera's pivot.", scene->drawn_cap());
  BodyCombo(scene->skin(), queue);
  if (scene->skin() != nullptr) {
    ImGui::TextColored(panel::kDim, "%d skinned: retarget %.2f, skin %.2f ms",
                       static_cast<int>(scene->skinned().size()), scene->retarget_us() * 1e-3,
                       scene->skin_us() * 1e-3);
  }
}

void CrowdDraw(SceneDrawer& drawer, const AppState& state, Renderer& renderer) {
  const CrowdScene* scene = state.scene.As<CrowdScene>();
  if (scene == nullptr) return;
  drawer.Own<MocapLook>().DrawCrowd(state, *scene, renderer);
}

}  // namespace

SceneShell CrowdShell() {
  return {"crowd (many clips, batched legs)", "batched FABRIK on every leg", CrowdPanel, CrowdDraw};
}

}  // namespace fabrik
