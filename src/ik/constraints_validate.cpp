// The constraint types' constructors and the checks every solver runs on constraints and
// base frames before anything moves (constraints.h).
#include <algorithm>
#include <cmath>
#include <numbers>
#include <string>

#include <glm/geometric.hpp>

#include "ik/constraints.h"
#include "ik/vec_util.h"

namespace fabrik {
namespace {

// Parameters may overshoot pi by this much (a user typing 3.1416) and are then clamped.
constexpr float kAngleSlack = 1e-3f;

std::string JointLabel(std::size_t i) { return "joints[" + std::to_string(i) + "]"; }

}  // namespace

JointConstraint JointConstraint::Ball(float up, float down, float left, float right) {
  JointConstraint c;
  c.type = ConstraintType::kBall;
  c.cone = {up, down, left, right};
  return c;
}

JointConstraint JointConstraint::Cone(float half_angle) {
  return Ball(half_angle, half_angle, half_angle, half_angle);
}

JointConstraint JointConstraint::Hinge(const glm::vec3& axis, float min_angle, float max_angle,
                                       HingeSpace space, const glm::vec3& reference) {
  JointConstraint c;
  c.type = ConstraintType::kHinge;
  c.hinge = {axis, reference, min_angle, max_angle, space};
  return c;
}

const char* ValidateJointConstraint(const JointConstraint& c) {
  const float pi_max = static_cast<float>(std::numbers::pi) + kAngleSlack;
  switch (c.type) {
    case ConstraintType::kNone:
      return nullptr;
    case ConstraintType::kBall: {
      const float angles[] = {c.cone.up, c.cone.down, c.cone.left, c.cone.right};
      for (float a : angles) {
        if (!std::isfinite(a)) return "cone angle is not finite";
        if (a < 0.0f || a > pi_max) return "cone angle must be in [0, pi] radians";
      }
      return nullptr;
    }
    case ConstraintType::kHinge: {
      const HingeLimits& h = c.hinge;
      if (h.space != HingeSpace::kParent && h.space != HingeSpace::kWorld) {
        return "hinge space is neither parent nor world";
      }
      if (!IsFinite(h.axis)) return "hinge axis is not finite";
      const float scale = std::max({std::fabs(h.axis.x), std::fabs(h.axis.y), std::fabs(h.axis.z)});
      if (!(scale > 1e-6f)) return "hinge axis is zero";
      if (!IsFinite(h.reference)) return "hinge reference is not finite";
      if (!std::isfinite(h.min_angle) || !std::isfinite(h.max_angle)) {
        return "hinge limit is not finite";
      }
      if (h.min_angle < -pi_max || h.max_angle > pi_max) {
        return "hinge limits must be in [-pi, pi] radians";
      }
      if (h.max_angle < h.min_angle) return "hinge max_angle is below min_angle";
      return nullptr;
    }
  }
  return "unknown constraint type";
}

const char* ValidateBaseFrame(const BaseFrame& base) {
  if (!IsFinite(base.forward)) return "base forward axis is not finite";
  if (glm::dot(base.forward, base.forward) == 0.0f) return "base forward axis is zero";
  if (!IsFinite(base.up)) return "base up vector is not finite";
  return nullptr;
}

Status ValidateChainConstraints(const ChainConstraints& constraints, std::size_t joint_count) {
  if (const char* e = ValidateBaseFrame(constraints.base)) return MakeError(e);
  const std::size_t limit = joint_count > 0 ? joint_count - 1 : 0;
  if (constraints.joints.size() > limit) {
    return MakeError(std::to_string(constraints.joints.size()) + " constraints for a chain of " +
                     std::to_string(joint_count) + " joints: only joints 0.." +
                     std::to_string(limit == 0 ? 0 : limit - 1) + " have a segment to limit");
  }
  for (std::size_t i = 0; i < constraints.joints.size(); ++i) {
    if (const char* e = ValidateJointConstraint(constraints.joints[i])) {
      return MakeError(JointLabel(i) + ": " + e);
    }
  }
  return Ok{};
}

}  // namespace fabrik
