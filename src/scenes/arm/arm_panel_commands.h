// arm_panel_commands.h - what the arm scene's panel sends (scenes/arm/arm_shell.cpp) as typed
// app commands; the frame's apply step (core/apply.cpp) hands them to ApplyPanelCommand below,
// which changes the ArmScene by them and ignores them in any other scene. They travel as
// app::ScenePanelEdit (core/app_command.h).
#pragma once

#include <glm/vec3.hpp>

#include "ik/constraints.h"

namespace fabrik {
struct AppState;
}  // namespace fabrik

namespace fabrik::app {

// The arm's options: the turntable that turns the arm's plane to face the target, and the
// pole that decides whether the elbow bends up or down. `pole` is in world units; a
// non-finite pole is refused (the pole stays) while the two flags still apply.
struct ArmOptions {
  bool turntable = true;
  bool use_pole = true;
  glm::vec3 pole{0.0f};
};

// One arm joint's constraint. Refused (nothing changes) unless `joint` is one of the arm's
// joints (0-based) and ValidateJointConstraint (ik/constraints.h) accepts `constraint`.
struct ArmConstraint {
  int joint = 0;
  JointConstraint constraint;
};

// Applied at the frame's apply step only (arm_panel_commands.cpp): changes the scene when
// it is the current one, as each struct above says; ignored in any other scene.
void ApplyPanelCommand(AppState& state, const ArmOptions& command);
void ApplyPanelCommand(AppState& state, const ArmConstraint& command);

}  // namespace fabrik::app
