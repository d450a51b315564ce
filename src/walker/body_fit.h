// body_fit.h - where the walker's body sits and how it tilts, from its feet (pure math).
//
// docs/walker.md: The walker. The body rides a fixed height above the mean height of its support
// points (planted feet, and the landing points of swinging ones) and leans with the plane
// that fits them best, so it climbs and tilts with the ground under its feet.
#pragma once

#include <glm/vec3.hpp>
#include <span>

namespace fabrik {

struct SupportPlane {
  glm::vec3 centroid{0.0f};            // mean of the points, world space
  glm::vec3 normal{0.0f, 1.0f, 0.0f};  // unit, y > 0
};

// The least-squares plane y = a x + b z + c through `points` (world space). Fewer than 3
// points, or points (nearly) on one line, give a level plane through their centroid; no NaN
// for any finite input; an empty span gives the default.
SupportPlane FitSupportPlane(std::span<const glm::vec3> points);

// `normal` (unit, any direction with y > 0) turned towards +Y until it is at most `max_tilt`
// radians from it. A normal with y <= 0 or not finite gives +Y.
glm::vec3 LimitTilt(const glm::vec3& normal, float max_tilt);

// Unit vector `from` turned towards unit vector `to` by at most `max_angle` radians (about
// their common perpendicular); `to` itself when it is closer than that.
glm::vec3 TurnTowards(const glm::vec3& from, const glm::vec3& to, float max_angle);

}  // namespace fabrik
