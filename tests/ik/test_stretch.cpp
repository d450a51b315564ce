// Stretch (src/ik/stretch.h): the factor, the effector on targets up to S x reach, the chain's
// own lengths untouched, every stretched segment scaled by one factor, refusals, no allocation.
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <vector>

#include "fabrik_test_util.h"
#include "ik/stretch.h"
#include "no_alloc_util.h"

namespace fabrik {
namespace {

using testing::DistanceD;
using testing::RandomChain;
using testing::RandomUnit;
using testing::Uniform;

TEST(Stretch, FactorIsOneWithinReachThenDistanceOverReachUpToTheMaximum) {
  EXPECT_EQ(StretchFactor(4.0, 3.0, 1.5), 1.0);
  EXPECT_EQ(StretchFactor(4.0, 5.0, 1.5), 1.25);
  EXPECT_EQ(StretchFactor(4.0, 50.0, 1.5), 1.5);
  EXPECT_EQ(StretchFactor(4.0, 50.0, 1.0), 1.0);
  EXPECT_EQ(StretchFactor(4.0, std::nan(""), 2.0), 1.0);
  EXPECT_FALSE(ValidMaxStretch(0.99f));
  EXPECT_FALSE(ValidMaxStretch(std::nanf("")));
  EXPECT_TRUE(ValidMaxStretch(1.0f));
}

TEST(Stretch, TargetsUpToTheMaximumAreReachedByOneFactor) {
  std::mt19937 rng(11);
  for (int i = 0; i < 500; ++i) {
    std::vector<float> lengths(1 + i % 7);
    for (float& l : lengths) l = Uniform(rng, 0.2f, 1.5f);
    Chain chain = RandomChain(rng, RandomUnit(rng) * 3.0f, lengths);
    const float reach = chain.total_length();
    const float max_stretch = Uniform(rng, 1.0f, 3.0f);
    const float share = Uniform(rng, 0.3f, 1.5f * max_stretch);
    const glm::vec3 target = chain.root() + RandomUnit(rng) * reach * share;
    SolveSettings settings;
    settings.tolerance = 1e-4f;
    settings.max_iterations = 200;
    settings.accelerate = true;
    std::vector<glm::vec3> out(chain.joint_count());
    const StretchSolveResult r =
        SolveStretched(SolverKind::kFabrik, chain, target, settings, max_stretch, out);
    ASSERT_TRUE(r.base.ok) << r.base.error;
    const double d = DistanceD(chain.root(), target);
    const double expected = std::clamp(d / reach, 1.0, double(max_stretch));
    EXPECT_NEAR(r.stretch, expected, 1e-6 * expected);
    EXPECT_EQ(r.base.reachable, d <= double(reach) * max_stretch);
    EXPECT_TRUE(testing::LengthsKeptToRounding(chain, 1e-5));  // the chain's own lengths
    EXPECT_TRUE(testing::BitwiseEqual(out[0], chain.root()));
    for (std::size_t k = 0; k + 1 < out.size(); ++k) {
      EXPECT_NEAR(DistanceD(out[k], out[k + 1]), chain.lengths()[k] * expected, 1e-5 * reach);
    }
    if (d > reach && d <= double(reach) * max_stretch) {
      EXPECT_LE(DistanceD(out.back(), target), 1e-5 * d) << i;  // reached by stretching
      EXPECT_TRUE(r.base.reached);
    } else if (d > double(reach) * max_stretch) {
      EXPECT_NEAR(r.base.distance, d - double(reach) * max_stretch, 1e-5 * d);
      EXPECT_FALSE(r.base.reached);
    }
  }
}

TEST(Stretch, BadInputIsRefusedAndNothingWritten) {
  Chain chain = testing::StraightChain(4, 1.0f);
  std::vector<glm::vec3> out(4, glm::vec3(7.0f)), short_out(3);
  SolveSettings settings;
  StretchSolveResult r = SolveStretched(SolverKind::kFabrik, chain, {5, 0, 0}, settings, 0.5f, out);
  EXPECT_FALSE(r.base.ok);
  EXPECT_EQ(out[1], glm::vec3(7.0f));
  r = SolveStretched(SolverKind::kFabrik, chain, {5, 0, 0}, settings, 2.0f, short_out);
  EXPECT_FALSE(r.base.ok);
  EXPECT_EQ(chain.effector(), glm::vec3(3, 0, 0));
}

TEST(Stretch, SolvingNeverAllocates) {
  std::mt19937 rng(2);
  Chain chain = RandomChain(rng, {0, 0, 0}, {1.0f, 0.5f, 0.8f, 1.1f});
  std::vector<glm::vec3> out(chain.joint_count());
  const std::vector<glm::vec3> targets = testing::RandomTargets(rng, 300, 10.0f);
  const SolveSettings settings;
  const auto [allocations, ok] = testing::CountAllocations(targets, [&](const glm::vec3& t) {
    return SolveStretched(SolverKind::kFabrik, chain, t, settings, 2.0f, out).base.ok;
  });
  EXPECT_EQ(allocations, 0);
  EXPECT_EQ(ok, 300);
}

}  // namespace
}  // namespace fabrik
