// kdl_chain.h - the chains of the race against Orocos KDL (bench/bench_peers.cpp), built for
// KDL, and forward kinematics that trust no solver.
//
// The race compares FABRIK (src/ik) with KDL's Jacobian solvers on the same chains. FABRIK
// moves joint positions; KDL moves joint angles. The two describe one chain like this
// (all lengths in world units, angles in radians, right-handed, the root at the origin):
//   * FABRIK: Chain::Straight(origin, +Y, lengths): joint i at (0, l_0 + ... + l_(i-1), 0).
//   * kBall: every FABRIK joint but the effector is a ball joint with no limit. In KDL that is
//     a spherical joint made of three revolute joints about the local Z, X and Y axes (in that
//     order, zero length between them), then the bone: a rigid offset of l_i along the local
//     +Y. 3 x lengths.size() KDL joints.
//   * kHinge: a planar chain, every joint a hinge about +Z with no limit (FABRIK: a world
//     hinge about +Z). In KDL one revolute joint about the local Z, then the bone along the
//     local +Y. lengths.size() KDL joints. Every local Z is the world Z, so the chain stays in
//     the XY plane.
// At zero angles the KDL chain is the straight FABRIK chain along +Y: KDL's cold start and
// FABRIK's are the same pose.
#pragma once

#include <cstddef>
#include <glm/vec3.hpp>
#include <kdl/chain.hpp>
#include <kdl/chainfksolverpos_recursive.hpp>
#include <kdl/frames.hpp>
#include <kdl/jntarray.hpp>
#include <span>
#include <vector>

namespace fabrik::peers {

enum class JointKind { kBall, kHinge };

// KDL revolute joints per FABRIK joint: 3 for a ball, 1 for a hinge.
int RevolutesPerJoint(JointKind kind);

// The KDL chain described above. `lengths` (each finite and > 0) are the bones, root first.
// KDL numbers segments in order; bone i ends at segment (i + 1) x RevolutesPerJoint(kind) - 1.
KDL::Chain MakeKdlChain(JointKind kind, std::span<const double> lengths);

// Independent forward kinematics of that chain, in double, without KDL: the rotations written
// out as matrices here. Returns the world positions of the root and of every bone's tip
// (lengths.size() + 1 points; the last is the effector) for joint angles `q` (exactly
// RevolutesPerJoint(kind) x lengths.size() of them, in KDL's joint order).
std::vector<glm::dvec3> JointPositionsFromAngles(JointKind kind, std::span<const double> lengths,
                                                 std::span<const double> q);

// The effector of a FABRIK pose (world points, root first) rebuilt from its directions and the
// chain's nominal `lengths`: root + sum of lengths[i] x unit(pose[i + 1] - pose[i]), in double.
// A solver that stretched or shrank a segment is therefore caught (its effector lands
// elsewhere). pose.size() must be lengths.size() + 1.
glm::dvec3 EffectorFromPose(std::span<const glm::vec3> pose, std::span<const double> lengths);

// The largest |z| of any joint of `pose`: how far a planar (kHinge) chain left its plane.
double MaxOffPlane(std::span<const glm::vec3> pose);

// A forward position solver for KDL's ChainIkSolverPos_NR_JL that reports the chain's tip
// position with the identity rotation, and counts its calls.
// Why: NR_JL stops only when the whole twist between the reported frame and the goal is within
// eps (rotation included), so with a position-only task it would never stop early. Every goal
// of the race has the identity rotation, so the rotational part of the twist is zero and the
// stop test becomes the position test alone (per axis: |dx|, |dy|, |dz| < eps). NR_JL calls the
// solver once per iteration (plus once more when it stops before its cap), which gives the
// iteration count NR_JL does not expose. The chain must outlive the solver.
class PositionOnlyFk : public KDL::ChainFkSolverPos {
 public:
  explicit PositionOnlyFk(const KDL::Chain& chain) : fk_(chain) {}

  int JntToCart(const KDL::JntArray& q, KDL::Frame& out, int segment = -1) override;
  // Per-segment frames, positions only (rotations set to the identity) like the above.
  int JntToCart(const KDL::JntArray& q, std::vector<KDL::Frame>& out, int segment = -1) override;
  void updateInternalDataStructures() override { fk_.updateInternalDataStructures(); }

  long calls() const { return calls_; }
  void reset_calls() { calls_ = 0; }

 private:
  KDL::ChainFkSolverPos_recursive fk_;
  long calls_ = 0;
};

}  // namespace fabrik::peers
