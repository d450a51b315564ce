// vec_util.h - small vector checks and helpers every solver file needs, shared by the layers
// above the solver (walker, terrain, targets, core). Not installed.
#pragma once

#include <algorithm>
#include <cmath>
#include <glm/geometric.hpp>
#include <glm/vec3.hpp>

namespace fabrik {

// All three coordinates finite (no NaN, no inf).
inline bool IsFinite(const glm::vec3& v) {
  return std::isfinite(v.x) && std::isfinite(v.y) && std::isfinite(v.z);
}

// |v| without overflow for any finite v (glm::length squares the components first, which
// overflows beyond ~1e19): scaled by the largest component.
inline float RobustLength(const glm::vec3& v) {
  const float scale = std::max({std::fabs(v.x), std::fabs(v.y), std::fabs(v.z)});
  if (!(scale > 0.0f) || !std::isfinite(scale)) return scale > 0.0f ? scale : 0.0f;
  return scale * glm::length(v / scale);
}

// v / |v| in double, or `fallback` when |v| is not above `min_length` or not finite.
inline glm::dvec3 UnitD(const glm::dvec3& v, const glm::dvec3& fallback, double min_length = 0.0) {
  const double l = glm::length(v);
  return l > min_length && std::isfinite(l) ? v / l : fallback;
}

// The unit vector of `v`, or `fallback` when |v| is zero or not finite. Vectors whose squared
// length leaves float's normal range are rescaled by their largest component first, so the
// result is a unit vector for every finite non-zero v. (Defined in fabrik.cpp, which the
// batched solver's lanes must match bit for bit.)
glm::vec3 SafeNormalize(const glm::vec3& v, const glm::vec3& fallback);

// A unit vector perpendicular to the unit vector `axis`: towards +Y when the axis is mostly
// horizontal (|axis.y| < 0.9), otherwise towards +X; +Z if that fails.
glm::vec3 AnyPerpendicular(const glm::vec3& axis);

// The next joint of a chain laid straight from `root` along the unit direction `dir`: one
// segment `length` from the previous (rounded) joint, aimed in double at the exact line point
// `along` units from the root. A length then suffers a single rounding, and sideways
// roundings do not add up down the chain (placing each joint along `dir` from the previous
// one let a chain far from the origin drift off its line; found by fuzz_solver).
inline glm::vec3 NextJointOnLine(const glm::dvec3& root, const glm::dvec3& dir, double along,
                                 const glm::vec3& previous, float length) {
  const glm::dvec3 from(previous);
  const glm::dvec3 aim = root + dir * along - from;
  const double aim_length = glm::length(aim);
  const glm::dvec3 step = aim_length > 0.0 ? aim / aim_length : dir;
  return glm::vec3(from + step * double(length));
}

}  // namespace fabrik
