#include "walker/leg.h"

#include <algorithm>
#include <cmath>
#include <glm/geometric.hpp>
#include <glm/mat3x3.hpp>

#include "ik/constraints.h"
#include "ik/fabrik.h"
#include "ik/vec_util.h"

namespace fabrik {
Result<Leg> Leg::Create(const glm::vec3& hip, const glm::vec3& towards,
                        std::span<const float> lengths, const ConeLimits& hip_cone) {
  if (!IsFinite(hip) || !IsFinite(towards)) return MakeError("leg: hip or direction not finite");
  Result<Chain> chain = Chain::Straight(glm::vec3(0.0f), towards - hip, lengths);
  if (!chain) return MakeError("leg: " + chain.error());
  ChainConstraints limits;
  limits.base.forward = towards - hip;
  limits.base.up = glm::vec3(0.0f, 1.0f, 0.0f);
  limits.joints.push_back(
      JointConstraint::Ball(hip_cone.up, hip_cone.down, hip_cone.left, hip_cone.right));
  Status valid = ValidateChainConstraints(limits, chain.value().joint_count());
  if (!valid) return MakeError("leg hip cone: " + valid.error());
  return Leg(std::move(chain.value()), std::move(limits), hip);
}

Leg::Leg(Chain chain, ChainConstraints limits, const glm::vec3& hip)
    : chain_(std::move(chain)),
      limits_(std::move(limits)),
      hip_(hip),
      world_(chain_.joint_count()),
      pre_(chain_.joint_count()) {
  observer_.Resize(chain_.joint_count());
  UpdateWorld();
  std::copy(world_.begin(), world_.end(), pre_.begin());
}

void Leg::UpdateWorld() {
  const std::span<const glm::vec3> local = chain_.joints();
  for (std::size_t i = 0; i < local.size(); ++i) world_[i] = local[i] + hip_;
}

ConstrainedSolveResult Leg::Solve(const glm::vec3& hip, const glm::vec3& foot_target,
                                  const glm::vec3& pole, const BaseFrame& hip_frame,
                                  const SolveSettings& settings, SolveObserver* observer) {
  if (!IsFinite(hip) || ValidateBaseFrame(hip_frame) != nullptr) {
    ConstrainedSolveResult bad;
    bad.base.ok = false;
    bad.base.error = "leg: hip or hip frame not finite";
    return bad;
  }
  limits_.base = hip_frame;
  const glm::vec3 target = foot_target - hip;
  const glm::vec3 local_pole = pole - hip;
  observer_.inner = observer;
  observer_.offset = hip;
  observer_.skip_begin = false;
  SolveObserver* watch = observer ? &observer_ : nullptr;
  ConstrainedSolveResult result =
      SolveFabrikConstrained(chain_, limits_, target, settings, local_pole, watch);
  if (!result.base.ok) return result;  // nothing moved
  if (!result.base.reached && result.base.reachable) {
    // With more than one inner joint the pole step and the reaches can settle short of the
    // target (each pole step undoes part of the last reach). The pose is bent the right way
    // by then, so the same solve without the pole, warm-started, closes the gap without
    // flipping the knee. The observer sees it as more half-passes of the same solve.
    observer_.skip_begin = true;
    const ConstrainedSolveResult finish =
        SolveFabrikConstrained(chain_, limits_, target, settings, std::nullopt, watch);
    const int before = result.base.iterations;
    result = finish;
    result.base.iterations += before;
  }
  // world_ still holds the previous pose; moved with the hip it is exactly the warm start the
  // solver began from (the hip-relative pose placed at the new hip).
  const glm::vec3 moved = hip - hip_;
  for (std::size_t i = 0; i < pre_.size(); ++i) pre_[i] = world_[i] + moved;
  hip_ = hip;
  UpdateWorld();
  return result;
}

void BoneRotations(std::span<const glm::vec3> joints, const glm::vec3& side,
                   std::span<glm::quat> out) {
  if (joints.size() < 2) return;
  const std::size_t n = std::min(out.size(), joints.size() - 1);
  for (std::size_t i = 0; i < n; ++i) {
    const glm::vec3 y = SafeNormalize(joints[i + 1] - joints[i], glm::vec3(0.0f, 1.0f, 0.0f));
    glm::vec3 x = side - y * glm::dot(side, y);
    const float len = glm::length(x);
    x = (len > 1e-4f && std::isfinite(len)) ? x / len : AnyPerpendicular(y);
    const glm::vec3 z = glm::cross(x, y);  // right-handed: x cross y = z
    out[i] = glm::normalize(glm::quat_cast(glm::mat3(x, y, z)));
  }
}

}  // namespace fabrik
