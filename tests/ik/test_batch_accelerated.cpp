// The batched solver with settings.accelerate against SolveFabrik with accelerate, chain by
// chain, with both bend-scale steps (BatchBendStep): kExact (the default) gives the same
// iteration count, `reached` and `reachable` and bitwise the same joints; kFloat (the float
// step, batch_bend_float-inl.h, which meets the search goal where the single solver's double
// step does) the same iteration count and flags on these sets and joints within a few
// tolerances. For cold and warm targets, reachable and not, joint counts from 2 to 50, caps
// from 1 to 100, every SIMD target, one thread and all; and on 100,000 cold chains, the
// benchmark's case.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
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

constexpr BatchBendStep kBothSteps[] = {BatchBendStep::kExact, BatchBendStep::kFloat};

std::string StepName(BatchBendStep bend) {
  return bend == BatchBendStep::kExact ? "exact step" : "float step";
}

// Cold targets: every chain from a random pose towards a random target (most inside the
// reach, some near full reach, some beyond it, a few on the root).
TEST(BatchAccelerated, ColdBatchesMatchSingleChainSolves) {
  std::mt19937 rng(22);
  std::vector<Chain> chains;
  std::vector<glm::vec3> targets;
  for (BatchBendStep bend : kBothSteps) {
    Comparison sum;
    for (std::size_t joints : {2u, 3u, 10u, 50u}) {
      for (int cap : {1, 2, 5, 100}) {
        for (std::size_t count : {1u, 65u, 300u}) {
          SCOPED_TRACE(StepName(bend) + ", " + std::to_string(joints) + " joints, cap " +
                       std::to_string(cap) + ", " + std::to_string(count) + " chains");
          RandomBatch(rng, count, joints, chains, targets);
          SolveAndCompare(chains, targets, Accelerated(1e-3f, cap), BatchThreads::kAll, &sum, bend);
          if (::testing::Test::HasFailure()) return;
        }
      }
    }
    EXPECT_GT(sum.iterated, sum.chains / 3);
    EXPECT_GT(sum.capped, 0u);  // the small caps bite
    if (bend == BatchBendStep::kExact) {
      EXPECT_EQ(sum.bitwise_equal, sum.chains);
    }
  }
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
  for (BatchBendStep bend : kBothSteps) {
    SCOPED_TRACE(StepName(bend));
    std::vector<Chain> copy = chains;
    ChainBatch accelerated = MustBatch(chains);
    const BatchSolveResult fast =
        SolveFabrikBatch(accelerated, targets, Accelerated(1e-3f, 100), BatchThreads::kAll,
                         BatchRegroup::kWhenRagged, bend);
    ASSERT_TRUE(fast.ok);
    EXPECT_EQ(fast.reached_count, chains.size());
    double fast_iterations = 0.0, slow_iterations = 0.0;
    for (std::size_t c = 0; c < chains.size(); ++c) {
      fast_iterations += accelerated.outcome(c).iterations;
      slow_iterations += textbook.outcome(c).iterations;
    }
    EXPECT_LT(fast_iterations * 3.0, slow_iterations);
    const Comparison c =
        ExpectMatchesScalar(accelerated, copy, targets, Accelerated(1e-3f, 100), bend);
    EXPECT_EQ(c.chains, chains.size());
  }
}

// Warm targets: each frame the targets move a little and every chain starts from its last
// pose (the jump guard and the back-off carry no state between solves). With the exact step
// the single solves go on from their own poses; with the float step they start each frame
// from the batch's pose: left to themselves the two would drift apart by up to the
// tolerance, and a frame may then take an iteration more in one than in the other.
TEST(BatchAccelerated, TrackingOverManyFrames) {
  std::mt19937 rng(8);
  for (BatchBendStep bend : kBothSteps) {
    for (std::size_t joints : {3u, 10u}) {
      std::vector<Chain> chains;
      std::vector<glm::vec3> targets;
      RandomBatch(rng, 200, joints, chains, targets);
      ChainBatch batch = MustBatch(chains);
      std::vector<glm::vec3> velocity(targets.size());
      for (glm::vec3& v : velocity) v = RandomUnit(rng) * 0.05f;
      Comparison sum;
      for (int frame = 0; frame < 20; ++frame) {
        SCOPED_TRACE(StepName(bend) + ", " + std::to_string(joints) + " joints, frame " +
                     std::to_string(frame));
        for (std::size_t c = 0; c < targets.size(); ++c) {
          targets[c] += velocity[c];
          if (bend == BatchBendStep::kExact) continue;
          std::vector<glm::vec3> pose(joints);
          batch.CopyPose(c, pose);
          ASSERT_TRUE(chains[c].SetPose(pose).ok());
        }
        ASSERT_TRUE(SolveFabrikBatch(batch, targets, Accelerated(1e-3f, 20), BatchThreads::kAll,
                                     BatchRegroup::kWhenRagged, bend)
                        .ok);
        const Comparison c =
            ExpectMatchesScalar(batch, chains, targets, Accelerated(1e-3f, 20), bend);
        sum.chains += c.chains;
        sum.bitwise_equal += c.bitwise_equal;
        if (::testing::Test::HasFailure()) return;
      }
      EXPECT_EQ(sum.chains, 20 * targets.size());
      if (bend == BatchBendStep::kExact) {
        EXPECT_EQ(sum.bitwise_equal, sum.chains);
      }
    }
  }
}

TEST(BatchAccelerated, DegenerateChainsMixedWithOrdinaryOnes) {
  std::vector<Chain> chains;
  std::vector<glm::vec3> targets;
  DegenerateBatch(chains, targets);
  for (BatchBendStep bend : kBothSteps) {
    for (const SolveSettings& s :
         {Accelerated(1e-3f, 100), Accelerated(1e-6f, 7), Accelerated(10.0f, 3)}) {
      SCOPED_TRACE(StepName(bend) + ", tolerance " + std::to_string(s.tolerance));
      std::vector<Chain> copy = chains;
      Comparison sum;
      SolveAndCompare(copy, targets, s, BatchThreads::kOne, &sum, bend);
      EXPECT_EQ(sum.chains, chains.size());
      if (bend == BatchBendStep::kExact) {
        EXPECT_EQ(sum.bitwise_equal, sum.chains);
      }
    }
  }
}

// The benchmark's case (bench_batch cold_accelerated): 100,000 cold 10-joint chains, unit
// segments straight up, each target uniform in the ball of its reach, tolerance 1e-3, cap
// 100. Chain by chain the same iterations and `reached` as SolveFabrik with accelerate, joints
// bitwise equal with the exact step and within a few tolerances with the float one; and no
// chain ends unreached that the single solver reaches.
TEST(BatchAccelerated, HundredThousandColdChainsAgreeWithSingleSolves) {
  std::mt19937 rng(1);
  std::vector<Chain> start;
  std::vector<glm::vec3> targets;
  const std::vector<float> lengths(9, 1.0f);
  for (int c = 0; c < 100'000; ++c) {
    const glm::vec3 root(3.0f * static_cast<float>(c % 1000), 0.0f, 3.0f * (c / 1000));
    start.push_back(Chain::Straight(root, {0, 1, 0}, lengths).value());
    targets.push_back(root + RandomUnit(rng) * (9.0f * std::cbrt(testing::Uniform(rng, 0, 1))));
  }
  for (BatchBendStep bend : kBothSteps) {
    SCOPED_TRACE(StepName(bend));
    std::vector<Chain> chains = start;
    ChainBatch batch = MustBatch(chains);
    const SolveSettings settings = Accelerated(1e-3f, 100);
    ASSERT_TRUE(SolveFabrikBatch(batch, targets, settings, BatchThreads::kAll,
                                 BatchRegroup::kWhenRagged, bend)
                    .ok);
    std::size_t same = 0, unreached = 0, apart = 0;
    double worst = 0.0;
    std::vector<glm::vec3> pose(batch.joint_count());
    for (std::size_t c = 0; c < chains.size(); ++c) {
      const SolveResult expected = SolveFabrik(chains[c], targets[c], settings);
      const ChainOutcome got = batch.outcome(c);
      unreached += !got.reached;
      if (got.iterations != expected.iterations || got.reached != expected.reached) {
        ADD_FAILURE() << "chain " << c << ": " << got.iterations
                      << " iterations (single: " << expected.iterations << "), reached "
                      << got.reached;
        continue;
      }
      ++same;
      batch.CopyPose(c, pose);
      double most = 0.0;
      for (std::size_t j = 0; j < pose.size(); ++j) {
        most = std::max(most, testing::DistanceD(pose[j], chains[c].joints()[j]));
      }
      worst = std::max(worst, most);
      apart += most > 0.1 * settings.tolerance;
    }
    EXPECT_EQ(same, chains.size());
    if (bend == BatchBendStep::kExact) {
      EXPECT_EQ(worst, 0.0);
    } else {
      EXPECT_LE(worst, testing::kAcceleratedJointSlack * settings.tolerance);
    }
    EXPECT_LE(unreached, 1u);
    std::printf(
        "100,000 cold chains, %s: %zu with the single solver's outcome, %zu unreached, "
        "%zu with a joint more than a tenth of the tolerance from the single solver's, "
        "largest joint difference %.3g\n",
        StepName(bend).c_str(), same, unreached, apart, worst);
  }
}

TEST(BatchAccelerated, OneThreadAndAllThreadsAgreeBitwise) {
  for (BatchBendStep bend : kBothSteps) {
    SCOPED_TRACE(StepName(bend));
    testing::ExpectThreadsAgreeBitwise(17, Accelerated(1e-3f, 50), bend);
  }
}

// Every SIMD target compiled into the library and supported here (their square-root estimates
// differ) agrees with the scalar code: bitwise with the exact step.
TEST(BatchAccelerated, EverySimdTarget) {
  for (BatchBendStep bend : kBothSteps) {
    SCOPED_TRACE(StepName(bend));
    testing::ExpectEverySimdTargetMatches(12, Accelerated(1e-3f, 30), bend);
  }
}

}  // namespace
}  // namespace fabrik
