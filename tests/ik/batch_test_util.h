// batch_test_util.h - helpers shared by the batched-solver tests: the scalar solver as the
// reference, chain by chain.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <string>
#include <vector>

#include "fabrik_test_util.h"
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
// scale: its total length plus its largest coordinate).
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

}  // namespace fabrik::testing
