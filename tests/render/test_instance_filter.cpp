// The renderer's pure instance filters (render/instance_filter.h), tested without a window or
// an OpenGL context.
#include <gtest/gtest.h>

#include <cmath>
#include <glm/geometric.hpp>
#include <limits>
#include <vector>

#include "render/instance_filter.h"

namespace fabrik {
namespace {

// A straight chain of `n` joints `spacing` apart along +X, every joint of radius `r`, thinned
// as the chain body is drawn (root and effector always kept); returns the kept indices.
std::vector<std::size_t> Thin(std::size_t n, float spacing, float r, float pixels_per_unit) {
  std::vector<std::size_t> kept = {0};
  for (std::size_t i = 1; i < n; ++i) {
    const glm::vec3 p(spacing * static_cast<float>(i), 0.0f, 0.0f);
    const glm::vec3 last(spacing * static_cast<float>(kept.back()), 0.0f, 0.0f);
    if (i + 1 == n || JointSphereNeeded(p, r, last, r, pixels_per_unit)) kept.push_back(i);
  }
  return kept;
}

TEST(JointSphereNeeded, ALongChainSeenWholeKeepsAJointEveryThirdOfARadius) {
  // 1000 joints 0.007 apart, radius 0.05, 36 pixels a unit (a 7-unit chain seen whole).
  const float r = 0.05f, spacing = 0.007f;
  const std::vector<std::size_t> kept = Thin(1000, spacing, r, 36.0f);
  EXPECT_LT(kept.size(), 1000u / 2);  // at least every other joint goes
  for (std::size_t k = 1; k < kept.size(); ++k) {
    const float gap = spacing * static_cast<float>(kept[k] - kept[k - 1]);
    // No hole: consecutive kept spheres never more than a third of a radius plus one link apart.
    EXPECT_LE(gap, r / 3.0f + spacing + 1e-6f)
        << "between joints " << kept[k - 1] << " and " << kept[k];
  }
}

TEST(JointSphereNeeded, ZoomedInEveryJointIsDrawn) {
  // The same chain seen up close: 1.5 pixels is less than one link.
  EXPECT_EQ(Thin(1000, 0.007f, 0.05f, 2000.0f).size(), 1000u);
}

TEST(JointSphereNeeded, JointsFartherApartThanAThirdOfTheSmallerRadiusAreAllDrawn) {
  // A few long links (the usual demo chain): nothing to thin, however far the camera.
  EXPECT_EQ(Thin(10, 0.5f, 0.1f, 1.0f).size(), 10u);
  // The smaller radius decides: a big sphere next to a small one keeps the small one.
  EXPECT_TRUE(JointSphereNeeded(glm::vec3(0.05f, 0, 0), 0.1f, glm::vec3(0.0f), 1.0f, 1.0f));
  EXPECT_FALSE(JointSphereNeeded(glm::vec3(0.02f, 0, 0), 0.1f, glm::vec3(0.0f), 1.0f, 1.0f));
}

TEST(JointSphereNeeded, NonFiniteInputHidesNothing) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const float inf = std::numeric_limits<float>::infinity();
  EXPECT_TRUE(JointSphereNeeded(glm::vec3(nan, 0, 0), 1.0f, glm::vec3(0.0f), 1.0f, 10.0f));
  EXPECT_TRUE(JointSphereNeeded(glm::vec3(0.0f), nan, glm::vec3(0.0f), 1.0f, 10.0f));
  EXPECT_TRUE(JointSphereNeeded(glm::vec3(0.0f), 1.0f, glm::vec3(0.0f), 1.0f, inf));
  EXPECT_TRUE(JointSphereNeeded(glm::vec3(0.0f), 1.0f, glm::vec3(0.0f), 1.0f, 0.0f));
}

TEST(EyeInsideSphere, InsideOrWithinTheMarginOnly) {
  const SphereInstance s{glm::vec3(0.0f), 1.0f, glm::vec4(1.0f)};
  EXPECT_TRUE(EyeInsideSphere(s, glm::vec3(0.5f, 0, 0), 0.0f));
  EXPECT_TRUE(EyeInsideSphere(s, glm::vec3(1.05f, 0, 0), 0.1f));
  EXPECT_FALSE(EyeInsideSphere(s, glm::vec3(1.2f, 0, 0), 0.1f));
}

TEST(ShadowSpread, GrowsWithHeightUpToSevenUnitsThenStays) {
  EXPECT_LT(ShadowSpread(1.0f), ShadowSpread(3.0f));
  EXPECT_FLOAT_EQ(ShadowSpread(7.0f), ShadowSpread(1000.0f));
}

TEST(BuildShadows, JointsStackedOverOneSpotCastOneBlob) {
  std::vector<SphereInstance> column, out;
  for (int i = 0; i < 200; ++i) {
    column.push_back(
        {glm::vec3(0.0f, 1.0f + 0.01f * static_cast<float>(i), 0.0f), 0.1f, glm::vec4(1.0f)});
  }
  std::vector<std::pair<std::uint64_t, std::uint32_t>> keys;
  BuildShadows(column, out, keys);
  EXPECT_GE(out.size(), 1u);
  EXPECT_LT(out.size(), 10u);
}

}  // namespace
}  // namespace fabrik
