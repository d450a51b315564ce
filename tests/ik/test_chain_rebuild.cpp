// Rebuilding a chain with new lengths keeps the root and the kept segments' directions.
#include <cmath>
#include <vector>

#include <glm/geometric.hpp>
#include <gtest/gtest.h>

#include "ik/chain_rebuild.h"

namespace fabrik {
namespace {

Chain Bent() {
  auto chain = Chain::FromJoints({{1, 2, 3}, {1, 3, 3}, {2, 3, 3}, {2, 3, 5}});
  EXPECT_TRUE(chain.ok());
  return chain.value();
}

TEST(ChainRebuild, MoreJointsKeepRootAndDirectionsAndExtendStraight) {
  const Chain old = Bent();
  const std::vector<float> lengths = {0.5f, 2.0f, 1.0f, 1.5f, 0.25f};
  auto rebuilt = RebuildChain(old, lengths);
  ASSERT_TRUE(rebuilt.ok()) << rebuilt.error();
  const Chain& c = rebuilt.value();
  ASSERT_EQ(c.joint_count(), 6u);
  EXPECT_EQ(c.root(), old.root());
  for (std::size_t i = 0; i < lengths.size(); ++i) {
    EXPECT_NEAR(c.lengths()[i], lengths[i], 1e-5f);
    const glm::vec3 dir = glm::normalize(c.joints()[i + 1] - c.joints()[i]);
    const std::size_t src = std::min<std::size_t>(i, old.segment_count() - 1);
    const glm::vec3 old_dir = glm::normalize(old.joints()[src + 1] - old.joints()[src]);
    EXPECT_GT(glm::dot(dir, old_dir), 0.99999f) << "segment " << i;
  }
}

TEST(ChainRebuild, FewerJointsKeepThePrefixPose) {
  const Chain old = Bent();
  const std::vector<float> lengths = {1.0f};
  auto rebuilt = RebuildChain(old, lengths);
  ASSERT_TRUE(rebuilt.ok());
  EXPECT_EQ(rebuilt.value().joint_count(), 2u);
  EXPECT_EQ(rebuilt.value().joints()[1], old.joints()[1]);
}

TEST(ChainRebuild, RejectsBadLengths) {
  const Chain old = Bent();
  for (float bad : {0.0f, -1.0f, NAN, INFINITY}) {
    const std::vector<float> lengths = {1.0f, bad};
    EXPECT_FALSE(RebuildChain(old, lengths).ok()) << bad;
  }
  EXPECT_FALSE(RebuildChain(old, std::span<const float>()).ok());
}

}  // namespace
}  // namespace fabrik
