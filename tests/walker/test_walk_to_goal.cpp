// The pure walker tests: on a bumpy heightmap made here, walking to a goal keeps every
// promise of docs/walker.md "The walker" on every frame, and reaches the goal.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <glm/geometric.hpp>
#include <vector>

#include "walker/walker.h"
#include "walker_test_util.h"

namespace fabrik {
namespace {

using testing::BumpyGround;
using testing::MakeBumpyGround;
using testing::ReferenceHeight;

// The part of p - a perpendicular to the line through a and b.
glm::vec3 OffLine(const glm::vec3& a, const glm::vec3& b, const glm::vec3& p) {
  const glm::vec3 d = glm::normalize(b - a);
  return (p - a) - d * glm::dot(p - a, d);
}

struct Walk {
  int legs;
  glm::vec2 start;
  float yaw;
  glm::vec3 goal;
};

// Checks every per-frame promise while walking; returns the frames it took to arrive (or -1).
int WalkAndCheck(const BumpyGround& ground, const Walk& walk, int max_frames,
                 std::int64_t* foot_steps = nullptr) {
  Result<Walker> made =
      Walker::Create(ground.map, WalkerSettings::Spider(walk.legs), walk.start, walk.yaw);
  EXPECT_TRUE(made.ok()) << made.error();
  if (!made.ok()) return -1;
  Walker& w = made.value();
  const WalkerSettings& set = w.settings();
  const float dt = set.fixed_step;
  const std::size_t n = w.legs().size();
  std::vector<bool> was_planted(n);
  std::vector<glm::vec3> old_target(n);
  for (std::size_t i = 0; i < n; ++i) {
    was_planted[i] = w.legs()[i].planted;
    old_target[i] = w.legs()[i].foot_target;
  }
  glm::vec3 old_body = w.body_position();
  glm::quat old_rot = w.body_rotation();
  const float max_move = (set.max_speed + set.max_climb_rate) * dt * 1.001f + 1e-5f;
  const float max_turn = (set.turn_rate + set.max_tilt_rate) * dt * 1.001f + 1e-4f;
  bool both_groups_stepped[2] = {false, false};
  for (int frame = 0; frame < max_frames; ++frame) {
    Result<int> steps = w.Update(dt, walk.goal);
    EXPECT_TRUE(steps.ok()) << steps.error();
    EXPECT_EQ(steps.value(), 1);
    std::size_t planted = 0;
    int lifted_group = -1;
    for (std::size_t i = 0; i < n; ++i) {
      const WalkerLegState& s = w.legs()[i];
      SCOPED_TRACE(::testing::Message() << "frame " << frame << " leg " << i);
      if (s.planted) {
        ++planted;
        // Planted foot targets never move...
        if (was_planted[i]) {
          EXPECT_EQ(s.foot_target, old_target[i]);
        }
        // ...and lie on the terrain as the issue defines it.
        EXPECT_NEAR(s.foot_target.y, ReferenceHeight(ground, s.foot_target.x, s.foot_target.z),
                    0.01);
      } else {
        if (lifted_group >= 0) {
          EXPECT_EQ(s.layout.group, lifted_group);  // one group at a time
        }
        lifted_group = s.layout.group;
        both_groups_stepped[s.layout.group] = true;
      }
      // Feet stay within tolerance of their targets.
      EXPECT_LE(glm::distance(s.leg.foot(), s.foot_target), 0.02f);
      // Legs keep their lengths.
      const auto joints = s.leg.joints();
      for (std::size_t k = 0; k + 1 < joints.size(); ++k) {
        EXPECT_NEAR(glm::distance(joints[k], joints[k + 1]), set.segment_lengths[k],
                    1e-4f * set.segment_lengths[k]);
      }
      // The knees bend the natural way: the knee - the joint before the foot - lies on the
      // pole's side of the straight line from hip to foot, and above that line.
      const glm::vec3 hip = joints.front(), foot = joints.back(), knee = joints[joints.size() - 2];
      EXPECT_GT(glm::dot(OffLine(hip, foot, knee), OffLine(hip, foot, s.pole)), 0.0f);
      const float t = glm::dot(knee - hip, foot - hip) / glm::dot(foot - hip, foot - hip);
      EXPECT_GT(knee.y, hip.y + t * (foot.y - hip.y));
      was_planted[i] = s.planted;
      old_target[i] = s.foot_target;
    }
    // At least half the feet are planted on every frame.
    EXPECT_GE(planted * 2, n) << "frame " << frame;
    // The body never jumps.
    EXPECT_LE(glm::distance(w.body_position(), old_body), max_move) << "frame " << frame;
    const float turned =
        2.0f * std::acos(std::min(1.0f, std::fabs(glm::dot(w.body_rotation(), old_rot))));
    EXPECT_LE(turned, max_turn) << "frame " << frame;
    old_body = w.body_position();
    old_rot = w.body_rotation();
    if (::testing::Test::HasFailure())
      return -1;  // one frame's report is enough
                  // one frame's report is enough
    if (w.arrived()) {
      EXPECT_NEAR(w.body_position().x, walk.goal.x, 1e-3f);
      EXPECT_NEAR(w.body_position().z, walk.goal.z, 1e-3f);
      if (foot_steps) {
        *foot_steps = w.foot_steps();
        EXPECT_TRUE(both_groups_stepped[0] && both_groups_stepped[1]);
      }
      return frame + 1;
    }
  }
  ADD_FAILURE() << "the walker did not reach " << walk.goal.x << ", " << walk.goal.z << " in "
                << max_frames << " frames; it stands at " << w.body_position().x << ", "
                << w.body_position().z;
  return -1;
}

TEST(WalkToGoal, FourLegsAcrossBumpsKeepEveryPromise) {
  const BumpyGround ground = MakeBumpyGround();
  std::int64_t steps = 0;
  const int frames =
      WalkAndCheck(ground, {4, {-6.0f, -5.0f}, 0.0f, {7.0f, 0.0f, 6.0f}}, 60 * 60, &steps);
  EXPECT_GT(frames, 0);
  EXPECT_GT(steps, 20);  // ~17 units of walking takes many steps
}

TEST(WalkToGoal, TurnsAroundToAGoalBehindIt) {
  const BumpyGround ground = MakeBumpyGround();
  EXPECT_GT(WalkAndCheck(ground, {4, {3.0f, 4.0f}, 0.0f, {2.0f, 0.0f, -6.0f}}, 60 * 60), 0);
}

TEST(WalkToGoal, SixLegsWithTripods) {
  const BumpyGround ground = MakeBumpyGround();
  EXPECT_GT(WalkAndCheck(ground, {6, {5.0f, -4.0f}, 1.0f, {-8.0f, 0.0f, 3.0f}}, 60 * 60), 0);
}

TEST(WalkToGoal, SteepBumps) {
  // Twice the height on a smaller square: slopes about four times as steep.
  const BumpyGround ground = MakeBumpyGround(64, 30.0f, 4.0f);
  EXPECT_GT(WalkAndCheck(ground, {4, {-4.0f, 4.0f}, 2.0f, {5.0f, 0.0f, -5.0f}}, 60 * 60), 0);
}

TEST(WalkToGoal, AGoalUnderItsFeetNeedsNoWalk) {
  const BumpyGround ground = MakeBumpyGround();
  EXPECT_EQ(WalkAndCheck(ground, {4, {1.0f, 1.0f}, 0.5f, {1.0f, 9.0f, 1.0f}}, 10), 1);
}

}  // namespace
}  // namespace fabrik
