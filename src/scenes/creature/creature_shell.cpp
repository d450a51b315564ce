// The creature in the shell: its panel section (the effector table) and its look (the tree,
// every effector's target, no single reach shell).
#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <glm/geometric.hpp>

#include "app/panel_widgets.h"
#include "app/scene_palette.h"
#include "app/scene_shell.h"
#include "scenes/creature/creature_draw.h"
#include "scenes/creature/creature_panel_commands.h"
#include "scenes/creature/creature_scene.h"

namespace fabrik {
namespace {

using namespace panel;
using namespace draw;  // the palette

// A readable name for a creature effector, from where it sits on the rest pose.
const char* EffectorLabel(const Tree& tree, int node) {
  const glm::vec3 p = tree.positions()[static_cast<std::size_t>(node)];
  const glm::vec3 root = tree.root();
  const float side = p.x - root.x;
  const float scale = tree.total_length() / 16.0f;
  if (p.y < root.y - scale) return side < 0.0f ? "left foot" : "right foot";
  if (std::fabs(side) < scale) return "head";
  return side < 0.0f ? "left hand" : "right hand";
}

void CreaturePanel(const AppState& state, UiState&, CommandQueue& queue) {
  const CreatureScene* creature = state.scene.As<CreatureScene>();
  if (creature == nullptr || !creature->tree) return;
  const CreatureScene& c = *creature;
  if (ImGui::BeginTable("effectors", 4, ImGuiTableFlags_SizingStretchProp)) {
    ImGui::TableSetupColumn("effector");
    ImGui::TableSetupColumn("driven");
    ImGui::TableSetupColumn("distance");
    ImGui::TableSetupColumn("weight");
    ImGui::TableHeadersRow();
    for (std::size_t k = 0; k < c.targets.size(); ++k) {
      ImGui::PushID(static_cast<int>(k));
      ImGui::TableNextRow();
      ImGui::TableSetColumnIndex(0);
      ImGui::Text("%s", EffectorLabel(*c.tree, c.targets[k].node));
      ImGui::TableSetColumnIndex(1);
      if (ImGui::RadioButton("##primary", c.primary == static_cast<int>(k))) {
        queue.Push(app::CreaturePrimary{static_cast<int>(k)});
      }
      ImGui::TableSetColumnIndex(2);
      ImGui::TextColored(c.distances[k] <= state.settings.tolerance ? kGood : kWarn, "%.4g",
                         c.distances[k]);
      ImGui::TableSetColumnIndex(3);
      ImGui::SetNextItemWidth(-1);
      float weight = c.targets[k].weight;
      if (ImGui::SliderFloat("##w", &weight, 0.0f, 5.0f, "%.1f")) {
        queue.Push(app::EffectorWeight{static_cast<int>(k), weight});
      }
      ImGui::PopID();
    }
    ImGui::EndTable();
  }
  ImGui::TextColored(kDim, "'driven': the effector the modes move. Drag any effector or target.");
  if (c.last.limited) ImGui::TextColored(kWarn, "the limits hold the creature back");
}

void CreatureDraw(SceneDrawer& drawer, const AppState& state, Renderer& renderer) {
  const CreatureScene* creature = state.scene.As<CreatureScene>();
  if (creature == nullptr || !creature->tree) {
    drawer.DrawChainScene(state, renderer, ChainLook{});
    return;
  }
  const CreatureScene& c = *creature;
  ChainLook look;
  look.body = [](SceneDrawer& d, const AppState& s, Renderer& r, float base) {
    DrawCreatureTree(d, *s.scene.As<CreatureScene>(), r, base);
  };
  look.effector = c.tree->positions()[static_cast<std::size_t>(
      c.targets[static_cast<std::size_t>(c.primary)].node)];
  // Every other effector's own target, in a cooler colour.
  look.markers = [](SceneDrawer& d, const AppState& s, Renderer&, float base) {
    const CreatureScene& cr = *s.scene.As<CreatureScene>();
    for (std::size_t k = 0; k < cr.targets.size(); ++k) {
      if (static_cast<int>(k) == cr.primary) continue;
      const bool reached = cr.distances[k] <= s.settings.tolerance;
      d.AddTargetMarker(cr.targets[k].position,
                        reached ? glm::vec4(0.35f, 0.85f, 0.95f, 0.75f) : kTargetChasing, base,
                        s.view.camera.planar());
    }
  };
  look.reach = false;
  drawer.DrawChainScene(state, renderer, look);
}

}  // namespace

SceneShell CreatureShell() {
  return {"creature (5 effectors)", "FABRIK for trees (centroid of the sub-bases)", CreaturePanel,
          CreatureDraw};
}

}  // namespace fabrik
