#include "ik/fabrik.h"

#include <algorithm>
#include <cmath>

#include <glm/geometric.hpp>

namespace fabrik {
namespace {

bool IsFinite(const glm::vec3& p) {
  return std::isfinite(p.x) && std::isfinite(p.y) && std::isfinite(p.z);
}

// |v| without overflow for any finite v (glm::length squares the components first, which
// overflows for components beyond ~1e19).
float RobustLength(const glm::vec3& v) {
  const float scale = std::max({std::fabs(v.x), std::fabs(v.y), std::fabs(v.z)});
  if (!(scale > 0.0f) || !std::isfinite(scale)) return scale > 0.0f ? scale : 0.0f;
  return scale * glm::length(v / scale);
}

// A chain lying on one line through the root along `axis` can never leave that line under
// FABRIK's reaches: every reach moves a joint along the line through two collinear points.
// Returns true when all joints are within a tiny distance of that line. Exits at the first
// joint off the line, so a bent chain costs one or two cross products.
bool IsCollinearWith(std::span<const glm::vec3> joints, const glm::vec3& axis, float eps) {
  const glm::vec3 root = joints.front();
  for (std::size_t i = 1; i < joints.size(); ++i) {
    if (glm::length(glm::cross(joints[i] - root, axis)) > eps) return false;
  }
  return true;
}

// Bends a collinear chain into a gentle arc (at most a quarter turn in all) in a plane
// containing `axis`, keeping every length, so the reaches have a side to fold towards.
void BendOffAxis(Chain& chain, const glm::vec3& axis) {
  std::span<glm::vec3> p = chain.pose_for_solver();
  std::span<const float> len = chain.lengths();
  const glm::vec3 side = AnyPerpendicular(axis);
  const float step = std::min(0.2f, 1.5707964f / static_cast<float>(len.size()));
  for (std::size_t i = 1; i < p.size(); ++i) {
    const glm::vec3 along = SafeNormalize(p[i] - p[i - 1], axis);
    const float angle = step * static_cast<float>(i);
    const glm::vec3 dir = SafeNormalize(along * std::cos(angle) + side * std::sin(angle), along);
    // Re-place every later joint relative to its parent so the whole tail rotates with it.
    p[i] = p[i - 1] + dir * len[i - 1];
  }
}

}  // namespace

glm::vec3 SafeNormalize(const glm::vec3& v, const glm::vec3& fallback) {
  const float l = glm::length(v);
  if (l > 1e-20f && std::isfinite(l)) return v / l;
  // Too large (the squared length overflowed) or tiny: rescale by the largest component.
  const float scale = std::max({std::fabs(v.x), std::fabs(v.y), std::fabs(v.z)});
  if (scale > 0.0f && std::isfinite(scale)) {
    const glm::vec3 s = v / scale;
    return s / glm::length(s);
  }
  return fallback;
}

glm::vec3 AnyPerpendicular(const glm::vec3& axis) {
  // Prefer bending "up" (+Y) when the axis is mostly horizontal: that is what a viewer
  // expects of a chain lying on the ground plane.
  const glm::vec3 up(0.0f, 1.0f, 0.0f);
  const glm::vec3 helper = std::fabs(axis.y) < 0.9f ? up : glm::vec3(1.0f, 0.0f, 0.0f);
  const glm::vec3 side = glm::cross(glm::cross(axis, helper), axis);
  return SafeNormalize(side, glm::vec3(0.0f, 0.0f, 1.0f));
}

const char* ValidateSolveInput(const glm::vec3& target, const SolveSettings& settings) {
  if (!IsFinite(target)) return "target is not finite (NaN or inf)";
  if (!std::isfinite(settings.tolerance) || !(settings.tolerance > 0.0f)) {
    return "tolerance must be finite and > 0";
  }
  if (settings.max_iterations < 1) return "max_iterations must be >= 1";
  return nullptr;
}

void StraightenTowards(Chain& chain, const glm::vec3& target) {
  std::span<glm::vec3> p = chain.pose_for_solver();
  std::span<const float> len = chain.lengths();
  const glm::vec3 current = SafeNormalize(p.back() - p.front(), glm::vec3(0.0f, 1.0f, 0.0f));
  const glm::vec3 dir = SafeNormalize(target - p.front(), current);
  for (std::size_t i = 1; i < p.size(); ++i) p[i] = p[i - 1] + dir * len[i - 1];
}

SolveResult SolveFabrik(Chain& chain, const glm::vec3& target, const SolveSettings& settings,
                        SolveObserver* observer) {
  SolveResult result;
  if (const char* error = ValidateSolveInput(target, settings)) {
    result.ok = false;
    result.error = error;
    return result;
  }
  std::span<glm::vec3> p = chain.pose_for_solver();
  std::span<const float> len = chain.lengths();
  const std::size_t n = p.size();
  const glm::vec3 root = p[0];
  if (observer) observer->OnBegin(p, target);

  const float root_distance = RobustLength(target - root);
  result.reachable = root_distance <= chain.total_length();

  if (!result.reachable) {
    StraightenTowards(chain, target);
    result.iterations = 1;
    if (observer) observer->OnHalfPass(PassKind::kStraighten, 1, p);
  } else if (RobustLength(p[n - 1] - target) > settings.tolerance) {
    // The straight-chain trap: if every joint is on the line root->target, reaches keep them
    // on it and the chain can only fold flat onto itself. Bend it off the line first.
    const glm::vec3 axis = SafeNormalize(target - root, SafeNormalize(p[n - 1] - root,
                                                                      glm::vec3(0, 1, 0)));
    if (IsCollinearWith(p, axis, 1e-5f * chain.total_length())) BendOffAxis(chain, axis);

    // Fallback directions for reaches whose two points coincide: keep going the way the
    // previous reach went, which is always a valid choice that keeps the length.
    const glm::vec3 inward = SafeNormalize(root - target, -axis);
    const float tolerance_sq = settings.tolerance * settings.tolerance;
    for (int iteration = 1; iteration <= settings.max_iterations; ++iteration) {
      // Backward pass: effector onto the target, then each joint slides along the line to
      // its (already moved) child until it is one segment length from it.
      p[n - 1] = target;
      glm::vec3 last_dir = inward;
      for (std::size_t i = n - 1; i-- > 0;) {
        const glm::vec3 d = p[i] - p[i + 1];
        const float r = glm::length(d);
        last_dir = (r > 1e-20f) ? d / r : last_dir;
        p[i] = p[i + 1] + last_dir * len[i];
      }
      if (observer) observer->OnHalfPass(PassKind::kBackward, iteration, p);

      // Forward pass: root back to its fixed place, then outwards.
      p[0] = root;
      last_dir = -inward;
      for (std::size_t i = 1; i < n; ++i) {
        const glm::vec3 d = p[i] - p[i - 1];
        const float r = glm::length(d);
        last_dir = (r > 1e-20f) ? d / r : last_dir;
        p[i] = p[i - 1] + last_dir * len[i - 1];
      }
      result.iterations = iteration;
      if (observer) observer->OnHalfPass(PassKind::kForward, iteration, p);

      const glm::vec3 miss = p[n - 1] - target;
      if (glm::dot(miss, miss) <= tolerance_sq) break;
    }
  }
  result.distance = RobustLength(p[n - 1] - target);
  result.reached = result.distance <= settings.tolerance;
  return result;
}

}  // namespace fabrik
