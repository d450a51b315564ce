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
// the returned pose. Like every FABRIK with joint limits, the passes can stall in a local
// minimum short of a target the free joints could reach (a stiff pair that must swing round
// the root the other way): tested, 295 of 300 random targets within half the reach of chains of
// 5-9 joints with one or two fully stiff joints are reached (tolerance 1e-3, 300 iterations).
// A target out of reach is reached for as far as the bands allow (no straightening pass);
// reachable is |target - root| <= total_length().
// settings.accelerate is ignored (textbook passes). Iterations stop at the tolerance or at
// max_iterations; 0 when the effector is already within tolerance.
// Always: root fixed, lengths kept to float rounding, joints finite.
// Failure (ok = false, static message, chain untouched): the solver's input checks
// (ValidateSolveInput), stiffness not of joint_count() entries, or an entry outside [0, 1] or
// NaN. No heap allocation once warm: the solver keeps its start angles in a buffer sized to
// the longest chain seen.
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
  std::vector<float> low_;   // per joint: smallest allowed bend angle (root: unused)
  std::vector<float> high_;  // per joint: largest allowed bend angle (root: cone half-angle)
};

}  // namespace fabrik
