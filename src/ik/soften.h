// soften.h - a target that approaches full reach asymptotically instead of snapping straight.
//
// A chain whose target moves steadily out of reach straightens abruptly: the last few percent
// of reach take the joints through their largest angular speed. Softening (as ozz-animation's
// IKTwoBoneJob::soften defines it) aims the chain at a nearer point instead once the target is
// beyond `ratio` x reach:
//
//   d  = |target - root|, L = reach, d0 = ratio x L, ds = L - d0
//   d' = d                                          for d <= d0 (or ratio = 1: no softening)
//   d' = d0 + ds x (1 - exp(-(d - d0) / ds))        for d >  d0
//
// and the softened target is root + d' x unit(target - root). So d' < L: the effector
// approaches the target and the full reach only asymptotically (in floating point d' rounds to
// L only once the exponential is below double rounding, many times (L - d0) out), and d' is
// continuous with a continuous first derivative (slope 1 on both sides) as d crosses d0, so a
// target moving at constant speed moves the effector without a jerk. d' <= d always, and d'
// never decreases as d grows (strictly increases while below L).
//
// Units: world units (distances); `ratio` is unitless, valid in (0, 1]. Pure functions,
// computed in double, no allocation, nothing throws.
#pragma once

#include <glm/vec3.hpp>

namespace fabrik {

// True for a usable soften ratio: finite, 0 < ratio <= 1.
bool ValidSoftenRatio(float ratio);

// d' above for distance `distance` >= 0 and reach `reach` > 0. A ratio outside (0, 1] or NaN
// counts as 1 (no softening); a non-finite or negative distance is returned unchanged.
double SoftenedDistance(double distance, double reach, double ratio);

// The softened target: `target` itself when it is within ratio x reach of `root` (or equal to
// it), otherwise the point at SoftenedDistance along root -> target. Finite for finite input.
glm::vec3 SoftenTarget(const glm::vec3& root, const glm::vec3& target, float reach, float ratio);

}  // namespace fabrik
