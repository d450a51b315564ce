// fabrik.h - Forward And Backward Reaching Inverse Kinematics on a single chain.
//
// Aristidou & Lasenby, "FABRIK: A fast, iterative solver for the Inverse Kinematics problem",
// Graphical Models 73(5), 2011, algorithm 1, without constraints.
//
// SolveFabrik(chain, target, settings) moves `chain` so its end effector reaches `target`:
//   * invalid input (non-finite target, tolerance not finite or <= 0, max_iterations < 1):
//     returns ok = false with a reason; the chain is not touched and the observer not called.
//   * target farther than total_length() from the root: the chain is laid straight along
//     root -> target, iterations = 1 (the straightening pass, one PassKind::kStraighten call),
//     reachable = false.
//   * effector already within tolerance: nothing moves, iterations = 0.
//   * otherwise, starting from the chain's current pose (warm start), alternate the backward
//     pass (effector onto the target, then each joint towards the root) and the forward pass
//     (root back in place, then outwards) until |effector - target| <= tolerance or
//     max_iterations is reached. reached tells which.
// Always: the root does not move (bitwise), every segment keeps its length (to float rounding
// of the joint coordinates), and no joint, nor the distance, becomes NaN or inf, whatever the
// geometry or magnitude (any finite target; the reported distance saturates at FLT_MAX, and
// reached is distance <= tolerance except that a saturated distance never is). Degenerate
// cases:
//   * a joint landing on the point it reaches from: the reach continues in the direction of
//     the previous reach (the first reach of a pass: along the root-target line).
//   * a chain lying entirely on the line through the root and the target (e.g. a straight
//     chain aimed along its own axis at a nearer target, or at one behind the root, or a
//     chain that got there through the fallback above): reaches alone could never fold it,
//     so a backward pass that starts that way places the effector's parent sideways
//     (perpendicular to the line, preferring +Y) instead of along it. This is still a reach:
//     it moves one joint and keeps one segment length. Not done when the target is within
//     tolerance of full reach, where the straight chain is the answer.
//   * a target inside the chain's reach but not attainable (nearer the root than
//     2 x max_length - total_length): iterates to the cap; reached = false.
// Step-through: within a half-pass every joint is written exactly once, by its own reach
// (backward: joints n-1 down to 0; forward: joints 0 up to n-1), so the pose after any single
// reach can be rebuilt from consecutive OnHalfPass snapshots (see recording_observer.h).
// Cost: O(joints x iterations); no heap allocation; `observer` (may be null) is called once
// at the start and after each half-pass.
// settings.accelerate = true runs SolveFabrikAccelerated instead (fabrik_accelerated.h: the
// same contract, plus bend-scale steps); false (the default) is the textbook loop above.
#pragma once

#include "chain.h"
#include "solve_types.h"

namespace fabrik {

[[nodiscard]] SolveResult SolveFabrik(Chain& chain, const glm::vec3& target,
                                      const SolveSettings& settings,
                                      SolveObserver* observer = nullptr);

// Checks settings and target as every solver does; returns nullptr when valid, otherwise a
// static message naming the problem.
const char* ValidateSolveInput(const glm::vec3& target, const SolveSettings& settings);

// Lays the chain straight from its root towards `target` (used for out-of-reach targets by
// every solver). Keeps lengths; if target == root, keeps the chain's current direction.
void StraightenTowards(Chain& chain, const glm::vec3& target);

}  // namespace fabrik
