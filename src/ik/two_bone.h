// two_bone.h - the analytic two-bone solver (an arm: shoulder, elbow, hand), one step.
//
// SolveTwoBone(chain, target, settings, options) places a 3-joint chain by the law of cosines:
// with upper length a, lower length b and the (softened, see soften.h) root-to-target distance
// c clamped to [|a - b|, a + b], the elbow makes the angle A with the root->target line where
//   cos A = (a^2 + c^2 - b^2) / (2 a c),
// and the effector is put one lower length from the elbow towards the aimed point. Computed in
// double; for a reachable target (|a - b| <= c <= a + b) without softening the effector lands
// on the target to float rounding of the joint coordinates (tested: within 4 float ulps of the
// largest coordinate), whatever the tolerance.
//
// The bend plane (which side the elbow goes), in this order:
//   1. options.pole (a world point): the elbow ends in the half-plane through root and
//      target that contains the pole (as constrained_fabrik.h's pole). Skipped when the pole
//      lies on the root->target line.
//   2. the current bend plane: the plane of the current upper and lower segments, with the
//      elbow on the same side of the new root->target line as the current bend turns. Skipped
//      when the chain is straight or folded (bend within ~1e-6 rad), or when that plane is
//      almost perpendicular to the new root->target line (within ~1e-3 rad).
//   3. the side the elbow is on now, seen from the new root->target line.
//   4. any side, preferring +Y (+X when the root->target line is mostly vertical).
//
// Cases:
//   * invalid input: a chain that does not have exactly 3 joints, a non-finite target or pole,
//     bad settings (ValidateSolveInput; max_iterations is checked but unused), a soften ratio
//     outside (0, 1] or NaN: ok = false with a static message, the chain untouched, the
//     observer not called.
//   * c > a + b (out of reach, no softening): the chain is laid straight towards the target;
//     reachable = false.
//   * c < |a - b| (too near the root for unequal bones): the chain folds (elbow angle 0) and
//     the effector stops |a - b| from the root, on the line towards the target; not reached.
//   * target on the root: the direction is the current root->effector one (else the upper
//     segment's).
//   * options.soften < 1: the distance is softened first (soften.h), so a target moving out of
//     reach moves the effector smoothly; beyond soften x reach the effector falls short of the
//     target (reached then only if within tolerance).
// Result: iterations = 1 always (one analytic step); distance, reached, reachable as
// solve_types.h says (reachable: c <= a + b, before softening). Always: the root does not
// move, both lengths are kept to float rounding, every joint is finite. The observer (may be
// null) gets OnBegin and one OnHalfPass: kStraighten when the chain was laid straight for an
// out-of-reach target, else kForward. No heap allocation.
#pragma once

#include <glm/vec3.hpp>
#include <optional>

#include "chain.h"
#include "solve_types.h"

namespace fabrik {

struct TwoBoneOptions {
  // World point picking the bend plane (see above); none keeps the current bend plane.
  std::optional<glm::vec3> pole;
  // Soften ratio (soften.h), in (0, 1]; 1 is no softening.
  float soften = 1.0f;
};

[[nodiscard]] SolveResult SolveTwoBone(Chain& chain, const glm::vec3& target,
                                       const SolveSettings& settings,
                                       const TwoBoneOptions& options = {},
                                       SolveObserver* observer = nullptr);

}  // namespace fabrik
