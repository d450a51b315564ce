// The race against Orocos KDL (bench/bench_peers.cpp) is fair only if KDL solves the same
// chain FABRIK does: these tests hold the KDL chains of bench/peers/kdl_chain.h against the
// FABRIK chains, and the race's own forward kinematics against KDL's.
#include <gtest/gtest.h>

#include <cmath>
#include <glm/geometric.hpp>
#include <kdl/chainfksolverpos_recursive.hpp>
#include <random>
#include <vector>

#include "ik/chain.h"
#include "peers/kdl_chain.h"

namespace {

using fabrik::peers::JointKind;

const std::vector<double> kLengths = {1.0, 0.5, 2.0, 0.75, 1.25, 1.0};

fabrik::Chain FabrikChain() {
  const std::vector<float> lengths(kLengths.begin(), kLengths.end());
  return std::move(fabrik::Chain::Straight(glm::vec3(0.0f), glm::vec3(0, 1, 0), lengths)).value();
}

// Tip of bone i as KDL's own recursive forward kinematics places it.
glm::dvec3 KdlBoneTip(const KDL::Chain& chain, JointKind kind, const KDL::JntArray& q, int bone) {
  KDL::ChainFkSolverPos_recursive fk(chain);
  KDL::Frame f;
  const int segment = (bone + 1) * fabrik::peers::RevolutesPerJoint(kind);  // segments counted
  EXPECT_GE(fk.JntToCart(q, f, segment), 0);
  return glm::dvec3(f.p.x(), f.p.y(), f.p.z());
}

KDL::JntArray RandomAngles(unsigned n, std::mt19937& rng) {
  std::uniform_real_distribution<double> angle(-3.14159, 3.14159);
  KDL::JntArray q(n);
  for (unsigned i = 0; i < n; ++i) q(i) = angle(rng);
  return q;
}

class KdlChainTest : public ::testing::TestWithParam<JointKind> {};

TEST_P(KdlChainTest, JointCountMatchesTheJointKind) {
  const KDL::Chain chain = fabrik::peers::MakeKdlChain(GetParam(), kLengths);
  EXPECT_EQ(chain.getNrOfJoints(), kLengths.size() * fabrik::peers::RevolutesPerJoint(GetParam()));
}

TEST_P(KdlChainTest, ZeroAnglesGiveTheStraightFabrikChain) {
  const KDL::Chain chain = fabrik::peers::MakeKdlChain(GetParam(), kLengths);
  const fabrik::Chain straight = FabrikChain();
  const KDL::JntArray q(chain.getNrOfJoints());  // zeros
  for (int bone = 0; bone < static_cast<int>(kLengths.size()); ++bone) {
    const glm::dvec3 tip = KdlBoneTip(chain, GetParam(), q, bone);
    const glm::dvec3 expected(straight.joints()[bone + 1]);
    EXPECT_NEAR(glm::length(tip - expected), 0.0, 1e-6) << "bone " << bone;
  }
}

TEST_P(KdlChainTest, RandomAnglesKeepEverySegmentLength) {
  const KDL::Chain chain = fabrik::peers::MakeKdlChain(GetParam(), kLengths);
  std::mt19937 rng(7);
  for (int trial = 0; trial < 50; ++trial) {
    const KDL::JntArray q = RandomAngles(chain.getNrOfJoints(), rng);
    glm::dvec3 previous(0.0);
    for (int bone = 0; bone < static_cast<int>(kLengths.size()); ++bone) {
      const glm::dvec3 tip = KdlBoneTip(chain, GetParam(), q, bone);
      EXPECT_NEAR(glm::length(tip - previous), kLengths[bone], 1e-9)
          << "trial " << trial << ", bone " << bone;
      previous = tip;
    }
  }
}

// The race checks KDL's answers with JointPositionsFromAngles, not with KDL: it must agree with
// KDL's own forward kinematics for any angles, or the success shares would be wrong.
TEST_P(KdlChainTest, IndependentForwardKinematicsAgreesWithKdl) {
  const KDL::Chain chain = fabrik::peers::MakeKdlChain(GetParam(), kLengths);
  std::mt19937 rng(11);
  for (int trial = 0; trial < 50; ++trial) {
    const KDL::JntArray q = RandomAngles(chain.getNrOfJoints(), rng);
    const std::vector<double> angles(q.data.data(), q.data.data() + q.rows());
    const std::vector<glm::dvec3> points =
        fabrik::peers::JointPositionsFromAngles(GetParam(), kLengths, angles);
    ASSERT_EQ(points.size(), kLengths.size() + 1);
    EXPECT_EQ(points[0], glm::dvec3(0.0));
    for (int bone = 0; bone < static_cast<int>(kLengths.size()); ++bone) {
      const glm::dvec3 tip = KdlBoneTip(chain, GetParam(), q, bone);
      EXPECT_NEAR(glm::length(points[bone + 1] - tip), 0.0, 1e-9)
          << "trial " << trial << ", bone " << bone;
    }
  }
}

// A rotation at one joint moves the chain: the forward kinematics cannot be a stub that ignores
// the angles.
TEST_P(KdlChainTest, EveryJointAngleMovesTheEffector) {
  const KDL::Chain chain = fabrik::peers::MakeKdlChain(GetParam(), kLengths);
  const unsigned n = chain.getNrOfJoints();
  const std::vector<double> zero(n, 0.0);
  const glm::dvec3 rest =
      fabrik::peers::JointPositionsFromAngles(GetParam(), kLengths, zero).back();
  for (unsigned j = 0; j < n; ++j) {
    // A ball's third joint turns its own bone about itself: from the straight pose it moves
    // nothing until a later joint bends, so it is tested with the next ball bent.
    std::vector<double> q(n, 0.0);
    const bool twist = GetParam() == JointKind::kBall && j % 3 == 2;
    if (twist && j + 1 >= n) continue;  // the last twist never moves the effector
    if (twist) q[j + 2] = 0.5;          // the next ball's X joint
    const glm::dvec3 before =
        twist ? fabrik::peers::JointPositionsFromAngles(GetParam(), kLengths, q).back() : rest;
    q[j] += 0.3;
    const glm::dvec3 after =
        fabrik::peers::JointPositionsFromAngles(GetParam(), kLengths, q).back();
    EXPECT_GT(glm::length(after - before), 1e-3) << "joint " << j;
  }
}

TEST(KdlHingeChain, StaysInItsPlane) {
  const KDL::Chain chain = fabrik::peers::MakeKdlChain(JointKind::kHinge, kLengths);
  std::mt19937 rng(3);
  for (int trial = 0; trial < 20; ++trial) {
    const KDL::JntArray q = RandomAngles(chain.getNrOfJoints(), rng);
    const glm::dvec3 tip = KdlBoneTip(chain, JointKind::kHinge, q, int(kLengths.size()) - 1);
    EXPECT_NEAR(tip.z, 0.0, 1e-12);
  }
}

TEST(EffectorFromPose, UsesTheNominalLengths) {
  const fabrik::Chain straight = FabrikChain();
  const glm::dvec3 effector = fabrik::peers::EffectorFromPose(straight.joints(), kLengths);
  EXPECT_NEAR(glm::length(effector - glm::dvec3(straight.effector())), 0.0, 1e-6);
  // A pose whose first segment was stretched to twice its length: the rebuilt effector ends
  // where the nominal length puts it, one length short of the stretched pose's effector.
  std::vector<glm::vec3> stretched(straight.joints().begin(), straight.joints().end());
  for (std::size_t i = 1; i < stretched.size(); ++i) stretched[i].y += float(kLengths[0]);
  const glm::dvec3 rebuilt = fabrik::peers::EffectorFromPose(stretched, kLengths);
  EXPECT_NEAR(rebuilt.y, double(stretched.back().y) - kLengths[0], 1e-5);
  // A collapsed segment gives no effector at all.
  stretched[2] = stretched[1];
  EXPECT_TRUE(std::isnan(fabrik::peers::EffectorFromPose(stretched, kLengths).x));
}

TEST(PositionOnlyFk, ReportsThePositionWithTheIdentityRotationAndCountsCalls) {
  const KDL::Chain chain = fabrik::peers::MakeKdlChain(JointKind::kBall, kLengths);
  fabrik::peers::PositionOnlyFk position_only(chain);
  KDL::ChainFkSolverPos_recursive full(chain);
  std::mt19937 rng(5);
  const KDL::JntArray q = RandomAngles(chain.getNrOfJoints(), rng);
  KDL::Frame a, b;
  ASSERT_GE(position_only.JntToCart(q, a), 0);
  ASSERT_GE(full.JntToCart(q, b), 0);
  EXPECT_NEAR((a.p - b.p).Norm(), 0.0, 1e-12);
  EXPECT_TRUE(KDL::Equal(a.M, KDL::Rotation::Identity(), 1e-15));
  EXPECT_FALSE(KDL::Equal(b.M, KDL::Rotation::Identity(), 1e-3));  // the chain is turned
  std::vector<KDL::Frame> frames(chain.getNrOfSegments());
  ASSERT_GE(position_only.JntToCart(q, frames), 0);
  EXPECT_NEAR((frames.back().p - b.p).Norm(), 0.0, 1e-12);
  EXPECT_EQ(position_only.calls(), 2);
  position_only.reset_calls();
  EXPECT_EQ(position_only.calls(), 0);
}

INSTANTIATE_TEST_SUITE_P(Kinds, KdlChainTest,
                         ::testing::Values(JointKind::kBall, JointKind::kHinge),
                         [](const auto& info) {
                           return info.param == JointKind::kBall ? "Ball" : "Hinge";
                         });

}  // namespace
