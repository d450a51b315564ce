#include "ik/stiffness.h"

#include <algorithm>
#include <cmath>
#include <glm/geometric.hpp>
#include <glm/gtc/quaternion.hpp>
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

// Two links from `base` (fixed) with lengths a and b, `middle` and `end` moved so the end is on
// `goal` when a two-link reach allows, else as near as it can be; the bend stays in the plane
// through base, goal and the old middle, on the old middle's side.
void PlaceTwoChords(const dvec3& base, dvec3& middle, dvec3& end, const dvec3& goal, double a,
                    double b) {
  const dvec3 to_goal = goal - base;
  const double far = glm::length(to_goal);
  const dvec3 e = UnitD(to_goal, UnitD(end - base, dvec3(0.0, 1.0, 0.0)));
  dvec3 side = (middle - base) - glm::dot(middle - base, e) * e;
  side = UnitD(side, dvec3(AnyPerpendicular(glm::vec3(e))));
  const double d = std::clamp(far, std::fabs(a - b), a + b);
  const double cosine =
      d > 0.0 ? std::clamp((a * a + d * d - b * b) / (2.0 * a * d), -1.0, 1.0) : 1.0;
  middle = base + a * (cosine * e + std::sqrt(1.0 - cosine * cosine) * side);
  end = middle + b * UnitD(goal - middle, e);
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
    start_.resize(n);
    best_.resize(n);
    pivots_.reserve(n);
    chords_.resize(n);
    chord_lengths_.resize(n);
  }
  constexpr double kPi = std::numbers::pi;
  first_start_ = UnitD(dvec3(p[1]) - dvec3(p[0]), dvec3(0.0, 1.0, 0.0));
  high_[0] = static_cast<float>((1.0 - stiffness[0]) * kPi);
  for (std::size_t i = 1; i + 1 < n; ++i) {
    const double start = BendAngle(p, i);
    const double room = (1.0 - stiffness[i]) * kPi;
    low_[i] = static_cast<float>(std::max(0.0, start - room));
    high_[i] = static_cast<float>(std::min(kPi, start + room));
  }
  std::copy(p.begin(), p.end(), start_.begin());

  result.iterations = BandedPasses(p, len, target, settings, &result.distance);
  if (result.distance > settings.tolerance) {
    // The banded passes stalled. Solve again from the start pose with every fully stiff run
    // held rigid (exact when the free joints can reach), then, if some joint is only partly
    // stiff, let the banded passes bring it back into its band from there; keep the closer.
    std::copy(p.begin(), p.end(), best_.begin());
    const float best_distance = result.distance;
    std::copy(start_.begin(), start_.begin() + static_cast<std::ptrdiff_t>(n), p.begin());
    result.iterations += RigidRunPasses(p, target, settings, stiffness);
    result.distance = SafeDistance(p[n - 1], target);
    bool partial = false;
    for (std::size_t i = 0; i + 1 < n; ++i) partial |= stiffness[i] > 0.0f && stiffness[i] < 1.0f;
    if (partial) result.iterations += BandedPasses(p, len, target, settings, &result.distance);
    if (!(result.distance < best_distance)) {
      std::copy(best_.begin(), best_.begin() + static_cast<std::ptrdiff_t>(n), p.begin());
      result.distance = best_distance;
    }
  }
  result.reached = result.distance <= settings.tolerance && result.distance < 3.4e38f;
  return result;
}

int StiffSolver::BandedPasses(std::span<glm::vec3> p, std::span<const float> len,
                              const glm::vec3& target, const SolveSettings& settings,
                              float* distance) const {
  const std::size_t n = p.size();
  const glm::vec3 root = p[0];
  int iterations = 0;
  for (int iteration = 1; iteration <= settings.max_iterations; ++iteration) {
    // Backward: effector on the target, then inwards; segment i's direction is held in joint
    // i+1's band against segment i+1 (the angle between two directions is symmetric).
    p[n - 1] = target;
    dvec3 child = UnitD(dvec3(target) - dvec3(p[n - 2]), first_start_);
    for (std::size_t i = n - 1; i-- > 0;) {
      dvec3 dir = UnitD(dvec3(p[i + 1]) - dvec3(p[i]), child);
      if (i + 2 < n) dir = IntoBand(child, dir, low_[i + 1], high_[i + 1]);
      p[i] = glm::vec3(dvec3(p[i + 1]) - dir * static_cast<double>(len[i]));
      child = dir;
    }
    // Forward: the root back, then outwards; each direction into its own joint's band
    // against the final parent, so the bands hold exactly when the pass ends.
    p[0] = root;
    dvec3 parent = first_start_;
    for (std::size_t i = 0; i + 1 < n; ++i) {
      dvec3 dir = UnitD(dvec3(p[i + 1]) - dvec3(p[i]), parent);
      dir = i == 0 ? IntoBand(first_start_, dir, 0.0, high_[0])
                   : IntoBand(parent, dir, low_[i], high_[i]);
      p[i + 1] = glm::vec3(dvec3(p[i]) + dir * static_cast<double>(len[i]));
      parent = dir;
    }
    iterations = iteration;
    *distance = SafeDistance(p[n - 1], target);
    if (*distance <= settings.tolerance) break;
  }
  return iterations;
}

// The pivots are the joints that may bend freely or in part (stiffness below 1), plus the root
// and the effector; between two pivots the start pose's piece is one rigid body, so its chord
// keeps its length and its fully stiff joints keep their angle and twist. Plain FABRIK on the
// chords (which converges for any target the chords can reach) places the pivots, and each
// piece is turned by the smallest rotation from its old chord onto its new one. With the root
// fully stiff the first piece stays where it is and the chords hang from its far end.
int StiffSolver::RigidRunPasses(std::span<glm::vec3> p, const glm::vec3& target,
                                const SolveSettings& settings, std::span<const float> stiffness) {
  const std::size_t n = p.size();
  pivots_.clear();
  pivots_.push_back(0);
  for (std::size_t i = 1; i + 1 < n; ++i) {
    if (stiffness[i] < 1.0f) pivots_.push_back(i);
  }
  pivots_.push_back(n - 1);
  const std::size_t count = pivots_.size();
  for (std::size_t m = 0; m < count; ++m) chords_[m] = dvec3(start_[pivots_[m]]);
  for (std::size_t m = 0; m + 1 < count; ++m) {
    chord_lengths_[m] = glm::length(chords_[m + 1] - chords_[m]);
  }
  const std::size_t base = stiffness[0] >= 1.0f ? 1 : 0;
  if (base + 1 >= count) return 0;  // everything is fixed
  const dvec3 root = chords_[base];
  const dvec3 goal(target);
  int iterations = 0;
  if (count - base == 3) {
    // Two chords: the law of cosines, in the plane of the start bend (FABRIK crawls when the
    // target is near the inner edge of a two-link reach).
    PlaceTwoChords(chords_[base], chords_[base + 1], chords_[base + 2], goal, chord_lengths_[base],
                   chord_lengths_[base + 1]);
    iterations = 1;
  }
  for (int iteration = iterations + 1; iteration <= settings.max_iterations; ++iteration) {
    if (glm::length(chords_[count - 1] - goal) <= settings.tolerance) break;
    chords_[count - 1] = goal;
    for (std::size_t m = count - 1; m-- > base;) {
      const dvec3 dir = UnitD(chords_[m] - chords_[m + 1], first_start_);
      chords_[m] = chords_[m + 1] + dir * chord_lengths_[m];
    }
    chords_[base] = root;
    for (std::size_t m = base; m + 1 < count; ++m) {
      const dvec3 dir = UnitD(chords_[m + 1] - chords_[m], first_start_);
      chords_[m + 1] = chords_[m] + dir * chord_lengths_[m];
    }
    iterations = iteration;
  }
  for (std::size_t m = base; m + 1 < count; ++m) {
    const std::size_t a = pivots_[m], b = pivots_[m + 1];
    const dvec3 from = dvec3(start_[b]) - dvec3(start_[a]);
    const dvec3 to = chords_[m + 1] - chords_[m];
    glm::dquat turn(1.0, 0.0, 0.0, 0.0);
    if (glm::length(from) > 1e-12 && glm::length(to) > 1e-12) {
      const dvec3 f = glm::normalize(from), t = glm::normalize(to);
      const dvec3 axis = glm::cross(f, t);
      const dvec3 unit =
          glm::length(axis) > 1e-12 ? glm::normalize(axis) : dvec3(AnyPerpendicular(glm::vec3(f)));
      turn = glm::angleAxis(std::atan2(glm::length(axis), glm::dot(f, t)), unit);
    }
    for (std::size_t i = a + 1; i <= b; ++i) {
      p[i] = glm::vec3(chords_[m] + turn * (dvec3(start_[i]) - dvec3(start_[a])));
    }
  }
  return iterations;
}

}  // namespace fabrik
