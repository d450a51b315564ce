// stiffness.h - FABRIK with per-joint stiffness: stiff joints keep their bend while the free
// ones take up the motion (as Unreal's Full Body IK per-bone stiffness does in spirit).
//
// Stiffness s_i in [0, 1], one per joint (joint_count() entries):
//   * inner joint i (1 .. n-2): its bend angle - the angle between segment i-1 and segment i,
//     radians in [0, pi] - stays within (1 - s_i) x pi of its angle in the start pose. s = 0 is
//     free (plain FABRIK's freedom), s = 1 keeps the start angle (to float rounding, ~1e-6
//     rad; tested within 0.5 degrees), and in between the joint has a proportionally smaller
//     range, so it takes a smaller share of the motion. The bend's plane is free: a stiff
//     joint may swivel about its parent segment.
//   * the root joint 0: the first segment's direction stays within (1 - s_0) x pi of its start
//     direction (s_0 = 1 holds the first segment still).
//   * the last joint (the effector) has nothing to bend; its entry must be valid but is unused.
// Method: FABRIK's backward and forward passes (Aristidou & Lasenby 2011, algorithm 1) in which
// every new segment direction is moved into its joint's band - the band of joint i+1 seen from
// the child in the backward pass, joint i's from the parent in the forward pass - by turning it
// in the plane of the two segments. The forward pass is last, so the bands hold exactly in
// the returned pose. Those passes can stall short of a target (a stiff pair that must swing
// round the root the other way), so when they end short a second solve starts again from the
// start pose with each run of fully stiff joints (s = 1) held rigid - its bends and twists as
// at the start - and plain FABRIK on the free joints (s < 1) between them; if some joint is
// only partly stiff, banded passes then continue from that pose. The closer of the two poses
// is returned. So:
//   * Reach promise: with every stiffness 0 or 1, a target that the free joints can reach
//     while the stiff runs stay rigid (and, with s_0 = 1, the first run fixed) is reached
//     within the tolerance, given the iterations plain FABRIK needs on that shorter chain
//     (tested over every pattern of stiff joints on chains of 3, 5 and 7 segments, targets
//     from just outside the reduced chain's inner hole to 98 % of its reach).
//   * With partial stiffness (0 < s < 1) the result is the best of the two attempts, with no
//     such promise.
// A target out of reach is reached for as far as the bands allow (no straightening pass);
// reachable is |target - root| <= total_length().
// Iterations: the sum over the attempts (each at most max_iterations), so at most three times
// max_iterations; 0 when the effector is already within tolerance.
// settings.accelerate is ignored (textbook passes).
// Always: root fixed, lengths kept to float rounding, joints finite.
// Failure (ok = false, static message, chain untouched): the solver's input checks
// (ValidateSolveInput), stiffness not of joint_count() entries, or an entry outside [0, 1] or
// NaN. No heap allocation once warm: the solver keeps its start pose, bands and chords in
// buffers sized to the longest chain seen.
#pragma once

#include <glm/vec3.hpp>
#include <span>
#include <vector>

#include "chain.h"
#include "solve_types.h"

namespace fabrik {

// The bend angle of inner joint i (1 .. joint_count() - 2) of a pose, radians in [0, pi]: the
// angle between segment i-1 and segment i (0 = straight on). Computed in double.
float BendAngle(std::span<const glm::vec3> joints, std::size_t i);

class StiffSolver {
 public:
  [[nodiscard]] SolveResult Solve(Chain& chain, const glm::vec3& target,
                                  const SolveSettings& settings, std::span<const float> stiffness);

 private:
  // Banded FABRIK iterations from the current pose; returns how many ran, sets *distance.
  int BandedPasses(std::span<glm::vec3> p, std::span<const float> len, const glm::vec3& target,
                   const SolveSettings& settings, float* distance) const;
  // The rigid-run solve from start_ (see Method above); returns the iterations.
  int RigidRunPasses(std::span<glm::vec3> p, const glm::vec3& target, const SolveSettings& settings,
                     std::span<const float> stiffness);
  glm::dvec3 first_start_{0.0, 1.0, 0.0};  // the first segment's start direction
  std::vector<glm::vec3> start_;           // the start pose
  std::vector<glm::vec3> best_;            // the banded passes' pose, while the other is tried
  std::vector<std::size_t> pivots_;        // joints with stiffness below 1, root and effector
  std::vector<glm::dvec3> chords_;         // the pivots' positions in the rigid-run solve
  std::vector<double> chord_lengths_;      // chord m joins pivots m and m + 1
  std::vector<float> low_;                 // per joint: smallest allowed bend angle (root: unused)
  std::vector<float> high_;  // per joint: largest allowed bend angle (root: cone half-angle)
};

}  // namespace fabrik
