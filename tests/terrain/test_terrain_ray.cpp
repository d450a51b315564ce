#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "terrain/terrain_ray.h"

namespace fabrik {
namespace {

Heightmap SlopeAlongX() {
  // 16 x 16 pixels, height rising with the column: a slope along +X.
  std::vector<float> s(16 * 16);
  for (int j = 0; j < 16; ++j) {
    for (int i = 0; i < 16; ++i) s[static_cast<std::size_t>(j * 16 + i)] = float(i) / 15.0f;
  }
  return Heightmap::FromSamples(16, 16, std::move(s), 16.0f, 4.0f).value();
}

TEST(TerrainRay, StraightDownHitsTheGroundUnderTheOrigin) {
  const Heightmap map = SlopeAlongX();
  for (float x : {-5.3f, 0.0f, 2.7f, 6.9f}) {
    const auto hit = IntersectTerrain(map, {x, 50.0f, 1.25f}, {0.0f, -1.0f, 0.0f});
    ASSERT_TRUE(hit.has_value()) << x;
    EXPECT_NEAR(hit->x, x, 1e-4f);
    EXPECT_NEAR(hit->z, 1.25f, 1e-4f);
    EXPECT_NEAR(hit->y, map.HeightAt(x, 1.25f), 1e-4f);
  }
}

TEST(TerrainRay, SlantedRayHitsTheFirstCrossingOnTheSurface) {
  const Heightmap map = SlopeAlongX();
  // From high on the low side looking down towards +X: the hit lies on the ray and on the
  // ground, and no earlier point of the ray is under the ground.
  const glm::vec3 o{-10.0f, 6.0f, 0.5f};
  const glm::vec3 d{1.0f, -0.45f, 0.1f};
  const auto hit = IntersectTerrain(map, o, d);
  ASSERT_TRUE(hit.has_value());
  EXPECT_NEAR(hit->y, map.HeightAt(hit->x, hit->z), 1e-4f);
  const float t = (hit->x - o.x) / d.x;
  EXPECT_NEAR(o.y + t * d.y, hit->y, 2e-3f);
  EXPECT_NEAR(o.z + t * d.z, hit->z, 2e-3f);
  for (float s = 0.0f; s < t - 0.01f; s += 0.01f) {
    const glm::vec3 p = o + s * d;
    EXPECT_GT(p.y, map.HeightAt(p.x, p.z) - 1e-4f) << s;
  }
}

TEST(TerrainRay, MissesWhenThereIsNoGroundOnTheRay) {
  const Heightmap map = SlopeAlongX();
  EXPECT_FALSE(IntersectTerrain(map, {0, 10, 0}, {0, 1, 0}).has_value());    // looks up
  EXPECT_FALSE(IntersectTerrain(map, {0, 10, 0}, {1, 0, 0}).has_value());    // flies over
  EXPECT_FALSE(IntersectTerrain(map, {30, 10, 0}, {0, -1, 0}).has_value());  // beside it
  EXPECT_FALSE(IntersectTerrain(map, {7, -1, 0}, {0, -1, 0}).has_value());   // under it
  EXPECT_FALSE(IntersectTerrain(map, {0, 10, 0}, {0, 0, 0}).has_value());
  EXPECT_FALSE(IntersectTerrain(map, {NAN, 10, 0}, {0, -1, 0}).has_value());
  EXPECT_FALSE(IntersectTerrain(map, {0, 10, 0}, {0, -INFINITY, 0}).has_value());
}

TEST(TerrainRay, FlatGroundAgreesWithThePlaneIntersection) {
  const Heightmap flat = Heightmap::Flat(40.0f).value();
  const glm::vec3 o{3.0f, 8.0f, -12.0f};
  const glm::vec3 d{-0.2f, -1.0f, 0.7f};
  const auto hit = IntersectTerrain(flat, o, d);
  ASSERT_TRUE(hit.has_value());
  const float t = -o.y / d.y;
  EXPECT_NEAR(hit->x, o.x + t * d.x, 1e-3f);
  EXPECT_NEAR(hit->z, o.z + t * d.z, 1e-3f);
  EXPECT_NEAR(hit->y, 0.0f, 1e-5f);
}

}  // namespace
}  // namespace fabrik
