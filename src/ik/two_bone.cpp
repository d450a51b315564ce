#include "ik/two_bone.h"

#include <algorithm>
#include <cmath>
#include <glm/geometric.hpp>

#include "ik/fabrik.h"
#include "ik/soften.h"
#include "ik/solver.h"
#include "ik/vec_util.h"

namespace fabrik {
namespace {

using glm::dvec3;

// v with its component along unit u removed, normalised; or zero when what is left is below
// `min_share` of |v| (the direction would be rounding noise).
dvec3 PerpendicularPart(const dvec3& v, const dvec3& u, double min_share) {
  const dvec3 side = v - glm::dot(v, u) * u;
  const double length = glm::length(side);
  const double whole = glm::length(v);
  if (!(length > min_share * whole) || !(length > 0.0)) return dvec3(0.0);
  return side / length;
}

// The unit bend direction: perpendicular to u, pointing to where the elbow goes (see the
// header's order).
dvec3 BendDirection(const dvec3& root, const dvec3& elbow, const dvec3& effector, const dvec3& u,
                    const std::optional<glm::vec3>& pole) {
  if (pole) {
    const dvec3 side = PerpendicularPart(dvec3(*pole) - root, u, 1e-6);
    if (side != dvec3(0.0)) return side;
  }
  const dvec3 upper = elbow - root;
  const dvec3 lower = effector - elbow;
  const double upper_length = glm::length(upper);
  const double lower_length = glm::length(lower);
  if (upper_length > 0.0 && lower_length > 0.0) {
    // The current plane's normal, with the bend's sense: keeping it keeps the elbow turning the
    // same way about the new line.
    const dvec3 normal = glm::cross(upper / upper_length, lower / lower_length);
    const double sine = glm::length(normal);
    if (sine > 1e-6) {
      const dvec3 side = glm::cross(u, normal / sine);
      const double share = glm::length(side);
      if (share > 1e-3) return side / share;
    }
  }
  const dvec3 side = PerpendicularPart(upper, u, 1e-6);
  if (side != dvec3(0.0)) return side;
  return dvec3(AnyPerpendicular(glm::vec3(u)));
}

}  // namespace

SolveResult SolveTwoBone(Chain& chain, const glm::vec3& target, const SolveSettings& settings,
                         const TwoBoneOptions& options, SolveObserver* observer) {
  SolveResult result;
  const char* error = nullptr;
  if (chain.joint_count() != 3) {
    error = "two-bone IK needs a chain of exactly 3 joints";
  } else if (const char* input = ValidateSolveInput(target, settings)) {
    error = input;
  } else if (options.pole && !IsFinite(*options.pole)) {
    error = "pole is not finite (NaN or inf)";
  } else if (!ValidSoftenRatio(options.soften)) {
    error = "soften must be a number with 0 < soften <= 1";
  }
  if (error != nullptr) {
    result.ok = false;
    result.error = error;
    return result;
  }
  std::span<glm::vec3> p = chain.pose_for_solver();
  if (observer) observer->OnBegin(chain.joints(), target);

  const dvec3 root(p[0]), elbow(p[1]), effector(p[2]), aim_at(target);
  const double a = chain.lengths()[0];
  const double b = chain.lengths()[1];
  const double reach = a + b;

  // The line to aim along; a target on the root keeps the current direction.
  dvec3 offset = aim_at - root;
  double c = glm::length(offset);
  dvec3 u;
  if (c > 0.0 && std::isfinite(c)) {
    u = offset / c;
  } else {
    u = glm::dvec3(SafeNormalize(glm::vec3(effector - root), glm::vec3(elbow - root)));
    c = 0.0;
  }
  result.reachable = c <= reach;

  const double soft = SoftenedDistance(c, reach, options.soften);
  const double along = std::clamp(soft, std::fabs(a - b), reach);
  // Law of cosines for the elbow's angle off the line; rounding may push the cosine a hair
  // past 1 at full reach or full fold.
  const double cosine =
      along > 0.0 ? std::clamp((a * a + along * along - b * b) / (2.0 * a * along), -1.0, 1.0)
                  : 0.0;  // a == b and the target on the root: elbow square to the line
  const double sine = std::sqrt(std::max(0.0, 1.0 - cosine * cosine));
  const dvec3 side = BendDirection(root, elbow, effector, u, options.pole);
  const dvec3 new_elbow = root + a * (cosine * u + sine * side);
  // The effector one lower length from the elbow towards the aimed point: that distance is b
  // analytically, so this lands on it to double rounding and keeps b exactly.
  const dvec3 aimed = root + along * u;
  const dvec3 toward = aimed - new_elbow;
  const double toward_length = glm::length(toward);
  const dvec3 lower_dir = toward_length > 0.0 ? toward / toward_length : u;
  p[1] = glm::vec3(new_elbow);
  p[2] = glm::vec3(new_elbow + b * lower_dir);

  result.iterations = 1;
  result.distance = SafeDistance(p[2], target);
  result.reached = result.distance <= settings.tolerance && result.distance < 3.4e38f;
  if (observer) {
    const bool straightened = !result.reachable && options.soften >= 1.0f;
    observer->OnHalfPass(straightened ? PassKind::kStraighten : PassKind::kForward, 1,
                         chain.joints());
  }
  return result;
}

}  // namespace fabrik
