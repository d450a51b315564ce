// kdl_chain.cpp - see kdl_chain.h.
#include "peers/kdl_chain.h"

#include <algorithm>
#include <cmath>
#include <glm/geometric.hpp>
#include <glm/mat3x3.hpp>
#include <kdl/joint.hpp>
#include <kdl/segment.hpp>

namespace fabrik::peers {
namespace {

// Rotation matrices about the coordinate axes (column-major glm; a positive angle turns
// anticlockwise looking down the axis, as KDL's RotX/RotY/RotZ joints do).
glm::dmat3 RotX(double a) {
  const double c = std::cos(a), s = std::sin(a);
  return glm::dmat3(1, 0, 0, 0, c, s, 0, -s, c);
}
glm::dmat3 RotY(double a) {
  const double c = std::cos(a), s = std::sin(a);
  return glm::dmat3(c, 0, -s, 0, 1, 0, s, 0, c);
}
glm::dmat3 RotZ(double a) {
  const double c = std::cos(a), s = std::sin(a);
  return glm::dmat3(c, s, 0, -s, c, 0, 0, 0, 1);
}

}  // namespace

int RevolutesPerJoint(JointKind kind) { return kind == JointKind::kBall ? 3 : 1; }

KDL::Chain MakeKdlChain(JointKind kind, std::span<const double> lengths) {
  KDL::Chain chain;
  for (const double l : lengths) {
    const KDL::Frame bone(KDL::Vector(0.0, l, 0.0));
    if (kind == JointKind::kBall) {
      // Z, then X, then Y: any rotation is some Z-X-Y product, so the three make a spherical
      // joint; at zero angles the Jacobian's three axes are independent (its gimbal lock is
      // at X = +-90 degrees, away from the cold start).
      chain.addSegment(KDL::Segment(KDL::Joint(KDL::Joint::RotZ), KDL::Frame::Identity()));
      chain.addSegment(KDL::Segment(KDL::Joint(KDL::Joint::RotX), KDL::Frame::Identity()));
      chain.addSegment(KDL::Segment(KDL::Joint(KDL::Joint::RotY), bone));
    } else {
      chain.addSegment(KDL::Segment(KDL::Joint(KDL::Joint::RotZ), bone));
    }
  }
  return chain;
}

std::vector<glm::dvec3> JointPositionsFromAngles(JointKind kind, std::span<const double> lengths,
                                                 std::span<const double> q) {
  std::vector<glm::dvec3> points{glm::dvec3(0.0)};
  glm::dmat3 frame(1.0);
  std::size_t k = 0;
  for (const double l : lengths) {
    if (kind == JointKind::kBall) {
      frame = frame * RotZ(q[k]) * RotX(q[k + 1]) * RotY(q[k + 2]);
      k += 3;
    } else {
      frame = frame * RotZ(q[k++]);
    }
    points.push_back(points.back() + frame * glm::dvec3(0.0, l, 0.0));
  }
  return points;
}

glm::dvec3 EffectorFromPose(std::span<const glm::vec3> pose, std::span<const double> lengths) {
  glm::dvec3 p(pose[0]);
  for (std::size_t i = 0; i < lengths.size(); ++i) {
    const glm::dvec3 d = glm::dvec3(pose[i + 1]) - glm::dvec3(pose[i]);
    const double n = glm::length(d);
    // A collapsed segment has no direction: the pose is broken, and the effector is put where
    // no target can be.
    if (!(n > 0.0) || !std::isfinite(n)) return glm::dvec3(std::nan(""));
    p += d * (lengths[i] / n);
  }
  return p;
}

double MaxOffPlane(std::span<const glm::vec3> pose) {
  double worst = 0.0;
  for (const glm::vec3& p : pose) worst = std::max(worst, std::abs(double(p.z)));
  return worst;
}

int PositionOnlyFk::JntToCart(const KDL::JntArray& q, KDL::Frame& out, int segment) {
  ++calls_;
  const int status = fk_.JntToCart(q, out, segment);
  out.M = KDL::Rotation::Identity();
  return status;
}

int PositionOnlyFk::JntToCart(const KDL::JntArray& q, std::vector<KDL::Frame>& out, int segment) {
  ++calls_;
  const int status = fk_.JntToCart(q, out, segment);
  for (KDL::Frame& f : out) f.M = KDL::Rotation::Identity();
  return status;
}

}  // namespace fabrik::peers
