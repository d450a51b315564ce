// terrain_ray.h - where a ray (e.g. from the cursor) first meets the ground of a heightmap.
//
// docs/walker.md: Terrain. Pure math, no GL: the walker scene's drag turns the cursor's ray into a
// point on the hills with it.
#pragma once

#include <glm/vec3.hpp>
#include <optional>

#include "terrain/heightmap.h"

namespace fabrik {

// The first point, at or after `origin`, where the ray origin + t direction (t >= 0) meets
// the surface y = map.HeightAt(x, z) over the square [-S/2, S/2]^2 (docs/walker.md: Terrain),
// accurate to about 1e-4 of a pixel's side. `direction` need not be unit length. Returns
// nullopt when the ray misses the ground inside the square (it passes above it, points
// away from it, or starts below it and never comes up), or when an input is not finite or
// the direction is zero. Runs at most a few thousand height look-ups; never allocates.
std::optional<glm::vec3> IntersectTerrain(const Heightmap& map, const glm::vec3& origin,
                                          const glm::vec3& direction);

}  // namespace fabrik
