// ChainBatch::FromPoses against FromChains over Chain::FromJoints: the same batch (joints,
// lengths, totals, solve results) from packed poses, the same refusals with the first bad
// chain named, and CopyAllPoses over threads equal to one thread.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "batch_test_util.h"

namespace fabrik {
namespace {

using testing::MustBatch;
using testing::Packed;
using testing::RandomBatch;

TEST(BatchFromPoses, EqualsFromChainsAndSolvesTheSame) {
  std::mt19937 rng(31);
  for (std::size_t joints : {2u, 10u, 33u}) {
    for (std::size_t count : {1u, 127u, 300u}) {
      SCOPED_TRACE(std::to_string(joints) + " joints, " + std::to_string(count) + " chains");
      std::vector<Chain> chains;
      std::vector<glm::vec3> targets;
      RandomBatch(rng, count, joints, chains, targets);
      const std::vector<glm::vec3> poses = Packed(chains);
      Result<ChainBatch> made = ChainBatch::FromPoses(poses, joints);
      ASSERT_TRUE(made.ok()) << made.error();
      ChainBatch from_poses = std::move(made).value();
      ChainBatch from_chains = MustBatch(chains);
      ASSERT_EQ(from_poses.chain_count(), count);
      ASSERT_EQ(from_poses.joint_count(), joints);
      for (std::size_t c = 0; c < count; ++c) {
        EXPECT_EQ(from_poses.total_length(c), from_chains.total_length(c));
        for (std::size_t s = 0; s + 1 < joints; ++s) {
          EXPECT_EQ(from_poses.length(c, s), chains[c].lengths()[s]);
        }
      }
      for (const bool accelerate : {false, true}) {
        ChainBatch a = from_poses, b = from_chains;
        const SolveSettings settings = testing::SettingsOf(1e-3f, 30, accelerate);
        ASSERT_TRUE(SolveFabrikBatch(a, targets, settings).ok);
        ASSERT_TRUE(SolveFabrikBatch(b, targets, settings).ok);
        std::vector<glm::vec3> pa(poses.size()), pb(poses.size());
        a.CopyAllPoses(pa, BatchThreads::kAll);
        b.CopyAllPoses(pb, BatchThreads::kOne);
        EXPECT_TRUE(testing::BitwiseEqual(pa, pb));
        for (std::size_t c = 0; c < count; ++c) {
          EXPECT_EQ(a.outcome(c).iterations, b.outcome(c).iterations);
          EXPECT_EQ(a.outcome(c).distance, b.outcome(c).distance);
        }
      }
    }
  }
}

// Every refusal of Chain::FromJoints, in a chain of a larger batch: the message is
// "chains[c]: " and FromJoints' own, naming the lowest bad chain; nothing else differs.
TEST(BatchFromPoses, RefusesWhatFromJointsRefusesNamingTheFirstBadChain) {
  constexpr float kNan = std::numeric_limits<float>::quiet_NaN();
  constexpr float kMax = std::numeric_limits<float>::max();
  std::mt19937 rng(4);
  std::vector<Chain> chains;
  std::vector<glm::vec3> targets;
  RandomBatch(rng, 400, 5, chains, targets);
  const std::vector<glm::vec3> good = Packed(chains);
  struct Case {
    std::size_t joint;
    glm::vec3 value;
  };
  const std::vector<Case> cases = {
      {2, {kNan, 0, 0}},
      {1, {0, std::numeric_limits<float>::infinity(), 0}},
      {4, {}},  // set to joint 3 below: a zero-length segment
      {3, {kMax, -kMax, kMax}},
  };
  for (const Case& bad : cases) {
    for (std::size_t first : {0u, 130u, 399u}) {
      std::vector<glm::vec3> poses = good;
      const glm::vec3 value = bad.joint == 4 ? poses[first * 5 + 3] : bad.value;
      poses[first * 5 + bad.joint] = value;
      if (first + 7 < 400) poses[(first + 7) * 5 + bad.joint] = value;  // a later bad one
      std::vector<glm::vec3> alone(poses.begin() + first * 5, poses.begin() + first * 5 + 5);
      const Result<Chain> expected = Chain::FromJoints(alone);
      ASSERT_FALSE(expected.ok());
      const Result<ChainBatch> got = ChainBatch::FromPoses(poses, 5);
      ASSERT_FALSE(got.ok());
      EXPECT_EQ(got.error(), "chains[" + std::to_string(first) + "]: " + expected.error());
    }
  }
  EXPECT_FALSE(ChainBatch::FromPoses(good, 1).ok());
  EXPECT_FALSE(ChainBatch::FromPoses(std::span<const glm::vec3>(good).first(7), 5).ok());
  EXPECT_FALSE(ChainBatch::FromPoses({}, 5).ok());
}

// Refilling a batch in place: after a solve that regrouped it, with the same shape (storage
// reused) and another shape, it equals a fresh FromPoses batch; a bad chain leaves it empty.
TEST(BatchFromPoses, AssignPosesRefillsInPlace) {
  std::mt19937 rng(9);
  std::vector<Chain> chains;
  std::vector<glm::vec3> targets;
  RandomBatch(rng, 300, 10, chains, targets);
  ChainBatch batch = MustBatch(chains);
  ASSERT_TRUE(SolveFabrikBatch(batch, targets, testing::SettingsOf(1e-4f, 40, false)).regrouped);
  for (std::size_t joints : {10u, 4u}) {
    RandomBatch(rng, 200, joints, chains, targets);
    const std::vector<glm::vec3> poses = Packed(chains);
    ASSERT_TRUE(batch.AssignPoses(poses, joints).ok());
    ChainBatch fresh = ChainBatch::FromPoses(poses, joints).value();
    ASSERT_EQ(batch.chain_count(), 200u);
    std::vector<glm::vec3> a(poses.size()), b(poses.size());
    batch.CopyAllPoses(a);
    EXPECT_TRUE(testing::BitwiseEqual(a, poses));
    for (std::size_t c = 0; c < 200; ++c) EXPECT_EQ(batch.outcome(c).iterations, 0);
    const SolveSettings settings = testing::SettingsOf(1e-3f, 30, true);
    ASSERT_TRUE(SolveFabrikBatch(batch, targets, settings).ok);
    ASSERT_TRUE(SolveFabrikBatch(fresh, targets, settings).ok);
    batch.CopyAllPoses(a);
    fresh.CopyAllPoses(b);
    EXPECT_TRUE(testing::BitwiseEqual(a, b));
  }
  std::vector<glm::vec3> poses = Packed(chains);
  poses[5 * 4 + 2] = poses[5 * 4 + 1];
  const Status bad = batch.AssignPoses(poses, 4);
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.error().rfind("chains[5]: ", 0), 0u) << bad.error();
  EXPECT_EQ(batch.chain_count(), 0u);
  EXPECT_FALSE(batch.AssignPoses(poses, 3).ok());  // not a multiple: refused before filling
}

}  // namespace
}  // namespace fabrik
