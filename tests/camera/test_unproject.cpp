// Unprojection: project -> unproject round trips at many camera poses and window/framebuffer
// ratios 1 and 2, rays outside the window, and plane intersection.
#include <cmath>
#include <random>

#include <glm/geometric.hpp>
#include <gtest/gtest.h>

#include "camera/orbit_camera.h"
#include "camera/unproject.h"

namespace fabrik {
namespace {

struct Viewport {
  glm::vec2 window;
  glm::vec2 framebuffer;
};

class UnprojectRoundTrip : public ::testing::TestWithParam<float> {};

TEST_P(UnprojectRoundTrip, RayThroughProjectedPointPassesThroughIt) {
  const float ratio = GetParam();
  std::mt19937 rng(7);
  std::uniform_real_distribution<float> u(-1.0f, 1.0f);
  const Viewport viewports[] = {{{1280, 800}, {1280 * ratio, 800 * ratio}},
                                {{640, 960}, {640 * ratio, 960 * ratio}},
                                {{333, 211}, {333 * ratio, 211 * ratio}}};
  int checked = 0;
  for (const Viewport& vp : viewports) {
    for (int pose = 0; pose < 60; ++pose) {
      OrbitCamera camera;
      camera.Orbit({u(rng) * 900.0f, u(rng) * 400.0f});
      camera.Zoom(u(rng) * 15.0f);
      camera.Pan({u(rng) * 300.0f, u(rng) * 300.0f}, vp.window.y);
      const glm::mat4 view = camera.View();
      const glm::mat4 proj = camera.Projection(vp.framebuffer.x / vp.framebuffer.y,
                                               u(rng) * 0.4f);
      for (int k = 0; k < 10; ++k) {
        const glm::vec3 world = camera.pivot() + glm::vec3(u(rng), u(rng), u(rng)) * 5.0f;
        const auto win = ProjectToWindow(world, vp.window, vp.framebuffer, view, proj);
        if (!win || win->z < -1.0f || win->z > 1.0f) continue;  // behind or clipped
        const auto ray = ScreenRay(glm::vec2(*win), vp.window, vp.framebuffer, view, proj);
        ASSERT_TRUE(ray.has_value());
        const float dist = glm::length(world - camera.eye());
        EXPECT_LT(DistanceToRay(*ray, world), 1e-4f * std::max(1.0f, dist))
            << "ratio " << ratio << " pose " << pose;
        EXPECT_NEAR(glm::length(ray->direction), 1.0f, 1e-5f);
        // The ray starts at the near plane and points away from the eye.
        EXPECT_GT(glm::dot(ray->direction, world - camera.eye()), 0.0f);
        ++checked;
      }
    }
  }
  EXPECT_GT(checked, 1000);
}

INSTANTIATE_TEST_SUITE_P(FramebufferRatios, UnprojectRoundTrip, ::testing::Values(1.0f, 2.0f));

TEST(Unproject, HiDpiScalingMapsWindowCornersToFramebufferCorners) {
  const glm::vec2 fb = WindowToFramebuffer({640, 400}, {1280, 800}, {2560, 1600});
  EXPECT_FLOAT_EQ(fb.x, 1280.0f);
  EXPECT_FLOAT_EQ(fb.y, 800.0f);
  const glm::vec2 top_left = WindowToNdc({0, 0}, {1280, 800}, {2560, 1600});
  EXPECT_FLOAT_EQ(top_left.x, -1.0f);
  EXPECT_FLOAT_EQ(top_left.y, 1.0f);
  const glm::vec2 bottom_right = WindowToNdc({1280, 800}, {1280, 800}, {2560, 1600});
  EXPECT_FLOAT_EQ(bottom_right.x, 1.0f);
  EXPECT_FLOAT_EQ(bottom_right.y, -1.0f);
}

TEST(Unproject, CentreRayFollowsTheCameraForward) {
  OrbitCamera camera;
  const glm::vec2 win(800, 600);
  const auto ray = ScreenRay(win * 0.5f, win, win * 2.0f, camera.View(),
                             camera.Projection(win.x / win.y));
  ASSERT_TRUE(ray);
  EXPECT_GT(glm::dot(ray->direction, camera.forward()), 0.99999f);
  EXPECT_LT(DistanceToRay(*ray, camera.pivot()), 1e-4f);
}

TEST(Unproject, CursorFarOutsideTheWindowStillGivesAFiniteRay) {
  OrbitCamera camera;
  const glm::vec2 win(800, 600);
  for (glm::vec2 p : {glm::vec2(-5000, -5000), glm::vec2(1e6f, 3), glm::vec2(-1, 601),
                      glm::vec2(400, -1e7f)}) {
    const auto ray = ScreenRay(p, win, win, camera.View(), camera.Projection(win.x / win.y));
    ASSERT_TRUE(ray) << p.x << "," << p.y;
    EXPECT_TRUE(std::isfinite(ray->direction.x) && std::isfinite(ray->origin.y));
  }
}

TEST(Unproject, RejectsNonFiniteAndDegenerateInput) {
  OrbitCamera camera;
  const glm::vec2 win(800, 600);
  const glm::mat4 v = camera.View(), p = camera.Projection(1.0f);
  EXPECT_FALSE(ScreenRay({NAN, 1}, win, win, v, p));
  EXPECT_FALSE(ScreenRay({1, INFINITY}, win, win, v, p));
  EXPECT_FALSE(ScreenRay({1, 1}, {0, 600}, win, v, p));
  EXPECT_FALSE(ScreenRay({1, 1}, win, {800, 0}, v, p));
  EXPECT_FALSE(ScreenRay({1, 1}, win, win, glm::mat4(0.0f), p));
}

TEST(Unproject, PlaneIntersection) {
  const Ray ray{{0, 0, 10}, {0, 0, -1}};
  const auto t = IntersectPlane(ray, {3, 4, 2}, {0, 0, 1});
  ASSERT_TRUE(t);
  EXPECT_FLOAT_EQ(*t, 8.0f);
  EXPECT_FALSE(IntersectPlane(ray, {0, 0, 20}, {0, 0, 1}));  // behind the origin
  EXPECT_FALSE(IntersectPlane(ray, {0, 0, 0}, {1, 0, 0}));   // parallel
}

}  // namespace
}  // namespace fabrik
