// A foot pivoting on its ball (docs/mocap.md: One character, Feet): a synthetic clip stands
// flat, then rises onto its toes while its right foot turns about the ankle, sliding the ball
// along the floor slowly enough to stay in contact. The grounded pose keeps each contact
// point within 5 mm of where it went down (GroundingMeter's skate, the goal), the heel let
// go as it rises and the ball held while the foot turns about it.
#include <gtest/gtest.h>

#include <cmath>

#include "mocap/grounding_meter.h"
#include "mocap_test_util.h"

namespace fabrik::mocap {
namespace {

constexpr float kPivotHz = 120.0f;
constexpr int kPivotFrames = 180;

// 1.5 s of the test humanoid: flat until 0.4 s; then by 0.9 s both ankles pitched 40 degrees
// toes down, the body raised to keep the toe joints on the floor, and the right ankle also
// turned 0.6 rad about its own vertical (its ball swings 7 cm along the floor).
Result<std::shared_ptr<const Rig>> PivotingClip(float unit) {
  const auto joints = testing::Humanoid();
  const int left = testing::AngleSlot(joints, "LeftFoot"),
            right = testing::AngleSlot(joints, "RightFoot");
  const std::string text =
      testing::MakeBvh(joints, unit, kPivotFrames, [&](int f, std::vector<float>& v) {
        const float t = static_cast<float>(f) / kPivotHz;
        const float s = std::clamp((t - 0.4f) / 0.5f, 0.0f, 1.0f);
        const float e = s * s * (3.0f - 2.0f * s);
        const float pitch = glm::radians(40.0f) * e;
        v[1] += 0.05f * std::cos(pitch) + 0.12f * std::sin(pitch) - 0.05f;
        v[left + 1] = v[right + 1] = glm::degrees(pitch);  // X rotation (order Z X Y)
        v[right + 2] = glm::degrees(0.6f * e);             // Y rotation: the turn
      });
  return testing::RigFromText(text, "pivoting foot");
}

TEST(FootPivot, TheBallHoldsWhileTheHeelRisesAndTurns) {
  for (float unit : {1.0f, 0.01f}) {
    auto made = PivotingClip(unit);
    ASSERT_TRUE(made) << made.error();
    const auto& rig = made.value();
    const ContactTrack& track = rig->contacts;
    // The scenario: the right heel leaves the floor and the ball stays down throughout.
    int heel_down = 0, ball_down = 0;
    for (int f = 150; f < kPivotFrames; ++f) heel_down += track.heel[kRight][f];
    for (int f = 0; f < kPivotFrames; ++f) ball_down += track.ball[kRight][f];
    EXPECT_EQ(heel_down, 0);
    EXPECT_EQ(ball_down, kPivotFrames);
    auto character = Character::Create(rig);
    ASSERT_TRUE(character) << character.error();
    Character& c = character.value();
    GroundingMeter raw(*rig, nullptr), ik(*rig, nullptr);
    const float dt = 1.0f / kPivotHz;
    for (int f = 0; f < kPivotFrames; ++f) {
      c.Update(static_cast<float>(f) * dt, dt);
      raw.Frame(f, c.animated(), c.animated(), c.restarted());
      ik.Frame(f, c.animated(), c.pose(), c.restarted());
    }
    SCOPED_TRACE(unit);
    EXPECT_GT(raw.Figures().skate_worst, 0.05);  // the clip slides its ball
    EXPECT_LT(ik.Figures().skate_worst, 0.005);  // the grounding holds it (the goal)
    EXPECT_LT(ik.Figures().pop_worst, 0.02);
  }
}

}  // namespace
}  // namespace fabrik::mocap
