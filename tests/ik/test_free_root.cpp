// PullChain (ik/free_root.h): the free root's rope pull, and LayChainFlat for the 2D view.
#include <gtest/gtest.h>

#include <cmath>
#include <glm/geometric.hpp>
#include <random>
#include <vector>

#include "fabrik_test_util.h"
#include "ik/free_root.h"

namespace fabrik {
namespace {

using testing::AllFinite;

std::vector<float> SegmentLengths(const Chain& chain) {
  std::vector<float> out;
  const auto p = chain.joints();
  for (std::size_t i = 0; i + 1 < p.size(); ++i) out.push_back(glm::distance(p[i], p[i + 1]));
  return out;
}

void ExpectLengthsKept(const Chain& chain) {
  const std::vector<float> measured = SegmentLengths(chain);
  for (std::size_t i = 0; i < measured.size(); ++i) {
    EXPECT_NEAR(measured[i], chain.lengths()[i], 1e-4f * chain.lengths()[i]) << "segment " << i;
  }
}

TEST(FreeRoot, HeadLandsOnTargetAndLengthsAreKept) {
  std::mt19937 rng(11);
  std::uniform_real_distribution<float> u(-1.0f, 1.0f);
  for (int trial = 0; trial < 200; ++trial) {
    std::vector<float> lengths(2 + trial % 30);
    for (float& l : lengths) l = 0.2f + std::fabs(u(rng)) * 2.0f;
    Chain chain = testing::RandomChain(rng, glm::vec3(0.0f), lengths);
    // Targets far beyond the chain's reach too: the root follows, so every one is reached.
    const glm::vec3 target(u(rng) * 50.0f, u(rng) * 50.0f, u(rng) * 50.0f);
    const SolveResult r = PullChain(chain, target);
    ASSERT_TRUE(r.ok);
    EXPECT_EQ(chain.effector(), target);
    EXPECT_TRUE(r.reached);
    EXPECT_TRUE(r.reachable);
    EXPECT_EQ(r.iterations, 1);
    EXPECT_TRUE(AllFinite(chain.joints()));
    ExpectLengthsKept(chain);
  }
}

TEST(FreeRoot, TheRootFollowsLikeARope) {
  // A straight chain up +Y pulled sideways far away: every joint ends on the line from the
  // target back to where it was, so the chain lies straight behind its head.
  const std::vector<float> lengths(4, 1.0f);
  Chain chain = Chain::Straight(glm::vec3(0.0f), glm::vec3(0, 1, 0), lengths).value();
  const glm::vec3 target(100.0f, 2.0f, 0.0f);
  ASSERT_TRUE(PullChain(chain, target).ok);
  EXPECT_GT(chain.root().x, 90.0f);  // the root came along
  EXPECT_NEAR(glm::distance(chain.root(), target), 4.0f, 1e-3f);
  // A small pull moves the root little: the rope is dragged, not teleported.
  Chain still = Chain::Straight(glm::vec3(0.0f), glm::vec3(0, 1, 0), lengths).value();
  ASSERT_TRUE(PullChain(still, glm::vec3(0.0f, 4.1f, 0.0f)).ok);
  EXPECT_NEAR(still.root().y, 0.1f, 1e-5f);
  EXPECT_NEAR(still.root().x, 0.0f, 1e-6f);
}

TEST(FreeRoot, CoincidentJointsGetADirectionNotNaN) {
  // The target on the head's parent: that reach has no direction of its own.
  const std::vector<float> lengths = {1.0f, 1.0f, 1.0f};
  Chain chain = Chain::Straight(glm::vec3(0.0f), glm::vec3(0, 1, 0), lengths).value();
  const glm::vec3 on_parent = chain.joints()[2];
  ASSERT_TRUE(PullChain(chain, on_parent).ok);
  EXPECT_TRUE(AllFinite(chain.joints()));
  EXPECT_EQ(chain.effector(), on_parent);
  ExpectLengthsKept(chain);
}

TEST(FreeRoot, BadTargetsChangeNothing) {
  const std::vector<float> lengths = {1.0f, 1.0f};
  Chain chain = Chain::Straight(glm::vec3(0.0f), glm::vec3(0, 1, 0), lengths).value();
  const std::vector<glm::vec3> before(chain.joints().begin(), chain.joints().end());
  for (const glm::vec3& bad :
       {glm::vec3(NAN, 0, 0), glm::vec3(0, INFINITY, 0), glm::vec3(0, 0, 3e38f)}) {
    const SolveResult r = PullChain(chain, bad);
    EXPECT_FALSE(r.ok);
    EXPECT_NE(r.error, nullptr);
    EXPECT_TRUE(std::equal(before.begin(), before.end(), chain.joints().begin()));
  }
}

TEST(FreeRoot, LayFlatPutsEveryJointOnZeroKeepingLengths) {
  std::mt19937 rng(3);
  std::uniform_real_distribution<float> u(-1.0f, 1.0f);
  for (int trial = 0; trial < 100; ++trial) {
    std::vector<float> lengths(2 + trial % 20);
    for (float& l : lengths) l = 0.3f + std::fabs(u(rng));
    Chain chain = testing::RandomChain(rng, glm::vec3(u(rng), u(rng), u(rng)), lengths);
    LayChainFlat(chain);
    for (const glm::vec3& p : chain.joints()) EXPECT_EQ(p.z, 0.0f);
    EXPECT_TRUE(AllFinite(chain.joints()));
    ExpectLengthsKept(chain);
  }
  // A segment along Z (seen end-on from the 2D camera) gets a direction too.
  const std::vector<float> lengths = {1.0f, 2.0f};
  Chain along_z = Chain::Straight(glm::vec3(0.0f), glm::vec3(0, 0, 1), lengths).value();
  LayChainFlat(along_z);
  EXPECT_TRUE(AllFinite(along_z.joints()));
  ExpectLengthsKept(along_z);
  // A flat chain does not move at all.
  Chain flat = Chain::Straight(glm::vec3(1, 2, 0), glm::vec3(1, 1, 0), lengths).value();
  const std::vector<glm::vec3> before(flat.joints().begin(), flat.joints().end());
  LayChainFlat(flat);
  EXPECT_TRUE(std::equal(before.begin(), before.end(), flat.joints().begin()));
}

}  // namespace
}  // namespace fabrik
