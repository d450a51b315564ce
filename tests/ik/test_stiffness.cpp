// Per-joint stiffness (src/ik/stiffness.h): a stiff joint keeps its start bend angle within
// 0.5 degrees while the free joints reach the target; partial stiffness bounds the change;
// refusals leave the chain alone; no allocation once warm.
#include <gtest/gtest.h>

#include <cmath>
#include <numbers>
#include <random>
#include <vector>

#include "fabrik_test_util.h"
#include "ik/stiffness.h"
#include "no_alloc_util.h"

namespace fabrik {
namespace {

using testing::RandomChain;
using testing::RandomUnit;
using testing::Uniform;

constexpr double kHalfDegree = 0.5 * std::numbers::pi / 180.0;

TEST(Stiffness, StiffJointsKeepTheirAngleAndFreeJointsStillReach) {
  std::mt19937 rng(41);
  int solved = 0, total = 0;
  for (int trial = 0; trial < 300; ++trial) {
    const std::size_t segments = 4 + trial % 5;
    std::vector<float> lengths(segments);
    for (float& l : lengths) l = Uniform(rng, 0.5f, 1.0f);
    Chain chain = RandomChain(rng, {0, 0, 0}, lengths);
    std::vector<float> stiffness(chain.joint_count(), 0.0f);
    const std::size_t stiff_a = 1 + trial % (segments - 1);
    stiffness[stiff_a] = 1.0f;
    if (trial % 3 == 0) stiffness[1 + (stiff_a % (segments - 1))] = 1.0f;
    std::vector<float> start(chain.joint_count());
    for (std::size_t i = 1; i + 1 < chain.joint_count(); ++i)
      start[i] = BendAngle(chain.joints(), i);
    // Targets within half the reach: the free joints can get there.
    const glm::vec3 target = RandomUnit(rng) * chain.total_length() * Uniform(rng, 0.2f, 0.5f);
    SolveSettings settings;
    settings.tolerance = 1e-3f;
    settings.max_iterations = 300;
    StiffSolver solver;
    const SolveResult r = solver.Solve(chain, target, settings, stiffness);
    ASSERT_TRUE(r.ok) << r.error;
    for (std::size_t i = 1; i + 1 < chain.joint_count(); ++i) {
      if (stiffness[i] == 1.0f) {
        EXPECT_NEAR(BendAngle(chain.joints(), i), start[i], kHalfDegree) << trial << " " << i;
      }
    }
    EXPECT_TRUE(testing::LengthsKeptToRounding(chain, 1e-5));
    EXPECT_EQ(chain.root(), glm::vec3(0.0f));
    solved += r.reached ? 1 : 0;
    ++total;
  }
  EXPECT_GE(solved, total * 95 / 100) << solved << " of " << total;
}

TEST(Stiffness, PartialStiffnessBoundsTheChangeAndZeroIsFree) {
  std::mt19937 rng(5);
  for (int trial = 0; trial < 200; ++trial) {
    Chain chain = RandomChain(rng, {0, 0, 0}, {1.0f, 1.0f, 1.0f, 1.0f, 1.0f});
    const float s = Uniform(rng, 0.0f, 1.0f);
    std::vector<float> stiffness(chain.joint_count(), s);
    std::vector<float> start(chain.joint_count());
    for (std::size_t i = 1; i + 1 < chain.joint_count(); ++i)
      start[i] = BendAngle(chain.joints(), i);
    const glm::vec3 first = glm::normalize(chain.joints()[1] - chain.root());
    SolveSettings settings;
    settings.max_iterations = 50;
    StiffSolver solver;
    ASSERT_TRUE(
        solver.Solve(chain, RandomUnit(rng) * Uniform(rng, 0.5f, 6.0f), settings, stiffness).ok);
    const double room = (1.0 - s) * std::numbers::pi + 1e-5;
    for (std::size_t i = 1; i + 1 < chain.joint_count(); ++i) {
      EXPECT_LE(std::fabs(BendAngle(chain.joints(), i) - start[i]), room) << trial;
    }
    const glm::vec3 first_now = glm::normalize(chain.joints()[1] - chain.root());
    EXPECT_LE(std::acos(std::clamp(glm::dot(first, first_now), -1.0f, 1.0f)), room + 1e-3);
  }
}

TEST(Stiffness, BadStiffnessIsRefusedAndTheChainUntouched) {
  Chain chain = testing::StraightChain(4, 1.0f);
  const std::vector<glm::vec3> before(chain.joints().begin(), chain.joints().end());
  StiffSolver solver;
  SolveSettings settings;
  for (const std::vector<float>& bad :
       {std::vector<float>{0, 0, 0}, std::vector<float>{0, 1.5f, 0, 0},
        std::vector<float>{0, -0.1f, 0, 0}, std::vector<float>{0, std::nanf(""), 0, 0}}) {
    const SolveResult r = solver.Solve(chain, {1, 1, 0}, settings, bad);
    EXPECT_FALSE(r.ok);
    EXPECT_NE(std::string(r.error).find("stiffness"), std::string::npos);
    EXPECT_TRUE(testing::BitwiseEqual(chain.joints(), before));
  }
}

TEST(Stiffness, SolvingNeverAllocatesOnceWarm) {
  std::mt19937 rng(9);
  Chain chain = RandomChain(rng, {0, 0, 0}, {1.0f, 0.5f, 0.8f, 1.1f, 0.6f});
  const std::vector<float> stiffness{0.0f, 0.3f, 1.0f, 0.0f, 0.5f, 0.0f};
  StiffSolver solver;
  SolveSettings settings;
  ASSERT_TRUE(solver.Solve(chain, {1, 1, 1}, settings, stiffness).ok);  // warms the buffers
  const std::vector<glm::vec3> targets = testing::RandomTargets(rng, 300, 5.0f);
  const auto [allocations, ok] = testing::CountAllocations(
      targets, [&](const glm::vec3& t) { return solver.Solve(chain, t, settings, stiffness).ok; });
  EXPECT_EQ(allocations, 0);
  EXPECT_EQ(ok, 300);
}

}  // namespace
}  // namespace fabrik
