// Frames that switch between accelerated and textbook solves, the batch and the single solves
// each going on from their own poses (as fuzz_batch runs them): every frame per chain the
// result of SolveFabrik, bitwise, on every SIMD target compiled in and supported here. A step
// that left the joints merely near SolveFabrik's would show here: the next frame would start
// from other poses and drift (fuzz_batch once found such a textbook frame, reached in the
// batch and not in SolveFabrik, when the batch had a bend-scale step of its own).
#include <gtest/gtest.h>
#include <hwy/targets.h>

#include <random>
#include <string>
#include <vector>

#include "batch_test_util.h"

namespace fabrik {
namespace {

using testing::Comparison;
using testing::ExpectMatchesScalar;
using testing::MustBatch;
using testing::RandomUnit;

void ExpectMixedFramesBitwiseEqual(unsigned seed) {
  std::mt19937 rng(seed);
  for (std::size_t joints : {3u, 5u, 10u}) {
    std::vector<Chain> chains;
    std::vector<glm::vec3> targets;
    // Roots near the origin, so that float rounding (1e-5 of the chain's scale) is far finer
    // than the tolerance and a step's joints within the search goal would show.
    const std::vector<float> lengths(joints - 1, 1.0f);
    const float total = static_cast<float>(joints - 1);
    for (int c = 0; c < 300; ++c) {
      chains.push_back(testing::RandomChain(rng, glm::vec3(0.0f), lengths));
      targets.push_back(RandomUnit(rng) * (total * testing::Uniform(rng, 0.5f, 0.999f)));
    }
    ChainBatch batch = MustBatch(chains);
    Comparison sum;
    for (int frame = 0; frame < 6; ++frame) {
      const bool accelerate = frame % 2 == 0;
      SCOPED_TRACE(std::to_string(joints) + " joints, frame " + std::to_string(frame) +
                   (accelerate ? " (accelerated)" : " (textbook)"));
      for (glm::vec3& t : targets) t += RandomUnit(rng) * 0.2f;
      const SolveSettings settings = testing::SettingsOf(1e-3f, 8, accelerate);
      const BatchSolveResult r = SolveFabrikBatch(batch, targets, settings);
      ASSERT_TRUE(r.ok) << r.error;
      const Comparison c = ExpectMatchesScalar(batch, chains, targets, settings);
      EXPECT_EQ(c.bitwise_equal, c.chains);
      sum.chains += c.chains;
      sum.capped += c.capped;
      if (::testing::Test::HasFailure()) return;
    }
    EXPECT_EQ(sum.chains, 6 * chains.size());
    EXPECT_GT(sum.capped, 0u);  // the cap of 8 bites: reached is decided at the cap
  }
}

TEST(BatchMixedFrames, AcceleratedAndTextbookFramesStayBitwiseEqualOnEveryTarget) {
  const std::vector<std::int64_t> available = batch::CompiledSimdTargets();
  ASSERT_FALSE(available.empty());
  for (std::int64_t target : available) {
    hwy::SetSupportedTargetsForTest(target);
    SCOPED_TRACE(std::string("target ") + hwy::TargetName(target));
    ExpectMixedFramesBitwiseEqual(31);
    if (::testing::Test::HasFailure()) break;
  }
  hwy::SetSupportedTargetsForTest(0);  // back to what the CPU supports
}

}  // namespace
}  // namespace fabrik
