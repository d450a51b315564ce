// The heightmap mapping of docs/walker.md "Terrain": pixel centres, bilinear between, clamped
// outside.
#include <gtest/gtest.h>

#include <cmath>
#include <glm/geometric.hpp>
#include <vector>

#include "terrain/heightmap.h"

namespace fabrik {
namespace {

// A 4 x 3 image, S = 8, H = 2, samples (i + 4 j) / 11 with a recognisable pattern.
Heightmap Ramp() {
  std::vector<float> s;
  for (int j = 0; j < 3; ++j)
    for (int i = 0; i < 4; ++i) s.push_back(float(i + 4 * j) / 11.0f);
  Result<Heightmap> map = Heightmap::FromSamples(4, 3, s, 8.0f, 2.0f);
  EXPECT_TRUE(map.ok()) << map.error();
  return map.value();
}

TEST(Heightmap, PixelCentresFollowTheMapping) {
  const Heightmap map = Ramp();
  // x = -S/2 + (i + 0.5) S / W: W = 4 pixels of 2 units; z with H = 3 pixels of 8/3 units.
  EXPECT_FLOAT_EQ(map.PixelCentre(0, 0).x, -3.0f);
  EXPECT_FLOAT_EQ(map.PixelCentre(3, 0).x, 3.0f);
  EXPECT_FLOAT_EQ(map.PixelCentre(0, 0).y, -4.0f + 4.0f / 3.0f);
  EXPECT_FLOAT_EQ(map.PixelCentre(0, 2).y, 4.0f - 4.0f / 3.0f);
  for (int j = 0; j < 3; ++j) {
    for (int i = 0; i < 4; ++i) {
      const glm::vec2 c = map.PixelCentre(i, j);
      EXPECT_NEAR(map.HeightAt(c.x, c.y), float(i + 4 * j) / 11.0f * 2.0f, 1e-5f)
          << "pixel " << i << ", " << j;
    }
  }
}

TEST(Heightmap, RowZeroIsTheTopOfTheImageTowardsMinusZ) {
  Result<Heightmap> map = Heightmap::FromSamples(1, 2, {1.0f, 0.0f}, 2.0f, 3.0f);
  ASSERT_TRUE(map.ok()) << map.error();
  EXPECT_FLOAT_EQ(map.value().HeightAt(0.0f, -0.5f), 3.0f);
  EXPECT_FLOAT_EQ(map.value().HeightAt(0.0f, 0.5f), 0.0f);
}

TEST(Heightmap, BilinearBetweenCentres) {
  const Heightmap map = Ramp();
  const glm::vec2 a = map.PixelCentre(1, 0), b = map.PixelCentre(2, 1);
  for (float tu : {0.0f, 0.25f, 0.5f, 0.9f}) {
    for (float tv : {0.0f, 0.3f, 0.75f, 1.0f}) {
      const float x = a.x + (b.x - a.x) * tu, z = a.y + (b.y - a.y) * tv;
      const float h00 = map.PixelHeight(1, 0), h10 = map.PixelHeight(2, 0);
      const float h01 = map.PixelHeight(1, 1), h11 = map.PixelHeight(2, 1);
      const float expected =
          (1 - tu) * (1 - tv) * h00 + tu * (1 - tv) * h10 + (1 - tu) * tv * h01 + tu * tv * h11;
      EXPECT_NEAR(map.HeightAt(x, z), expected, 1e-5f) << tu << ", " << tv;
    }
  }
}

TEST(Heightmap, ClampedOutsideTheCentres) {
  const Heightmap map = Ramp();
  // Half-pixel border, beyond the square, far away and non-finite: the edge value continues.
  EXPECT_FLOAT_EQ(map.HeightAt(-3.9f, -3.9f), map.PixelHeight(0, 0));
  EXPECT_FLOAT_EQ(map.HeightAt(-100.0f, -1e30f), map.PixelHeight(0, 0));
  EXPECT_FLOAT_EQ(map.HeightAt(1e30f, 1e30f), map.PixelHeight(3, 2));
  EXPECT_FLOAT_EQ(map.HeightAt(INFINITY, -INFINITY), map.PixelHeight(3, 0));
  EXPECT_TRUE(std::isfinite(map.HeightAt(NAN, NAN)));
  const glm::vec2 c = map.PixelCentre(2, 1);
  EXPECT_FLOAT_EQ(map.HeightAt(50.0f, c.y), map.PixelHeight(3, 1));
  EXPECT_FLOAT_EQ(map.HeightAt(c.x, -50.0f), map.PixelHeight(2, 0));
}

TEST(Heightmap, NormalsAreUnitAndLeanDownhill) {
  const Heightmap map = Ramp();  // rises along +X (by 2/11 per pixel) and along +Z
  const glm::vec3 n = map.NormalAt(0.0f, 0.0f);
  EXPECT_NEAR(glm::length(n), 1.0f, 1e-5f);
  EXPECT_GT(n.y, 0.0f);
  EXPECT_LT(n.x, 0.0f);
  EXPECT_LT(n.z, 0.0f);
  // Along X the height rises 1/11 x H = 2/11 per pixel of 2 units: a slope of 1/11.
  EXPECT_NEAR(-n.x / n.y, 1.0f / 11.0f, 1e-5f);
  Result<Heightmap> flat = Heightmap::Flat(10.0f);
  ASSERT_TRUE(flat.ok());
  const glm::vec3 up = flat.value().NormalAt(NAN, 3.0f);
  EXPECT_EQ(up, glm::vec3(0.0f, 1.0f, 0.0f));
}

TEST(Heightmap, RejectsBadSamplesAndScales) {
  EXPECT_FALSE(Heightmap::FromSamples(0, 3, {}, 8.0f, 1.0f).ok());
  EXPECT_FALSE(Heightmap::FromSamples(2, 2, {0, 0, 0}, 8.0f, 1.0f).ok());
  EXPECT_FALSE(Heightmap::FromSamples(1, 1, {NAN}, 8.0f, 1.0f).ok());
  EXPECT_FALSE(Heightmap::FromSamples(1, 1, {1.5f}, 8.0f, 1.0f).ok());
  EXPECT_FALSE(Heightmap::FromSamples(Heightmap::kMaxSide + 1, 1, {}, 8.0f, 1.0f).ok());
  const Result<Heightmap> size = Heightmap::FromSamples(1, 1, {0.5f}, -2.0f, 1.0f);
  ASSERT_FALSE(size.ok());
  EXPECT_NE(size.error().find("terrain size"), std::string::npos) << size.error();
  const Result<Heightmap> height = Heightmap::FromSamples(1, 1, {0.5f}, 2.0f, NAN);
  ASSERT_FALSE(height.ok());
  EXPECT_NE(height.error().find("terrain height"), std::string::npos) << height.error();
  EXPECT_FALSE(Ramp().Rescaled(INFINITY, 1.0f).ok());
  const Result<Heightmap> rescaled = Ramp().Rescaled(16.0f, 4.0f);
  ASSERT_TRUE(rescaled.ok());
  EXPECT_FLOAT_EQ(rescaled.value().HeightAt(-6.0f, 100.0f), Ramp().HeightAt(-3.0f, 100.0f) * 2);
}

TEST(Heightmap, ClampInsideKeepsAMargin) {
  const Heightmap map = Ramp();  // square [-4, 4]^2
  EXPECT_EQ(map.ClampInside({10.0f, -10.0f}, 1.0f), glm::vec2(3.0f, -3.0f));
  EXPECT_EQ(map.ClampInside({0.5f, -0.5f}, 1.0f), glm::vec2(0.5f, -0.5f));
  EXPECT_EQ(map.ClampInside({10.0f, 2.0f}, 9.0f), glm::vec2(0.0f, 0.0f));
  EXPECT_EQ(map.ClampInside({NAN, 2.0f}, 0.0f), glm::vec2(0.0f, 2.0f));
  EXPECT_TRUE(map.Contains(4.0f, -4.0f));
  EXPECT_FALSE(map.Contains(4.01f, 0.0f));
}

}  // namespace
}  // namespace fabrik
