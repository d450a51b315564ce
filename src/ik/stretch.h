// stretch.h - reaching beyond the chain's length by scaling every segment by one factor (as
// Blender's IK stretch and Unreal's allow_stretch do).
//
// With a maximum stretch S >= 1 and reach L (total_length()), for a target at distance d from
// the root:
//   * d <= L: the ordinary solve; factor 1.
//   * L < d <= S x L: the chain is laid straight towards the target and every segment is scaled
//     by d / L, so the effector lands on the target (to float rounding).
//   * d > S x L: laid straight and scaled by S; the effector falls short.
// The stretched pose has other lengths than the Chain, whose lengths are fixed (chain.h), so it
// is written to a caller's span; the chain itself keeps its lengths (laid straight for an
// out-of-reach target, as every solver does).
// Units: world units; factors are unitless.
#pragma once

#include <glm/vec3.hpp>
#include <span>

#include "chain.h"
#include "solve_types.h"
#include "solver.h"

namespace fabrik {

// True for a usable maximum stretch: finite and >= 1.
bool ValidMaxStretch(float max_stretch);

// The factor above: clamp(distance / reach, 1, max_stretch), in double. 1 for a non-positive
// or non-finite reach, a NaN distance, or an invalid max_stretch.
double StretchFactor(double reach, double distance, double max_stretch);

// out[i] = joints[0] + factor x (joints[i] - joints[0]) in double: the pose scaled about its
// root, which multiplies every segment's length by `factor` and keeps every angle. Returns
// false, writing nothing, when the sizes differ or factor is not finite and > 0.
bool ScalePose(std::span<const glm::vec3> joints, double factor, std::span<glm::vec3> out);

struct StretchSolveResult {
  // ok, error, iterations: the solver's. distance: |stretched effector - target|; reached:
  // distance <= tolerance; reachable: |target - root| <= max_stretch x reach.
  SolveResult base;
  float stretch = 1.0f;  // the factor applied
};

// Runs solver `kind` on `chain` towards `target`, then writes the stretched pose into `out`
// (joint_count() points; a wrong size or an invalid max_stretch gives ok = false with a
// static message and touches nothing). No heap allocation.
[[nodiscard]] StretchSolveResult SolveStretched(SolverKind kind, Chain& chain,
                                                const glm::vec3& target,
                                                const SolveSettings& settings, float max_stretch,
                                                std::span<glm::vec3> out);

}  // namespace fabrik
