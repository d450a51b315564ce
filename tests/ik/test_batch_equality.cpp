// The batched solver against SolveFabrik, chain by chain: random ragged batches (chains
// converging after different iteration counts, reachable and unreachable targets), tracking
// over many frames, degenerate chains mixed into ordinary ones, on every SIMD target Highway
// compiled that this CPU supports, with one thread and with all.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
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

TEST(BatchEquality, RandomRaggedBatchesOfManySizes) {
  std::mt19937 rng(14);
  std::vector<Chain> chains;
  std::vector<glm::vec3> targets;
  Comparison sum;
  for (std::size_t joints : {2u, 3u, 4u, 10u, 50u}) {
    for (std::size_t count : {1u, 63u, 64u, 65u, 300u}) {
      SCOPED_TRACE(std::to_string(joints) + " joints, " + std::to_string(count) + " chains");
      RandomBatch(rng, count, joints, chains, targets);
      SolveAndCompare(chains, targets, testing::SettingsOf(1e-3f, 40), BatchThreads::kAll, &sum);
    }
  }
  // The batch really was ragged: many chains iterated, some ran to the cap.
  EXPECT_GT(sum.iterated, sum.chains / 3);
  EXPECT_GT(sum.capped, 0u);
  // Same operations in the same order: in practice the very same floats.
  EXPECT_EQ(sum.bitwise_equal, sum.chains);
}

TEST(BatchEquality, OneThreadAndAllThreadsAgreeBitwise) {
  testing::ExpectThreadsAgreeBitwise(7, testing::SettingsOf(1e-3f, 50));
}

// Tracking: each frame the targets move a little and every chain starts from its last pose.
TEST(BatchEquality, TrackingOverManyFrames) {
  std::mt19937 rng(3);
  std::vector<Chain> chains;
  std::vector<glm::vec3> targets;
  RandomBatch(rng, 200, 10, chains, targets);
  ChainBatch batch = MustBatch(chains);
  std::vector<glm::vec3> velocity(targets.size());
  for (glm::vec3& v : velocity) v = RandomUnit(rng) * 0.05f;
  for (int frame = 0; frame < 30; ++frame) {
    SCOPED_TRACE("frame " + std::to_string(frame));
    for (std::size_t c = 0; c < targets.size(); ++c) targets[c] += velocity[c];
    ASSERT_TRUE(SolveFabrikBatch(batch, targets, testing::SettingsOf(1e-3f, 20)).ok);
    ExpectMatchesScalar(batch, chains, targets, testing::SettingsOf(1e-3f, 20));
    if (::testing::Test::HasFailure()) return;
  }
}

TEST(BatchEquality, DegenerateChainsMixedWithOrdinaryOnes) {
  std::vector<Chain> chains;
  std::vector<glm::vec3> targets;
  DegenerateBatch(chains, targets);
  for (const SolveSettings& s : {testing::SettingsOf(1e-3f, 100), testing::SettingsOf(1e-6f, 7),
                                 testing::SettingsOf(10.0f, 3)}) {
    std::vector<Chain> copy = chains;
    Comparison sum;
    SolveAndCompare(copy, targets, s, BatchThreads::kOne, &sum);
    EXPECT_EQ(sum.bitwise_equal, sum.chains);
  }
}

// Every SIMD target compiled into the library and supported here (SSE2 emulation, SSSE3,
// SSE4, AVX2, AVX-512, ...) gives the scalar solver's results.
TEST(BatchEquality, EverySimdTarget) {
  testing::ExpectEverySimdTargetMatches(11, testing::SettingsOf(1e-3f, 30));
}

}  // namespace
}  // namespace fabrik

namespace fabrik {
namespace {

// Regrouping re-packs chains between solves; callers see the same chains, poses and outcomes
// as without it, frame after frame, whether the re-packing runs on one thread or on all.
void ExpectRegroupingInvisible(BatchThreads threads) {
  std::mt19937 rng(21);
  std::vector<Chain> chains;
  std::vector<glm::vec3> targets;
  RandomBatch(rng, 700, 6, chains, targets);
  ChainBatch plain = MustBatch(chains);
  ChainBatch regrouped = MustBatch(chains);
  std::vector<glm::vec3> velocity(targets.size());
  for (glm::vec3& v : velocity) v = RandomUnit(rng) * 0.02f;
  int regroups = 0;
  std::vector<glm::vec3> a(plain.chain_count() * plain.joint_count()), b(a.size());
  for (int frame = 0; frame < 20; ++frame) {
    for (std::size_t c = 0; c < targets.size(); ++c) targets[c] += velocity[c];
    const BatchSolveResult r1 = SolveFabrikBatch(plain, targets, testing::SettingsOf(1e-3f, 60),
                                                 BatchThreads::kAll, BatchRegroup::kNever);
    const BatchSolveResult r2 = SolveFabrikBatch(regrouped, targets, testing::SettingsOf(1e-3f, 60),
                                                 threads, BatchRegroup::kWhenRagged);
    ASSERT_TRUE(r1.ok && r2.ok);
    EXPECT_FALSE(r1.regrouped);
    regroups += r2.regrouped;
    EXPECT_EQ(r1.reached_count, r2.reached_count);
    plain.CopyAllPoses(a);
    regrouped.CopyAllPoses(b);
    ASSERT_TRUE(testing::BitwiseEqual(a, b)) << "frame " << frame;
    for (std::size_t c = 0; c < chains.size(); ++c) {
      ASSERT_EQ(plain.outcome(c).iterations, regrouped.outcome(c).iterations);
      ASSERT_EQ(plain.outcome(c).distance, regrouped.outcome(c).distance);
      ASSERT_EQ(plain.outcome(c).reachable, regrouped.outcome(c).reachable);
      for (std::size_t j = 0; j < plain.joint_count(); ++j) {
        ASSERT_TRUE(testing::BitwiseEqual(plain.joint(c, j), regrouped.joint(c, j)));
      }
      ASSERT_EQ(plain.length(c, 2), regrouped.length(c, 2));
      ASSERT_EQ(plain.total_length(c), regrouped.total_length(c));
    }
  }
  EXPECT_GT(regroups, 0);  // the case is ragged enough to regroup
}

TEST(BatchEquality, RegroupingChangesNothingVisibleOnOneThread) {
  ExpectRegroupingInvisible(BatchThreads::kOne);
}

TEST(BatchEquality, RegroupingChangesNothingVisibleOnAllThreads) {
  ExpectRegroupingInvisible(BatchThreads::kAll);
}

}  // namespace
}  // namespace fabrik
