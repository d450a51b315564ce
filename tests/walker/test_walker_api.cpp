// The walker's interface: bad input refused or clamped, fixed steps, snapshots for the debug
// views, the step-view recording, bone rotations, terrain swaps, tilt on a slope.
#include <gtest/gtest.h>

#include <cmath>
#include <glm/geometric.hpp>
#include <memory>
#include <utility>
#include <vector>

#include "walker/walker.h"
#include "walker_test_util.h"

namespace fabrik {
namespace {

using testing::MakeBumpyGround;

Walker MakeWalker(std::shared_ptr<const Heightmap> map, glm::vec2 start = {0.0f, 0.0f}) {
  Result<Walker> w = Walker::Create(std::move(map), WalkerSettings::Spider(4), start, 0.3f);
  EXPECT_TRUE(w.ok()) << w.error();
  return std::move(w.value());
}

// Everything the scene serialises, for "state unchanged" checks.
struct Snapshot {
  glm::vec3 body;
  glm::quat rotation;
  std::vector<glm::vec3> joints, targets;
  std::vector<bool> planted;
  std::int64_t steps;
  bool operator==(const Snapshot&) const = default;
};

Snapshot Take(const Walker& w) {
  Snapshot s{w.body_position(), w.body_rotation(), {}, {}, {}, w.steps()};
  for (const WalkerLegState& leg : w.legs()) {
    s.joints.insert(s.joints.end(), leg.leg.joints().begin(), leg.leg.joints().end());
    s.targets.push_back(leg.foot_target);
    s.planted.push_back(leg.planted);
  }
  return s;
}

TEST(WalkerApi, RefusesNonFiniteGoalsAndBadTimeSteps) {
  Walker w = MakeWalker(MakeBumpyGround().map);
  for (int k = 0; k < 30; ++k) ASSERT_TRUE(w.Update(1.0f / 60.0f, {5, 0, 5}).ok());
  const Snapshot before = Take(w);
  const glm::vec3 goal = w.goal();
  for (glm::vec3 bad :
       {glm::vec3(NAN, 0, 0), glm::vec3(0, INFINITY, 0), glm::vec3(0, 0, -INFINITY)}) {
    const Result<int> r = w.Update(1.0f / 60.0f, bad);
    ASSERT_FALSE(r.ok());
    EXPECT_NE(r.error().find("goal"), std::string::npos) << r.error();
  }
  for (float dt : {0.0f, -1.0f, NAN, INFINITY}) {
    const Result<int> r = w.Update(dt, {5, 0, 5});
    ASSERT_FALSE(r.ok()) << dt;
    EXPECT_NE(r.error().find("time step"), std::string::npos) << r.error();
  }
  EXPECT_TRUE(Take(w) == before);
  EXPECT_EQ(w.goal(), goal);
}

TEST(WalkerApi, AGoalOffTheTerrainIsClampedInsideAndReached) {
  const auto ground = MakeBumpyGround(64, 24.0f, 2.0f);
  Walker w = MakeWalker(ground.map);
  ASSERT_TRUE(w.Update(1.0f / 60.0f, {1000.0f, 0.0f, -1000.0f}).ok());
  const float edge = 12.0f - w.goal_margin();
  EXPECT_FLOAT_EQ(w.goal().x, edge);
  EXPECT_FLOAT_EQ(w.goal().z, -edge);
  EXPECT_FLOAT_EQ(w.goal().y, ground.map->HeightAt(edge, -edge));
  for (int k = 0; k < 60 * 60 && !w.arrived(); ++k) {
    ASSERT_TRUE(w.Update(1.0f / 60.0f, {1000.0f, 0.0f, -1000.0f}).ok());
    for (const WalkerLegState& leg : w.legs()) {
      ASSERT_TRUE(ground.map->Contains(leg.foot_target.x, leg.foot_target.z));
    }
  }
  EXPECT_TRUE(w.arrived());
  EXPECT_NEAR(w.body_position().x, edge, 1e-3f);
}

TEST(WalkerApi, FramesAreCutIntoFixedSteps) {
  Walker w = MakeWalker(MakeBumpyGround().map);
  const float step = w.settings().fixed_step;
  EXPECT_EQ(w.Update(step * 0.5f, {3, 0, 3}).value(), 0);
  EXPECT_EQ(w.Update(step * 0.5f, {3, 0, 3}).value(), 1);
  EXPECT_EQ(w.Update(step * 3.0f, {3, 0, 3}).value(), 3);
  // A frame longer than max_frame_time (a debugger pause) counts as max_frame_time.
  const int most = int(std::lround(w.settings().max_frame_time / step));
  EXPECT_EQ(w.Update(100.0f, {3, 0, 3}).value(), most);
  EXPECT_EQ(w.steps(), 4 + most);
}

TEST(WalkerApi, CreationRejectsBadInput) {
  const auto map = MakeBumpyGround().map;
  EXPECT_FALSE(Walker::Create(nullptr).ok());
  WalkerSettings odd = WalkerSettings::Spider(4);
  odd.legs.pop_back();
  const Result<Walker> w = Walker::Create(map, odd);
  ASSERT_FALSE(w.ok());
  EXPECT_NE(w.error().find("even number of legs"), std::string::npos) << w.error();
  WalkerSettings groups = WalkerSettings::Spider(4);
  groups.legs[1].group = 0;
  EXPECT_FALSE(Walker::Create(map, groups).ok());
  WalkerSettings short_legs = WalkerSettings::Spider(4);
  short_legs.segment_lengths = {0.3f, 0.3f};
  EXPECT_FALSE(Walker::Create(map, short_legs).ok());
  EXPECT_FALSE(Walker::Create(map, WalkerSettings::Spider(4), {NAN, 0.0f}).ok());
  EXPECT_FALSE(Walker::Create(map, WalkerSettings::Spider(4), {0.0f, 0.0f}, INFINITY).ok());
}

TEST(WalkerApi, PreSolvePoseIsTheWarmStartAtTheNewHip) {
  Walker w = MakeWalker(MakeBumpyGround().map);
  bool some_leg_moved = false;
  for (int k = 0; k < 120; ++k) {
    std::vector<std::vector<glm::vec3>> before;
    for (const WalkerLegState& leg : w.legs()) {
      before.emplace_back(leg.leg.joints().begin(), leg.leg.joints().end());
    }
    ASSERT_TRUE(w.Update(1.0f / 60.0f, {6, 0, 6}).ok());
    for (std::size_t i = 0; i < w.legs().size(); ++i) {
      const Leg& leg = w.legs()[i].leg;
      const glm::vec3 shift = leg.hip() - before[i][0];
      for (std::size_t j = 0; j < before[i].size(); ++j) {
        EXPECT_LT(glm::distance(leg.pre_solve()[j], before[i][j] + shift), 1e-5f);
        if (glm::distance(leg.pre_solve()[j], leg.joints()[j]) > 1e-3f) some_leg_moved = true;
      }
      EXPECT_LT(glm::distance(leg.pre_solve()[0], leg.joints()[0]), 1e-5f);  // same hip
    }
  }
  EXPECT_TRUE(some_leg_moved);  // the solve changes the pose: before and after differ
}

TEST(WalkerApi, RecordsTheChosenLegsSolveInWorldSpace) {
  Walker w = MakeWalker(MakeBumpyGround().map);
  w.SetRecordedLeg(2);
  EXPECT_EQ(w.recorded_leg(), 2);
  for (int k = 0; k < 40; ++k) ASSERT_TRUE(w.Update(1.0f / 60.0f, {-6, 0, 6}).ok());
  const RecordingObserver& r = w.recording();
  ASSERT_TRUE(r.recorded());
  EXPECT_FALSE(r.truncated());
  const Leg& leg = w.legs()[2].leg;
  ASSERT_EQ(r.joint_count(), leg.joints().size());
  for (std::size_t j = 0; j < r.joint_count(); ++j) {
    EXPECT_LT(glm::distance(r.start_pose()[j], leg.pre_solve()[j]), 1e-4f);
  }
  if (r.half_pass_count() > 0) {
    const std::vector<glm::vec3> last = r.PoseAfterReach(r.reach_count() - 1);
    for (std::size_t j = 0; j < last.size(); ++j) {
      EXPECT_LT(glm::distance(last[j], leg.joints()[j]), 1e-4f);
    }
  }
  EXPECT_LT(glm::distance(r.target(), w.legs()[2].foot_target), 1e-4f);
  w.SetRecordedLeg(99);
  EXPECT_EQ(w.recorded_leg(), -1);
  EXPECT_FALSE(w.recording().recorded());
}

TEST(WalkerApi, BoneRotationsTurnPlusYOntoEachSegment) {
  Walker w = MakeWalker(MakeBumpyGround().map);
  for (int k = 0; k < 50; ++k) ASSERT_TRUE(w.Update(1.0f / 60.0f, {4, 0, -4}).ok());
  for (std::size_t i = 0; i < w.legs().size(); ++i) {
    const auto joints = w.legs()[i].leg.joints();
    std::vector<glm::quat> q(joints.size() - 1);
    w.LegBoneRotations(i, q);
    for (std::size_t k = 0; k < q.size(); ++k) {
      EXPECT_NEAR(glm::length(q[k]), 1.0f, 1e-5f);
      const glm::vec3 axis = q[k] * glm::vec3(0, 1, 0);
      EXPECT_GT(glm::dot(axis, glm::normalize(joints[k + 1] - joints[k])), 1.0f - 1e-5f);
    }
  }
}

TEST(WalkerApi, SetTerrainReplantsTheFeet) {
  Walker w = MakeWalker(MakeBumpyGround().map);
  for (int k = 0; k < 50; ++k) ASSERT_TRUE(w.Update(1.0f / 60.0f, {4, 0, 4}).ok());
  const Snapshot before = Take(w);
  EXPECT_FALSE(w.SetTerrain(nullptr).ok());
  EXPECT_TRUE(Take(w) == before);
  Result<Heightmap> flat = Heightmap::Flat(40.0f);
  ASSERT_TRUE(flat.ok());
  ASSERT_TRUE(w.SetTerrain(std::make_shared<const Heightmap>(flat.value())).ok());
  for (const WalkerLegState& leg : w.legs()) {
    EXPECT_TRUE(leg.planted);
    EXPECT_EQ(leg.foot_target.y, 0.0f);
    EXPECT_LT(glm::distance(leg.leg.foot(), leg.foot_target), 0.02f);
  }
  EXPECT_NEAR(w.body_position().y, w.settings().ride_height, 1e-5f);
  // And it walks on from there.
  for (int k = 0; k < 120; ++k) {
    ASSERT_TRUE(w.Update(1.0f / 60.0f, {-4, 0, 4}).ok());
    for (const WalkerLegState& leg : w.legs()) {
      ASSERT_LT(glm::distance(leg.leg.foot(), leg.foot_target), 0.02f);
    }
  }
}

// Ground smaller than the walker's footprint, and cliffs far beyond the legs' reach: the
// walker stays finite, keeps half its feet down and its planted targets on the ground, even
// where its feet cannot reach.
TEST(WalkerApi, AbsurdGroundStaysFinite) {
  for (auto [size, height] : {std::pair{1.0f, 0.5f}, std::pair{40.0f, 60.0f}}) {
    const auto ground = MakeBumpyGround(16, size, height);
    Walker w = MakeWalker(ground.map, {3.0f, 3.0f});
    for (int k = 0; k < 600; ++k) {
      ASSERT_TRUE(w.Update(1.0f / 60.0f, {-9.0f, 0.0f, 7.0f}).ok());
      ASSERT_TRUE(std::isfinite(w.body_position().x + w.body_position().y + w.body_position().z));
      int planted = 0;
      for (const WalkerLegState& leg : w.legs()) {
        for (const glm::vec3& j : leg.leg.joints()) ASSERT_TRUE(std::isfinite(j.x + j.y + j.z));
        if (leg.planted) {
          ++planted;
          ASSERT_NEAR(leg.foot_target.y, ground.map->HeightAt(leg.foot_target.x, leg.foot_target.z),
                      1e-4f);
        }
      }
      ASSERT_GE(planted * 2, int(w.legs().size()));
    }
  }
}

TEST(WalkerApi, TheBodyTiltsWithASlope) {
  // A ramp rising along +X by 0.25 units per unit: a 14 degree slope.
  std::vector<float> s(32 * 32);
  for (int j = 0; j < 32; ++j)
    for (int i = 0; i < 32; ++i) s[std::size_t(j * 32 + i)] = float(i) / 31.0f;
  Result<Heightmap> ramp = Heightmap::FromSamples(32, 32, s, 32.0f, 31.0f * 0.25f);
  ASSERT_TRUE(ramp.ok());
  Walker w = MakeWalker(std::make_shared<const Heightmap>(ramp.value()));
  for (int k = 0; k < 120; ++k) ASSERT_TRUE(w.Update(1.0f / 60.0f, {0, 0, 0}).ok());
  const glm::vec3 up = w.body_rotation() * glm::vec3(0, 1, 0);
  const glm::vec3 slope = glm::normalize(glm::vec3(-0.25f, 1.0f, 0.0f));
  EXPECT_GT(glm::dot(up, slope), std::cos(0.02f));
  float mean = 0.0f;
  for (const WalkerLegState& leg : w.legs()) mean += leg.foot_target.y / 4.0f;
  EXPECT_NEAR(w.body_position().y, mean + w.settings().ride_height, 1e-3f);
}

}  // namespace
}  // namespace fabrik
