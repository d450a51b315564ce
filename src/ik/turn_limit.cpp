#include "ik/turn_limit.h"

#include <algorithm>
#include <cmath>
#include <glm/geometric.hpp>

#include "ik/fabrik.h"
#include "ik/vec_util.h"

namespace fabrik {
namespace {

using glm::dvec3;

}  // namespace

int LimitTurn(std::span<const glm::vec3> before, float max_turn, Chain& chain) {
  if (before.size() != chain.joint_count() || !std::isfinite(max_turn) || !(max_turn >= 0.0f)) {
    return -1;
  }
  std::span<glm::vec3> p = chain.pose_for_solver();
  const std::span<const float> lengths = chain.lengths();
  const double limit = max_turn;
  int held = 0;
  // Rebuilt outwards from the root: each segment's (possibly held) direction is laid from
  // its (possibly moved) start joint, so lengths are kept whatever was held before it.
  dvec3 from(p[0]);
  dvec3 solved_from(p[0]);  // the solver's joint i, before it was rebuilt
  dvec3 fallback(0.0, 1.0, 0.0);
  for (std::size_t i = 0; i + 1 < p.size(); ++i) {
    const dvec3 solved_to(p[i + 1]);
    const dvec3 old_dir = UnitD(dvec3(before[i + 1]) - dvec3(before[i]), fallback);
    const dvec3 new_dir = UnitD(solved_to - solved_from, old_dir);
    solved_from = solved_to;
    const double angle =
        std::atan2(glm::length(glm::cross(old_dir, new_dir)), glm::dot(old_dir, new_dir));
    dvec3 dir = new_dir;
    if (angle > limit) {
      dvec3 side = new_dir - glm::dot(new_dir, old_dir) * old_dir;
      const double side_length = glm::length(side);
      side = side_length > 1e-12 ? side / side_length : dvec3(AnyPerpendicular(glm::vec3(old_dir)));
      dir = std::cos(limit) * old_dir + std::sin(limit) * side;
      ++held;
    }
    const dvec3 to = from + dir * static_cast<double>(lengths[i]);
    p[i + 1] = glm::vec3(to);
    from = dvec3(p[i + 1]);
    fallback = dir;
  }
  return held;
}

SolveResult SolveWithTurnLimit(SolverKind kind, Chain& chain, const glm::vec3& target,
                               const SolveSettings& settings, float max_turn,
                               std::span<glm::vec3> scratch) {
  SolveResult result;
  if (scratch.size() != chain.joint_count()) {
    result.ok = false;
    result.error = "the scratch pose must have one point per joint";
    return result;
  }
  if (!std::isfinite(max_turn) || !(max_turn >= 0.0f)) {
    result.ok = false;
    result.error = "the turn limit must be finite and >= 0";
    return result;
  }
  std::copy(chain.joints().begin(), chain.joints().end(), scratch.begin());
  result = Solve(kind, chain, target, settings);
  if (!result.ok) return result;
  if (LimitTurn(scratch, max_turn, chain) > 0) {
    result.distance = SafeDistance(chain.effector(), target);
    result.reached = result.distance <= settings.tolerance && result.distance < 3.4e38f;
  }
  return result;
}

}  // namespace fabrik
