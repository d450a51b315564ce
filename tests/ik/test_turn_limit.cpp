// The turn limit (src/ik/turn_limit.h): across a series of calls towards a jumping target no
// segment's direction turns by more than the limit in one call, the root stays, lengths are
// kept, and the chain gets there over several calls; refusals; no allocation.
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <vector>

#include "fabrik_test_util.h"
#include "ik/turn_limit.h"
#include "no_alloc_util.h"

namespace fabrik {
namespace {

using testing::RandomChain;
using testing::RandomUnit;
using testing::Uniform;

double SegmentTurn(std::span<const glm::vec3> a, std::span<const glm::vec3> b, std::size_t i) {
  const glm::dvec3 u = glm::normalize(glm::dvec3(a[i + 1]) - glm::dvec3(a[i]));
  const glm::dvec3 v = glm::normalize(glm::dvec3(b[i + 1]) - glm::dvec3(b[i]));
  return std::atan2(glm::length(glm::cross(u, v)), glm::dot(u, v));
}

TEST(TurnLimit, NoSegmentTurnsMoreThanTheLimitPerCallAndTheTargetIsReachedInTime) {
  std::mt19937 rng(31);
  for (SolverKind kind : {SolverKind::kFabrik, SolverKind::kCcd}) {
    for (int trial = 0; trial < 40; ++trial) {
      std::vector<float> lengths(2 + trial % 6);
      for (float& l : lengths) l = Uniform(rng, 0.3f, 1.2f);
      Chain chain = RandomChain(rng, {0, 0, 0}, lengths);
      const float limit = Uniform(rng, 0.02f, 0.3f);
      std::vector<glm::vec3> scratch(chain.joint_count());
      SolveSettings settings;
      settings.tolerance = 1e-3f;
      settings.max_iterations = 100;
      // The target jumps to a new place every 200 calls.
      for (int jump = 0; jump < 3; ++jump) {
        // Attainable: beyond 2 x longest - total (nearer, a long segment cannot fold in).
        const float total = chain.total_length();
        const float nearest = std::max(0.3f, (2.0f * chain.max_length() - total) / total + 0.05f);
        const glm::vec3 target = RandomUnit(rng) * total * Uniform(rng, nearest, 0.9f);
        bool reached = false;
        for (int call = 0; call < 200; ++call) {
          const std::vector<glm::vec3> before(chain.joints().begin(), chain.joints().end());
          const SolveResult r = SolveWithTurnLimit(kind, chain, target, settings, limit, scratch);
          ASSERT_TRUE(r.ok) << r.error;
          for (std::size_t i = 0; i < chain.segment_count(); ++i) {
            ASSERT_LE(SegmentTurn(before, chain.joints(), i), limit + 1e-5) << trial << " " << i;
          }
          ASSERT_TRUE(testing::BitwiseEqual(chain.root(), before[0]));
          ASSERT_TRUE(testing::LengthsKeptToRounding(chain, 1e-5));
          if (r.reached) {
            reached = true;
            break;
          }
        }
        if (kind == SolverKind::kFabrik) {
          EXPECT_TRUE(reached) << trial << " jump " << jump;
        }
      }
    }
  }
}

TEST(TurnLimit, HoldsBackOnlyWhatTurnedTooFarAndReversalsTurnToo) {
  Chain chain = testing::StraightChain(3, 1.0f);  // along +X
  const std::vector<glm::vec3> before(chain.joints().begin(), chain.joints().end());
  // Fold the last segment straight back: it reverses, so it turns about some perpendicular.
  ASSERT_TRUE(chain.SetPose(std::vector<glm::vec3>{{0, 0, 0}, {1, 0, 0}, {0, 0, 0}}).ok());
  EXPECT_EQ(LimitTurn(before, 0.1f, chain), 1);
  EXPECT_NEAR(SegmentTurn(before, chain.joints(), 1), 0.1, 1e-6);
  EXPECT_NEAR(SegmentTurn(before, chain.joints(), 0), 0.0, 1e-7);
  EXPECT_EQ(LimitTurn(std::vector<glm::vec3>(2), 0.1f, chain), -1);
  EXPECT_EQ(LimitTurn(before, -1.0f, chain), -1);
  EXPECT_EQ(LimitTurn(before, std::nanf(""), chain), -1);
}

TEST(TurnLimit, SolvingNeverAllocates) {
  std::mt19937 rng(8);
  Chain chain = RandomChain(rng, {0, 0, 0}, {1.0f, 0.5f, 0.8f, 1.1f, 0.6f});
  std::vector<glm::vec3> scratch(chain.joint_count());
  const std::vector<glm::vec3> targets = testing::RandomTargets(rng, 300, 5.0f);
  const SolveSettings settings;
  const auto [allocations, ok] = testing::CountAllocations(targets, [&](const glm::vec3& t) {
    return SolveWithTurnLimit(SolverKind::kFabrik, chain, t, settings, 0.05f, scratch).ok;
  });
  EXPECT_EQ(allocations, 0);
  EXPECT_EQ(ok, 300);
}

}  // namespace
}  // namespace fabrik
