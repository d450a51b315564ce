// Per-joint stiffness (src/ik/stiffness.h): a stiff joint keeps its start bend angle within
// 0.5 degrees while the free joints reach every target they can reach; partial stiffness bounds the
// change; refusals leave the chain alone; no allocation once warm.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <numbers>
#include <random>
#include <span>
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

// What the free joints can reach with every fully stiff run held rigid, measured from the
// start pose independently of the solver: the chords between the free joints (stiffness
// below 1, plus root and effector) hang from `base` (the root, or joint 1's side of a fixed
// first run when the root is stiff) and reach the shell hole..reach around it.
struct FreeReach {
  glm::vec3 base{0.0f};
  double hole = 0.0;
  double reach = 0.0;
  bool movable = false;
};

// Every fully stiff inner joint of `after` bends as it did in `before`, within 0.5 degrees.
void ExpectStiffBendsKept(std::span<const glm::vec3> before, const Chain& after,
                          const std::vector<float>& stiffness, int trial) {
  for (std::size_t i = 1; i + 1 < after.joint_count(); ++i) {
    if (stiffness[i] == 1.0f) {
      EXPECT_NEAR(BendAngle(after.joints(), i), BendAngle(before, i), kHalfDegree)
          << trial << " " << i;
    }
  }
}

FreeReach MeasureFreeReach(const Chain& start, const std::vector<float>& stiffness) {
  const std::size_t n = start.joint_count();
  std::vector<glm::vec3> pivots{start.root()};
  for (std::size_t i = 1; i + 1 < n; ++i) {
    if (stiffness[i] < 1.0f) pivots.push_back(start.joints()[i]);
  }
  pivots.push_back(start.effector());
  const std::size_t base = stiffness[0] == 1.0f ? 1 : 0;
  FreeReach r;
  r.base = pivots[base];
  r.movable = base + 1 < pivots.size();
  double longest = 0.0;
  for (std::size_t m = base; m + 1 < pivots.size(); ++m) {
    const double chord = glm::length(pivots[m + 1] - pivots[m]);
    r.reach += chord;
    longest = std::max(longest, chord);
  }
  r.hole = std::max(0.0, 2.0 * longest - r.reach);
  return r;
}

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
    const std::vector<glm::vec3> before(chain.joints().begin(), chain.joints().end());
    // Targets within half the reach: the free joints can get there.
    const glm::vec3 target = RandomUnit(rng) * chain.total_length() * Uniform(rng, 0.2f, 0.5f);
    const FreeReach free = MeasureFreeReach(chain, stiffness);
    const double d = glm::length(target - free.base);
    const bool can_reach = d > free.hole + 1e-3 && d < free.reach - 1e-3;
    SolveSettings settings;
    settings.tolerance = 1e-3f;
    settings.max_iterations = 300;
    StiffSolver solver;
    const SolveResult r = solver.Solve(chain, target, settings, stiffness);
    ASSERT_TRUE(r.ok) << r.error;
    ExpectStiffBendsKept(before, chain, stiffness, trial);
    EXPECT_TRUE(testing::LengthsKeptToRounding(chain, 1e-5));
    EXPECT_EQ(chain.root(), glm::vec3(0.0f));
    if (can_reach) {
      EXPECT_TRUE(r.reached) << trial << " distance " << r.distance;
      ++total;
    }
    solved += r.reached ? 1 : 0;
  }
  EXPECT_GE(solved, total);  // targets the rigid runs block may be reached all the same
  EXPECT_GT(total, 250);
}

// Every pattern of fully stiff joints (the root and each inner joint, stiff or free) on chains
// of 3, 5 and 7 segments in random start poses, with targets anywhere the free joints can
// reach while the stiff runs stay rigid: from just outside the inner hole of the chords
// between free joints to 98 % of their reach. Every one is reached, and the stiff joints keep
// their angle.
TEST(Stiffness, EveryPatternOfStiffJointsReachesWhatTheFreeJointsCanReach) {
  std::mt19937 rng(77);
  int cases = 0;
  for (const std::size_t segments : {3u, 5u, 7u}) {
    const std::size_t n = segments + 1;
    for (unsigned pattern = 0; pattern < (1u << segments); ++pattern) {
      std::vector<float> lengths(segments);
      for (float& l : lengths) l = Uniform(rng, 0.5f, 1.0f);
      const Chain start = RandomChain(rng, {0, 0, 0}, lengths);
      std::vector<float> stiffness(n, 0.0f);
      for (std::size_t i = 0; i < segments; ++i) stiffness[i] = (pattern >> i) & 1u ? 1.0f : 0.0f;
      const FreeReach free = MeasureFreeReach(start, stiffness);
      if (!free.movable) continue;  // nothing can move
      for (int t = 0; t < 4; ++t) {
        Chain chain = start;
        const double d = free.hole + (free.reach - free.hole) * (0.02 + 0.96 * t / 3.0);
        const glm::vec3 target = free.base + RandomUnit(rng) * static_cast<float>(d);
        SolveSettings settings;
        settings.tolerance = 1e-3f;
        settings.max_iterations = 500;
        StiffSolver solver;
        const SolveResult r = solver.Solve(chain, target, settings, stiffness);
        ASSERT_TRUE(r.ok) << r.error;
        EXPECT_TRUE(r.reached) << "segments " << segments << " pattern " << pattern << " target "
                               << t << " distance " << r.distance << " iterations " << r.iterations;
        ExpectStiffBendsKept(start.joints(), chain, stiffness, static_cast<int>(pattern));
        if (stiffness[0] == 1.0f) {
          EXPECT_LT(glm::length(chain.joints()[1] - start.joints()[1]), 1e-5f) << pattern;
        }
        EXPECT_TRUE(testing::LengthsKeptToRounding(chain, 1e-5));
        ++cases;
      }
    }
  }
  EXPECT_GT(cases, 500);
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
