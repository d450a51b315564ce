// SolveFabrikPacked against ChainBatch::FromPoses + SolveFabrikBatch + CopyAllPoses: the same
// poses (bitwise), outcomes and sums, on ordinary and degenerate chains (huge and tiny ones
// take the exact checks rather than the float test), and every refusal with nothing written.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "batch_test_util.h"

namespace fabrik {
namespace {

using testing::Packed;
using testing::RandomBatch;

struct Outcomes {
  explicit Outcomes(std::size_t n) : iterations(n, -7), distance(n, -7.0f) {
    reached.reset(new bool[n]);
    reachable.reset(new bool[n]);
    for (std::size_t c = 0; c < n; ++c) reached[c] = reachable[c] = true;
    spans = {iterations, distance, {reached.get(), n}, {reachable.get(), n}};
  }
  std::vector<std::int32_t> iterations;
  std::vector<float> distance;
  std::unique_ptr<bool[]> reached, reachable;  // std::vector<bool> has no span
  PackedOutcomes spans;
};

// Solves `poses` both ways and expects the same everything.
void ExpectSameAsBatch(const std::vector<glm::vec3>& poses, std::size_t joints,
                       const std::vector<glm::vec3>& targets, const SolveSettings& settings,
                       BatchThreads threads) {
  const std::size_t count = poses.size() / joints;
  ChainBatch batch = ChainBatch::FromPoses(poses, joints).value();
  const BatchSolveResult expected =
      SolveFabrikBatch(batch, targets, settings, threads, BatchRegroup::kNever);
  ASSERT_TRUE(expected.ok);
  std::vector<glm::vec3> want(poses.size());
  batch.CopyAllPoses(want);

  std::vector<glm::vec3> got = poses;
  Outcomes out(count);
  const Result<BatchSolveResult> r =
      SolveFabrikPacked(got, joints, targets, settings, out.spans, threads);
  ASSERT_TRUE(r.ok()) << r.error();
  EXPECT_TRUE(testing::BitwiseEqual(got, want));
  for (std::size_t c = 0; c < count; ++c) {
    const ChainOutcome o = batch.outcome(c);
    SCOPED_TRACE("chain " + std::to_string(c));
    EXPECT_EQ(out.iterations[c], o.iterations);
    EXPECT_EQ(out.distance[c], o.distance);
    EXPECT_EQ(out.reached[c], o.reached);
    EXPECT_EQ(out.reachable[c], o.reachable);
  }
  EXPECT_EQ(r.value().reached_count, expected.reached_count);
  EXPECT_EQ(r.value().reachable_count, expected.reachable_count);
  EXPECT_EQ(r.value().reached_reachable_count, expected.reached_reachable_count);
  EXPECT_EQ(r.value().max_iterations_run, expected.max_iterations_run);
  EXPECT_DOUBLE_EQ(r.value().lane_utilisation, expected.lane_utilisation);
}

TEST(BatchPacked, EqualsFromPosesSolveAndCopyBack) {
  std::mt19937 rng(17);
  for (std::size_t joints : {2u, 10u, 33u}) {
    for (std::size_t count : {1u, 127u, 300u}) {
      std::vector<Chain> chains;
      std::vector<glm::vec3> targets;
      RandomBatch(rng, count, joints, chains, targets);
      for (const bool accelerate : {false, true}) {
        for (const BatchThreads threads : {BatchThreads::kOne, BatchThreads::kAll}) {
          SCOPED_TRACE(std::to_string(joints) + " joints, " + std::to_string(count) +
                       " chains, accelerate " + std::to_string(accelerate));
          ExpectSameAsBatch(Packed(chains), joints, targets,
                            testing::SettingsOf(1e-3f, 30, accelerate), threads);
        }
      }
    }
  }
}

// Huge, tiny and coincident-looking chains fail the cheap float test and take the exact
// checks; they are accepted and solved all the same, and equal SolveFabrik's results.
TEST(BatchPacked, DegenerateChainsAsTheBatchSolvesThem) {
  std::vector<Chain> chains;
  std::vector<glm::vec3> targets;
  testing::DegenerateBatch(chains, targets);
  const std::vector<glm::vec3> poses = Packed(chains);
  const std::size_t joints = chains[0].joint_count();
  for (const bool accelerate : {false, true}) {
    ExpectSameAsBatch(poses, joints, targets, testing::SettingsOf(1e-3f, 20, accelerate),
                      BatchThreads::kAll);
  }
  std::vector<glm::vec3> got = poses;
  const SolveSettings settings = testing::SettingsOf(1e-3f, 20, false);
  std::vector<std::int32_t> iterations(chains.size());
  ASSERT_TRUE(SolveFabrikPacked(got, joints, targets, settings, {iterations}).ok());
  for (std::size_t c = 0; c < chains.size(); ++c) {
    SCOPED_TRACE("chain " + std::to_string(c));
    const SolveResult expected = SolveFabrik(chains[c], targets[c], settings);
    EXPECT_EQ(iterations[c], expected.iterations);
    for (std::size_t j = 0; j < joints; ++j) {
      EXPECT_TRUE(testing::BitwiseEqual(got[c * joints + j], chains[c].joints()[j]));
    }
  }
}

// Every refusal: the message names the problem (the lowest bad chain as FromPoses names it),
// and neither the poses nor the outcomes were written.
TEST(BatchPacked, RefusesBeforeWritingAnything) {
  constexpr float kNan = std::numeric_limits<float>::quiet_NaN();
  constexpr float kMax = std::numeric_limits<float>::max();
  std::mt19937 rng(8);
  std::vector<Chain> chains;
  std::vector<glm::vec3> targets;
  RandomBatch(rng, 400, 5, chains, targets);
  const std::vector<glm::vec3> good = Packed(chains);
  const SolveSettings settings = testing::SettingsOf(1e-3f, 30, true);
  const auto expect_refused = [&](std::vector<glm::vec3> poses, std::size_t joints,
                                  const std::vector<glm::vec3>& goals, const SolveSettings& s,
                                  const std::string& message, std::size_t outcome_count) {
    const std::vector<glm::vec3> before = poses;
    Outcomes out(outcome_count);
    const Result<BatchSolveResult> r =
        SolveFabrikPacked(poses, joints, goals, s, out.spans, BatchThreads::kAll);
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error(), message);
    EXPECT_TRUE(testing::BitwiseEqual(poses, before));
    for (std::size_t c = 0; c < outcome_count; ++c) {
      EXPECT_EQ(out.iterations[c], -7);
      EXPECT_EQ(out.distance[c], -7.0f);
      EXPECT_TRUE(out.reached[c] && out.reachable[c]);
    }
  };
  const glm::vec3 bad_joints[] = {{kNan, 0, 0}, {0, kMax, -kMax}};
  for (std::size_t first : {0u, 130u, 399u}) {
    for (int kind = 0; kind < 3; ++kind) {
      std::vector<glm::vec3> poses = good;
      const std::size_t at = first * 5 + 3;
      poses[at] = kind == 2 ? poses[at - 1] : bad_joints[kind];
      if (first + 7 < 400) poses[(first + 7) * 5 + 1] = poses[(first + 7) * 5];  // later bad
      const std::vector<glm::vec3> alone(poses.begin() + first * 5, poses.begin() + first * 5 + 5);
      const Result<Chain> expected = Chain::FromJoints(alone);
      ASSERT_FALSE(expected.ok());
      expect_refused(poses, 5, targets, settings,
                     "chains[" + std::to_string(first) + "]: " + expected.error(), 400);
    }
  }
  std::vector<glm::vec3> goals = targets;
  goals[250].y = kNan;
  expect_refused(good, 5, goals, settings, "targets[250] is not finite (NaN or inf)", 400);
  goals.pop_back();
  expect_refused(good, 5, goals, settings, "targets must hold exactly one point per chain", 400);
  expect_refused(good, 5, targets, testing::SettingsOf(0.0f, 30, false),
                 "tolerance must be finite and > 0", 400);
  expect_refused(good, 5, targets, settings,
                 "each outcome span must be empty or hold one entry per chain (400)", 399);
  expect_refused(good, 1, targets, settings, "a chain needs at least 2 joints, got 1", 400);
  expect_refused(good, 3, targets, settings,
                 "poses must hold a positive multiple of 3 points, got 2000", 400);
}

}  // namespace
}  // namespace fabrik
