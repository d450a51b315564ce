// The line helpers every solver of src/ik shares (line_pose.h): laying a chain straight, the
// on-the-line test and the bend off the line, through the accessors that let a chain, a tree
// and one lane of the batch use one copy.
#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <limits>
#include <random>
#include <vector>

#include "fabrik_test_util.h"
#include "ik/fabrik.h"
#include "ik/line_pose.h"
#include "ik/vec_util.h"

namespace fabrik {
namespace {

using testing::BitwiseEqual;
using testing::DistanceD;
using testing::RandomChain;
using testing::RandomUnit;
using testing::StraightChain;

// The joints held coordinate by coordinate, as a lane of the batch holds them: LayStraight
// through accessors puts them bitwise where StraightenTowards puts a Chain's.
TEST(LinePose, LayStraightThroughAccessorsMatchesStraightenTowards) {
  std::mt19937 rng(5);
  for (int c = 0; c < 200; ++c) {
    const std::vector<float> lengths = testing::RandomLengths(rng, 2 + c % 30, 0.1f, 3.0f);
    Chain chain = RandomChain(rng, RandomUnit(rng) * 10.0f, lengths);
    const glm::vec3 target = chain.root() + RandomUnit(rng) * chain.total_length() * 2.0f;
    const std::vector<float> len(chain.lengths().begin(), chain.lengths().end());
    std::array<std::vector<float>, 3> soa;
    for (const glm::vec3& p : chain.joints()) {
      for (int k = 0; k < 3; ++k) soa[k].push_back(p[k]);
    }
    StraightenTowards(chain, target);
    LayStraight(
        len.size() + 1, [&](std::size_t i) { return glm::vec3(soa[0][i], soa[1][i], soa[2][i]); },
        [&](std::size_t i, const glm::vec3& v) {
          for (int k = 0; k < 3; ++k) soa[k][i] = v[k];
        },
        [&](std::size_t i) { return len[i]; }, target);
    for (std::size_t i = 0; i < chain.joint_count(); ++i) {
      const glm::vec3 got(soa[0][i], soa[1][i], soa[2][i]);
      ASSERT_TRUE(BitwiseEqual(got, chain.joints()[i])) << "chain " << c << " joint " << i;
    }
    // And the pose is straight towards the target with its lengths kept.
    const glm::vec3 axis = glm::normalize(target - chain.root());
    EXPECT_TRUE(JointsOnLine(chain.joints(), axis, 1e-5f * chain.total_length())) << "chain " << c;
    EXPECT_TRUE(testing::LengthsKeptToRounding(chain, 1e-5)) << "chain " << c;
  }
}

TEST(LinePose, JointsOnLineWithinItsBoundOnly) {
  const Chain straight = StraightChain(6, 1.0f, glm::vec3(0, 0, 1), glm::vec3(1, 2, 3));
  const glm::vec3 axis(0, 0, 1);
  EXPECT_TRUE(JointsOnLine(straight.joints(), axis, 1e-6f));
  EXPECT_FALSE(JointsOnLine(straight.joints(), glm::vec3(1, 0, 0), 1e-6f));
  std::vector<glm::vec3> joints(straight.joints().begin(), straight.joints().end());
  joints[3].x += 0.01f;  // one joint 0.01 off the line
  EXPECT_FALSE(JointsOnLine(joints, axis, 0.009f));
  EXPECT_TRUE(JointsOnLine(joints, axis, 0.011f));
  joints[3].x = std::numeric_limits<float>::quiet_NaN();
  EXPECT_FALSE(JointsOnLine(joints, axis, 1e30f)) << "a NaN is never on the line";
}

// A straight chain bent off its line: root and lengths kept, every joint after the root off the
// line on `side`'s side, and the chain no longer on the line.
TEST(LinePose, BendChainOffLineLeavesTheLineKeepingLengths) {
  for (std::size_t joints : {2u, 3u, 10u, 100u}) {
    Chain chain = StraightChain(joints, 0.5f, glm::vec3(1, 0, 0), glm::vec3(0, 0, 2));
    const glm::vec3 axis(1, 0, 0), side = AnyPerpendicular(axis);
    const glm::vec3 root = chain.root();
    BendChainOffLine(chain.pose_for_solver(), chain.lengths(), axis, side, 0.2f);
    EXPECT_TRUE(BitwiseEqual(chain.root(), root));
    EXPECT_TRUE(testing::LengthsKeptToRounding(chain, 1e-5)) << joints << " joints";
    for (std::size_t i = 1; i < joints; ++i) {
      EXPECT_GT(glm::dot(chain.joints()[i] - root, side), 0.0f) << "joint " << i;
    }
    EXPECT_FALSE(JointsOnLine(chain.joints(), axis, 1e-3f)) << joints << " joints";
  }
}

// The same bend over parents of a tree (a fork at node 1): every node keeps its distance to
// its own parent.
TEST(LinePose, BendOffLineFollowsTreeParents) {
  const std::array<std::size_t, 5> parent = {0, 0, 1, 1, 3};
  const std::array<float, 5> length = {0.0f, 1.0f, 2.0f, 0.5f, 1.5f};
  std::vector<glm::vec3> p(5, glm::vec3(0.0f));
  for (std::size_t i = 1; i < p.size(); ++i) p[i] = p[parent[i]] + glm::vec3(0, length[i], 0);
  const glm::vec3 axis(0, 1, 0), side = AnyPerpendicular(axis);
  BendOffLine(
      std::span<glm::vec3>(p), [&](std::size_t i) { return parent[i]; },
      [&](std::size_t i) { return length[i]; }, [](std::size_t) { return 0.2f; }, axis, side);
  for (std::size_t i = 1; i < p.size(); ++i) {
    EXPECT_NEAR(DistanceD(p[i], p[parent[i]]), length[i], 1e-5 * length[i]) << "node " << i;
  }
  EXPECT_FALSE(JointsOnLine(p, axis, 1e-3f));
}

// The once-per-solve escape of CCD and the Jacobian solvers: bends a chain on the line, then
// reports it stuck if it is back on the line, and leaves a chain off the line alone.
TEST(LinePose, EscapeLineOnceBendsOnceOnly) {
  Chain chain = StraightChain(5, 1.0f, glm::vec3(0, 1, 0));
  const glm::vec3 axis(0, 1, 0);
  bool bent = false;
  EXPECT_EQ(EscapeLineOnce(chain, axis, 1e-4f, bent), LineEscape::kBent);
  EXPECT_TRUE(bent);
  EXPECT_TRUE(testing::LengthsKeptToRounding(chain, 1e-5));
  const std::vector<glm::vec3> off(chain.joints().begin(), chain.joints().end());
  EXPECT_EQ(EscapeLineOnce(chain, axis, 1e-4f, bent), LineEscape::kOffLine);
  EXPECT_TRUE(BitwiseEqual(chain.joints(), off));
  Chain again = StraightChain(5, 1.0f, glm::vec3(0, 1, 0));
  EXPECT_EQ(EscapeLineOnce(again, axis, 1e-4f, bent), LineEscape::kStuck);
}

// The double unit vector aim, stiffness and the turn limit share (vec_util.h): the fallback
// for a vector not longer than the bound, for zero and for one that is not finite.
TEST(LinePose, UnitDFallsBackBelowItsBound) {
  const glm::dvec3 fallback(0.0, 0.0, 1.0);
  EXPECT_EQ(UnitD(glm::dvec3(3.0, 4.0, 0.0), fallback), glm::dvec3(0.6, 0.8, 0.0));
  EXPECT_EQ(UnitD(glm::dvec3(0.0), fallback), fallback);
  EXPECT_EQ(UnitD(glm::dvec3(1e-13, 0.0, 0.0), fallback), glm::dvec3(1.0, 0.0, 0.0));
  EXPECT_EQ(UnitD(glm::dvec3(1e-13, 0.0, 0.0), fallback, 1e-12), fallback);
  EXPECT_EQ(UnitD(glm::dvec3(std::numeric_limits<double>::infinity(), 0.0, 0.0), fallback),
            fallback);
}

}  // namespace
}  // namespace fabrik
