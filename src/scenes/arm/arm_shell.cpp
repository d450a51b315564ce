// The robot arm in the shell: its panel section (turntable, pole, per-joint constraint
// editor) and its look (limit colours, hinge arcs and the pole).
#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <glm/geometric.hpp>

#include "app/panel_widgets.h"
#include "app/scene_palette.h"
#include "app/scene_shell.h"
#include "scenes/arm/arm_panel_commands.h"
#include "scenes/arm/arm_scene.h"

namespace fabrik {
namespace {

using namespace panel;

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
    if (ImGui::DragFloat3("axis", axis, 0.01f, -1.0f, 1.0f, panel::kNumber)) {
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

void ArmPanel(const AppState& state, UiState& ui, CommandQueue& queue) {
  const ArmScene* scene = state.scene.As<ArmScene>();
  if (scene == nullptr) return;
  const ArmScene& arm = *scene;
  app::ArmOptions options{arm.turntable, arm.use_pole, arm.pole};
  bool changed = ImGui::Checkbox("turntable faces the target", &options.turntable);
  changed |= ImGui::Checkbox("pole (violet) picks the elbow side", &options.use_pole);
  if (arm.use_pole) {
    float pole[3] = {arm.pole.x, arm.pole.y, arm.pole.z};
    if (ImGui::DragFloat3("pole", pole, 0.02f, -100.0f, 100.0f, panel::kNumber)) {
      options.pole = glm::vec3(pole[0], pole[1], pole[2]);
      changed = true;
    }
  }
  if (changed) queue.Push(options);
  // The solver: the constrained FABRIK the arm is built for, or the two-bone solver for its
  // shoulder, elbow and wrist (any other choice goes back to the selected solver's words).
  int two_bone = state.tools.two_bone ? 1 : 0;
  bool chose = ImGui::RadioButton("constrained FABRIK", &two_bone, 0);
  ImGui::SameLine();
  chose |= ImGui::RadioButton("two_bone (elbow)", &two_bone, 1);
  if (chose) {
    queue.Push(Command(
        cmd::Solver{two_bone == 1 ? std::string(kTwoBoneSolverName) : SolverName(state.solver)}));
  }
  if (ImGui::IsItemHovered()) {
    ImGui::SetTooltip(
        "shoulder, elbow and wrist by the law of cosines in one step,\n"
        "the elbow towards the pole; the hinge limits are not applied");
  }
  if (state.tools.two_bone) {
    SoftenControl(state, queue);
    if (arm.last.max_violation > 1e-3f) {
      ImGui::TextColored(kWarn, "past a hinge limit by %.1f deg (two_bone ignores them)",
                         arm.last.max_violation * 180.0f / 3.14159265f);
    }
  }
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
  if (arm.use_pole && state.orient.euler_deg) {
    ImGui::TextColored(kDim, "the pole is unused while an orientation is set");
  }
}

// The arm's extras over its chain: every joint's limit outline and the pole.
void DrawArmExtras(SceneDrawer& drawer, const AppState& state, const ArmScene& arm,
                   Renderer& renderer, float base) {
  std::vector<Frame>& frames = drawer.frames();
  std::vector<LineVertex>& lines = drawer.lines();
  std::vector<SphereInstance>& spheres = drawer.spheres();
  std::span<const glm::vec3> p = state.chain.joints();
  SegmentParentFrames(p, arm.constraints, frames);
  lines.clear();
  for (std::size_t i = 0; i < arm.constraints.joints.size() && i + 1 < p.size(); ++i) {
    const bool limit = i < arm.at_limit.size() && arm.at_limit[i];
    drawer.AddConstraintOutline(arm.constraints.joints[i], frames[i], p[i],
                                state.chain.lengths()[i] * 0.35f, limit);
  }
  // The pole: a violet ball and a line to the elbow it steers. While an orientation target is
  // set the oriented solve does not use it: a faint ball, no line.
  spheres.clear();
  if (arm.use_pole) {
    const bool steering = !state.orient.euler_deg.has_value();
    const glm::vec4 pole_color(0.75f, 0.45f, 1.0f, steering ? 0.9f : 0.25f);
    spheres.push_back({arm.pole, base * 0.8f, pole_color});
    if (steering && p.size() > 2) {
      lines.push_back({arm.pole, glm::vec4(0.75f, 0.45f, 1.0f, 0.5f)});
      lines.push_back({p[2], glm::vec4(0.75f, 0.45f, 1.0f, 0.5f)});
    }
  }
  renderer.DrawLines(lines, 1.5f, false);
  renderer.DrawSpheres(spheres);
}

void ArmDraw(SceneDrawer& drawer, const AppState& state, Renderer& renderer) {
  ChainLook look;
  if (const ArmScene* arm = state.scene.As<ArmScene>()) {
    look.at_limit = &arm->at_limit;
    look.extras = [](SceneDrawer& d, const AppState& s, Renderer& r, float base) {
      DrawArmExtras(d, s, *s.scene.As<ArmScene>(), r, base);
    };
  }
  drawer.DrawChainScene(state, renderer, look);
}

}  // namespace

SceneShell ArmShell() {
  return {"robot arm (hinges, pole)", "constrained FABRIK (limits applied in both passes)",
          ArmPanel, ArmDraw};
}

}  // namespace fabrik
