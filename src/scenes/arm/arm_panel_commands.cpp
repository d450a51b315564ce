// The arm panel's commands, applied at the frame's apply step (core/apply.cpp).
#include "scenes/arm/arm_panel_commands.h"

#include <cmath>

#include "core/app_state.h"
#include "scenes/arm/arm_scene.h"

namespace fabrik::app {

void ApplyPanelCommand(AppState& state, const ArmOptions& c) {
  ArmScene* arm = state.scene.As<ArmScene>();
  if (arm == nullptr) return;
  arm->turntable = c.turntable;
  arm->use_pole = c.use_pole;
  if (std::isfinite(c.pole.x) && std::isfinite(c.pole.y) && std::isfinite(c.pole.z)) {
    arm->pole = c.pole;
  }
}

void ApplyPanelCommand(AppState& state, const ArmConstraint& c) {
  ArmScene* arm = state.scene.As<ArmScene>();
  if (arm == nullptr) return;
  auto& joints = arm->constraints.joints;
  if (c.joint < 0 || c.joint >= static_cast<int>(joints.size())) return;
  if (ValidateJointConstraint(c.constraint) != nullptr) return;
  joints[static_cast<std::size_t>(c.joint)] = c.constraint;
}

}  // namespace fabrik::app
