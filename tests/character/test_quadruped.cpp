// The quadruped on the hills (character/quadruped.h; docs/characters.md: The quadruped on the
// hills): the rig found from the packaged creature's shape, and a walk across bumpy ground with
// its planted feet held still on the terrain and its bones kept at their lengths.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <glm/geometric.hpp>
#include <memory>
#include <vector>

#include "character/pose.h"
#include "character/quadruped.h"
#include "character_test_util.h"
#include "terrain/heightmap.h"

namespace fabrik::character {
namespace {

using testing::kHuman;
using testing::kQuadruped;

std::shared_ptr<const Model> LoadShared(const char* path) {
  Result<Model> m = LoadModelFile(path);
  EXPECT_TRUE(m.ok()) << m.error();
  return m.ok() ? std::make_shared<const Model>(std::move(m).value()) : nullptr;
}

// Rolling ground: 64 x 64 samples of waves over 40 m, up to `height` high.
std::shared_ptr<const Heightmap> Hills(float height) {
  const int side = 64;
  std::vector<float> s(std::size_t(side * side));
  for (int j = 0; j < side; ++j) {
    for (int i = 0; i < side; ++i) {
      const double u = double(i) / side, v = double(j) / side;
      s[std::size_t(j * side + i)] = float(
          0.5 + 0.3 * std::sin(11.0 * u + 1.0) * std::cos(9.0 * v) + 0.15 * std::sin(19.0 * v));
    }
  }
  Result<Heightmap> map = Heightmap::FromSamples(side, side, s, 40.0f, height);
  EXPECT_TRUE(map.ok()) << map.error();
  return std::make_shared<const Heightmap>(std::move(map).value());
}

#define SKIP_WITHOUT_MODELS()                                                 \
  if (!std::filesystem::exists(kQuadruped)) {                                 \
    GTEST_SKIP() << kQuadruped << " is missing (Debian's assimp-testmodels)"; \
  }

TEST(Quadruped, FindsFourLegsAndTwoCyclesFromTheShape) {
  SKIP_WITHOUT_MODELS();
  std::shared_ptr<const Model> m = LoadShared(kQuadruped);
  ASSERT_TRUE(m);
  Result<QuadrupedRig> rig = FindQuadrupedRig(*m);
  ASSERT_TRUE(rig.ok()) << rig.error();
  const Skeleton& sk = m->skeleton;
  const char* first[4] = {"ForeLeg_L_01", "ForeLeg_R_01", "HindLeg_L_01", "HindLeg_R_01"};
  const char* last[4] = {"ForeLeg_L_05", "ForeLeg_R_05", "HindLeg_L_04", "HindLeg_R_04"};
  for (int i = 0; i < 4; ++i) {
    const QuadrupedLeg& leg = rig.value().legs[std::size_t(i)];
    ASSERT_GE(leg.bones.size(), 3u);
    EXPECT_EQ(sk.names[std::size_t(leg.bones.front())], first[i]);
    EXPECT_EQ(sk.names[std::size_t(leg.bones.back())], last[i]);
    EXPECT_EQ(leg.front, i < 2);
    EXPECT_EQ(leg.left, i % 2 == 0);
    EXPECT_GT(leg.foot_height, 0.05f);
    EXPECT_LT(leg.foot_height, 0.2f);
  }
  const auto& anims = m->animations;
  EXPECT_EQ(anims[std::size_t(rig.value().walk.animation)].name, "Wuson_Walk");
  ASSERT_GE(rig.value().run.animation, 0);
  EXPECT_EQ(anims[std::size_t(rig.value().run.animation)].name, "Wuson_Run");
  // The walk's feet move back about 0.7 m in 2 s of its 3.6, the run's in half a second.
  EXPECT_GT(rig.value().walk.ground_speed, 0.15f);
  EXPECT_LT(rig.value().walk.ground_speed, 0.8f);
  EXPECT_GT(rig.value().run.ground_speed, 2.0f * rig.value().walk.ground_speed);
  std::printf("walk %.3f m/s, run %.3f m/s at normal speed\n", rig.value().walk.ground_speed,
              rig.value().run.ground_speed);
}

TEST(Quadruped, TheHumanIsNotAQuadruped) {
  if (!std::filesystem::exists(kHuman)) GTEST_SKIP() << kHuman << " is missing";
  std::shared_ptr<const Model> m = LoadShared(kHuman);
  ASSERT_TRUE(m);
  Result<QuadrupedRig> rig = FindQuadrupedRig(*m);
  ASSERT_FALSE(rig.ok());
  EXPECT_NE(rig.error().find("not a quadruped"), std::string::npos) << rig.error();
  EXPECT_FALSE(QuadrupedWalker::Create(m, Hills(1.0f)).ok());
  EXPECT_FALSE(QuadrupedWalker::Create(nullptr, Hills(1.0f)).ok());
}

struct WalkFigures {
  double worst_slide = 0.0;   // a planted foot's leaf from where it was planted, m
  double worst_goal = 0.0;    // a planted foot's leaf from its goal, m
  double worst_ground = 0.0;  // a planted foot's sole from the terrain, m
  double worst_length = 0.0;  // a bone's length from its bind length, m
  int planted_frames = 0;
  bool ran = false;
};

// Walks to `goal` for `frames` frames of 1/60 s, checking every frame.
WalkFigures Walk(QuadrupedWalker& q, const glm::vec3& goal, int frames) {
  const Skeleton& sk = q.model().skeleton;
  std::vector<BoneTransform> bind(std::size_t(sk.bone_count()));
  BindPose(sk, bind);
  WalkFigures f;
  bool was_planted[4] = {true, true, true, true};
  glm::vec3 planted_at[4];
  for (std::size_t i = 0; i < 4; ++i) planted_at[i] = q.leg_joints(i).back();
  for (int frame = 0; frame < frames; ++frame) {
    Result<int> steps = q.Update(1.0f / 60.0f, goal);
    EXPECT_TRUE(steps.ok()) << steps.error();
    f.ran = f.ran || q.running();
    const auto pose = q.pose();
    for (int b = 1; b < sk.bone_count(); ++b) {
      const int p = sk.parents[std::size_t(b)];
      const double want =
          glm::length(bind[std::size_t(b)].translation - bind[std::size_t(p)].translation);
      const double got =
          glm::length(pose[std::size_t(b)].translation - pose[std::size_t(p)].translation);
      f.worst_length = std::max(f.worst_length, std::abs(got - want));
    }
    for (std::size_t i = 0; i < 4; ++i) {
      const glm::vec3 leaf = q.leg_joints(i).back();
      if (!q.planted(i)) {
        was_planted[i] = false;
        continue;
      }
      if (!was_planted[i]) planted_at[i] = leaf;
      was_planted[i] = true;
      ++f.planted_frames;
      f.worst_slide = std::max(f.worst_slide, double(glm::length(leaf - planted_at[i])));
      f.worst_goal = std::max(f.worst_goal, double(glm::length(leaf - q.foot_goal(i))));
      const float sole = leaf.y - q.rig().legs[i].foot_height;
      f.worst_ground = std::max(
          f.worst_ground, double(std::abs(sole - q.walker().terrain().HeightAt(leaf.x, leaf.z))));
    }
  }
  return f;
}

TEST(Quadruped, WalksOverHillsWithPlantedFeetStill) {
  SKIP_WITHOUT_MODELS();
  std::shared_ptr<const Model> m = LoadShared(kQuadruped);
  ASSERT_TRUE(m);
  Result<QuadrupedWalker> made = QuadrupedWalker::Create(m, Hills(2.0f), {-4.0f, -3.0f}, 0.3f);
  ASSERT_TRUE(made.ok()) << made.error();
  QuadrupedWalker& q = made.value();
  const glm::vec3 goal(5.0f, 0.0f, 4.0f);
  const glm::vec3 start = q.walker().body_position();
  const WalkFigures f = Walk(q, goal, 60 * 40);
  std::printf(
      "slide of planted feet %.2f mm, feet from their goals %.2f mm, soles from the ground "
      "%.2f mm, bone lengths %.3f mm, %d planted foot-frames\n",
      f.worst_slide * 1e3, f.worst_goal * 1e3, f.worst_ground * 1e3, f.worst_length * 1e3,
      f.planted_frames);
  const glm::vec3 end = q.walker().body_position();
  EXPECT_LT(glm::length(glm::vec2(end.x - goal.x, end.z - goal.z)), 0.01f);
  EXPECT_GT(glm::length(glm::vec2(end.x - start.x, end.z - start.z)), 10.0f);
  EXPECT_TRUE(q.walker().arrived());
  EXPECT_GT(f.planted_frames, 60 * 40 * 2);
  EXPECT_LT(f.worst_slide, 0.01);
  EXPECT_LT(f.worst_goal, 0.01);
  EXPECT_LT(f.worst_ground, 0.01);
  EXPECT_LT(f.worst_length, 1e-3);
  EXPECT_TRUE(f.ran) << "the run cycle never played";
  // Standing at the goal, the cycle stops.
  EXPECT_EQ(q.playback_rate(), 0.0f);
}

TEST(Quadruped, RefusesABadStepAndChangesNothing) {
  SKIP_WITHOUT_MODELS();
  std::shared_ptr<const Model> m = LoadShared(kQuadruped);
  ASSERT_TRUE(m);
  Result<QuadrupedWalker> made = QuadrupedWalker::Create(m, Hills(1.0f));
  ASSERT_TRUE(made.ok()) << made.error();
  QuadrupedWalker& q = made.value();
  const glm::vec3 before = q.pose()[0].translation;
  EXPECT_FALSE(q.Update(NAN, glm::vec3(1.0f)).ok());
  EXPECT_FALSE(q.Update(1.0f / 60.0f, glm::vec3(NAN)).ok());
  EXPECT_EQ(q.pose()[0].translation, before);
}

}  // namespace
}  // namespace fabrik::character
