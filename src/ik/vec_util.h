// vec_util.h - small vector checks every solver file needs. Internal to src/ik.
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

}  // namespace fabrik
