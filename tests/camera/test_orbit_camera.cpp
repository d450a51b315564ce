// Camera limits: no sequence of orbit, pan and zoom inputs, however wild or non-finite,
// leaves the limits or produces a non-finite matrix.
#include <cmath>
#include <random>

#include <glm/gtc/type_ptr.hpp>
#include <gtest/gtest.h>

#include "camera/orbit_camera.h"

namespace fabrik {
namespace {

bool AllFinite(const glm::mat4& m) {
  const float* f = glm::value_ptr(m);
  for (int i = 0; i < 16; ++i) {
    if (!std::isfinite(f[i])) return false;
  }
  return true;
}

TEST(OrbitCamera, ZoomIsClampedBothWays) {
  OrbitCamera camera;
  for (int i = 0; i < 1000; ++i) camera.Zoom(20.0f);
  EXPECT_FLOAT_EQ(camera.distance(), OrbitCamera::kMinDistance);
  for (int i = 0; i < 1000; ++i) camera.Zoom(-20.0f);
  EXPECT_FLOAT_EQ(camera.distance(), OrbitCamera::kMaxDistance);
  camera.Zoom(1e30f);  // one absurd wheel event moves a bounded amount, never to 0 or inf
  EXPECT_GE(camera.distance(), OrbitCamera::kMinDistance);
  EXPECT_LT(camera.distance(), OrbitCamera::kMaxDistance);
}

TEST(OrbitCamera, PitchNeverReachesThePole) {
  OrbitCamera camera;
  camera.Orbit({0.0f, 1e9f});
  EXPECT_LE(camera.pitch(), OrbitCamera::kMaxPitch);
  camera.Orbit({0.0f, -1e9f});
  EXPECT_GE(camera.pitch(), -OrbitCamera::kMaxPitch);
  EXPECT_TRUE(AllFinite(camera.View()));
}

TEST(OrbitCamera, NonFiniteInputIsIgnored) {
  OrbitCamera camera;
  const glm::mat4 before = camera.View();
  camera.Orbit({NAN, 1.0f});
  camera.Orbit({1.0f, INFINITY});
  camera.Pan({NAN, NAN}, 600.0f);
  camera.Pan({1.0f, 1.0f}, NAN);
  camera.Pan({1.0f, 1.0f}, 0.0f);
  camera.Zoom(NAN);
  EXPECT_EQ(before, camera.View());
}

TEST(OrbitCamera, ResetReturnsHome) {
  OrbitCamera::Home home;
  home.pivot = {1, 2, 3};
  home.distance = 7.0f;
  OrbitCamera camera(home);
  const glm::mat4 start = camera.View();
  camera.Orbit({300, 120});
  camera.Pan({50, -20}, 700);
  camera.Zoom(3);
  EXPECT_NE(start, camera.View());
  camera.Reset();
  EXPECT_EQ(start, camera.View());
}

TEST(OrbitCamera, PanMovesThePointUnderTheCursorWithIt) {
  OrbitCamera camera;
  const glm::vec3 before = camera.pivot();
  camera.Pan({100.0f, 0.0f}, 800.0f);
  // 100 px of an 800 px high view at distance d covers 100/800 of the view height.
  const float expected = 100.0f / 800.0f * 2.0f * camera.distance() *
                         std::tan(OrbitCamera::kFovY * 0.5f);
  EXPECT_NEAR(glm::length(camera.pivot() - before), expected, 1e-4f);
}

TEST(OrbitCamera, RandomWildInputKeepsEverythingFinite) {
  std::mt19937 rng(3);
  std::uniform_real_distribution<float> u(-1.0f, 1.0f);
  OrbitCamera camera;
  for (int i = 0; i < 20000; ++i) {
    const float scale = std::pow(10.0f, 6.0f * (u(rng) + 1.0f));
    switch (i % 3) {
      case 0: camera.Orbit({u(rng) * scale, u(rng) * scale}); break;
      case 1: camera.Pan({u(rng) * scale, u(rng) * scale}, 1 + std::fabs(u(rng)) * 2000); break;
      default: camera.Zoom(u(rng) * scale); break;
    }
    ASSERT_TRUE(AllFinite(camera.View())) << i;
    ASSERT_TRUE(AllFinite(camera.Projection(std::fabs(u(rng)) * 3.0f, u(rng)))) << i;
    ASSERT_GE(camera.distance(), OrbitCamera::kMinDistance);
    ASSERT_LE(camera.distance(), OrbitCamera::kMaxDistance);
    ASSERT_LE(std::fabs(camera.pitch()), OrbitCamera::kMaxPitch);
  }
}

}  // namespace
}  // namespace fabrik
