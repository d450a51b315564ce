// line_pose.h - a chain and a line through its root, written once for every solver of src/ik:
// lay the chain straight along the line (an out-of-reach target), tell whether every joint is
// on it (the straight-chain trap of FABRIK, the zero-gradient line of CCD and the Jacobian
// solvers) and bend a chain off it. Internal to src/ik (not installed).
//
// The functions take the joints through small accessors, so that a chain (a span of joints),
// a tree (parents of its own) and one lane of the batched solver (batch_block.h) run the same
// float and double operations in the same order: the batch stays bitwise equal to SolveFabrik.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <glm/geometric.hpp>
#include <glm/vec3.hpp>
#include <span>

#include "ik/chain.h"
#include "ik/fabrik.h"
#include "ik/vec_util.h"

namespace fabrik {

// Lays the joints 1 .. n-1 straight from joints(0) towards `target`: joint(i) reads a joint,
// set(i, v) writes one, length(i) is segment i's length (joint i to i+1). The direction is
// computed in double (target - root can overflow in float); a target on the root keeps the
// root -> effector direction (+Y when that is zero too). Each joint is aimed in double at its
// exact point of the line (NextJointOnLine), so lengths take one rounding and the chain does
// not drift off the line.
template <class Joint, class SetJoint, class Length>
void LayStraight(std::size_t n, Joint&& joint, SetJoint&& set, Length&& length,
                 const glm::vec3& target) {
  const glm::vec3 root = joint(0);
  const glm::vec3 current = SafeNormalize(joint(n - 1) - root, glm::vec3(0.0f, 1.0f, 0.0f));
  const glm::dvec3 to_target = glm::dvec3(target) - glm::dvec3(root);
  const double distance = glm::length(to_target);
  const glm::vec3 dir = distance > 0.0 ? glm::vec3(to_target / distance) : current;
  const glm::dvec3 root_d(root);
  const glm::dvec3 dir_d(dir);
  double along = 0.0;
  glm::vec3 previous = root;
  for (std::size_t i = 1; i < n; ++i) {
    along += length(i - 1);
    previous = NextJointOnLine(root_d, dir_d, along, previous, length(i - 1));
    set(i, previous);
  }
}

// True when every joint joint(1 .. n-1) lies within sqrt(eps_sq) of the line through joint(0)
// along the unit `axis` (a NaN counts as off the line). Stops at the first joint off it, so a
// bent chain costs one or two cross products.
template <class Joint>
bool AllOnLine(std::size_t n, Joint&& joint, const glm::vec3& axis, float eps_sq) {
  const glm::vec3 root = joint(0);
  for (std::size_t i = 1; i < n; ++i) {
    const glm::vec3 off = glm::cross(joint(i) - root, axis);
    if (!(glm::dot(off, off) <= eps_sq)) return false;
  }
  return true;
}

// AllOnLine for a span of joints, within `eps` (world units).
inline bool JointsOnLine(std::span<const glm::vec3> joints, const glm::vec3& axis, float eps) {
  return AllOnLine(
      joints.size(), [&](std::size_t i) { return joints[i]; }, axis, eps * eps);
}

// Bends joints lying on a line through p[0] along the unit `axis` towards `side` (a unit vector
// perpendicular to it), keeping every length: node i (1 .. p.size()-1, each after its parent)
// is placed from its parent parent(i) at length(i), its direction (from the moved parent to its
// old place) turned by angle(i) radians towards `side`. A chain turns segment k by k times a
// small step (ChainBendAngle); a tree turns every segment by the same angle, so deeper nodes
// bend further.
template <class Parent, class Length, class Angle>
void BendOffLine(std::span<glm::vec3> p, Parent&& parent, Length&& length, Angle&& angle,
                 const glm::vec3& axis, const glm::vec3& side) {
  for (std::size_t i = 1; i < p.size(); ++i) {
    const std::size_t par = parent(i);
    const glm::vec3 along = SafeNormalize(p[i] - p[par], axis);
    const float a = angle(i);
    const glm::vec3 dir = SafeNormalize(along * std::cos(a) + side * std::sin(a), along);
    p[i] = p[par] + dir * length(i);
  }
}

// BendOffLine for a chain of `len.size()` segments: segment k (from the root, counting from 1)
// turns by k x step, step at most `max_step` and at most a quarter turn for the last segment,
// so the chain becomes a shallow arc.
inline void BendChainOffLine(std::span<glm::vec3> p, std::span<const float> len,
                             const glm::vec3& axis, const glm::vec3& side, float max_step) {
  const float step = std::min(max_step, 1.5707964f / static_cast<float>(len.size()));
  BendOffLine(
      p, [](std::size_t i) { return i - 1; }, [&](std::size_t i) { return len[i - 1]; },
      [&](std::size_t i) { return step * static_cast<float>(i); }, axis, side);
}

// For the solvers that escape the line through the target by bending (CCD, the Jacobian
// solvers; solver.cpp): bends `chain` off the line through its root along `axis` (need not be
// unit; if zero, the root->effector direction is used) towards AnyPerpendicular of it, as
// BendChainOffLine with steps of at most 0.1 rad. Deterministic.
void BendOffLine(Chain& chain, const glm::vec3& axis);

// The escape from the line through the target, at most once per solve. When every joint lies
// within `eps` of the line through the root along unit `axis` (JointsOnLine), bends the chain
// off it (BendOffLine) and sets `bent` if `bent` was false (returns kBent), else leaves the
// chain alone (kStuck: on the line even after a bend, nothing better to find). kOffLine,
// changing nothing, when the chain is not on the line.
enum class LineEscape { kOffLine, kBent, kStuck };
LineEscape EscapeLineOnce(Chain& chain, const glm::vec3& axis, float eps, bool& bent);

}  // namespace fabrik
