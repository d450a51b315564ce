// IK weight, hand reach and gaze: weight 0 is the clip, targets ease in and out, reach within
// tolerance or point at an out-of-reach target, gaze within its limit; bad values refused.
#include <gtest/gtest.h>

#include <cmath>
#include <glm/geometric.hpp>

#include "mocap/character.h"
#include "mocap_test_util.h"

namespace fabrik::mocap {
namespace {

constexpr float kDt = 1.0f / 120.0f;
// The CMU clips start with a reference pose in frame 0: the tests that hold the clip still
// (time fixed, dt passing, so only the blends move) hold it at 1 s.
constexpr float kStill = 1.0f;

std::shared_ptr<const Rig> Rig0103() {
  static std::shared_ptr<const Rig> rig = testing::LoadRig(testing::kClip0103);
  return rig;
}

Character Make() {
  auto c = Character::Create(Rig0103());
  EXPECT_TRUE(c.ok()) << c.error();
  return std::move(c.value());
}

TEST(Blending, WeightZeroIsTheClipExactly) {
  Character c = Make();
  ASSERT_TRUE(c.SetIkWeight(0.0f).ok());
  ASSERT_TRUE(c.SetReachTarget(kRight, {0.3f, 1.2f, 0.5f}).ok());
  ASSERT_TRUE(c.SetLookTarget({2.0f, 1.6f, 3.0f}).ok());
  for (int f = 0; f < 600; ++f) {
    c.Update(f * kDt, kDt);
    for (int j = 0; j < c.rig().clip.joint_count(); ++j) {
      ASSERT_EQ(c.pose().positions[j], c.animated().positions[j]) << f << " " << j;
      ASSERT_EQ(c.pose().rotations[j], c.animated().rotations[j]) << f << " " << j;
    }
  }
  EXPECT_EQ(c.pelvis_offset(), 0.0f);
}

TEST(Blending, WeightScalesTheCorrection) {
  // Half weight moves the pelvis half as far as full weight, within 3 mm: a pin starts where
  // the foot is at full weight, with what the pop limit held it back (character.h), which a
  // weighted pose does not know.
  Character full = Make(), half = Make();
  ASSERT_TRUE(half.SetIkWeight(0.5f).ok());
  float worst = 0.0f, largest = 0.0f;
  for (int f = 0; f < 1200; ++f) {
    full.Update(f * kDt, kDt);
    half.Update(f * kDt, kDt);
    worst = std::max(worst, std::fabs(half.pelvis_offset() - 0.5f * full.pelvis_offset()));
    largest = std::max(largest, std::fabs(full.pelvis_offset()));
  }
  EXPECT_GT(largest, 0.001f);
  EXPECT_LT(worst, 0.003f);
}

TEST(Blending, ReachEasesInReachesAndEasesOut) {
  Character c = Make();
  c.Update(kStill, kDt);
  const int wrist = c.rig().limbs.arms[kRight].end();
  const glm::vec3 shoulder = c.pose().positions[c.rig().limbs.arms[kRight].chain[0]];
  // In reach: 0.3 m in front of the right shoulder and a little down.
  const glm::vec3 target = shoulder + glm::vec3(0.0f, -0.1f, 0.3f);
  ASSERT_TRUE(c.SetReachTarget(kRight, target).ok());
  const float start = glm::distance(c.pose().positions[wrist], target);
  // The blend lasts reach_blend_time, or longer for a hand that would otherwise move faster
  // than max_blend_speed (character.h).
  const CharacterSettings settings;
  const float blend =
      std::max(settings.reach_blend_time,
               glm::distance(c.animated().positions[wrist], target) / settings.max_blend_speed);
  const int frames = static_cast<int>(std::ceil(blend / kDt));
  std::vector<float> distances;
  for (int f = 1; f <= frames + 60; ++f) {
    c.Update(kStill, kDt);
    distances.push_back(glm::distance(c.pose().positions[wrist], target));
  }
  // Never in one frame: after the first frame the hand has moved less than a tenth of the way.
  EXPECT_GT(distances[0], 0.9f * start);
  // Half way through the blend it is still on its way; once the blend is over it is there.
  EXPECT_GT(distances[frames / 2], 0.002f);
  EXPECT_LT(distances[frames / 2], 0.9f * start);
  for (std::size_t i = frames + 1; i < distances.size(); ++i) {
    EXPECT_LE(distances[i], 0.0015f) << i;
  }
  // Off: eases out over the same time.
  c.ClearReachTarget(kRight);
  c.Update(kStill, kDt);
  EXPECT_LT(glm::distance(c.pose().positions[wrist], target), 0.1f * start);
  for (int f = 0; f < frames + 2; ++f) c.Update(kStill, kDt);
  EXPECT_EQ(c.reach_blend(kRight), 0.0f);
  // Back on the clip's arm (the whole body only lifted by the grounding's pelvis offset).
  const glm::vec3 lifted = c.animated().positions[wrist] + glm::vec3(0, c.pelvis_offset(), 0);
  EXPECT_LT(glm::distance(c.pose().positions[wrist], lifted), 1e-5f);
}

TEST(Blending, OutOfReachTheArmPointsAtTheTarget) {
  Character c = Make();
  const glm::vec3 target(5.0f, 2.0f, 4.0f);
  ASSERT_TRUE(c.SetReachTarget(kLeft, target).ok());
  for (int f = 0; f < 300; ++f) c.Update(kStill, kDt);  // a far target blends in slower
  const Limb& arm = c.rig().limbs.arms[kLeft];
  const glm::vec3 s = c.pose().positions[arm.chain[0]];
  const glm::vec3 w = c.pose().positions[arm.end()];
  EXPECT_GT(glm::dot(glm::normalize(w - s), glm::normalize(target - s)), 0.9999f);
}

TEST(Blending, GazeTurnsTheHeadWithinItsLimit) {
  Character c = Make();
  c.Update(kStill, kDt);
  const int head = c.rig().limbs.head;
  const glm::vec3 p = c.pose().positions[head];
  const auto angle_to = [&](const glm::vec3& point) {
    const glm::vec3 f = c.pose().rotations[head] * glm::vec3(0, 0, 1);
    return std::acos(
        std::clamp(glm::dot(glm::normalize(f), glm::normalize(point - p)), -1.0f, 1.0f));
  };
  // A point 40 degrees to the side: the head ends looking at it.
  const glm::vec3 forward = c.pose().rotations[head] * glm::vec3(0, 0, 1);
  const glm::vec3 side = glm::angleAxis(glm::radians(40.0f), glm::vec3(0, 1, 0)) * forward;
  ASSERT_TRUE(c.SetLookTarget(p + 2.0f * side).ok());
  const float before = angle_to(p + 2.0f * side);
  c.Update(kStill, 0.0f);
  EXPECT_NEAR(angle_to(p + 2.0f * side), before, 1e-4f);  // no time passed: not turned yet
  c.Update(kStill, kDt);
  const float first = angle_to(p + 2.0f * side);
  EXPECT_LT(first, before);
  EXPECT_GT(first, 0.9f * before);  // eased in, not turned in one frame
  for (int f = 2; f < 120; ++f) c.Update(kStill, kDt);
  EXPECT_LT(angle_to(p + 2.0f * side), glm::radians(3.0f));
  // Behind the head: turned by the limit (70 degrees) only.
  const glm::vec3 behind = c.pose().positions[head] - 2.0f * forward;
  ASSERT_TRUE(c.SetLookTarget(behind).ok());
  for (int f = 0; f < 240; ++f) c.Update(kStill, kDt);  // the point moves there, then the head
  const glm::vec3 now = c.pose().rotations[head] * glm::vec3(0, 0, 1);
  const glm::vec3 clip = c.animated().rotations[head] * glm::vec3(0, 0, 1);
  EXPECT_NEAR(glm::degrees(std::acos(glm::dot(now, clip))), 70.0f, 1.0f);
}

TEST(Blending, BadValuesAreRefused) {
  Character c = Make();
  EXPECT_FALSE(c.SetIkWeight(-0.1f).ok());
  EXPECT_FALSE(c.SetIkWeight(1.5f).ok());
  EXPECT_FALSE(c.SetIkWeight(NAN).ok());
  EXPECT_EQ(c.ik_weight(), 1.0f);
  EXPECT_FALSE(c.SetReachTarget(kLeft, {NAN, 0, 0}).ok());
  EXPECT_FALSE(c.SetReachTarget(kLeft, {1e9f, 0, 0}).ok());
  EXPECT_FALSE(c.reach_target(kLeft).has_value());
  EXPECT_FALSE(c.SetLookTarget({0, INFINITY, 0}).ok());
  EXPECT_FALSE(c.look_target().has_value());
  // Non-finite times and steps do not poison the pose.
  c.Update(NAN, NAN);
  c.Update(INFINITY, -1.0f);
  for (const glm::vec3& v : c.pose().positions) EXPECT_TRUE(std::isfinite(v.x + v.y + v.z));
}

}  // namespace
}  // namespace fabrik::mocap
