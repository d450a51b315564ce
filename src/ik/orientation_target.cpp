#include "ik/orientation_target.h"

#include <algorithm>
#include <cmath>
#include <numbers>

#include <glm/geometric.hpp>
#include <glm/mat3x3.hpp>

#include "ik/constrained_fabrik.h"
#include "ik/constrained_passes.h"
#include "ik/fabrik.h"
#include "ik/rotations.h"
#include "ik/vec_util.h"

namespace fabrik {
namespace {

const glm::vec3 kY(0.0f, 1.0f, 0.0f);
constexpr float kTwoDegrees = 2.0f * std::numbers::pi_v<float> / 180.0f;

bool FiniteQuat(const glm::quat& q) {
  return std::isfinite(q.w) && std::isfinite(q.x) && std::isfinite(q.y) && std::isfinite(q.z);
}

bool HasLimits(const ChainConstraints* c) {
  if (c == nullptr) return false;
  for (const JointConstraint& j : c->joints) {
    if (IsConstrained(j)) return true;
  }
  return false;
}

// Iterates the two passes from the current pose; returns the iterations run.
int OrientedIterate(std::span<glm::vec3> p, std::span<const float> len, const ChainConstraints& cs,
                    const glm::vec3& target, const glm::vec3& d, const SolveSettings& settings,
                    int budget, float total) {
  const Frame base = MakeFrame(cs.base);
  const glm::vec3 root = p[0];
  int it = 0;
  while (it < budget) {
    const glm::vec3 before = p.back();
    // The last segment set along `d` rather than reached (constrained_passes.h).
    ConstrainedBackwardPass(p, len, cs, base, target, &d);
    ConstrainedForwardPass(p, len, cs, base, root, &d);
    ++it;
    const float dist = RobustLength(p.back() - target);
    if (dist <= settings.tolerance) break;
    // No more progress (the rule of constrained_fabrik.h).
    if (RobustLength(p.back() - before) < std::max(1e-3f * dist, 1e-7f * total)) break;
  }
  return it;
}

}  // namespace

glm::quat EulerToQuat(float yaw, float pitch, float roll) {
  if (!std::isfinite(yaw) || !std::isfinite(pitch) || !std::isfinite(roll)) {
    return glm::quat(1.0f, 0.0f, 0.0f, 0.0f);
  }
  return glm::normalize(glm::angleAxis(yaw, kY) * glm::angleAxis(pitch, glm::vec3(1, 0, 0)) *
                        glm::angleAxis(roll, glm::vec3(0, 0, 1)));
}

glm::quat EulerDegreesToQuat(float yaw_deg, float pitch_deg, float roll_deg) {
  constexpr float k = std::numbers::pi_v<float> / 180.0f;
  return EulerToQuat(yaw_deg * k, pitch_deg * k, roll_deg * k);
}

glm::vec3 QuatToEuler(const glm::quat& q) {
  // For R = Ry(y) Rx(p) Rz(r) the matrix entries (row, column) give
  // R(1,2) = -sin p, R(0,2) = sin y cos p, R(2,2) = cos y cos p,
  // R(1,0) = cos p sin r, R(1,1) = cos p cos r. glm indexes m[column][row].
  const glm::mat3 m = glm::mat3_cast(glm::normalize(q));
  const float sp = std::clamp(-m[2][1], -1.0f, 1.0f);
  const float pitch = std::asin(sp);
  if (std::fabs(sp) > 0.99999f) {
    // Gimbal lock: yaw and roll turn about the same axis; put it all in yaw.
    // With roll = 0: R(0,0) = cos y, R(2,0) = -sin y.
    return {std::atan2(-m[0][2], m[0][0]), pitch, 0.0f};
  }
  return {std::atan2(m[2][0], m[2][2]), pitch, std::atan2(m[0][1], m[1][1])};
}

bool OrientedSolver::PrepareSubChain(const Chain& chain) {
  const std::size_t n = chain.joint_count() - 1;  // joints of the sub-chain
  const auto lengths = chain.lengths().first(n - 1);
  // Compared with the lengths it was built from (a Chain re-measures them from its joints,
  // which may round differently).
  const bool same = sub_.has_value() && sub_lengths_.size() == lengths.size() &&
                    std::equal(lengths.begin(), lengths.end(), sub_lengths_.begin());
  if (!same) {
    Result<Chain> built = Chain::Straight(chain.root(), kY, lengths);
    if (!built.ok()) return false;
    sub_.emplace(std::move(built).value());
    sub_lengths_.assign(lengths.begin(), lengths.end());
    pose_.resize(chain.joint_count());
  }
  for (std::size_t i = 0; i < n; ++i) pose_[i] = chain.joints()[i];
  return sub_->SetPose(std::span<const glm::vec3>(pose_).first(n)).ok();
}

OrientedSolveResult OrientedSolver::Solve(Chain& chain, const OrientedTarget& target,
                                          const SolveSettings& settings,
                                          const ChainConstraints* constraints) {
  OrientedSolveResult r;
  const auto reject = [&r](const char* message) {
    r.base = SolveResult{};
    r.base.ok = false;
    r.base.error = message;
    return r;
  };
  if (const char* e = ValidateSolveInput(target.position, settings)) return reject(e);
  const float norm = FiniteQuat(target.rotation) ? glm::length(target.rotation) : 0.0f;
  if (!(norm > 1e-6f) || !std::isfinite(norm)) {
    return reject("orientation target rotation is not finite and non-zero");
  }
  if (constraints != nullptr && !ValidateChainConstraints(*constraints, chain.joint_count()).ok()) {
    return reject("invalid constraints");
  }
  const glm::quat q = target.rotation / norm;
  const glm::vec3 d = glm::normalize(q * kY);
  const bool limits = HasLimits(constraints);
  const auto plain = [&](Chain& c, const glm::vec3& goal, const ChainConstraints* cons) {
    if (cons != nullptr && HasLimits(cons)) {
      const ConstrainedSolveResult s = SolveFabrikConstrained(c, *cons, goal, settings);
      r.limited = s.limited;
      return s.base;
    }
    return SolveFabrik(c, goal, settings);
  };

  const std::size_t n = chain.joint_count();
  pose_.reserve(n);  // allocates only for a chain longer than any seen before
  const float last = chain.lengths().back();
  const glm::vec3 sub_target = target.position - d * last;
  const bool sub_reachable = n >= 3 && RobustLength(sub_target - chain.root()) <=
                                           chain.total_length() - last + settings.tolerance;
  if (!sub_reachable || (!limits && !PrepareSubChain(chain))) {
    r.base = plain(chain, target.position, limits ? constraints : nullptr);
  } else {
    glm::vec3 dir = d;
    int iterations = 0;
    auto pose = chain.pose_for_solver();
    if (limits) {
      // The last joint's limit must be met by the segments before it, so the constrained case
      // runs its own passes over the whole chain rather than a sub-chain solve.
      const auto len = chain.lengths();
      iterations = OrientedIterate(pose, len, *constraints, target.position, d, settings,
                                   settings.max_iterations, chain.total_length());
      const float first = RobustLength(pose[n - 1] - target.position);
      if (first > settings.tolerance && iterations < settings.max_iterations) {
        // A stalled constrained solve: once more from the rest pose, keep the closer pose.
        pose_.assign(pose.begin(), pose.end());
        ConstrainedRestPose(pose, len, *constraints, MakeFrame(constraints->base), pose[0]);
        iterations += OrientedIterate(pose, len, *constraints, target.position, d, settings,
                                      settings.max_iterations - iterations, chain.total_length());
        if (RobustLength(pose[n - 1] - target.position) > first) {
          std::copy(pose_.begin(), pose_.end(), pose.begin());
        }
      }
      if (RobustLength(pose[n - 1] - target.position) > settings.tolerance) {
        // The rotation cannot be met there within the limits: the position wins if a plain
        // constrained solve reaches it (kept only then).
        pose_.assign(pose.begin(), pose.end());
        const SolveResult s = plain(chain, target.position, constraints);
        if (!s.reached) std::copy(pose_.begin(), pose_.end(), pose.begin());
        iterations += s.iterations;
      }
    } else {
      const SolveResult s = plain(*sub_, sub_target, nullptr);
      if (!s.ok) return reject(s.error);
      iterations = s.iterations;
      const auto sub_pose = sub_->joints();
      for (std::size_t i = 0; i + 1 < n; ++i) pose[i] = sub_pose[i];
      pose[n - 1] = pose[n - 2] + dir * last;
    }
    r.base.iterations = iterations;
    r.base.distance = RobustLength(pose[n - 1] - target.position);
    r.base.reached = r.base.distance <= settings.tolerance;
    r.base.reachable = RobustLength(target.position - chain.root()) <= chain.total_length();
    r.limited = limits && r.base.reachable && !r.base.reached;
  }
  if (limits) r.max_violation = MaxConstraintViolation(chain.joints(), *constraints);

  const auto joints = chain.joints();
  const glm::vec3 last_dir = glm::normalize(joints[n - 1] - joints[n - 2]);
  r.direction_error = std::atan2(glm::length(glm::cross(last_dir, d)), glm::dot(last_dir, d));
  if (limits && n - 2 < constraints->joints.size() &&
      constraints->joints[n - 2].type == ConstraintType::kHinge) {
    // The hinge fixes the roll: the frame ChainRotations gives the last bone.
    rotations_.resize(n - 1);
    RotationSettings rs;
    rs.effector_target = &q;
    ChainRotations(joints, *constraints, {}, rotations_, rs);
    r.effector_rotation = rotations_.back();
  } else {
    r.effector_rotation = EffectorTwist(q, last_dir);
  }
  r.remaining_angle = RotationAngle(r.effector_rotation, q);
  r.orientation_met = r.base.reached && r.remaining_angle <= kTwoDegrees;
  return r;
}

}  // namespace fabrik
