#include "ik/aim.h"

#include <algorithm>
#include <cmath>
#include <glm/geometric.hpp>
#include <numbers>

#include "ik/fabrik.h"
#include "ik/rotations.h"
#include "ik/vec_util.h"

namespace fabrik {
namespace {

constexpr float kDone = 1e-4f;  // radians: close enough to stop passing
constexpr double kHalfDegree = 0.5 * std::numbers::pi / 180.0;

double Angle(const glm::dvec3& a, const glm::dvec3& b) {
  return std::atan2(glm::length(glm::cross(a, b)), glm::dot(a, b));
}

const char* Validate(const Chain& chain, const AimTarget& t) {
  if (!IsFinite(t.axis) || !(glm::length(t.axis) > 0.0f))
    return "aim axis must be non-zero and finite";
  if (!IsFinite(t.at)) return "aim point is not finite (NaN or inf)";
  if (t.joints < 1 || static_cast<std::size_t>(t.joints) > chain.segment_count()) {
    return "aim joints must be between 1 and the number of segments";
  }
  if (t.max_passes < 1) return "aim max_passes must be >= 1";
  if (!t.weights.empty()) {
    if (t.weights.size() != static_cast<std::size_t>(t.joints)) {
      return "aim weights must have one entry per aiming joint";
    }
    double sum = 0.0;
    for (float w : t.weights) {
      if (!std::isfinite(w) || w < 0.0f) return "aim weights must be finite and >= 0";
      sum += w;
    }
    if (!(sum > 0.0)) return "aim weights must not all be 0";
  }
  return nullptr;
}

}  // namespace

float AimSolver::AxisError(std::span<const glm::vec3> joints, const glm::vec3& axis,
                           const glm::vec3& at, glm::vec3* world_axis) {
  ChainRotations(joints, {}, rotations_);
  const glm::vec3 a = glm::normalize(rotations_.back() * axis);
  if (world_axis) *world_axis = a;
  return static_cast<float>(Angle(glm::dvec3(a), glm::dvec3(at) - glm::dvec3(joints.back())));
}

AimResult AimSolver::Solve(Chain& chain, const AimTarget& target) {
  AimResult result;
  if (const char* error = Validate(chain, target)) {
    result.ok = false;
    result.error = error;
    return result;
  }
  const std::size_t n = chain.joint_count();
  if (rotations_.size() != n - 1) rotations_.resize(n - 1);
  if (tail_.size() < n) tail_.resize(n);
  const glm::vec3 axis = glm::normalize(target.axis);
  const int k = target.joints;
  std::span<glm::vec3> p = chain.pose_for_solver();
  const glm::dvec3 at(target.at);

  glm::vec3 world_axis;
  result.angle = AxisError(p, axis, target.at, &world_axis);
  for (int pass = 1; pass <= target.max_passes && result.angle > kDone; ++pass) {
    // Rotating the part beyond a pivot rigidly turns the effector's frame with it, so the
    // world axis is carried along by each turn; the next pass re-reads it from the pose.
    glm::dvec3 a(world_axis);
    double weight_left = 0.0;
    for (int m = 0; m < k; ++m) weight_left += target.weights.empty() ? 1.0 : target.weights[m];
    for (int m = 0; m < k; ++m) {
      const double weight = target.weights.empty() ? 1.0 : target.weights[m];
      const double share = weight_left > 0.0 ? weight / weight_left : 1.0;
      weight_left -= weight;
      if (share <= 0.0) continue;
      const std::size_t pivot = n - 1 - static_cast<std::size_t>(k) + static_cast<std::size_t>(m);
      const glm::dvec3 wanted = at - glm::dvec3(p[n - 1]);
      const double wanted_length = glm::length(wanted);
      if (!(wanted_length > 0.0)) break;  // the effector is on the point: no direction
      const glm::dvec3 w = wanted / wanted_length;
      const double angle = Angle(a, w) * share;
      glm::dvec3 turn_axis = glm::cross(a, w);
      const double turn_length = glm::length(turn_axis);
      if (!(angle > 0.0)) continue;
      turn_axis = turn_length > 1e-12 ? turn_axis / turn_length
                                      : glm::dvec3(AnyPerpendicular(glm::vec3(a)));
      // The pose's own frame after the turn is not q * a: rotations.h rebuilds a bone's twist
      // by parallel transport from its parent, which a rigid turn of the tail does not keep.
      // So the turn is kept only if the measured error shrank; else it is undone and tried at
      // half the angle (a backtracking line search), so no turn makes the aim worse.
      const float before = AxisError(p, axis, target.at, nullptr);
      std::copy(p.begin() + static_cast<std::ptrdiff_t>(pivot), p.end(), tail_.begin());
      const glm::dvec3 origin(p[pivot]);
      double step = angle;
      for (int halving = 0; halving < 6; ++halving, step *= 0.5) {
        const glm::dquat q = glm::angleAxis(step, turn_axis);
        for (std::size_t j = pivot + 1; j < n; ++j) {
          p[j] = glm::vec3(origin + q * (glm::dvec3(tail_[j - pivot]) - origin));
        }
        if (AxisError(p, axis, target.at, &world_axis) < before) break;
        std::copy(tail_.begin(), tail_.begin() + static_cast<std::ptrdiff_t>(n - pivot),
                  p.begin() + static_cast<std::ptrdiff_t>(pivot));
        AxisError(p, axis, target.at, &world_axis);
      }
      a = glm::dvec3(world_axis);
    }
    result.passes = pass;
    result.angle = AxisError(p, axis, target.at, &world_axis);
  }
  result.reached = result.angle <= kHalfDegree;
  return result;
}

}  // namespace fabrik
