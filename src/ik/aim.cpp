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

using glm::dquat;
using glm::dvec3;

constexpr float kDone = 1e-4f;          // radians: close enough to stop passing
constexpr double kNoDirection = 1e-12;  // a vector no longer than this has no direction
constexpr double kHalfDegree = 0.5 * std::numbers::pi / 180.0;

double Angle(const dvec3& a, const dvec3& b) {
  return std::atan2(glm::length(glm::cross(a, b)), glm::dot(a, b));
}

// The smallest rotation from unit `from` to unit `to` (the one rotations.h builds frames
// with), in double; opposite vectors turn half a turn about any perpendicular.
dquat Smallest(const dvec3& from, const dvec3& to) {
  const dvec3 axis = glm::cross(from, to);
  const double angle = std::atan2(glm::length(axis), glm::dot(from, to));
  const dvec3 unit = UnitD(axis, dvec3(AnyPerpendicular(glm::vec3(from))), kNoDirection);
  return glm::angleAxis(angle, unit);
}

// Unit `v` turned towards unit `to` by `share` of the angle between them (a great-circle step).
dvec3 Towards(const dvec3& v, const dvec3& to, double share) {
  if (share >= 1.0) return to;
  const dvec3 axis = UnitD(glm::cross(v, to), dvec3(AnyPerpendicular(glm::vec3(v))), kNoDirection);
  return glm::angleAxis(share * Angle(v, to), axis) * v;
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
  return static_cast<float>(Angle(dvec3(a), dvec3(at) - dvec3(joints.back())));
}

// Why this is exact (for share 1): rotations.h gives bone j the frame F_j = S(u -> v) F_{j-1},
// S the smallest rotation, u the parent bone's direction, v bone j's. Turning the tail beyond
// the pivot rigidly by Q = S(u -> v') S(u -> v)^-1 gives bone j exactly the frame Q F_j, and
// every later bone's smallest rotation from its parent turns with Q too, so the effector's
// frame becomes Q F_last: the aim axis b = F_last axis goes to S(u -> v') c, c = S(u -> v)^-1 b.
// The smallest rotations from u are the rotations about axes perpendicular to u, and the one
// of those taking c onto the wanted direction w turns about n = u x (c - w) (an axis must be
// as near c as w). So v' = R u with that rotation R, found without a search; a rigid turn
// chosen by the angle between axis and line alone would leave the twist that parallel
// transport adds, which is where a search used to stall.
void AimSolver::TurnPivot(std::span<glm::vec3> p, std::size_t j, const glm::vec3& axis,
                          const glm::vec3& at, double share) {
  const std::size_t n = p.size();
  ChainRotations(p, {}, rotations_);
  const dvec3 y(0.0, 1.0, 0.0);
  const dvec3 u = j == 0 ? y : UnitD(dvec3(rotations_[j - 1] * glm::vec3(y)), y, kNoDirection);
  const dvec3 v = UnitD(dvec3(rotations_[j] * glm::vec3(y)), u, kNoDirection);
  const dvec3 b = UnitD(dvec3(rotations_.back() * axis), y, kNoDirection);
  const dvec3 w = UnitD(dvec3(at) - dvec3(p[n - 1]), b, kNoDirection);
  const dquat to_v = Smallest(u, v);
  const dvec3 c = glm::conjugate(to_v) * b;
  if (glm::length(c - w) < 1e-12) return;
  dvec3 turn_axis = glm::cross(u, c - w);
  if (glm::length(turn_axis) < 1e-9) {
    // c - w along u: every axis across u is as near c as w; the bend plane's moves least.
    turn_axis = UnitD(glm::cross(u, v), dvec3(AnyPerpendicular(glm::vec3(u))), kNoDirection);
  }
  turn_axis = glm::normalize(turn_axis);
  const dvec3 cp = c - glm::dot(c, turn_axis) * turn_axis;
  const dvec3 wp = w - glm::dot(w, turn_axis) * turn_axis;
  const double theta = std::atan2(glm::dot(turn_axis, glm::cross(cp, wp)), glm::dot(cp, wp));
  const dvec3 v_exact = glm::angleAxis(theta, turn_axis) * u;
  const dquat q = Smallest(u, Towards(v, v_exact, share)) * glm::conjugate(to_v);
  const dvec3 origin(p[j]);
  for (std::size_t i = j + 1; i < n; ++i) {
    p[i] = glm::vec3(origin + q * (dvec3(p[i]) - origin));
  }
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
  const std::size_t k = static_cast<std::size_t>(target.joints);
  const std::size_t first = n - 1 - k;  // the first pivot; joints up to it never move
  auto weight = [&](std::size_t m) { return target.weights.empty() ? 1.0 : target.weights[m]; };
  std::size_t last_turning = 0;  // the last pivot with a positive weight solves exactly
  for (std::size_t m = 0; m < k; ++m) {
    if (weight(m) > 0.0) last_turning = m;
  }
  std::span<glm::vec3> p = chain.pose_for_solver();

  result.angle = AxisError(p, axis, target.at, nullptr);
  bool last_only = false;  // after a pass that did not help: the last turning pivot alone
  for (int pass = 1; pass <= target.max_passes && result.angle > kDone; ++pass) {
    std::copy(p.begin() + static_cast<std::ptrdiff_t>(first), p.end(), tail_.begin());
    // Nearest the root first, each pivot takes its weight's share of what is left; the last
    // turning one takes all of it. Moving the effector moves the line to `at`, so passes
    // repeat until the error is below kDone.
    double weight_left = 0.0;
    for (std::size_t m = 0; m < k; ++m) weight_left += weight(m);
    for (std::size_t m = last_only ? last_turning : 0; m <= last_turning; ++m) {
      const double share = m == last_turning ? 1.0 : weight(m) / weight_left;
      weight_left -= weight(m);
      if (share > 0.0) TurnPivot(p, first + m, axis, target.at, share);
    }
    const float angle = AxisError(p, axis, target.at, nullptr);
    if (!(angle < result.angle)) {
      // No progress (the earlier pivots' shares swung the line, a point too near the turning
      // joints, or a fold-back where the smallest rotation is ambiguous): undo; try the last
      // pivot alone once, then stop with the better pose.
      std::copy(tail_.begin(), tail_.begin() + static_cast<std::ptrdiff_t>(n - first),
                p.begin() + static_cast<std::ptrdiff_t>(first));
      if (last_only) break;
      last_only = true;
      continue;
    }
    result.passes = pass;
    result.angle = angle;
  }
  result.reached = result.angle <= kHalfDegree;
  return result;
}

}  // namespace fabrik
