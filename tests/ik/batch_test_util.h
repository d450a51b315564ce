// batch_test_util.h - helpers shared by the batched-solver tests: the scalar solver as the
// reference, chain by chain.
#pragma once

#include <gtest/gtest.h>
#include <hwy/targets.h>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "fabrik_test_util.h"
#include "ik/batch/batch_block.h"
#include "ik/batch_fabrik.h"
#include "ik/fabrik.h"

namespace fabrik::testing {

inline ChainBatch MustBatch(std::span<const Chain> chains) {
  Result<ChainBatch> batch = ChainBatch::FromChains(chains);
  EXPECT_TRUE(batch.ok()) << batch.error();
  if (!batch.ok()) std::abort();
  return std::move(batch).value();
}

inline float MaxAbs(const glm::vec3& p) {
  return std::max({std::fabs(p.x), std::fabs(p.y), std::fabs(p.z)});
}

// How a batch solve compared with SolveFabrik on copies of the same chains.
struct Comparison {
  std::size_t chains = 0;
  std::size_t bitwise_equal = 0;  // joints and distance identical to the bit
  std::size_t iterated = 0;       // chains that ran at least one FABRIK iteration
  std::size_t capped = 0;         // chains that hit the cap
};

// Solves `chains` (updated to the scalar results) one by one with SolveFabrik, and checks
// that `batch` (already solved with the same targets and settings) agrees: same iterations,
// reached and reachable, and joints and distance equal to float rounding (1e-5 of the chain's
// scale: its total length plus its largest coordinate; the tests also count the chains that
// are bitwise equal, which they expect of every chain).
inline Comparison ExpectMatchesScalar(const ChainBatch& batch, std::vector<Chain>& chains,
                                      std::span<const glm::vec3> targets,
                                      const SolveSettings& settings) {
  Comparison out;
  std::vector<glm::vec3> pose(batch.joint_count());
  for (std::size_t c = 0; c < chains.size(); ++c) {
    const SolveResult expected = SolveFabrik(chains[c], targets[c], settings);
    const ChainOutcome got = batch.outcome(c);
    batch.CopyPose(c, pose);
    SCOPED_TRACE("chain " + std::to_string(c));
    EXPECT_EQ(got.iterations, expected.iterations);
    EXPECT_EQ(got.reached, expected.reached);
    EXPECT_EQ(got.reachable, expected.reachable);
    float scale = chains[c].total_length();
    for (const glm::vec3& p : chains[c].joints()) scale = std::max(scale, MaxAbs(p));
    const double allowed = 1e-5 * scale;
    EXPECT_NEAR(got.distance, expected.distance, allowed);
    bool bitwise = got.distance == expected.distance;
    for (std::size_t j = 0; j < pose.size(); ++j) {
      const double error = DistanceD(pose[j], chains[c].joints()[j]);
      EXPECT_LE(error, allowed) << "joint " << j;
      bitwise = bitwise && BitwiseEqual(pose[j], chains[c].joints()[j]);
    }
    ++out.chains;
    out.bitwise_equal += bitwise;
    out.iterated += expected.iterations > 0 && expected.reachable;
    out.capped += expected.iterations == settings.max_iterations && !expected.reached;
  }
  return out;
}

// The chains' joints packed chain after chain (as ChainBatch::FromPoses and SolveFabrikPacked
// take them).
inline std::vector<glm::vec3> Packed(const std::vector<Chain>& chains) {
  std::vector<glm::vec3> out;
  for (const Chain& c : chains) out.insert(out.end(), c.joints().begin(), c.joints().end());
  return out;
}

// `count` chains of `joints` joints with ragged lengths and random poses, roots spread out,
// and targets: most inside the reach (some close to full reach, which converge slowly and
// hit the cap), some beyond it, a few on or next to the root.
inline void RandomBatch(std::mt19937& rng, std::size_t count, std::size_t joints,
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

// The degenerate cases of test_fabrik_degenerate.cpp, five joints each, interleaved with
// ordinary chains so they share vectors with lanes on the fast path.
inline void DegenerateBatch(std::vector<Chain>& chains, std::vector<glm::vec3>& targets) {
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

// Solves `chains` as one batch and (updating them) one by one, compares (ExpectMatchesScalar)
// and adds the comparison to `sum` when given.
inline void SolveAndCompare(std::vector<Chain>& chains, std::span<const glm::vec3> targets,
                            const SolveSettings& settings, BatchThreads threads, Comparison* sum) {
  ChainBatch batch = MustBatch(chains);
  const BatchSolveResult r =
      SolveFabrikBatch(batch, targets, settings, threads, BatchRegroup::kWhenRagged);
  ASSERT_TRUE(r.ok) << r.error;
  const Comparison c = ExpectMatchesScalar(batch, chains, targets, settings);
  if (sum) {
    sum->chains += c.chains;
    sum->bitwise_equal += c.bitwise_equal;
    sum->iterated += c.iterated;
    sum->capped += c.capped;
  }
}

// A random ragged batch of 1000 10-joint chains solved on one thread and on all: the same
// floats, iterations, flags and distances.
inline void ExpectThreadsAgreeBitwise(unsigned seed, const SolveSettings& settings) {
  std::mt19937 rng(seed);
  std::vector<Chain> chains;
  std::vector<glm::vec3> targets;
  RandomBatch(rng, 1000, 10, chains, targets);
  ChainBatch one = MustBatch(chains);
  ChainBatch all = MustBatch(chains);
  const BatchRegroup regroup = BatchRegroup::kWhenRagged;
  ASSERT_TRUE(SolveFabrikBatch(one, targets, settings, BatchThreads::kOne, regroup).ok);
  ASSERT_TRUE(SolveFabrikBatch(all, targets, settings, BatchThreads::kAll, regroup).ok);
  std::vector<glm::vec3> a(one.chain_count() * one.joint_count());
  std::vector<glm::vec3> b(a.size());
  one.CopyAllPoses(a);
  all.CopyAllPoses(b);
  EXPECT_TRUE(BitwiseEqual(a, b));
  for (std::size_t c = 0; c < chains.size(); ++c) {
    EXPECT_EQ(one.outcome(c).iterations, all.outcome(c).iterations);
    EXPECT_EQ(one.outcome(c).reached, all.outcome(c).reached);
    EXPECT_EQ(one.outcome(c).distance, all.outcome(c).distance);
  }
}

// On every SIMD target compiled into the library and supported here (SSE2 emulation, SSSE3,
// SSE4, AVX2, AVX-512, ...): random and degenerate batches give the scalar solver's results
// (ExpectMatchesScalar), bitwise.
inline void ExpectEverySimdTargetMatches(unsigned seed, const SolveSettings& settings) {
  const std::vector<std::int64_t> available = batch::CompiledSimdTargets();
  ASSERT_FALSE(available.empty());
  std::mt19937 rng(seed);
  for (std::int64_t target : available) {
    hwy::SetSupportedTargetsForTest(target);
    SCOPED_TRACE(std::string("target ") + hwy::TargetName(target));
    EXPECT_STREQ(BatchSimdTarget(), hwy::TargetName(target));
    std::vector<Chain> chains;
    std::vector<glm::vec3> targets;
    Comparison sum;
    RandomBatch(rng, 130, 10, chains, targets);
    SolveAndCompare(chains, targets, settings, BatchThreads::kOne, &sum);
    DegenerateBatch(chains, targets);
    SolveAndCompare(chains, targets, settings, BatchThreads::kOne, &sum);
    EXPECT_EQ(sum.bitwise_equal, sum.chains);
    EXPECT_EQ(sum.chains, 130u + chains.size());
  }
  hwy::SetSupportedTargetsForTest(0);  // back to what the CPU supports
}

}  // namespace fabrik::testing
