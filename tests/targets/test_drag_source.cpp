// Drag mode math: the target lies on the cursor ray, on the grab plane; rays that miss keep
// the previous target; far-off cursors stay finite and on the ray.
#include <cmath>
#include <random>

#include <glm/geometric.hpp>
#include <gtest/gtest.h>

#include "camera/orbit_camera.h"
#include "targets/drag_source.h"

namespace fabrik {
namespace {

TEST(DragSource, TargetIsOnTheCursorRayAndTheGrabPlane) {
  std::mt19937 rng(11);
  std::uniform_real_distribution<float> u(0.0f, 1.0f);
  OrbitCamera camera;
  camera.Orbit({200, 50});
  const glm::vec2 win(1000, 700), fb(2000, 1400);
  const glm::mat4 view = camera.View(), proj = camera.Projection(fb.x / fb.y, 0.2f);
  DragSource drag;
  const glm::vec3 grabbed(1.0f, 3.0f, -0.5f);
  drag.Begin(grabbed, camera.forward());
  for (int i = 0; i < 500; ++i) {
    const glm::vec2 cursor(u(rng) * win.x, u(rng) * win.y);
    const auto ray = ScreenRay(cursor, win, fb, view, proj);
    ASSERT_TRUE(ray);
    const auto target = drag.Update(*ray);
    ASSERT_TRUE(target);
    EXPECT_LT(DistanceToRay(*ray, *target), 1e-4f);
    EXPECT_NEAR(glm::dot(*target - grabbed, camera.forward()), 0.0f, 1e-3f);
    // And it projects back onto the cursor pixel.
    const auto back = ProjectToWindow(*target, win, fb, view, proj);
    ASSERT_TRUE(back);
    EXPECT_NEAR(back->x, cursor.x, 0.05f);
    EXPECT_NEAR(back->y, cursor.y, 0.05f);
  }
}

TEST(DragSource, InactiveOrMissingRaysKeepThePreviousTarget) {
  DragSource drag;
  const Ray ray{{0, 0, 10}, {0, 0, -1}};
  EXPECT_FALSE(drag.Update(ray));  // not dragging
  drag.Begin({0, 0, 0}, {0, 0, -1});
  EXPECT_TRUE(drag.Update(ray));
  EXPECT_FALSE(drag.Update(Ray{{0, 0, 10}, {1, 0, 0}}));  // parallel to the plane
  EXPECT_FALSE(drag.Update(Ray{{0, 0, 10}, {0, 0, 1}}));  // pointing away
  drag.End();
  EXPECT_FALSE(drag.active());
  DragSource bad;
  bad.Begin({0, 0, 0}, {NAN, 0, 0});
  EXPECT_FALSE(bad.active());
}

TEST(DragSource, CursorFarOutsideTheWindowGivesAFiniteTargetOnItsRay) {
  OrbitCamera camera;
  const glm::vec2 win(800, 600);
  const glm::mat4 view = camera.View(), proj = camera.Projection(win.x / win.y);
  DragSource drag;
  drag.Begin(camera.pivot(), camera.forward());
  for (glm::vec2 cursor : {glm::vec2(-1e5f, 300), glm::vec2(400, 1e6f), glm::vec2(-3, -3)}) {
    const auto ray = ScreenRay(cursor, win, win, view, proj);
    ASSERT_TRUE(ray);
    const auto target = drag.Update(*ray);
    ASSERT_TRUE(target);
    EXPECT_TRUE(std::isfinite(target->x) && std::isfinite(target->y) && std::isfinite(target->z));
    // |hit - pivot| <= |hit - ray origin| + |ray origin - pivot|, and the first is at most the
    // grab depth plus the limit. (Far off-axis rays start far along the near plane.)
    const float origin_to_pivot = glm::length(ray->origin - camera.pivot());
    EXPECT_LE(glm::length(*target - camera.pivot()),
              DragSource::kMaxDragDistance + 2.0f * origin_to_pivot + 1.0f);
    EXPECT_LT(DistanceToRay(*ray, *target), 1e-3f * glm::length(*target - ray->origin) + 1e-3f);
  }
}

TEST(PickNearest, FindsTheClosestWithinTheRadius) {
  const glm::vec2 points[] = {{10, 10}, {50, 50}, {53, 50}};
  EXPECT_EQ(PickNearest(points, {52, 50}, 20.0f), std::optional<std::size_t>(2));
  EXPECT_EQ(PickNearest(points, {12, 9}, 5.0f), std::optional<std::size_t>(0));
  EXPECT_FALSE(PickNearest(points, {200, 200}, 20.0f));
  EXPECT_FALSE(PickNearest(points, {NAN, 0}, 20.0f));
}

}  // namespace
}  // namespace fabrik
