// Contact detection on synthetic feet (contacts.h): heel and ball apart, with hysteresis and
// a minimum duration, the same in any unit: flat, on the toes, sliding, jumping.
#include <gtest/gtest.h>

#include <cmath>

#include "mocap/contacts.h"
#include "mocap_test_util.h"

namespace fabrik::mocap {
namespace {

constexpr float kHz = 120.0f;

// 1.5 s of the test humanoid at 120 Hz; `pose(t, values)` sets a frame (t in seconds).
Result<std::shared_ptr<const Rig>> Synthetic(
    const std::function<void(float, std::vector<float>&)>& pose, float unit = 1.0f) {
  const auto joints = testing::Humanoid();
  const std::string text = testing::MakeBvh(joints, unit, 180, [&](int f, std::vector<float>& v) {
    pose(static_cast<float>(f) / kHz, v);
  });
  return testing::RigFromText(text, "synthetic");
}

int Count(const std::vector<std::uint8_t>& flags, int from, int to) {
  int n = 0;
  for (int f = from; f < to; ++f) n += flags[f];
  return n;
}

TEST(Contacts, FlatFeetAreDownAtHeelAndBall) {
  for (float unit : {1.0f, 0.01f, 0.0254f}) {
    auto rig = Synthetic([](float, std::vector<float>&) {}, unit);
    ASSERT_TRUE(rig) << rig.error();
    const ContactTrack& t = rig.value()->contacts;
    for (int side : {kLeft, kRight}) {
      EXPECT_EQ(Count(t.heel[side], 0, 180), 180) << unit;
      EXPECT_EQ(Count(t.ball[side], 0, 180), 180) << unit;
      EXPECT_EQ(Count(t.contact[side], 0, 180), 180) << unit;
      EXPECT_NE(t.ball_joint[side], rig.value()->limbs.legs[side].end());
    }
  }
}

TEST(Contacts, OnTheToesTheBallIsDownAndTheHeelUp) {
  // Flat for 0.5 s, then on the toes: both ankles pitched 45 degrees (toes down) and the body
  // raised so that the toe joints stay where they were; the heels rise 7 cm.
  const auto joints = testing::Humanoid();
  const int left = testing::AngleSlot(joints, "LeftFoot"),
            right = testing::AngleSlot(joints, "RightFoot");
  auto rig = Synthetic([&](float t, std::vector<float>& v) {
    if (t < 0.5f) return;
    const float a = glm::radians(45.0f);
    const float rise = 0.05f * std::cos(a) + 0.12f * std::sin(a) - 0.05f;
    v[1] += rise;
    v[left + 1] = v[right + 1] = 45.0f;  // X rotation (order Z X Y): toes down
  });
  ASSERT_TRUE(rig) << rig.error();
  const ContactTrack& t = rig.value()->contacts;
  for (int side : {kLeft, kRight}) {
    EXPECT_EQ(Count(t.heel[side], 0, 58), 58);
    EXPECT_EQ(Count(t.heel[side], 62, 180), 0);
    EXPECT_EQ(Count(t.ball[side], 0, 180), 180);
    EXPECT_EQ(Count(t.contact[side], 0, 180), 180);
  }
}

TEST(Contacts, ASlidingFootIsNotInContact) {
  // The left foot slides forward along the floor at 1 m/s for 0.5 s (the whole body moves:
  // the root carries it), then stands.
  auto rig = Synthetic([](float t, std::vector<float>& v) { v[2] += std::min(t, 0.5f) * 1.0f; });
  ASSERT_TRUE(rig) << rig.error();
  const ContactTrack& t = rig.value()->contacts;
  for (int side : {kLeft, kRight}) {
    EXPECT_EQ(Count(t.contact[side], 2, 58), 0);
    EXPECT_EQ(Count(t.contact[side], 66, 180), 180 - 66);
  }
}

TEST(Contacts, AJumpLeavesTheGroundAndLandsAgain) {
  // Standing 0.4 s, a parabolic jump of 0.5 s (30 cm high), standing again.
  auto rig = Synthetic([](float t, std::vector<float>& v) {
    if (t > 0.4f && t < 0.9f) {
      const float s = (t - 0.4f) / 0.5f;
      v[1] += 1.2f * s * (1.0f - s);
    }
  });
  ASSERT_TRUE(rig) << rig.error();
  const ContactTrack& t = rig.value()->contacts;
  const int up = static_cast<int>(0.4f * kHz), down = static_cast<int>(0.9f * kHz);
  for (int side : {kLeft, kRight}) {
    EXPECT_EQ(Count(t.contact[side], 0, up - 4), up - 4);
    EXPECT_EQ(Count(t.contact[side], up + 8, down - 8), 0);
    EXPECT_EQ(Count(t.contact[side], down + 6, 180), 180 - down - 6);
  }
}

TEST(Contacts, AFootNearTheThresholdDoesNotFlicker) {
  // The left heel hovers around the start height (3.4 cm for this 1.78 m skeleton: 2% of it),
  // 0.5 cm either side, slowly: hysteresis keeps one contact.
  const auto joints = testing::Humanoid();
  auto rig = Synthetic([&](float t, std::vector<float>& v) {
    const float h = 0.02f * 1.78f + 0.005f * std::sin(t * 25.0f);
    if (t > 0.5f) v[1] += t < 0.8f ? h * (t - 0.5f) / 0.3f : h;
  });
  ASSERT_TRUE(rig) << rig.error();
  const ContactTrack& t = rig.value()->contacts;
  int changes = 0;
  for (int f = 1; f < 180; ++f) changes += t.heel[kLeft][f] != t.heel[kLeft][f - 1];
  EXPECT_LE(changes, 1);
}

}  // namespace
}  // namespace fabrik::mocap
