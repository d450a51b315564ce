// OrbitCamera's planar mode (docs/scenes.md: The 2D view): an orthographic camera looking down -Z
// at the XY plane, its unprojection (every ray points along -Z; the point under the cursor on z = 0
// round-trips), pan and zoom, and orbit disabled.
#include <gtest/gtest.h>

#include <cmath>
#include <glm/geometric.hpp>
#include <random>

#include "camera/orbit_camera.h"
#include "camera/unproject.h"

namespace fabrik {
namespace {

constexpr glm::vec2 kWindow(1280.0f, 800.0f);

OrbitCamera PlanarCamera() {
  OrbitCamera::Home home;
  home.pivot = {1.0f, 2.0f, 3.0f};
  home.distance = 10.0f;
  OrbitCamera camera(home);
  camera.SetPlanar(true);
  return camera;
}

TEST(PlanarCamera, LooksDownMinusZThroughAnOrthographicProjection) {
  const OrbitCamera camera = PlanarCamera();
  EXPECT_TRUE(camera.planar());
  EXPECT_EQ(camera.pivot().z, 0.0f);  // the plane the 2D view shows
  EXPECT_EQ(camera.forward(), glm::vec3(0.0f, 0.0f, -1.0f));
  const glm::mat4 proj = camera.Projection(kWindow.x / kWindow.y);
  // Orthographic: no perspective divide (w row is 0 0 0 1).
  EXPECT_EQ(proj[0][3], 0.0f);
  EXPECT_EQ(proj[2][3], 0.0f);
  EXPECT_EQ(proj[3][3], 1.0f);
  // The view's height at the pivot matches the perspective view's there.
  const float half_height = 10.0f * std::tan(OrbitCamera::kFovY * 0.5f);
  EXPECT_NEAR(proj[1][1], 1.0f / half_height, 1e-6f);
  // The view matrix maps -Z in the world to -Z in the eye: the camera looks down -Z, +Y up.
  const glm::mat4 view = camera.View();
  EXPECT_NEAR(view[2][2], 1.0f, 1e-6f);
  EXPECT_NEAR(view[1][1], 1.0f, 1e-6f);
  EXPECT_NEAR(view[0][0], 1.0f, 1e-6f);
}

TEST(PlanarCamera, EveryRayPointsDownMinusZAndHitsUnderTheCursor) {
  std::mt19937 rng(4);
  std::uniform_real_distribution<float> u(0.0f, 1.0f);
  for (float ratio : {1.0f, 2.0f}) {
    const glm::vec2 fb = kWindow * ratio;
    OrbitCamera camera = PlanarCamera();
    camera.Zoom(3.0f);
    camera.Pan({120.0f, -40.0f}, kWindow.y);
    const glm::mat4 view = camera.View();
    const glm::mat4 proj = camera.Projection(fb.x / fb.y, 0.25f);
    for (int k = 0; k < 200; ++k) {
      const glm::vec2 cursor(u(rng) * kWindow.x, u(rng) * kWindow.y);
      const auto ray = ScreenRay(cursor, kWindow, fb, view, proj);
      ASSERT_TRUE(ray);
      EXPECT_NEAR(ray->direction.z, -1.0f, 1e-5f);
      const auto hit = ScreenToPlaneZ(cursor, kWindow, fb, view, proj);
      ASSERT_TRUE(hit);
      EXPECT_EQ(hit->z, 0.0f);
      // Projecting the hit back lands on the cursor.
      const auto back = ProjectToWindow(*hit, kWindow, fb, view, proj);
      ASSERT_TRUE(back);
      EXPECT_NEAR(back->x, cursor.x, 0.02f);
      EXPECT_NEAR(back->y, cursor.y, 0.02f);
    }
    // Moving the cursor by one screen unit moves the hit by UnitsPerPixel, in +X and -Y.
    const glm::vec2 c(600.0f, 400.0f);
    const glm::vec3 a = *ScreenToPlaneZ(c, kWindow, fb, view, proj);
    const glm::vec3 b = *ScreenToPlaneZ(c + glm::vec2(10.0f, 10.0f), kWindow, fb, view, proj);
    const float step = camera.UnitsPerPixel(kWindow.y) * 10.0f;
    EXPECT_NEAR(b.x - a.x, step, step * 1e-3f);
    EXPECT_NEAR(b.y - a.y, -step, step * 1e-3f);
  }
}

TEST(PlanarCamera, OrbitIsIgnoredPanMovesInXYZoomScales) {
  OrbitCamera camera = PlanarCamera();
  const glm::mat4 before = camera.View();
  camera.Orbit({300.0f, 200.0f});
  EXPECT_EQ(camera.View(), before);
  const glm::vec3 pivot = camera.pivot();
  const float upp = camera.UnitsPerPixel(800.0f);
  camera.Pan({100.0f, 50.0f}, 800.0f);
  // Dragging right moves the world right under the cursor: the pivot goes left (-X); dragging
  // down moves the pivot up (+Y). Z stays 0.
  EXPECT_NEAR(camera.pivot().x, pivot.x - 100.0f * upp, 1e-4f);
  EXPECT_NEAR(camera.pivot().y, pivot.y + 50.0f * upp, 1e-4f);
  EXPECT_EQ(camera.pivot().z, 0.0f);
  const float d = camera.distance();
  camera.Zoom(2.0f);
  EXPECT_LT(camera.distance(), d);
  EXPECT_GT(camera.Projection(1.5f)[1][1], PlanarCamera().Projection(1.5f)[1][1]);
  // Back to 3D: perspective again, orbit works.
  camera.SetPlanar(false);
  EXPECT_EQ(camera.Projection(1.5f)[2][3], -1.0f);
  const glm::mat4 flat = camera.View();
  camera.Orbit({50.0f, 0.0f});
  EXPECT_NE(camera.View(), flat);
}

TEST(PlanarCamera, BadInputNeverGivesNaN) {
  OrbitCamera camera = PlanarCamera();
  camera.Pan({NAN, 1.0f}, 800.0f);
  camera.Zoom(INFINITY);
  camera.Pan({1e30f, -1e30f}, 800.0f);
  const glm::mat4 proj = camera.Projection(NAN);
  for (int c = 0; c < 4; ++c) {
    for (int r = 0; r < 4; ++r) EXPECT_TRUE(std::isfinite(proj[c][r]));
  }
  EXPECT_FALSE(ScreenToPlaneZ({1, 1}, kWindow, kWindow, camera.View(), proj, NAN));
}

}  // namespace
}  // namespace fabrik
