// Look-at (src/ik/aim.h): the effector frame's axis ends within 0.5 degrees of the point for
// achievable aims, spread over the last k joints; joints before them and every length stay;
// weights of 0 keep a joint out of it; refusals; no allocation once warm.
#include <gtest/gtest.h>

#include <cmath>
#include <numbers>
#include <random>
#include <vector>

#include "fabrik_test_util.h"
#include "ik/aim.h"
#include "ik/rotations.h"
#include "no_alloc_util.h"

namespace fabrik {
namespace {

using testing::RandomChain;
using testing::RandomUnit;
using testing::Uniform;

constexpr double kHalfDegree = 0.5 * std::numbers::pi / 180.0;

// The angle, measured afresh, between the effector frame's axis and the effector -> at line.
double AimError(const Chain& chain, const glm::vec3& axis, const glm::vec3& at) {
  std::vector<glm::quat> r(chain.segment_count());
  ChainRotations(chain.joints(), {}, r);
  const glm::dvec3 a(glm::normalize(r.back() * glm::normalize(axis)));
  const glm::dvec3 w = glm::normalize(glm::dvec3(at) - glm::dvec3(chain.effector()));
  return std::atan2(glm::length(glm::cross(a, w)), glm::dot(a, w));
}

TEST(Aim, TheAxisEndsWithinHalfADegreeOfAFarPointAlmostAlways) {
  std::mt19937 rng(12);
  int reached = 0;
  for (int trial = 0; trial < 300; ++trial) {
    std::vector<float> lengths(2 + trial % 6);
    for (float& l : lengths) l = Uniform(rng, 0.3f, 1.0f);
    Chain chain = RandomChain(rng, {0, 0, 0}, lengths);
    const std::vector<glm::vec3> before(chain.joints().begin(), chain.joints().end());
    AimTarget aim;
    aim.at = RandomUnit(rng) * chain.total_length() * Uniform(rng, 3.0f, 10.0f);
    aim.joints = 1 + trial % static_cast<int>(chain.segment_count());
    // One joint turns its bone by the smallest rotation from its parent (rotations.h's
    // twist), so some axes across the bone would need it folded straight back; it aims the
    // bone's own axis. Two or more joints aim any axis.
    aim.axis = aim.joints == 1 ? glm::vec3(0, 1, 0) : RandomUnit(rng);
    const std::vector<float> weights{0.2f, 0.3f, 0.5f};
    if (aim.joints == 3 && trial % 2 == 0) aim.weights = weights;
    AimSolver solver;
    const AimResult r = solver.Solve(chain, aim);
    ASSERT_TRUE(r.ok) << r.error;
    // `reached` is the measured truth, and nearly every aim gets there.
    EXPECT_EQ(r.reached, AimError(chain, aim.axis, aim.at) <= kHalfDegree) << trial;
    reached += r.reached ? 1 : 0;
    EXPECT_NEAR(r.angle, AimError(chain, aim.axis, aim.at), 1e-5);
    const std::size_t first_pivot = chain.joint_count() - 1 - static_cast<std::size_t>(aim.joints);
    for (std::size_t j = 0; j <= first_pivot; ++j) {
      EXPECT_TRUE(testing::BitwiseEqual(chain.joints()[j], before[j])) << trial << " " << j;
    }
    EXPECT_TRUE(testing::LengthsKeptToRounding(chain, 1e-5));
  }
  EXPECT_EQ(reached, 300) << reached << " of 300";
}

// The case a search over rigid turns stalled on: a straight chain must turn an axis across
// its bones towards a point beside it, which needs a twist that only parallel transport
// through a bend can give (the old search ended about 69 degrees off).
TEST(Aim, AStraightChainAimsASidewaysAxisWithEveryJointCount) {
  for (int k = 2; k <= 4; ++k) {
    for (const glm::vec3 axis : {glm::vec3(1, 0, 0), glm::vec3(0, 0, 1), glm::vec3(-1, 0.2f, 0)}) {
      for (const glm::vec3 at : {glm::vec3(0, 2, 20), glm::vec3(-15, 4, 0), glm::vec3(3, -10, 8)}) {
        Chain chain = testing::StraightChain(5, 1.0f, {0, 1, 0});
        AimTarget aim;
        aim.axis = axis;
        aim.at = at;
        aim.joints = k;
        AimSolver solver;
        const AimResult r = solver.Solve(chain, aim);
        ASSERT_TRUE(r.ok) << r.error;
        EXPECT_LE(AimError(chain, axis, at), kHalfDegree) << k << " " << r.angle;
        EXPECT_TRUE(r.reached);
        EXPECT_TRUE(testing::LengthsKeptToRounding(chain, 1e-5));
      }
    }
  }
}

// With weights the earlier joints take their share: the first of two equal pivots turns its
// bone, and the aim is still exact.
TEST(Aim, EqualWeightsSpreadTheTurnOverTheJoints) {
  Chain chain = testing::StraightChain(4, 1.0f, {0, 1, 0});
  AimTarget aim;
  aim.axis = {0, 1, 0};
  aim.at = {30, 2, 0};
  aim.joints = 2;
  AimSolver solver;
  ASSERT_TRUE(solver.Solve(chain, aim).reached);
  // Joint 1 bent towards the point (the bone from joint 1 to 2 leans to +X) and the last bone
  // leans further: each took part of the turn.
  const glm::vec3 middle = glm::normalize(chain.joints()[2] - chain.joints()[1]);
  const glm::vec3 last = glm::normalize(chain.joints()[3] - chain.joints()[2]);
  EXPECT_GT(middle.x, 0.2f);
  EXPECT_LT(middle.x, last.x);
}

TEST(Aim, AZeroWeightKeepsItsJointOutOfTheTurn) {
  Chain chain = testing::StraightChain(4, 1.0f, {0, 1, 0});
  const std::vector<float> weights{0.0f, 1.0f};
  AimTarget aim;
  aim.axis = {0, 1, 0};  // along the last bone
  aim.at = {30, 2, 0};
  aim.joints = 2;
  aim.weights = weights;
  AimSolver solver;
  ASSERT_TRUE(solver.Solve(chain, aim).reached);
  // Joint 1 (weight 0) did not bend: segments 0 and 1 still point along +Y.
  EXPECT_NEAR(chain.joints()[2].x, 0.0f, 1e-6);
  EXPECT_NEAR(chain.joints()[2].y, 2.0f, 1e-6);
}

TEST(Aim, BadInputIsRefusedAndTheChainUntouched) {
  Chain chain = testing::StraightChain(4, 1.0f);
  const std::vector<glm::vec3> before(chain.joints().begin(), chain.joints().end());
  AimSolver solver;
  const std::vector<float> zeros{0.0f, 0.0f}, negative{1.0f, -1.0f}, three{1, 1, 1};
  std::vector<AimTarget> bad(7);
  bad[0].axis = glm::vec3(0.0f);
  bad[1].at = glm::vec3(std::nanf(""), 0, 0);
  bad[2].joints = 0;
  bad[3].joints = 4;
  bad[4].joints = 2, bad[4].weights = zeros;
  bad[5].joints = 2, bad[5].weights = negative;
  bad[6].joints = 2, bad[6].weights = three;
  for (const AimTarget& t : bad) {
    const AimResult r = solver.Solve(chain, t);
    EXPECT_FALSE(r.ok);
    EXPECT_NE(std::string(r.error).find("aim"), std::string::npos);
    EXPECT_TRUE(testing::BitwiseEqual(chain.joints(), before));
  }
}

TEST(Aim, AimingNeverAllocatesOnceWarm) {
  std::mt19937 rng(14);
  Chain chain = RandomChain(rng, {0, 0, 0}, {1.0f, 0.5f, 0.8f, 1.1f});
  AimSolver solver;
  AimTarget aim;
  aim.axis = {1, 0, 0};
  aim.joints = 3;
  aim.at = {20, 0, 0};
  ASSERT_TRUE(solver.Solve(chain, aim).ok);  // warms the rotation buffer
  std::vector<glm::vec3> targets = testing::RandomTargets(rng, 100, 40.0f);
  const auto [allocations, ok] = testing::CountAllocations(targets, [&](const glm::vec3& t) {
    aim.at = t;
    return solver.Solve(chain, aim).ok;
  });
  EXPECT_EQ(allocations, 0);
  EXPECT_EQ(ok, 100);
}

}  // namespace
}  // namespace fabrik
