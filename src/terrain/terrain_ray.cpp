#include "terrain/terrain_ray.h"

#include <algorithm>
#include <cmath>
#include <glm/geometric.hpp>
#include <limits>

#include "ik/vec_util.h"

namespace fabrik {
namespace {

// Slab clipping of the ray against the box the ground can occupy; false when it misses.
bool ClipToBox(const glm::vec3& o, const glm::vec3& d, const glm::vec3& lo, const glm::vec3& hi,
               float& t0, float& t1) {
  t0 = 0.0f;
  t1 = std::numeric_limits<float>::max();
  for (int a = 0; a < 3; ++a) {
    if (std::fabs(d[a]) < 1e-12f) {
      if (o[a] < lo[a] || o[a] > hi[a]) return false;
      continue;
    }
    float ta = (lo[a] - o[a]) / d[a];
    float tb = (hi[a] - o[a]) / d[a];
    if (ta > tb) std::swap(ta, tb);
    t0 = std::max(t0, ta);
    t1 = std::min(t1, tb);
    if (t0 > t1) return false;
  }
  return true;
}

}  // namespace

std::optional<glm::vec3> IntersectTerrain(const Heightmap& map, const glm::vec3& origin,
                                          const glm::vec3& direction) {
  if (!IsFinite(origin) || !IsFinite(direction)) return std::nullopt;
  const float len = glm::length(direction);
  if (!(len > 0.0f) || !std::isfinite(len)) return std::nullopt;
  const glm::vec3 d = direction / len;
  const float half = 0.5f * map.size();
  // The ground lies between the lowest and highest sample; a small pad keeps grazing rays in.
  float lo_y = map.height_scale(), hi_y = 0.0f;
  for (float s : map.samples()) {
    lo_y = std::min(lo_y, s * map.height_scale());
    hi_y = std::max(hi_y, s * map.height_scale());
  }
  const float pad = 1e-3f * std::max(1.0f, map.size());
  float t0 = 0.0f, t1 = 0.0f;
  if (!ClipToBox(origin, d, {-half, lo_y - pad, -half}, {half, hi_y + pad, half}, t0, t1)) {
    return std::nullopt;
  }
  // March in steps of half a pixel (bilinear patches cannot hide a crossing much narrower
  // than that), capped at 4096 steps, looking for the first sign change of ray height minus
  // ground height; then bisect that interval.
  const float pixel = map.size() / static_cast<float>(std::max(map.width(), map.height()));
  const float span = t1 - t0;
  const int steps = std::clamp(static_cast<int>(std::ceil(span / (0.5f * pixel))), 1, 4096);
  const float dt = span / static_cast<float>(steps);
  auto above = [&](float t) {
    const glm::vec3 p = origin + t * d;
    return p.y - map.HeightAt(p.x, p.z);
  };
  float prev_t = t0;
  float prev = above(t0);
  if (prev < 0.0f) return std::nullopt;  // starts under the ground
  for (int i = 1; i <= steps; ++i) {
    const float t = t0 + dt * static_cast<float>(i);
    const float cur = above(t);
    if (cur <= 0.0f) {
      float a = prev_t, b = t;
      for (int k = 0; k < 40 && b - a > 1e-4f * pixel; ++k) {
        const float m = 0.5f * (a + b);
        (above(m) > 0.0f ? a : b) = m;
      }
      const glm::vec3 p = origin + b * d;
      return map.PointAt(p.x, p.z);
    }
    prev_t = t;
    prev = cur;
  }
  return std::nullopt;
}

}  // namespace fabrik
