// constrained_fabrik.h - FABRIK on a single chain with joint limits and an optional pole.
//
// Aristidou & Lasenby, "FABRIK: A fast, iterative solver for the Inverse Kinematics problem",
// Graphical Models 73(5), 2011: algorithm 1 with the joint limits of section 4 applied inside
// both passes. Constraint model and frames: constraints.h.
//
// SolveFabrikConstrained(chain, constraints, target, settings, pole, observer, at_limit):
//   * invalid input - non-finite target or pole, bad settings (ValidateSolveInput), bad
//     constraints (ValidateJointConstraint / ValidateBaseFrame), more constraints than the chain
//     has segments - returns base.ok = false with a static message; the chain is untouched.
//   * no joint constrained and no pole: exactly SolveFabrik (fabrik.h).
//   * otherwise each iteration is
//       backward pass: the effector onto the target, then inwards; each new segment direction
//         is limited by the child joint's constraint seen from the child (MirroredConstraint)
//         and by its own constraint when that is world-fixed (root joint, world hinge);
//       forward pass: the root back in place, then outwards; each segment direction is moved
//         into its joint's limit relative to the frame carried from the base (exact);
//       pole (if given): BendTowardsPole, then the forward pass again so the limits hold.
//     Iterations stop when |effector - target| <= tolerance, after max_iterations, or when an
//     iteration moved the effector by less than 1e-3 x its remaining distance to the target
//     (or 1e-7 x total length): no more progress.
//   * limits make local minima (a chain wrapped the wrong way round settles on a limit short of
//     a target it could reach). When a reachable solve stalls like that with iterations to
//     spare, it is run once more from the rest pose (every segment straight on from its parent,
//     moved into its limit) and the closer of the two poses is kept; `iterations` and the
//     observer count both attempts. Chains of more than 64 joints skip this retry.
//   * settings.accelerate: after an iteration that neither reached nor stalled, one
//     bend-scale step (fabrik_accelerated.h), about the root or else about joint 1 (so a rigid
//     first segment can stay), kept only when the pose stays inside every limit (else undone);
//     it counts as an iteration, is reported as PassKind::kBendScale, and after a veto the
//     next waits 1, 2, 4, ... iterations. Chains of up to 64 joints (the undo copy is on the
//     stack). Measured (bench/bench_convergence.cpp, docs/accelerated-fabrik.md): a
//     10-joint chain with 0.6 rad cones, targets at 60-99% of the reach, 21 -> 2.3 iterations;
//     the demo's hinged arm 12.5 -> 7.6. Without limits and pole it is SolveFabrik's own
//     accelerated solve.
//   * a target beyond total_length() is first reached for with the straight chain
//     (StraightenTowards), then the passes above move it into its limits as close as they can.
//   * a pose already within tolerance, inside its limits and without a pole runs 0 iterations;
//     a start pose that violates its limits always gets at least one iteration.
// Guarantees, whatever the input geometry: the root does not move, every segment keeps its
// length (to float rounding), no joint becomes NaN or inf, and every joint ends inside its
// limit (max_violation is float rounding, ~1e-6 rad; more only below a bend within ~1e-3 rad
// of a half turn, see TransportFrame) - the pole never wins against a limit. (The
// unconstrained, pole-less case is SolveFabrik and has exactly its guarantees.)
// Cost: O(joints x iterations); no heap allocation; `observer` (may be null) sees kBackward
// after each backward pass and kForward after each forward phase (pole included).
//
// `limited` is the answer to "reachable by distance, but not within the limits": the target is
// within total_length() of the root, it was not reached, and the limits held the chain back -
// at least one joint ended at its limit, or the last forward pass had to move a direction into
// its limit (a world hinge keeping the chain in its plane, say) - so the returned pose is the
// closest the solver found. It is a heuristic - FABRIK cannot prove that no allowed pose
// reaches, and a solve cut short by max_iterations may be flagged too - but an unconstrained
// chain is never `limited`. Tests: about 99% of targets inside the reachable set are reached
// (tolerance 1e-2 on chains ~1-7 units long, 200 iterations), over 75% of targets on its edge.
// Narrow fans - cones with one pair of angles near 0, i.e. hinge-like - converge markedly worse
// (only about a third of reachable targets reached with a 5-segment finger of up 0.1 / down 1.5
// / sides 0.15 rad); prefer a wider cone there.
#pragma once

#include <cstdint>
#include <optional>
#include <span>

#include <glm/vec3.hpp>

#include "chain.h"
#include "constraints.h"
#include "solve_types.h"

namespace fabrik {

struct ConstrainedSolveResult {
  // ok, error, iterations, distance, reached, reachable: as SolveResult documents.
  SolveResult base;
  // Reachable by distance but not reached with joints at their limits (see above).
  bool limited = false;
  // How many joints ended at their limit (IsAtLimit with kAtLimitEpsilon).
  int joints_at_limit = 0;
  // MaxConstraintViolation of the returned pose, radians.
  float max_violation = 0.0f;
};

// See the header comment. `pole`: an optional world-space point that picks the bend direction
// (a 3-joint arm's elbow ends in the plane through root, target and pole, on the pole's side).
// `at_limit`: optional output, one entry per joint (see JointsAtLimit); entries beyond
// joint_count() are untouched, missing ones are skipped.
[[nodiscard]] ConstrainedSolveResult SolveFabrikConstrained(
    Chain& chain, const ChainConstraints& constraints, const glm::vec3& target,
    const SolveSettings& settings, const std::optional<glm::vec3>& pole = std::nullopt,
    SolveObserver* observer = nullptr, std::span<std::uint8_t> at_limit = {});

// The pole step, exposed for tests and teaching views: every inner joint i (1 .. n-2), in
// order, turns about the line through joints i-1 and i+1 until it lies in the half-plane of
// that line containing `pole` (Aristidou & Lasenby's "pole" variant). Keeps every length and
// both end joints; skips a joint that lies on its neighbours' line or whose line passes through
// the pole. Ignores limits. A non-finite pole does nothing.
void BendTowardsPole(Chain& chain, const glm::vec3& pole);

}  // namespace fabrik
