// fabrik.h - Forward And Backward Reaching Inverse Kinematics on a single chain.
//
// Aristidou & Lasenby, "FABRIK: A fast, iterative solver for the Inverse Kinematics problem",
// Graphical Models 73(5), 2011, algorithm 1, without constraints.
//
// SolveFabrik(chain, target, settings) moves `chain` so its end effector reaches `target`:
//   * invalid input (non-finite target, tolerance not finite or <= 0, max_iterations < 1):
//     returns ok = false with a reason; the chain is not touched.
//   * target farther than total_length() from the root: the chain is laid straight along
//     root -> target, iterations = 1 (the straightening pass), reachable = false.
//   * otherwise, starting from the chain's current pose (warm start), alternate the backward
//     pass (effector onto the target, then each joint towards the root) and the forward pass
//     (root back in place, then outwards) until |effector - target| <= tolerance or
//     max_iterations is reached. reached tells which.
// Always: the root does not move, every segment keeps its length (to float rounding), and no
// joint becomes NaN or inf, whatever the geometry - a joint landing on the point it reaches
// from, a target on the root or on a joint, or a straight chain aimed along its own axis at a
// nearer target (the chain is bent slightly first, or it could never fold).
// Cost: O(joints x iterations); no heap allocation; `observer` (may be null) is called after
// each half-pass.
#pragma once

#include "ik/chain.h"
#include "ik/solve_types.h"

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

// The unit vector of `v`, or `fallback` when |v| is zero or not finite. Exposed for the other
// solvers and for tests.
glm::vec3 SafeNormalize(const glm::vec3& v, const glm::vec3& fallback);

// Any unit vector perpendicular to unit vector `axis`.
glm::vec3 AnyPerpendicular(const glm::vec3& axis);

}  // namespace fabrik
