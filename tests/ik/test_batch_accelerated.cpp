// The batched solver with settings.accelerate against SolveFabrik with accelerate, chain by
// chain: the bend-scale step is one definition (bend_step-inl.h) run on SIMD lanes by the
// batch and on one lane by SolveFabrik, so the same iteration count, `reached` and
// `reachable` and bitwise the same joints. For cold and warm targets, reachable and not, joint
// counts from 2 to 50, caps from 1 to 100, every SIMD target, one thread and all; and on
// 100,000 cold chains, the benchmark's case, on every SIMD target.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "batch_test_util.h"

namespace fabrik {
namespace {

using testing::Comparison;
using testing::DegenerateBatch;
using testing::ExpectMatchesScalar;
using testing::MustBatch;
using testing::RandomBatch;
using testing::RandomUnit;
using testing::SolveAndCompare;

SolveSettings Accelerated(float tolerance, int max_iterations) {
  return testing::SettingsOf(tolerance, max_iterations, true);
}

// Cold targets: every chain from a random pose towards a random target (most inside the
// reach, some near full reach, some beyond it, a few on the root).
TEST(BatchAccelerated, ColdBatchesMatchSingleChainSolves) {
  std::mt19937 rng(22);
  std::vector<Chain> chains;
  std::vector<glm::vec3> targets;
  Comparison sum;
  for (std::size_t joints : {2u, 3u, 10u, 50u}) {
    for (int cap : {1, 2, 5, 100}) {
      for (std::size_t count : {1u, 65u, 300u}) {
        SCOPED_TRACE(std::to_string(joints) + " joints, cap " + std::to_string(cap) + ", " +
                     std::to_string(count) + " chains");
        RandomBatch(rng, count, joints, chains, targets);
        SolveAndCompare(chains, targets, Accelerated(1e-3f, cap), BatchThreads::kAll, &sum);
        if (::testing::Test::HasFailure()) return;
      }
    }
  }
  EXPECT_GT(sum.iterated, sum.chains / 3);
  EXPECT_GT(sum.capped, 0u);  // the small caps bite
  EXPECT_EQ(sum.bitwise_equal, sum.chains);
}

// The reason for the option: near full reach the textbook batch crawls towards the cap, the
// accelerated one reaches in a few iterations - and exactly where the single solves do.
TEST(BatchAccelerated, ColdTargetsNearFullReachAreReachedInFewIterations) {
  std::mt19937 rng(5);
  std::vector<Chain> chains;
  std::vector<glm::vec3> targets;
  for (int c = 0; c < 512; ++c) {
    const std::vector<float> lengths(9, 1.0f);
    chains.push_back(testing::RandomChain(rng, glm::vec3(0.0f), lengths));
    targets.push_back(RandomUnit(rng) * (9.0f * testing::Uniform(rng, 0.9f, 0.999f)));
  }
  ChainBatch textbook = MustBatch(chains);
  SolveSettings settings = Accelerated(1e-3f, 100);
  settings.accelerate = false;
  const BatchSolveResult slow = SolveFabrikBatch(textbook, targets, settings);
  ASSERT_TRUE(slow.ok);
  std::vector<Chain> copy = chains;
  ChainBatch accelerated = MustBatch(chains);
  const BatchSolveResult fast = SolveFabrikBatch(accelerated, targets, Accelerated(1e-3f, 100));
  ASSERT_TRUE(fast.ok);
  EXPECT_EQ(fast.reached_count, chains.size());
  double fast_iterations = 0.0, slow_iterations = 0.0;
  for (std::size_t c = 0; c < chains.size(); ++c) {
    fast_iterations += accelerated.outcome(c).iterations;
    slow_iterations += textbook.outcome(c).iterations;
  }
  EXPECT_LT(fast_iterations * 3.0, slow_iterations);
  const Comparison c = ExpectMatchesScalar(accelerated, copy, targets, Accelerated(1e-3f, 100));
  EXPECT_EQ(c.chains, chains.size());
  EXPECT_EQ(c.bitwise_equal, c.chains);
}

// Warm targets: each frame the targets move a little and every chain starts from its last
// pose, the single solves from theirs (the jump guard and the back-off carry no state between
// solves).
TEST(BatchAccelerated, TrackingOverManyFrames) {
  std::mt19937 rng(8);
  for (std::size_t joints : {3u, 10u}) {
    std::vector<Chain> chains;
    std::vector<glm::vec3> targets;
    RandomBatch(rng, 200, joints, chains, targets);
    ChainBatch batch = MustBatch(chains);
    std::vector<glm::vec3> velocity(targets.size());
    for (glm::vec3& v : velocity) v = RandomUnit(rng) * 0.05f;
    Comparison sum;
    for (int frame = 0; frame < 20; ++frame) {
      SCOPED_TRACE(std::to_string(joints) + " joints, frame " + std::to_string(frame));
      for (std::size_t c = 0; c < targets.size(); ++c) targets[c] += velocity[c];
      ASSERT_TRUE(SolveFabrikBatch(batch, targets, Accelerated(1e-3f, 20)).ok);
      const Comparison c = ExpectMatchesScalar(batch, chains, targets, Accelerated(1e-3f, 20));
      sum.chains += c.chains;
      sum.bitwise_equal += c.bitwise_equal;
      if (::testing::Test::HasFailure()) return;
    }
    EXPECT_EQ(sum.chains, 20 * targets.size());
    EXPECT_EQ(sum.bitwise_equal, sum.chains);
  }
}

TEST(BatchAccelerated, DegenerateChainsMixedWithOrdinaryOnes) {
  std::vector<Chain> chains;
  std::vector<glm::vec3> targets;
  DegenerateBatch(chains, targets);
  for (const SolveSettings& s :
       {Accelerated(1e-3f, 100), Accelerated(1e-6f, 7), Accelerated(10.0f, 3)}) {
    SCOPED_TRACE("tolerance " + std::to_string(s.tolerance));
    std::vector<Chain> copy = chains;
    Comparison sum;
    SolveAndCompare(copy, targets, s, BatchThreads::kOne, &sum);
    EXPECT_EQ(sum.chains, chains.size());
    EXPECT_EQ(sum.bitwise_equal, sum.chains);
  }
}

// The benchmark's case (bench_batch cold_accelerated): 100,000 cold 10-joint chains, unit
// segments straight up, each target uniform in the ball of its reach, tolerance 1e-3, cap 100,
// on every SIMD target compiled in and supported here (each forced in turn). Chain by chain
// the same iterations and `reached` as SolveFabrik with accelerate and bitwise the same joints
// and distance; and at most one chain unreached.
TEST(BatchAccelerated, HundredThousandColdChainsAgreeWithSingleSolvesOnEveryTarget) {
  std::mt19937 rng(1);
  std::vector<Chain> start;
  std::vector<glm::vec3> targets;
  const std::vector<float> lengths(9, 1.0f);
  for (int c = 0; c < 100'000; ++c) {
    const glm::vec3 root(3.0f * static_cast<float>(c % 1000), 0.0f, 3.0f * (c / 1000));
    start.push_back(Chain::Straight(root, {0, 1, 0}, lengths).value());
    targets.push_back(root + RandomUnit(rng) * (9.0f * std::cbrt(testing::Uniform(rng, 0, 1))));
  }
  const SolveSettings settings = Accelerated(1e-3f, 100);
  std::vector<Chain> chains = start;
  std::vector<SolveResult> expected;
  std::size_t unreached = 0;
  for (std::size_t c = 0; c < chains.size(); ++c) {
    expected.push_back(SolveFabrik(chains[c], targets[c], settings));
    unreached += !expected.back().reached;
  }
  EXPECT_LE(unreached, 1u);
  const std::vector<std::int64_t> available = batch::CompiledSimdTargets();
  ASSERT_FALSE(available.empty());
  std::vector<glm::vec3> pose(lengths.size() + 1);
  for (std::int64_t target : available) {
    hwy::SetSupportedTargetsForTest(target);
    SCOPED_TRACE(std::string("target ") + hwy::TargetName(target));
    ChainBatch batch = MustBatch(start);
    ASSERT_TRUE(SolveFabrikBatch(batch, targets, settings, BatchThreads::kAll).ok);
    std::size_t same = 0;
    for (std::size_t c = 0; c < chains.size(); ++c) {
      const ChainOutcome got = batch.outcome(c);
      batch.CopyPose(c, pose);
      const bool equal =
          got.iterations == expected[c].iterations && got.reached == expected[c].reached &&
          got.distance == expected[c].distance && testing::BitwiseEqual(pose, chains[c].joints());
      same += equal;
      if (!equal && same + 3 > c) ADD_FAILURE() << "chain " << c << " differs";
    }
    EXPECT_EQ(same, chains.size());
  }
  hwy::SetSupportedTargetsForTest(0);  // back to what the CPU supports
}

TEST(BatchAccelerated, OneThreadAndAllThreadsAgreeBitwise) {
  testing::ExpectThreadsAgreeBitwise(17, Accelerated(1e-3f, 50));
}

// Every SIMD target compiled into the library and supported here agrees with the scalar
// code, bitwise.
TEST(BatchAccelerated, EverySimdTarget) {
  testing::ExpectEverySimdTargetMatches(12, Accelerated(1e-3f, 30));
}

}  // namespace
}  // namespace fabrik
