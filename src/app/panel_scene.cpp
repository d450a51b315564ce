// The panel's scene section: the scene selector, the robot arm's pole and per-joint
// constraint editor, the creature's effector table.
#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <glm/geometric.hpp>
#include <string>

#include "app/panel_widgets.h"
#include "app/systems.h"
#include "core/scene_field.h"
#include "core/scene_registry.h"
#include "core/scene_walker.h"
#include "core/step_view.h"

namespace fabrik::panel {
namespace {

// Edits `c` in place; returns true when a widget changed it.
bool ConstraintEditor(JointConstraint& c, bool allow_world) {
  bool changed = false;
  int type = static_cast<int>(c.type);
  const char* types[] = {"none", "ball (elliptical cone)", "hinge"};
  if (ImGui::Combo("type", &type, types, 3)) {
    changed = true;
    JointConstraint next;
    if (type == 1) next = JointConstraint::Ball(0.8f, 0.8f, 0.8f, 0.8f);
    if (type == 2) next = JointConstraint::Hinge({1.0f, 0.0f, 0.0f}, -1.5f, 1.5f);
    c = next;
  }
  if (c.type == ConstraintType::kBall) {
    changed |= ImGui::SliderAngle("up", &c.cone.up, 0.0f, 180.0f);
    changed |= ImGui::SliderAngle("down", &c.cone.down, 0.0f, 180.0f);
    changed |= ImGui::SliderAngle("left", &c.cone.left, 0.0f, 180.0f);
    changed |= ImGui::SliderAngle("right", &c.cone.right, 0.0f, 180.0f);
  } else if (c.type == ConstraintType::kHinge) {
    changed |= ImGui::SliderAngle("clockwise limit", &c.hinge.min_angle, -180.0f, 180.0f);
    changed |= ImGui::SliderAngle("anticlockwise", &c.hinge.max_angle, -180.0f, 180.0f);
    if (c.hinge.max_angle < c.hinge.min_angle) c.hinge.max_angle = c.hinge.min_angle;
    float axis[3] = {c.hinge.axis.x, c.hinge.axis.y, c.hinge.axis.z};
    if (ImGui::DragFloat3("axis", axis, 0.01f, -1.0f, 1.0f)) {
      const glm::vec3 a(axis[0], axis[1], axis[2]);
      if (glm::dot(a, a) > 1e-6f) {  // a zero axis is refused
        c.hinge.axis = a;
        changed = true;
      }
    }
    if (allow_world) {
      int space = c.hinge.space == HingeSpace::kWorld ? 1 : 0;
      const char* spaces[] = {"relative to the parent", "fixed in the world"};
      if (ImGui::Combo("axis space", &space, spaces, 2)) {
        c.hinge.space = space == 1 ? HingeSpace::kWorld : HingeSpace::kParent;
        changed = true;
      }
    }
  }
  return changed;
}

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

// The combo's words for a scene; a scene without one shows its name.
const char* SceneLabel(std::string_view name) {
  if (name == "arm") return "robot arm (hinges, pole)";
  if (name == "creature") return "creature (5 effectors)";
  if (name == "field") return "field (many chains, batched)";
  if (name == "walker") return "walker (4 legs on hills)";
  for (const SceneEntry& entry : RegisteredScenes()) {
    if (entry.name == name) return entry.name.data();  // the table's literals end in '\0'
  }
  return "chain";
}

// The walker's readouts and debug views (README: The walker scene).
void WalkerSection(const AppState& state, const WalkerScene& scene, CommandQueue& queue) {
  const Walker& w = *scene.walker;
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
  const int count = std::min(static_cast<int>(w.legs().size()) + 1, 7);
  if (ImGui::Combo("step view leg", &choice, legs, count)) {
    view.step_leg = choice - 1;
    changed = true;
  }
  if (changed) queue.Push(view);
  ImGui::TextColored(kDim, "Drag on the hills, or type 'target X Y Z': it walks there.");
}

}  // namespace

void SceneSection(const AppState& state, UiState& ui, CommandQueue& queue) {
  SectionHeader("SCENE");
  const SceneState& scene = state.scene;
  if (ImGui::BeginCombo("scene", SceneLabel(scene.name()))) {
    for (const SceneEntry& entry : RegisteredScenes()) {
      if (ImGui::Selectable(SceneLabel(entry.name), entry.name == scene.name()) &&
          entry.name != scene.name()) {
        // As the console line would, echo included.
        queue.Push(Command(cmd::Scene{std::string(entry.name)}), CommandSource::kConsole);
      }
    }
    ImGui::EndCombo();
  }
  if (const ArmScene* arm_scene = scene.As<ArmScene>()) {
    const ArmScene& arm = *arm_scene;
    app::ArmOptions options{arm.turntable, arm.use_pole, arm.pole};
    bool changed = ImGui::Checkbox("turntable faces the target", &options.turntable);
    changed |= ImGui::Checkbox("pole (violet) picks the elbow side", &options.use_pole);
    if (arm.use_pole) {
      float pole[3] = {arm.pole.x, arm.pole.y, arm.pole.z};
      if (ImGui::DragFloat3("pole", pole, 0.02f, -100.0f, 100.0f)) {
        options.pole = glm::vec3(pole[0], pole[1], pole[2]);
        changed = true;
      }
    }
    if (changed) queue.Push(options);
    const int n = static_cast<int>(arm.constraints.joints.size());
    ImGui::SliderInt("joint", &ui.arm_joint, 0, std::max(0, n - 1));
    ui.arm_joint = std::clamp(ui.arm_joint, 0, std::max(0, n - 1));
    if (n > 0) {
      ImGui::PushID("arm_joint");
      JointConstraint edited = arm.constraints.joints[static_cast<std::size_t>(ui.arm_joint)];
      // The apply step refuses a constraint ValidateJointConstraint rejects.
      if (ConstraintEditor(edited, true)) queue.Push(app::ArmConstraint{ui.arm_joint, edited});
      ImGui::PopID();
    }
    if (arm.last.limited) {
      ImGui::TextColored(kWarn, "reachable, but the limits hold the arm back");
    }
    // Joint 0 is the rigid pedestal, always "at its limit": not worth counting.
    int at_limit = 0;
    for (std::size_t i = 1; i < arm.at_limit.size(); ++i) at_limit += arm.at_limit[i] ? 1 : 0;
    ImGui::TextColored(kDim, "joints at their limit: %d (red); drag the violet pole", at_limit);
  } else if (const CreatureScene* creature = scene.As<CreatureScene>();
             creature != nullptr && creature->tree) {
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
        ImGui::TextColored(c.distances[k] <= state.settings.tolerance ? kGood : kWarn, "%.3f",
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
  } else if (const FieldScene* field = scene.As<FieldScene>();
             field != nullptr && field->chain_count() > 0) {
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
  } else if (const WalkerScene* walker = scene.As<WalkerScene>();
             walker != nullptr && walker->walker) {
    WalkerSection(state, *walker, queue);
  }
}

}  // namespace fabrik::panel
