#include "ik/soften.h"

#include <cmath>
#include <glm/geometric.hpp>

namespace fabrik {

bool ValidSoftenRatio(float ratio) { return std::isfinite(ratio) && ratio > 0.0f && ratio <= 1.0f; }

double SoftenedDistance(double distance, double reach, double ratio) {
  if (!(ratio > 0.0 && ratio < 1.0) || !(reach > 0.0) || !std::isfinite(reach)) return distance;
  if (!std::isfinite(distance) || distance < 0.0) return distance;
  const double start = ratio * reach;
  if (distance <= start) return distance;
  const double span = reach - start;
  // The exponential's slope at the start is 1, so the softened distance continues the straight
  // one smoothly; -expm1 keeps full precision just past the start.
  return start + span * -std::expm1(-(distance - start) / span);
}

glm::vec3 SoftenTarget(const glm::vec3& root, const glm::vec3& target, float reach, float ratio) {
  const glm::dvec3 offset = glm::dvec3(target) - glm::dvec3(root);
  const double d = glm::length(offset);
  if (!(d > 0.0) || !std::isfinite(d)) return target;
  const double soft = SoftenedDistance(d, reach, ratio);
  if (soft == d) return target;
  return glm::vec3(glm::dvec3(root) + offset * (soft / d));
}

}  // namespace fabrik
