#include "ik/stiffness.h"

#include <algorithm>
#include <cmath>
#include <glm/geometric.hpp>
#include <numbers>

#include "ik/fabrik.h"
#include "ik/solver.h"
#include "ik/vec_util.h"

namespace fabrik {
namespace {

using glm::dvec3;

double Angle(const dvec3& a, const dvec3& b) {
  return std::atan2(glm::length(glm::cross(a, b)), glm::dot(a, b));
}

dvec3 Unit(const dvec3& v, const dvec3& fallback) {
  const double l = glm::length(v);
  return l > 0.0 && std::isfinite(l) ? v / l : fallback;
}

// `dir` (unit) moved so its angle from unit `ref` lies in [low, high]: turned in the plane of
// the two (any plane, preferring +Y, when they are parallel).
dvec3 IntoBand(const dvec3& ref, const dvec3& dir, double low, double high) {
  const double angle = Angle(ref, dir);
  if (angle >= low && angle <= high) return dir;
  const double wanted = std::clamp(angle, low, high);
  dvec3 side = dir - glm::dot(dir, ref) * ref;
  const double side_length = glm::length(side);
  side = side_length > 1e-12 ? side / side_length : dvec3(AnyPerpendicular(glm::vec3(ref)));
  return std::cos(wanted) * ref + std::sin(wanted) * side;
}

}  // namespace

float BendAngle(std::span<const glm::vec3> joints, std::size_t i) {
  if (i == 0 || i + 1 >= joints.size()) return 0.0f;
  const dvec3 a = dvec3(joints[i]) - dvec3(joints[i - 1]);
  const dvec3 b = dvec3(joints[i + 1]) - dvec3(joints[i]);
  return static_cast<float>(Angle(a, b));
}

SolveResult StiffSolver::Solve(Chain& chain, const glm::vec3& target, const SolveSettings& settings,
                               std::span<const float> stiffness) {
  SolveResult result;
  const std::size_t n = chain.joint_count();
  const char* error = ValidateSolveInput(target, settings);
  if (error == nullptr && stiffness.size() != n) {
    error = "stiffness must have one entry per joint";
  }
  for (std::size_t i = 0; error == nullptr && i < stiffness.size(); ++i) {
    if (!(stiffness[i] >= 0.0f && stiffness[i] <= 1.0f)) error = "stiffness must be in 0..1";
  }
  if (error != nullptr) {
    result.ok = false;
    result.error = error;
    return result;
  }
  std::span<glm::vec3> p = chain.pose_for_solver();
  const std::span<const float> len = chain.lengths();
  const glm::vec3 root = p[0];
  result.reachable = SafeDistance(root, target) <= chain.total_length();
  result.distance = SafeDistance(p[n - 1], target);
  if (result.distance <= settings.tolerance) {
    result.reached = true;
    return result;
  }

  // The bands, from the start pose (see the header).
  if (low_.size() < n) {
    low_.resize(n);
    high_.resize(n);
  }
  constexpr double kPi = std::numbers::pi;
  const dvec3 first_start = Unit(dvec3(p[1]) - dvec3(p[0]), dvec3(0.0, 1.0, 0.0));
  high_[0] = static_cast<float>((1.0 - stiffness[0]) * kPi);
  for (std::size_t i = 1; i + 1 < n; ++i) {
    const double start = BendAngle(p, i);
    const double room = (1.0 - stiffness[i]) * kPi;
    low_[i] = static_cast<float>(std::max(0.0, start - room));
    high_[i] = static_cast<float>(std::min(kPi, start + room));
  }

  for (int iteration = 1; iteration <= settings.max_iterations; ++iteration) {
    // Backward: effector on the target, then inwards; segment i's direction is held in joint
    // i+1's band against segment i+1 (the angle between two directions is symmetric).
    p[n - 1] = target;
    dvec3 child = Unit(dvec3(target) - dvec3(p[n - 2]), first_start);
    for (std::size_t i = n - 1; i-- > 0;) {
      dvec3 dir = Unit(dvec3(p[i + 1]) - dvec3(p[i]), child);
      if (i + 2 < n) dir = IntoBand(child, dir, low_[i + 1], high_[i + 1]);
      p[i] = glm::vec3(dvec3(p[i + 1]) - dir * static_cast<double>(len[i]));
      child = dir;
    }
    // Forward: the root back, then outwards; each direction into its own joint's band
    // against the final parent, so the bands hold exactly when the pass ends.
    p[0] = root;
    dvec3 parent = first_start;
    for (std::size_t i = 0; i + 1 < n; ++i) {
      dvec3 dir = Unit(dvec3(p[i + 1]) - dvec3(p[i]), parent);
      dir = i == 0 ? IntoBand(first_start, dir, 0.0, high_[0])
                   : IntoBand(parent, dir, low_[i], high_[i]);
      p[i + 1] = glm::vec3(dvec3(p[i]) + dir * static_cast<double>(len[i]));
      parent = dir;
    }
    result.iterations = iteration;
    result.distance = SafeDistance(p[n - 1], target);
    if (result.distance <= settings.tolerance) break;
  }
  result.reached = result.distance <= settings.tolerance && result.distance < 3.4e38f;
  return result;
}

}  // namespace fabrik
