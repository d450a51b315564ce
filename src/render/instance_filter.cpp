#include "render/instance_filter.h"

#include <algorithm>
#include <cmath>
#include <glm/geometric.hpp>

namespace fabrik {
namespace {

bool Finite(const glm::vec3& v) {
  return std::isfinite(v.x) && std::isfinite(v.y) && std::isfinite(v.z);
}

// Squared distance from p to the segment [a, b].
float SegmentDistance2(const glm::vec3& p, const glm::vec3& a, const glm::vec3& b) {
  const glm::vec3 ab = b - a;
  const float l2 = glm::dot(ab, ab);
  const float t = l2 > 0.0f ? std::clamp(glm::dot(p - a, ab) / l2, 0.0f, 1.0f) : 0.0f;
  const glm::vec3 d = p - (a + ab * t);
  return glm::dot(d, d);
}

// The low 21 bits of a grid coordinate: cells 2^21 cells apart share a key, so at worst one of
// two blobs that far apart (over 100,000 blob radii) is dropped.
std::uint64_t Pack(double v) {
  const double clamped = std::clamp(v, -1.0e15, 1.0e15);
  const auto i = static_cast<std::int64_t>(std::floor(clamped));
  return static_cast<std::uint64_t>(i) & 0x1FFFFFu;
}

}  // namespace

bool EyeInsideSphere(const SphereInstance& s, const glm::vec3& eye, float margin) {
  if (!Finite(s.center) || !std::isfinite(s.radius)) return false;
  const glm::vec3 d = s.center - eye;
  const float r = s.radius + margin;
  return glm::dot(d, d) < r * r;
}

bool EyeInsideBone(const BoneInstance& b, const glm::vec3& eye, float margin) {
  if (!Finite(b.start) || !Finite(b.end) || !std::isfinite(b.r0) || !std::isfinite(b.r1)) {
    return false;
  }
  const float r = std::max(b.r0, b.r1) + margin;
  return SegmentDistance2(eye, b.start, b.end) < r * r;
}

float ShadowSpread(float lift) {
  // The spread follows the height up to the height of the default chain (7 units); above it
  // a blob would only grow fainter in reality, and its fill would grow with the height.
  return 1.0f + 0.35f * std::clamp(lift, 0.0f, 7.0f);
}

void BuildShadows(std::span<const SphereInstance> spheres, std::vector<SphereInstance>& out,
                  std::vector<std::pair<std::uint64_t, std::uint32_t>>& keys) {
  out.clear();
  keys.clear();
  const glm::vec4 blob(0.0f, 0.0f, 0.0f, 0.35f);
  for (const SphereInstance& s : spheres) {
    if (!Finite(s.center) || !std::isfinite(s.radius) || s.radius <= 0.0f) continue;
    const float radius = s.radius * 1.3f * ShadowSpread(s.center.y);
    // Bin by size (power of two), then by a ground cell a quarter of the bin's size.
    int level = 0;
    std::frexp(radius, &level);
    const double cell = std::ldexp(1.0, level - 3);  // radius in [2^(level-1), 2^level)
    const std::uint64_t key = (static_cast<std::uint64_t>(level + 512) & 0x3FFu) << 42 |
                              Pack(s.center.x / cell) << 21 | Pack(s.center.z / cell);
    keys.push_back({key, static_cast<std::uint32_t>(out.size())});
    out.push_back({glm::vec3(s.center.x, 0.0f, s.center.z), radius, blob});
  }
  // Keep the first blob of each key. Blending equal-coloured blobs is order independent, so
  // the survivors may be drawn in any order.
  std::sort(keys.begin(), keys.end());
  std::size_t kept = 0;
  for (std::size_t k = 0; k < keys.size(); ++k) {
    if (kept > 0 && keys[k].first == keys[kept - 1].first) continue;
    keys[kept++] = keys[k];
  }
  std::sort(keys.begin(), keys.begin() + static_cast<std::ptrdiff_t>(kept),
            [](const auto& a, const auto& b) { return a.second < b.second; });
  // Survivors by increasing index: each moves forward only, so compacting in place is safe.
  for (std::size_t k = 0; k < kept; ++k) out[k] = out[keys[k].second];
  out.resize(kept);
}

bool JointSphereNeeded(const glm::vec3& p, float r, const glm::vec3& kept, float kept_r,
                       float pixels_per_unit) {
  const glm::vec3 d = p - kept;
  const float d2 = glm::dot(d, d);
  if (!std::isfinite(d2) || !std::isfinite(r) || !std::isfinite(kept_r) ||
      !std::isfinite(pixels_per_unit) || !(pixels_per_unit > 0.0f)) {
    return true;
  }
  const float gap = std::min(std::min(r, kept_r) / 3.0f, 1.5f / pixels_per_unit);
  return !(d2 < gap * gap);
}

}  // namespace fabrik
