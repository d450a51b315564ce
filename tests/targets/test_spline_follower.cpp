// Tests for SplineFollower (src/targets/spline_follower.h): constant speed, loop, ping-pong,
// closed wrap, play/pause/restart, speed validation, determinism.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include <glm/geometric.hpp>

#include "lang/spline_file.h"
#include "targets/spline_follower.h"

namespace fabrik {
namespace {

Spline Line() {  // straight, length 10 along +X
  return Spline::Create({{0, 0, 0}, {10, 0, 0}}, false).value();
}

Spline Square(bool closed) {
  return Spline::Create({{0, 0, 0}, {2, 0, 0}, {2, 2, 0}, {0, 2, 0}}, closed).value();
}

TEST(SplineFollower, WithoutSplineStaysAtOrigin) {
  SplineFollower f;
  EXPECT_FALSE(f.has_spline());
  EXPECT_EQ(f.Advance(1.0), glm::vec3(0.0f));
  EXPECT_EQ(f.progress(), 0.0);
}

TEST(SplineFollower, MovesAtConstantSpeedAlongTheArc) {
  SplineFollower f;
  f.SetSpline(Line());
  ASSERT_TRUE(f.SetSpeed(2.0f).ok());
  for (int i = 1; i <= 20; ++i) {
    const glm::vec3 p = f.Advance(0.1);
    EXPECT_NEAR(p.x, 0.2f * i, 1e-4f);
    EXPECT_NEAR(f.distance(), 0.2 * i, 1e-9);
  }
}

TEST(SplineFollower, OpenLoopJumpsBackToTheStart) {
  SplineFollower f;
  f.SetSpline(Line());
  f.SetEndBehavior(EndBehavior::kLoop);
  f.Advance(9.5);
  EXPECT_NEAR(f.distance(), 9.5, 1e-9);
  f.Advance(1.0);  // 10.5 -> 0.5
  EXPECT_NEAR(f.distance(), 0.5, 1e-9);
  EXPECT_NEAR(f.position().x, 0.5f, 1e-4f);
  EXPECT_EQ(f.direction(), 1);
  f.Advance(1000.25);  // many laps in one step
  EXPECT_NEAR(f.distance(), 0.75, 1e-6);
}

TEST(SplineFollower, OpenPingPongTurnsAround) {
  SplineFollower f;
  f.SetSpline(Line());
  f.SetEndBehavior(EndBehavior::kPingPong);
  f.Advance(9.0);
  EXPECT_EQ(f.direction(), 1);
  f.Advance(2.0);  // 11 -> bounced back to 9
  EXPECT_NEAR(f.distance(), 9.0, 1e-9);
  EXPECT_EQ(f.direction(), -1);
  f.Advance(8.5);  // heading back: 0.5
  EXPECT_NEAR(f.distance(), 0.5, 1e-9);
  EXPECT_EQ(f.direction(), -1);
  f.Advance(1.0);  // bounces off the start: 0.5
  EXPECT_NEAR(f.distance(), 0.5, 1e-9);
  EXPECT_EQ(f.direction(), 1);
  f.Advance(40.0);  // two full round trips: unchanged
  EXPECT_NEAR(f.distance(), 0.5, 1e-6);
  EXPECT_EQ(f.direction(), 1);
}

TEST(SplineFollower, ClosedCurveWrapsSmoothlyWhateverTheEndBehavior) {
  for (EndBehavior b : {EndBehavior::kLoop, EndBehavior::kPingPong}) {
    SplineFollower f;
    f.SetSpline(Square(true));
    f.SetEndBehavior(b);
    const double length = f.spline().length();
    const double dt = 1.0 / 60.0;
    glm::vec3 prev = f.position();
    double max_step = 0.0;
    for (int i = 0; i < static_cast<int>(2.5 * length / dt); ++i) {
      const glm::vec3 p = f.Advance(dt);
      max_step = std::max(max_step, static_cast<double>(glm::distance(p, prev)));
      prev = p;
      EXPECT_EQ(f.direction(), 1);
      EXPECT_GE(f.distance(), 0.0);
      EXPECT_LT(f.distance(), length);
    }
    EXPECT_LT(max_step, dt * 1.001);  // no jump at the join
  }
}

TEST(SplineFollower, PauseRestartAndSetSplineKeepTheirPromises) {
  SplineFollower f;
  f.SetSpline(Line());
  f.Advance(3.0);
  f.Pause();
  EXPECT_FALSE(f.playing());
  EXPECT_NEAR(f.Advance(5.0).x, 3.0f, 1e-4f);
  f.Restart();
  EXPECT_FALSE(f.playing());  // restart keeps the play state
  EXPECT_EQ(f.distance(), 0.0);
  EXPECT_EQ(f.position(), glm::vec3(0.0f));
  f.Play();
  f.Advance(1.0);
  EXPECT_NEAR(f.position().x, 1.0f, 1e-4f);
  ASSERT_TRUE(f.SetSpeed(3.0f).ok());
  f.SetEndBehavior(EndBehavior::kPingPong);
  f.SetSpline(Square(false));
  EXPECT_EQ(f.distance(), 0.0);
  EXPECT_EQ(f.speed(), 3.0f);
  EXPECT_EQ(f.end_behavior(), EndBehavior::kPingPong);
  EXPECT_TRUE(f.playing());
}

TEST(SplineFollower, BadTimeStepsDoNothing) {
  SplineFollower f;
  f.SetSpline(Line());
  f.Advance(1.0);
  const double inf = INFINITY;
  for (double dt : {-1.0, 0.0, std::nan(""), inf, -inf}) {
    EXPECT_NEAR(f.Advance(dt).x, 1.0f, 1e-4f);
  }
  f.Advance(1e300);  // capped, stays finite
  EXPECT_TRUE(std::isfinite(f.position().x));
  EXPECT_GE(f.distance(), 0.0);
  EXPECT_LE(f.distance(), 10.0);
}

TEST(SplineFollower, SpeedIsValidated) {
  SplineFollower f;
  for (float bad : {0.0f, -1.0f, 1000.5f, std::nanf(""), INFINITY}) {
    Status s = f.SetSpeed(bad);
    EXPECT_FALSE(s.ok()) << bad;
    EXPECT_EQ(s.error().rfind("spline speed must be a number > 0 and <= 1000, got ", 0), 0u);
    EXPECT_EQ(f.speed(), SplineFollower::kDefaultSpeed);
  }
  EXPECT_TRUE(f.SetSpeed(1000.0f).ok());
  EXPECT_TRUE(f.SetSpeed(1e-6f).ok());
}

TEST(SplineFollower, ConstantDtGivesEquidistantTargets) {
  // The follower's output, not just the spline: consecutive targets at a fixed dt are the
  // same distance apart within 2% on a smooth curve.
  Result<Spline> s = LoadSplineFile(std::string(FABRIK_SOURCE_DIR) + "/assets/splines/loop.txt");
  ASSERT_TRUE(s.ok()) << s.error();
  SplineFollower f;
  f.SetSpline(s.value());
  ASSERT_TRUE(f.SetSpeed(1.5f).ok());
  glm::vec3 prev = f.position();
  double lo = 1e9, hi = 0.0;
  for (int i = 0; i < 60 * 30; ++i) {
    const glm::vec3 p = f.Advance(1.0 / 60.0);
    const double d = glm::distance(p, prev);
    lo = std::min(lo, d);
    hi = std::max(hi, d);
    prev = p;
  }
  EXPECT_LT((hi - lo) / hi, 0.02);
  EXPECT_NEAR(hi, 1.5 / 60.0, 0.02 * 1.5 / 60.0);
}

TEST(SplineFollower, IsDeterministic) {
  Result<Spline> s = LoadSplineFile(std::string(FABRIK_SOURCE_DIR) + "/assets/splines/word.txt");
  ASSERT_TRUE(s.ok()) << s.error();
  SplineFollower a, b;
  a.SetSpline(s.value());
  b.SetSpline(s.value());
  a.SetEndBehavior(EndBehavior::kPingPong);
  b.SetEndBehavior(EndBehavior::kPingPong);
  ASSERT_TRUE(a.SetSpeed(7.0f).ok());
  ASSERT_TRUE(b.SetSpeed(7.0f).ok());
  for (int i = 0; i < 2000; ++i) {
    const double dt = (i % 7) * 0.004;
    ASSERT_EQ(a.Advance(dt), b.Advance(dt));
  }
}

}  // namespace
}  // namespace fabrik
