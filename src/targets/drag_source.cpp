#include "targets/drag_source.h"

#include <algorithm>
#include <cmath>

#include <glm/geometric.hpp>

namespace fabrik {

void DragSource::Begin(const glm::vec3& grabbed, const glm::vec3& plane_normal) {
  const float l = glm::length(plane_normal);
  if (!std::isfinite(l) || l <= 0.0f) return;
  grabbed_ = grabbed;
  normal_ = plane_normal / l;
  active_ = true;
}

std::optional<glm::vec3> DragSource::Update(const Ray& ray) const {
  if (!active_) return std::nullopt;
  const auto t = IntersectPlane(ray, grabbed_, normal_);
  if (!t) return std::nullopt;
  // Limit how far along the ray the target may go: beyond the limit the point on the ray
  // nearest the limit is used, so it stays on the ray.
  const float t_grab = glm::dot(grabbed_ - ray.origin, ray.direction);
  const float t_clamped = std::clamp(*t, 0.0f, std::max(t_grab, 0.0f) + kMaxDragDistance);
  const glm::vec3 hit = ray.origin + ray.direction * t_clamped;
  if (!std::isfinite(hit.x) || !std::isfinite(hit.y) || !std::isfinite(hit.z)) {
    return std::nullopt;
  }
  return hit;
}

std::optional<std::size_t> PickNearest(std::span<const glm::vec2> points, glm::vec2 cursor,
                                       float radius) {
  std::optional<std::size_t> best;
  float best_d = radius;
  for (std::size_t i = 0; i < points.size(); ++i) {
    const float d = glm::length(points[i] - cursor);
    if (std::isfinite(d) && d <= best_d) {
      best_d = d;
      best = i;
    }
  }
  return best;
}

}  // namespace fabrik
