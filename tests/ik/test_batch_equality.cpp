// The batched solver against SolveFabrik, chain by chain: random ragged batches (chains
// converging after different iteration counts, reachable and unreachable targets), tracking
// over many frames, degenerate chains mixed into ordinary ones, on every SIMD target Highway
// compiled that this CPU supports, with one thread and with all.
#include <gtest/gtest.h>
#include <hwy/targets.h>

#include <cmath>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "batch_test_util.h"

namespace fabrik {
namespace {

using testing::Comparison;
using testing::ExpectMatchesScalar;
using testing::MustBatch;
using testing::RandomChain;
using testing::RandomUnit;
using testing::StraightChain;
using testing::Uniform;

SolveSettings Settings(float tolerance, int max_iterations) {
  SolveSettings s;
  s.tolerance = tolerance;
  s.max_iterations = max_iterations;
  return s;
}

// `count` chains of `joints` joints with ragged lengths and random poses, roots spread out,
// and targets: most inside the reach (some close to full reach, which converge slowly and
// hit the cap), some beyond it, a few on or next to the root.
void RandomBatch(std::mt19937& rng, std::size_t count, std::size_t joints,
                 std::vector<Chain>& chains, std::vector<glm::vec3>& targets) {
  chains.clear();
  targets.clear();
  for (std::size_t c = 0; c < count; ++c) {
    std::vector<float> lengths(joints - 1);
    for (float& l : lengths) l = Uniform(rng, 0.2f, 2.0f);
    const glm::vec3 root(Uniform(rng, -50, 50), Uniform(rng, -5, 5), Uniform(rng, -50, 50));
    chains.push_back(RandomChain(rng, root, lengths));
    const float total = chains.back().total_length();
    const float kind = Uniform(rng, 0.0f, 1.0f);
    float reach = Uniform(rng, 0.0f, 0.95f);
    if (kind > 0.6f) reach = Uniform(rng, 0.95f, 1.0f);
    if (kind > 0.75f) reach = Uniform(rng, 1.0f, 3.0f);
    if (kind > 0.97f) reach = 0.0f;
    targets.push_back(root + RandomUnit(rng) * (reach * total));
  }
}

void SolveAndCompare(std::vector<Chain>& chains, std::span<const glm::vec3> targets,
                     const SolveSettings& settings, BatchThreads threads, Comparison* sum) {
  ChainBatch batch = MustBatch(chains);
  const BatchSolveResult r = SolveFabrikBatch(batch, targets, settings, threads);
  ASSERT_TRUE(r.ok) << r.error;
  const Comparison c = ExpectMatchesScalar(batch, chains, targets, settings);
  if (sum) {
    sum->chains += c.chains;
    sum->bitwise_equal += c.bitwise_equal;
    sum->iterated += c.iterated;
    sum->capped += c.capped;
  }
}

TEST(BatchEquality, RandomRaggedBatchesOfManySizes) {
  std::mt19937 rng(14);
  std::vector<Chain> chains;
  std::vector<glm::vec3> targets;
  Comparison sum;
  for (std::size_t joints : {2u, 3u, 4u, 10u, 50u}) {
    for (std::size_t count : {1u, 63u, 64u, 65u, 300u}) {
      SCOPED_TRACE(std::to_string(joints) + " joints, " + std::to_string(count) + " chains");
      RandomBatch(rng, count, joints, chains, targets);
      SolveAndCompare(chains, targets, Settings(1e-3f, 40), BatchThreads::kAll, &sum);
    }
  }
  // The batch really was ragged: many chains iterated, some ran to the cap.
  EXPECT_GT(sum.iterated, sum.chains / 3);
  EXPECT_GT(sum.capped, 0u);
  // Same operations in the same order: in practice the very same floats.
  EXPECT_EQ(sum.bitwise_equal, sum.chains);
}

TEST(BatchEquality, OneThreadAndAllThreadsAgreeBitwise) {
  std::mt19937 rng(7);
  std::vector<Chain> chains;
  std::vector<glm::vec3> targets;
  RandomBatch(rng, 1000, 10, chains, targets);
  ChainBatch one = MustBatch(chains);
  ChainBatch all = MustBatch(chains);
  ASSERT_TRUE(SolveFabrikBatch(one, targets, Settings(1e-3f, 50), BatchThreads::kOne).ok);
  ASSERT_TRUE(SolveFabrikBatch(all, targets, Settings(1e-3f, 50), BatchThreads::kAll).ok);
  std::vector<glm::vec3> a(one.chain_count() * one.joint_count());
  std::vector<glm::vec3> b(a.size());
  one.CopyAllPoses(a);
  all.CopyAllPoses(b);
  EXPECT_TRUE(testing::BitwiseEqual(a, b));
  for (std::size_t c = 0; c < chains.size(); ++c) {
    EXPECT_EQ(one.outcome(c).iterations, all.outcome(c).iterations);
  }
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
    ASSERT_TRUE(SolveFabrikBatch(batch, targets, Settings(1e-3f, 20)).ok);
    ExpectMatchesScalar(batch, chains, targets, Settings(1e-3f, 20));
    if (::testing::Test::HasFailure()) return;
  }
}

// The degenerate cases of test_fabrik_degenerate.cpp, five joints each, interleaved with
// ordinary chains so they share vectors with lanes on the fast path.
void DegenerateBatch(std::vector<Chain>& chains, std::vector<glm::vec3>& targets) {
  constexpr float kMax = std::numeric_limits<float>::max();
  chains.clear();
  targets.clear();
  const auto add = [&](Chain chain, glm::vec3 target) {
    chains.push_back(std::move(chain));
    targets.push_back(target);
  };
  const auto pose = [](std::vector<glm::vec3> joints) {
    Result<Chain> c = Chain::FromJoints(std::move(joints));
    if (!c.ok()) std::abort();
    return std::move(c).value();
  };
  std::mt19937 rng(5);
  for (int round = 0; round < 3; ++round) {
    // Straight chain aimed along its own axis at a nearer target (the trap), and at targets
    // behind the root, at the root, at a joint, at full reach.
    add(StraightChain(5, 1.0f), {2.5f, 0, 0});
    add(StraightChain(5, 1.0f, {0, 1, 0}), {0, 1.5f, 0});
    add(StraightChain(5, 1.0f), {-2.0f, 0, 0});
    add(StraightChain(5, 1.0f), {0, 0, 0});
    add(StraightChain(5, 1.0f), {2.0f, 0, 0});
    add(StraightChain(5, 1.0f), {4.0f, 0, 0});
    // A folded chain on the target line, joints landing on the points they reach from.
    add(pose({{0, 0, 0}, {0, 1, 0}, {0, 0, 0.0f + 1e-3f}, {0, 1, 0}, {0, 2, 0}}), {0, 1, 0});
    add(pose({{0, 0, 0}, {0, 1, 0}, {0, 0, 0}, {0, 1, 0}, {0, 0, 0}}), {0, 1, 0});
    // Huge and tiny segments (float squares overflow or go subnormal).
    for (float scale : {1e25f, 1e-25f, 1e-18f, 1e17f}) {
      std::vector<glm::vec3> p = {{0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {1, 1, 1}, {0, 1, 1}};
      for (glm::vec3& q : p) q *= scale;
      add(pose(p), glm::vec3(0.5f, 1.5f, -0.5f) * scale);
    }
    // Far from the origin, and targets far beyond any reach.
    const glm::vec3 root(1e37f, -1e37f, 1e37f);
    add(pose({root, root + glm::vec3(1e36f, 0, 0), root + glm::vec3(1e36f, 1e36f, 0),
              root + glm::vec3(2e36f, 1e36f, 0), root + glm::vec3(2e36f, 2e36f, 0)}),
        root + glm::vec3(0, 1e36f, 0));
    add(StraightChain(5, 1.0f), {kMax, kMax, kMax});
    add(StraightChain(5, 1.0f), {-1e30f, 1e30f, 1e30f});
    // Ordinary chains in between.
    for (int k = 0; k < 20; ++k) {
      add(RandomChain(rng, glm::vec3(0.0f), {1.0f, 1.5f, 0.5f, 1.0f}),
          RandomUnit(rng) * Uniform(rng, 0.0f, 4.5f));
    }
  }
}

TEST(BatchEquality, DegenerateChainsMixedWithOrdinaryOnes) {
  std::vector<Chain> chains;
  std::vector<glm::vec3> targets;
  DegenerateBatch(chains, targets);
  for (const SolveSettings& s : {Settings(1e-3f, 100), Settings(1e-6f, 7), Settings(10.0f, 3)}) {
    std::vector<Chain> copy = chains;
    Comparison sum;
    SolveAndCompare(copy, targets, s, BatchThreads::kOne, &sum);
    EXPECT_EQ(sum.bitwise_equal, sum.chains);
  }
}

// Every SIMD target compiled into the library and supported here (SSE2 emulation, SSSE3,
// SSE4, AVX2, AVX-512, ...) gives the scalar solver's results.
TEST(BatchEquality, EverySimdTarget) {
  const std::vector<std::int64_t> available = hwy::SupportedAndGeneratedTargets();
  ASSERT_FALSE(available.empty());
  std::mt19937 rng(11);
  for (std::int64_t target : available) {
    hwy::SetSupportedTargetsForTest(target);
    SCOPED_TRACE(std::string("target ") + hwy::TargetName(target));
    EXPECT_STREQ(BatchSimdTarget(), hwy::TargetName(target));
    std::vector<Chain> chains;
    std::vector<glm::vec3> targets;
    Comparison sum;
    RandomBatch(rng, 130, 10, chains, targets);
    SolveAndCompare(chains, targets, Settings(1e-3f, 30), BatchThreads::kOne, &sum);
    DegenerateBatch(chains, targets);
    SolveAndCompare(chains, targets, Settings(1e-3f, 30), BatchThreads::kOne, &sum);
    EXPECT_EQ(sum.bitwise_equal, sum.chains);
  }
  hwy::SetSupportedTargetsForTest(0);  // back to what the CPU supports
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
    const BatchSolveResult r1 = SolveFabrikBatch(plain, targets, Settings(1e-3f, 60),
                                                 BatchThreads::kAll, BatchRegroup::kNever);
    const BatchSolveResult r2 = SolveFabrikBatch(regrouped, targets, Settings(1e-3f, 60), threads,
                                                 BatchRegroup::kWhenRagged);
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
