#include "walker/body_fit.h"

#include <algorithm>
#include <cmath>
#include <glm/geometric.hpp>
#include <glm/gtc/quaternion.hpp>

namespace fabrik {

SupportPlane FitSupportPlane(std::span<const glm::vec3> points) {
  SupportPlane plane;
  if (points.empty()) return plane;
  glm::dvec3 mean(0.0);
  for (const glm::vec3& p : points) mean += glm::dvec3(p);
  mean /= double(points.size());
  plane.centroid = glm::vec3(mean);
  // Normal equations of the centred least-squares fit dy = a dx + b dz.
  double sxx = 0, sxz = 0, szz = 0, sxy = 0, szy = 0;
  for (const glm::vec3& p : points) {
    const glm::dvec3 d = glm::dvec3(p) - mean;
    sxx += d.x * d.x;
    sxz += d.x * d.z;
    szz += d.z * d.z;
    sxy += d.x * d.y;
    szy += d.z * d.y;
  }
  const double det = sxx * szz - sxz * sxz;
  const double scale = (sxx + szz) * (sxx + szz);
  if (points.size() < 3 || !(det > 1e-6 * scale) || !std::isfinite(det)) return plane;
  const double a = (sxy * szz - szy * sxz) / det;
  const double b = (szy * sxx - sxy * sxz) / det;
  const glm::dvec3 n = glm::normalize(glm::dvec3(-a, 1.0, -b));
  if (std::isfinite(n.x) && std::isfinite(n.y) && std::isfinite(n.z)) plane.normal = glm::vec3(n);
  return plane;
}

glm::vec3 LimitTilt(const glm::vec3& normal, float max_tilt) {
  const glm::vec3 up(0.0f, 1.0f, 0.0f);
  if (!(normal.y > 0.0f) || !std::isfinite(normal.x) || !std::isfinite(normal.z)) return up;
  return TurnTowards(up, glm::normalize(normal), std::max(0.0f, max_tilt));
}

glm::vec3 TurnTowards(const glm::vec3& from, const glm::vec3& to, float max_angle) {
  const float angle = std::acos(std::clamp(glm::dot(from, to), -1.0f, 1.0f));
  if (!(angle > max_angle)) return to;
  // Slerp by the fraction max_angle / angle (Shoemake, "Animating rotation with quaternion
  // curves", SIGGRAPH 1985), written for vectors.
  const float t = max_angle / angle;
  const float s = std::sin(angle);
  if (s < 1e-6f) return from;  // opposite vectors: no single plane to turn in; stay put
  return glm::normalize((std::sin((1.0f - t) * angle) / s) * from + (std::sin(t * angle) / s) * to);
}

}  // namespace fabrik
