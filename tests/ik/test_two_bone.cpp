// The two-bone solver's contract (src/ik/two_bone.h) and softening (src/ik/soften.h): exact
// for reachable targets, straight beyond reach, folded too near, the pole and the kept bend
// plane, refusals that leave the chain alone, soften's continuity as the target crosses
// soften x reach, and no allocation.
#include <gtest/gtest.h>

#include <cmath>
#include <glm/geometric.hpp>
#include <random>
#include <vector>

#include "fabrik_test_util.h"
#include "ik/soften.h"
#include "ik/two_bone.h"
#include "no_alloc_util.h"

namespace fabrik {
namespace {

using testing::DistanceD;
using testing::LengthsKeptToRounding;
using testing::RandomChain;
using testing::RandomUnit;
using testing::Uniform;

Chain Arm(glm::vec3 root, glm::vec3 elbow, glm::vec3 hand) {
  return std::move(Chain::FromJoints({root, elbow, hand})).value();
}

SolveSettings Tight() {
  SolveSettings s;
  s.tolerance = 1e-6f;
  return s;
}

double MaxCoordinate(std::span<const glm::vec3> joints, const glm::vec3& target) {
  double m = std::fabs(target.x) + std::fabs(target.y) + std::fabs(target.z);
  for (const glm::vec3& p : joints)
    m = std::max({m, double(std::fabs(p.x)), double(std::fabs(p.y)), double(std::fabs(p.z))});
  return m;
}

TEST(TwoBone, ReachableTargetsAreHitToFloatRounding) {
  std::mt19937 rng(23);
  for (int i = 0; i < 2000; ++i) {
    const std::vector<float> lengths{Uniform(rng, 0.1f, 3.0f), Uniform(rng, 0.1f, 3.0f)};
    const glm::vec3 root = RandomUnit(rng) * Uniform(rng, 0.0f, 50.0f);
    Chain chain = RandomChain(rng, root, lengths);
    const float lo = std::fabs(lengths[0] - lengths[1]), hi = lengths[0] + lengths[1];
    const glm::vec3 target = root + RandomUnit(rng) * Uniform(rng, lo, hi) * 0.99999f;
    const glm::vec3 old_root = chain.root();
    const SolveResult r = SolveTwoBone(chain, target, Tight());
    ASSERT_TRUE(r.ok) << r.error;
    EXPECT_EQ(r.iterations, 1);
    EXPECT_TRUE(r.reachable);
    const double ulp = std::ldexp(MaxCoordinate(chain.joints(), target), -24);
    EXPECT_LE(DistanceD(chain.effector(), target), 8.0 * ulp) << i;
    EXPECT_TRUE(testing::BitwiseEqual(chain.root(), old_root));
    EXPECT_TRUE(LengthsKeptToRounding(chain, 1e-6)) << i;
  }
}

TEST(TwoBone, OutOfReachLaysTheArmStraightAndTooNearFolds) {
  Chain arm = Arm({0, 0, 0}, {0, 1, 0}, {1, 1, 0});
  SolveResult r = SolveTwoBone(arm, {10, 0, 0}, Tight());
  ASSERT_TRUE(r.ok);
  EXPECT_FALSE(r.reachable);
  EXPECT_FALSE(r.reached);
  EXPECT_NEAR(arm.joints()[1].x, 1.0, 1e-6);
  EXPECT_NEAR(arm.effector().x, 2.0, 1e-6);
  EXPECT_LT(testing::MaxDistanceFromLine(arm.joints(), {1, 0, 0}), 1e-6);
  EXPECT_NEAR(r.distance, 8.0, 1e-5);

  // Upper 2, lower 0.5: nothing nearer than 1.5 is attainable; the effector stops there.
  Chain uneven = Arm({0, 0, 0}, {0, 2, 0}, {0.5f, 2, 0});
  r = SolveTwoBone(uneven, {0, 0.5f, 0}, Tight());
  ASSERT_TRUE(r.ok);
  EXPECT_TRUE(r.reachable);
  EXPECT_FALSE(r.reached);
  EXPECT_NEAR(DistanceD(uneven.effector(), {0, 1.5f, 0}), 0.0, 1e-6);
  EXPECT_TRUE(LengthsKeptToRounding(uneven, 1e-6));
}

TEST(TwoBone, ThePoleChoosesTheBendPlaneAndSide) {
  std::mt19937 rng(7);
  for (int i = 0; i < 300; ++i) {
    Chain arm = RandomChain(rng, {0, 0, 0}, {1.0f, 1.2f});
    const glm::vec3 target = RandomUnit(rng) * Uniform(rng, 0.5f, 2.0f);
    const glm::vec3 pole = RandomUnit(rng) * 3.0f;
    TwoBoneOptions options;
    options.pole = pole;
    ASSERT_TRUE(SolveTwoBone(arm, target, Tight(), options).ok);
    const glm::dvec3 u = glm::normalize(glm::dvec3(target));
    const glm::dvec3 e(arm.joints()[1]), p(pole);
    const glm::dvec3 pole_side = p - glm::dot(p, u) * u;
    if (glm::length(pole_side) < 1e-2) continue;  // pole nearly on the line: any plane
    // In the plane of root, target and pole, on the pole's side.
    EXPECT_NEAR(glm::dot(glm::cross(u, pole_side / glm::length(pole_side)), e), 0.0, 1e-5) << i;
    EXPECT_GT(glm::dot(e - glm::dot(e, u) * u, pole_side), 0.0) << i;
  }
}

TEST(TwoBone, WithoutAPoleTheCurrentBendPlaneAndSenseAreKept) {
  // Bent in the XY plane, turning clockwise seen from +Z (cross(upper, lower) along -Z).
  Chain arm = Arm({0, 0, 0}, {0, 1, 0}, {1, 1, 0});
  for (glm::vec3 target : {glm::vec3(1.5f, 0.2f, 0), glm::vec3(-0.3f, 1.2f, 0),
                           glm::vec3(0.1f, -1.4f, 0), glm::vec3(1.0f, 0.5f, 0)}) {
    ASSERT_TRUE(SolveTwoBone(arm, target, Tight()).ok);
    EXPECT_LE(DistanceD(arm.effector(), target), 1e-6);
    for (const glm::vec3& p : arm.joints()) EXPECT_NEAR(p.z, 0.0, 1e-6);
    const glm::vec3 bend =
        glm::cross(arm.joints()[1] - arm.root(), arm.effector() - arm.joints()[1]);
    EXPECT_LT(bend.z, 0.0f) << target.x << " " << target.y;
  }
}

TEST(TwoBone, BadInputIsRefusedAndTheChainUntouched) {
  Chain arm = Arm({0, 0, 0}, {0, 1, 0}, {1, 1, 0});
  const std::vector<glm::vec3> before(arm.joints().begin(), arm.joints().end());
  const float nan = std::nanf("");
  struct Case {
    glm::vec3 target;
    TwoBoneOptions options;
    const char* expected;
  };
  TwoBoneOptions soft0, soft2, soft_nan, bad_pole;
  soft0.soften = 0.0f;
  soft2.soften = 1.5f;
  soft_nan.soften = nan;
  bad_pole.pole = glm::vec3(nan, 0, 0);
  for (const Case& c : {Case{{nan, 0, 0}, {}, "target"}, Case{{1, 0, 0}, soft0, "soften"},
                        Case{{1, 0, 0}, soft2, "soften"}, Case{{1, 0, 0}, soft_nan, "soften"},
                        Case{{1, 0, 0}, bad_pole, "pole"}}) {
    const SolveResult r = SolveTwoBone(arm, c.target, Tight(), c.options);
    EXPECT_FALSE(r.ok);
    ASSERT_NE(r.error, nullptr);
    EXPECT_NE(std::string(r.error).find(c.expected), std::string::npos) << r.error;
    EXPECT_TRUE(testing::BitwiseEqual(arm.joints(), before));
  }
  Chain four = testing::StraightChain(4, 1.0f);
  const SolveResult r = SolveTwoBone(four, {1, 1, 0}, Tight());
  EXPECT_FALSE(r.ok);
  EXPECT_NE(std::string(r.error).find("exactly 3 joints"), std::string::npos);
}

TEST(Soften, DistanceIsContinuousWithItsSlopeAtTheStartAndStaysShortOfTheReach) {
  const double reach = 2.5;
  for (double ratio : {0.5, 0.8, 0.95, 0.999}) {
    const double start = ratio * reach;
    const double h = 1e-7 * reach;
    const double below = SoftenedDistance(start - h, reach, ratio);
    const double above = SoftenedDistance(start + h, reach, ratio);
    EXPECT_EQ(below, start - h);
    // Value and slope continuous: only the curvature term h^2 / (2 (reach - start)) is left.
    EXPECT_NEAR(above - below, 2.0 * h, h * h / (reach - start) + 1e-15) << ratio;
    // Slope on the far side just past the start: 1 (one-sided difference quotient).
    const double slope = (SoftenedDistance(start + 2 * h, reach, ratio) - above) / h;
    EXPECT_NEAR(slope, 1.0, 1e-3);
    double previous = 0.0;
    for (double d = 0.0; d < 20.0 * reach; d += 0.01 * reach) {
      const double s = SoftenedDistance(d, reach, ratio);
      EXPECT_LE(s, d);
      EXPECT_LE(s, reach);
      // Strictly short of the reach, and strictly increasing, until the exponential's
      // distance from 1 drops below double rounding.
      if (d < start + 30.0 * (reach - start)) {
        EXPECT_LT(s, reach);
        if (d > 0.0) {
          EXPECT_GT(s, previous);
        }
      }
      EXPECT_GE(s, previous);
      previous = s;
    }
  }
  EXPECT_EQ(SoftenedDistance(3.0, 2.0, 1.0), 3.0);  // ratio 1: no softening
}

TEST(Soften, AnArmTrackingATargetOutOfReachMovesSmoothly) {
  // The target moves at constant speed along +X through soften x reach and beyond the reach;
  // the effector's step never exceeds the target's and never jumps at the start of softening.
  Chain arm = Arm({0, 0, 0}, {0, 1, 0}, {1, 1, 0});
  TwoBoneOptions options;
  options.soften = 0.9f;  // softening from 1.8
  const float step = 0.001f;
  glm::vec3 last_effector{0.0f};
  bool first = true;
  float largest_step = 0.0f;
  for (float x = 1.5f; x < 3.0f; x += step) {
    const SolveResult r = SolveTwoBone(arm, {x, 0, 0}, Tight(), options);
    ASSERT_TRUE(r.ok);
    if (x < 1.8f - step) {
      EXPECT_LE(r.distance, 1e-5f) << x;  // below the start the target is reached
    } else if (x > 1.8f + step) {
      EXPECT_GT(r.distance, 0.0f);
      EXPECT_LT(arm.effector().x, 2.0f);  // never snaps straight
    }
    if (!first) largest_step = std::max(largest_step, glm::distance(arm.effector(), last_effector));
    last_effector = arm.effector();
    first = false;
  }
  EXPECT_LE(largest_step, step * 1.01f);
  EXPECT_GT(last_effector.x, 1.99f);  // far out it approaches the reach
}

TEST(Soften, TargetHelperMovesOnlyBeyondTheStart) {
  const glm::vec3 root(1, 2, 3);
  EXPECT_EQ(SoftenTarget(root, root + glm::vec3(0, 1.5f, 0), 2.0f, 0.8f),
            root + glm::vec3(0, 1.5f, 0));
  const glm::vec3 soft = SoftenTarget(root, root + glm::vec3(0, 3.0f, 0), 2.0f, 0.8f);
  EXPECT_NEAR(soft.x, 1.0f, 1e-6);
  EXPECT_GT(soft.y - 2.0f, 1.6f);
  EXPECT_LT(soft.y - 2.0f, 2.0f);
  EXPECT_EQ(SoftenTarget(root, root, 2.0f, 0.5f), root);
  EXPECT_FALSE(ValidSoftenRatio(0.0f));
  EXPECT_FALSE(ValidSoftenRatio(1.0001f));
  EXPECT_TRUE(ValidSoftenRatio(1.0f));
}

TEST(TwoBone, SolvingNeverAllocates) {
  std::mt19937 rng(3);
  Chain arm = RandomChain(rng, {0, 0, 0}, {1.0f, 0.7f});
  TwoBoneOptions options;
  options.soften = 0.9f;
  options.pole = glm::vec3(0, 0, 5);
  const std::vector<glm::vec3> targets = testing::RandomTargets(rng, 500, 3.0f);
  const SolveSettings settings = Tight();
  const auto [allocations, solved] = testing::CountAllocations(
      targets, [&](const glm::vec3& t) { return SolveTwoBone(arm, t, settings, options).ok; });
  EXPECT_EQ(allocations, 0);
  EXPECT_EQ(solved, 500);
}

}  // namespace
}  // namespace fabrik
