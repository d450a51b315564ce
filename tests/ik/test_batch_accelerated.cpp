// The batched solver with settings.accelerate against SolveFabrik with accelerate, chain by
// chain: the same iteration count, `reached` and `reachable`, and the same joints, for cold
// and warm targets, reachable and not, joint counts from 2 to 50, caps from 1 to 100, every
// SIMD target, one thread and all.
#include <gtest/gtest.h>

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
  return testing::BatchSettings(tolerance, max_iterations, true);
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
  std::vector<Chain> copy = chains;
  ChainBatch textbook = MustBatch(chains);
  ChainBatch accelerated = MustBatch(chains);
  SolveSettings settings = Accelerated(1e-3f, 100);
  const BatchSolveResult fast = SolveFabrikBatch(accelerated, targets, settings);
  settings.accelerate = false;
  const BatchSolveResult slow = SolveFabrikBatch(textbook, targets, settings);
  ASSERT_TRUE(fast.ok && slow.ok);
  EXPECT_EQ(fast.reached_count, chains.size());
  double fast_iterations = 0.0, slow_iterations = 0.0;
  for (std::size_t c = 0; c < chains.size(); ++c) {
    fast_iterations += accelerated.outcome(c).iterations;
    slow_iterations += textbook.outcome(c).iterations;
  }
  EXPECT_LT(fast_iterations * 3.0, slow_iterations);
  const Comparison c = ExpectMatchesScalar(accelerated, copy, targets, Accelerated(1e-3f, 100));
  EXPECT_EQ(c.bitwise_equal, c.chains);
}

// Warm targets: each frame the targets move a little and every chain starts from its last
// pose (the jump guard and the back-off carry no state between solves).
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
      sum.bitwise_equal += c.bitwise_equal;
      sum.chains += c.chains;
      if (::testing::Test::HasFailure()) return;
    }
    EXPECT_EQ(sum.bitwise_equal, sum.chains);
  }
}

TEST(BatchAccelerated, DegenerateChainsMixedWithOrdinaryOnes) {
  std::vector<Chain> chains;
  std::vector<glm::vec3> targets;
  DegenerateBatch(chains, targets);
  for (const SolveSettings& s :
       {Accelerated(1e-3f, 100), Accelerated(1e-6f, 7), Accelerated(10.0f, 3)}) {
    std::vector<Chain> copy = chains;
    Comparison sum;
    SolveAndCompare(copy, targets, s, BatchThreads::kOne, &sum);
    EXPECT_EQ(sum.bitwise_equal, sum.chains);
  }
}

TEST(BatchAccelerated, OneThreadAndAllThreadsAgreeBitwise) {
  testing::ExpectThreadsAgreeBitwise(17, Accelerated(1e-3f, 50));
}

// Every SIMD target compiled into the library and supported here computes the bend-scale
// sweeps (in double) exactly as the scalar code.
TEST(BatchAccelerated, EverySimdTarget) {
  testing::ExpectEverySimdTargetMatches(12, Accelerated(1e-3f, 30));
}

}  // namespace
}  // namespace fabrik
