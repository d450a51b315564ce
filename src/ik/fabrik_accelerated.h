// fabrik_accelerated.h - FABRIK with a bend-scale step: reaches near full reach in a few
// iterations where the textbook passes crawl.
//
// Why: near full reach the textbook FABRIK map (fabrik.h) is a contraction with a factor
// close to 1: every iteration straightens the chain a little and the effector creeps towards
// the target, so 10-joint chains need ~20 iterations on average and long chains often hit
// any cap. What is missing there is one global move, "unbend everything a bit", which no
// single reach can make.
//
// SolveFabrikAccelerated(chain, target, settings, observer) alternates
//   * one textbook FABRIK iteration (SolveFabrik with max_iterations = 1: bitwise the same
//     backward and forward pass, same degenerate-case handling), and
//   * one bend-scale step: the bend at every inner joint (the rotation taking segment i-1's
//     direction to segment i's) is scaled by one factor s >= 0 (s = 1: the current pose,
//     s = 0: the chain straight along its first segment, s > 1: curled further), and the
//     chain is then turned rigidly about the root so the effector points at the target.
//     The factor is found by a bracketed 1-D root search (Brent-style: inverse quadratic
//     interpolation, secant, bisection) on
//     |effector(s) - root| = |target - root|, so after the turn the effector lies on the
//     target up to the search tolerance (1/4 of settings.tolerance) and float rounding.
//     Computed in float, in units of the chain's length relative to its root, by the one
//     definition of the step (bend_step-inl.h) that the batched solver runs on its SIMD lanes:
//     both take the same operations in the same order and give the same floats. Joints are
//     written once, each the root plus the turned segments before it summed with
//     compensation, so segment lengths come out exact to the float rounding of their two
//     joints' coordinates (and a few float ulps of the length from the direction arithmetic),
//     and a long chain's effector carries no accumulated float noise.
// Safeguard: a bend-scale step is applied only when the effector it writes is nearer the target
// than the current one (its distance times 1 + 2^-18 below the current distance, both computed
// alike in float, each within 4 ulps); otherwise the pose is left bitwise untouched. So no
// bend-scale step ever raises the error. Jump guard: a step is also left out when it would move
// any joint more than 3 times the effector's distance from the target at the start of the
// solve - the bracket may hold a root far from the current pose (a chain curled much further,
// say) that lands on the target but jumps, where a few textbook iterations get there smoothly;
// warm tracking thus never jumps, and a cold solve (where that distance is large) is not held
// back. A step whose search finds no bracket (the effector is farther from the root than the
// target and curling by s up to 17 does not bring it inside), or on a chain whose length lies
// outside [1e-15, 1e15], is also left out. After a step that was left out, the next waits 1,
// 2, 4, ... textbook iterations.
//
// Iterations (SolveResult::iterations, capped by settings.max_iterations) count both kinds:
// each textbook iteration counts 1 and each bend-scale step counts 1, applied or not. A
// bend-scale step costs 3-5 float chain sweeps as a rule (one for the directions and bends,
// one per search evaluation, one to write, one more for the jump guard when it can bite; up
// to ~25 in pathological poses);
// the benchmark (docs/accelerated-fabrik.md) reports the time per solve against the textbook.
//
// Observer: OnBegin once; per textbook iteration OnHalfPass(kBackward) and (kForward); per
// bend-scale step one OnHalfPass(PassKind::kBendScale, iteration, pose) with the pose after
// it (unchanged when the safeguard rejected it). Like a forward pass it writes joints in
// order from the root (joint j is final once joint j has been written), so
// RecordingObserver's reach numbering (joint j at reach j) replays it. The root is never
// moved by it.
//
// Everything else is SolveFabrik's contract (fabrik.h): invalid input rejected untouched,
// out-of-reach targets straightened (iterations = 1), 0 iterations when already within
// tolerance, warm start from the current pose, root bitwise fixed, lengths kept, no NaN or
// inf for any finite input, no heap allocation. Deterministic.
// Joint limits: the bend-scale step knows none; constrained_fabrik.h uses it only where it
// checks the result (see there).
#pragma once

#include <cstddef>
#include <glm/vec3.hpp>
#include <limits>

#include "chain.h"
#include "solve_types.h"

namespace fabrik {

// See the header comment. settings.accelerate is ignored (this is the accelerated solver).
[[nodiscard]] SolveResult SolveFabrikAccelerated(Chain& chain, const glm::vec3& target,
                                                 const SolveSettings& settings,
                                                 SolveObserver* observer = nullptr);

// One bend-scale step on its own (see above), for the constrained solver and tests: returns
// true when it was applied (the effector's distance to `target` strictly decreased), false
// when the pose is unchanged (also when the target is beyond the reach of the part of the
// chain after the pivot). `target` must be finite; `goal` (> 0) is how close the 1-D search
// tries to bring the effector. `pivot`: the step acts on joints pivot..n-1 only, turning
// them about joint `pivot` (0: the whole chain about the root); joints up to the pivot stay.
// `max_move` (world units): the step is left out (false) when it would move any joint farther
// than that; infinity disables the check.
bool BendScaleStep(Chain& chain, const glm::vec3& target, float goal, std::size_t pivot = 0,
                   float max_move = std::numeric_limits<float>::infinity());

}  // namespace fabrik
