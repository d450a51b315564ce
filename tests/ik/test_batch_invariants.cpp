// The batched solver's promises on their own: rejected input leaves everything unchanged,
// roots never move, lengths are kept, nothing becomes NaN, chains already within tolerance
// do not move, and the storage accessors agree with each other.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "batch_test_util.h"

namespace fabrik {
namespace {

using testing::BitwiseEqual;
using testing::DistanceD;
using testing::MustBatch;
using testing::RandomChain;
using testing::RandomUnit;
using testing::StraightChain;
using testing::Uniform;

constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();
constexpr float kInf = std::numeric_limits<float>::infinity();

std::vector<Chain> SomeChains(std::size_t count, std::size_t joints, unsigned seed) {
  std::mt19937 rng(seed);
  std::vector<Chain> chains;
  for (std::size_t c = 0; c < count; ++c) {
    std::vector<float> lengths(joints - 1);
    for (float& l : lengths) l = Uniform(rng, 0.3f, 1.5f);
    chains.push_back(RandomChain(rng, glm::vec3(float(c), 0.0f, 0.0f), lengths));
  }
  return chains;
}

std::vector<glm::vec3> AllPoses(const ChainBatch& b) {
  std::vector<glm::vec3> out(b.chain_count() * b.joint_count());
  b.CopyAllPoses(out);
  return out;
}

TEST(BatchCreate, RejectsBadInput) {
  EXPECT_FALSE(ChainBatch::FromChains({}).ok());
  std::vector<Chain> mixed = SomeChains(3, 4, 1);
  mixed.push_back(StraightChain(5, 1.0f));
  const Result<ChainBatch> r = ChainBatch::FromChains(mixed);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().find("chains[3] has 5 joints"), std::string::npos) << r.error();

  const std::vector<float> lengths = {1.0f, 1.0f};
  EXPECT_FALSE(ChainBatch::FromRoots({}, {0, 1, 0}, lengths).ok());
  const std::vector<glm::vec3> roots = {{0, 0, 0}, {kNaN, 0, 0}};
  const Result<ChainBatch> bad_root = ChainBatch::FromRoots(roots, {0, 1, 0}, lengths);
  ASSERT_FALSE(bad_root.ok());
  EXPECT_NE(bad_root.error().find("roots[1]"), std::string::npos) << bad_root.error();
  EXPECT_FALSE(ChainBatch::FromRoots(std::span(roots).first(1), {0, 0, 0}, lengths).ok());
  const std::vector<float> bad_lengths = {1.0f, -1.0f};
  EXPECT_FALSE(ChainBatch::FromRoots(std::span(roots).first(1), {0, 1, 0}, bad_lengths).ok());
}

TEST(BatchCreate, FromRootsBuildsStraightChainsOnTheRoots) {
  std::vector<glm::vec3> roots;
  for (int i = 0; i < 150; ++i) roots.emplace_back(float(i % 10), 0.0f, float(i / 10));
  const std::vector<float> lengths = {1.0f, 0.5f, 0.25f};
  const ChainBatch b = std::move(ChainBatch::FromRoots(roots, {0, 2, 0}, lengths)).value();
  ASSERT_EQ(b.chain_count(), 150u);
  ASSERT_EQ(b.joint_count(), 4u);
  for (std::size_t c = 0; c < roots.size(); ++c) {
    EXPECT_TRUE(BitwiseEqual(b.joint(c, 0), roots[c]));
    EXPECT_EQ(b.joint(c, 3), roots[c] + glm::vec3(0, 1.75f, 0));
    EXPECT_EQ(b.length(c, 1), 0.5f);
    EXPECT_EQ(b.total_length(c), 1.75f);
  }
}

TEST(BatchSolve, RejectedInputChangesNothing) {
  const std::vector<Chain> chains = SomeChains(200, 5, 2);
  ChainBatch b = MustBatch(chains);
  std::vector<glm::vec3> targets(chains.size(), glm::vec3(1, 2, 0));
  ASSERT_TRUE(SolveFabrikBatch(b, targets, testing::SettingsOf(1e-3f, 20)).ok);
  const std::vector<glm::vec3> before = AllPoses(b);
  const ChainOutcome outcome_before = b.outcome(7);

  const auto expect_rejected = [&](std::span<const glm::vec3> t, const SolveSettings& s,
                                   const char* words) {
    const BatchSolveResult r = SolveFabrikBatch(b, t, s);
    EXPECT_FALSE(r.ok);
    ASSERT_NE(r.error, nullptr);
    EXPECT_NE(std::string(r.error).find(words), std::string::npos) << r.error;
    EXPECT_TRUE(BitwiseEqual(AllPoses(b), before));
    EXPECT_EQ(b.outcome(7).iterations, outcome_before.iterations);
    EXPECT_EQ(b.outcome(7).distance, outcome_before.distance);
  };
  std::vector<glm::vec3> moved(chains.size(), glm::vec3(-1, 1, 1));
  for (float bad : {kNaN, kInf, -kInf}) {
    std::vector<glm::vec3> t = moved;
    t[131].z = bad;
    expect_rejected(t, testing::SettingsOf(1e-3f, 20), "not finite");
    EXPECT_EQ(SolveFabrikBatch(b, t, testing::SettingsOf(1e-3f, 20)).bad_index, 131u);
  }
  expect_rejected(std::span(moved).first(199), testing::SettingsOf(1e-3f, 20),
                  "one point per chain");
  expect_rejected(moved, testing::SettingsOf(0.0f, 20), "tolerance");
  expect_rejected(moved, testing::SettingsOf(kNaN, 20), "tolerance");
  expect_rejected(moved, testing::SettingsOf(1e-3f, 0), "max_iterations");

  ChainBatch taken = std::move(b);  // b is left empty: rejected, not undefined
  EXPECT_FALSE(SolveFabrikBatch(b, {}, testing::SettingsOf(1e-3f, 20)).ok);
  EXPECT_TRUE(SolveFabrikBatch(taken, moved, testing::SettingsOf(1e-3f, 20)).ok);
  ChainBatch empty_copy = b;
  EXPECT_EQ(empty_copy.chain_count(), 0u);
  EXPECT_FALSE(SolveFabrikBatch(empty_copy, {}, testing::SettingsOf(1e-3f, 20)).ok);
}

// Roots fixed to the bit, lengths kept, finite, every frame, on a mix of reachable and
// unreachable targets including huge ones.
TEST(BatchSolve, KeepsTheChainInvariants) {
  std::vector<Chain> chains = SomeChains(333, 8, 3);
  chains.push_back(StraightChain(8, 1.0f));
  chains.push_back(StraightChain(8, 1e-20f));
  ChainBatch b = MustBatch(chains);
  std::mt19937 rng(4);
  std::vector<glm::vec3> targets(chains.size());
  for (int frame = 0; frame < 10; ++frame) {
    for (std::size_t c = 0; c < chains.size(); ++c) {
      targets[c] =
          chains[c].root() + RandomUnit(rng) * chains[c].total_length() * Uniform(rng, 0.0f, 1.5f);
    }
    targets[5] = glm::vec3(3e38f, -3e38f, 1e30f);
    const BatchSolveResult r = SolveFabrikBatch(b, targets, testing::SettingsOf(1e-4f, 25));
    ASSERT_TRUE(r.ok);
    EXPECT_LE(r.reached_reachable_count, r.reachable_count);
    EXPECT_LE(r.max_iterations_run, 25);
    for (std::size_t c = 0; c < chains.size(); ++c) {
      SCOPED_TRACE("chain " + std::to_string(c));
      ASSERT_TRUE(BitwiseEqual(b.joint(c, 0), chains[c].root()));
      for (std::size_t j = 0; j + 1 < b.joint_count(); ++j) {
        const glm::vec3 p = b.joint(c, j + 1);
        ASSERT_TRUE(std::isfinite(p.x) && std::isfinite(p.y) && std::isfinite(p.z));
        // 1e-5 of the length, plus the rounding of coordinates of this magnitude (roots
        // lie up to 334 units from the origin).
        const double l = DistanceD(p, b.joint(c, j));
        const double magnitude = std::max(testing::MaxAbs(p), testing::MaxAbs(b.joint(c, j)));
        ASSERT_NEAR(l, chains[c].lengths()[j],
                    1e-5 * chains[c].lengths()[j] +
                        4.0 * std::numeric_limits<float>::epsilon() * magnitude);
      }
      const ChainOutcome o = b.outcome(c);
      ASSERT_TRUE(std::isfinite(o.distance));
      EXPECT_EQ(o.reached, o.distance <= 1e-4f);
      const double actual = DistanceD(b.joint(c, b.joint_count() - 1), targets[c]);
      if (o.distance < std::numeric_limits<float>::max()) {  // else saturated (FLT_MAX)
        EXPECT_NEAR(o.distance, actual, 1e-5 * std::max(1.0, actual));
      } else {
        EXPECT_GE(actual, o.distance);
      }
    }
  }
}

// A chain whose effector is already within tolerance does not move at all (iterations 0),
// while its neighbours in the same vector iterate.
TEST(BatchSolve, ChainsAlreadyThereDoNotMove) {
  const std::vector<Chain> chains = SomeChains(40, 6, 5);
  ChainBatch b = MustBatch(chains);
  std::vector<glm::vec3> targets;
  for (std::size_t c = 0; c < chains.size(); ++c) {
    targets.push_back(c % 2 ? chains[c].effector() : chains[c].root() + glm::vec3(0, 2, 0));
  }
  ASSERT_TRUE(SolveFabrikBatch(b, targets, testing::SettingsOf(1e-3f, 50)).ok);
  std::vector<glm::vec3> pose(b.joint_count());
  for (std::size_t c = 1; c < chains.size(); c += 2) {
    b.CopyPose(c, pose);
    EXPECT_TRUE(BitwiseEqual(pose, chains[c].joints())) << "chain " << c;
    EXPECT_EQ(b.outcome(c).iterations, 0);
    EXPECT_TRUE(b.outcome(c).reached);
  }
  for (std::size_t c = 0; c < chains.size(); c += 2) EXPECT_GT(b.outcome(c).iterations, 0);
}

TEST(BatchPose, SetPoseValidatesLikeChain) {
  const std::vector<Chain> chains = SomeChains(3, 4, 6);
  ChainBatch b = MustBatch(chains);
  std::vector<glm::vec3> pose(chains[1].joints().begin(), chains[1].joints().end());
  // A rotation about the root keeps every length.
  std::vector<glm::vec3> turned = pose;
  for (glm::vec3& p : turned) {
    const glm::vec3 v = p - pose[0];
    p = pose[0] + glm::vec3(-v.z, v.y, v.x);
  }
  EXPECT_TRUE(b.SetPose(1, turned).ok());
  std::vector<glm::vec3> got(4);
  b.CopyPose(1, got);
  EXPECT_TRUE(BitwiseEqual(got, turned));
  const std::vector<glm::vec3> before = AllPoses(b);

  std::vector<glm::vec3> bad = turned;
  bad[2].x = kNaN;
  EXPECT_NE(b.SetPose(1, bad).error().find("pose[2] is not finite"), std::string::npos);
  bad = turned;
  bad[0].x += 1.0f;
  EXPECT_NE(b.SetPose(1, bad).error().find("moves the root"), std::string::npos);
  bad = turned;
  bad[3] *= 2.0f;
  EXPECT_NE(b.SetPose(1, bad).error().find("length of segment 2"), std::string::npos);
  EXPECT_FALSE(b.SetPose(1, std::span(turned).first(3)).ok());
  EXPECT_FALSE(b.SetPose(3, turned).ok());
  EXPECT_TRUE(BitwiseEqual(AllPoses(b), before));
}

TEST(BatchPose, CopiesAgreeWithJointAccess) {
  const std::vector<Chain> chains = SomeChains(300, 3, 8);
  ChainBatch b = MustBatch(chains);
  ChainBatch copy = b;
  const std::vector<glm::vec3> all = AllPoses(b);
  for (std::size_t c = 0; c < chains.size(); ++c) {
    for (std::size_t j = 0; j < 3; ++j) {
      EXPECT_TRUE(BitwiseEqual(all[c * 3 + j], chains[c].joints()[j]));
      EXPECT_TRUE(BitwiseEqual(copy.joint(c, j), b.joint(c, j)));
    }
  }
  // A copy is independent of the original.
  std::vector<glm::vec3> targets(chains.size(), glm::vec3(0, 1, 0));
  ASSERT_TRUE(SolveFabrikBatch(copy, targets, testing::SettingsOf(1e-3f, 10)).ok);
  EXPECT_TRUE(BitwiseEqual(AllPoses(b), all));
  EXPECT_FALSE(BitwiseEqual(AllPoses(copy), all));
  copy = b;  // same shape: storage reused
  EXPECT_TRUE(BitwiseEqual(AllPoses(copy), all));
}

}  // namespace
}  // namespace fabrik
