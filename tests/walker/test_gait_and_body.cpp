// The pure pieces of the walker: choosing which group steps, the swing arc, the body plane.
#include <gtest/gtest.h>

#include <cmath>
#include <glm/geometric.hpp>
#include <vector>

#include "walker/body_fit.h"
#include "walker/gait.h"

namespace fabrik {
namespace {

TEST(ChooseStepGroup, NobodyLiftsWhileAFootIsInTheAir) {
  const std::vector<GaitLeg> legs = {
      {0, true, 0.9f}, {1, false, 0.0f}, {1, true, 0.9f}, {0, true, 0.9f}};
  EXPECT_EQ(ChooseStepGroup(legs, 1, false, 0.45f, 0.08f), -1);
}

TEST(ChooseStepGroup, ThresholdsDecide) {
  std::vector<GaitLeg> legs = {{0, true, 0.3f}, {1, true, 0.2f}, {1, true, 0.1f}, {0, true, 0.0f}};
  EXPECT_EQ(ChooseStepGroup(legs, -1, false, 0.45f, 0.08f), -1);  // walking: not far enough
  EXPECT_EQ(ChooseStepGroup(legs, -1, true, 0.45f, 0.08f), 0);    // settling: group 0 worst
  legs[2].drift = 0.5f;
  EXPECT_EQ(ChooseStepGroup(legs, -1, false, 0.45f, 0.08f), 1);
}

TEST(ChooseStepGroup, EqualDriftsAlternateUnequalOnesPickTheWorst) {
  std::vector<GaitLeg> legs = {{0, true, 0.6f}, {1, true, 0.58f}, {1, true, 0.1f}, {0, true, 0.2f}};
  EXPECT_EQ(ChooseStepGroup(legs, 0, false, 0.45f, 0.08f), 1);
  EXPECT_EQ(ChooseStepGroup(legs, 1, false, 0.45f, 0.08f), 0);
  legs[1].drift = 0.9f;
  EXPECT_EQ(ChooseStepGroup(legs, 1, false, 0.45f, 0.08f), 1);
}

Heightmap Hill() {
  // One white pixel in the middle of a black 5 x 5 image, 10 units, 2 high.
  std::vector<float> s(25, 0.0f);
  s[12] = 1.0f;
  Result<Heightmap> map = Heightmap::FromSamples(5, 5, s, 10.0f, 2.0f);
  EXPECT_TRUE(map.ok());
  return map.value();
}

TEST(SwingPoint, StartsAndEndsExactlyAndClearsTheGroundBetween) {
  const Heightmap hill = Hill();
  const glm::vec3 from = hill.PointAt(-3.0f, 0.0f), to = hill.PointAt(3.0f, 0.5f);
  EXPECT_EQ(SwingPoint(hill, from, to, 0.0f, 0.4f), from);
  EXPECT_EQ(SwingPoint(hill, from, to, 1.0f, 0.4f), to);
  EXPECT_EQ(SwingPoint(hill, from, to, -3.0f, 0.4f), from);
  EXPECT_EQ(SwingPoint(hill, from, to, NAN, 0.4f), from);
  for (float phase = 0.05f; phase < 1.0f; phase += 0.05f) {
    const glm::vec3 p = SwingPoint(hill, from, to, phase, 0.4f);
    // Over the hill in the middle, always above the ground by the arc.
    EXPECT_GE(p.y - hill.HeightAt(p.x, p.z), 0.4f * std::sin(3.14159265f * phase) - 1e-5f) << phase;
  }
  EXPECT_GT(SwingPoint(hill, from, to, 0.5f, 0.4f).y, 2.0f);  // the hill top is 2 high
}

TEST(FitSupportPlane, RecoversATiltedPlane) {
  std::vector<glm::vec3> p;
  for (glm::vec2 xz :
       {glm::vec2(-2, 1), glm::vec2(2, 1.5f), glm::vec2(-1.5f, -2), glm::vec2(2, -1)}) {
    p.emplace_back(xz.x, 0.2f * xz.x - 0.1f * xz.y + 3.0f, xz.y);
  }
  const SupportPlane plane = FitSupportPlane(p);
  const glm::vec3 expected = glm::normalize(glm::vec3(-0.2f, 1.0f, 0.1f));
  EXPECT_NEAR(glm::dot(plane.normal, expected), 1.0f, 1e-6f);
  EXPECT_NEAR(plane.centroid.y, (p[0].y + p[1].y + p[2].y + p[3].y) / 4, 1e-5f);
}

TEST(FitSupportPlane, DegenerateInputGivesALevelPlane) {
  EXPECT_EQ(FitSupportPlane({}).normal, glm::vec3(0, 1, 0));
  const std::vector<glm::vec3> line = {{0, 0, 0}, {1, 1, 1}, {2, 2, 2}, {3, 3, 3}};
  EXPECT_EQ(FitSupportPlane(line).normal, glm::vec3(0, 1, 0));
  const std::vector<glm::vec3> two = {{0, 0, 0}, {1, 5, 0}};
  EXPECT_EQ(FitSupportPlane(two).normal, glm::vec3(0, 1, 0));
}

TEST(LimitTilt, ClampsTheAngleFromVertical) {
  const glm::vec3 steep = glm::normalize(glm::vec3(1, 1, 0));  // 45 degrees
  const glm::vec3 limited = LimitTilt(steep, 0.3f);
  EXPECT_NEAR(std::acos(limited.y), 0.3f, 1e-4f);
  EXPECT_GT(limited.x, 0.0f);
  EXPECT_GT(glm::dot(LimitTilt(steep, 1.0f), steep), 1.0f - 1e-6f);  // within the limit: kept
  EXPECT_EQ(LimitTilt(glm::vec3(0, -1, 0), 0.3f), glm::vec3(0, 1, 0));
  EXPECT_EQ(LimitTilt(glm::vec3(NAN, 1, 0), 0.3f), glm::vec3(0, 1, 0));
}

TEST(TurnTowards, StepsByAtMostTheAngle) {
  const glm::vec3 a(1, 0, 0), b(0, 1, 0);
  const glm::vec3 c = TurnTowards(a, b, 0.5f);
  EXPECT_NEAR(std::acos(glm::dot(a, c)), 0.5f, 1e-5f);
  EXPECT_NEAR(glm::length(c), 1.0f, 1e-6f);
  EXPECT_EQ(TurnTowards(a, b, 2.0f), b);
}

}  // namespace
}  // namespace fabrik
