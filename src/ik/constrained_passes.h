// constrained_passes.h - FABRIK's two passes with joint limits (Aristidou & Lasenby 2011,
// section 4) and the rest pose, shared by the constrained solver (constrained_fabrik.cpp) and
// the oriented solver (orientation_target.cpp); their per-segment steps and the
// stall-then-retry also serve the trees (tree.cpp). Internal to src/ik.
//
// All functions work in place on `p` (joint positions, world space, at least 2 joints) with
// `len` the segment lengths (len.size() == p.size() - 1) and `cs` already validated
// (ValidateChainConstraints); `base` is MakeFrame(cs.base). Every segment keeps its length.
#pragma once

#include <algorithm>
#include <cstddef>
#include <glm/geometric.hpp>
#include <glm/vec3.hpp>
#include <span>

#include "constraints.h"

namespace fabrik {

// A joint whose limit does not depend on where its parent segment points: the root joint
// (measured against the fixed base frame) and world hinges. Both passes apply such a limit
// directly to the joint's own segment.
bool IsFixedLimit(std::size_t joint, const JointConstraint& c);

// Backward pass: the effector onto `target`, then each joint towards the root, each segment
// limited by its child's constraint seen from the child (mirrored) and by its own when that is
// fixed (IsFixedLimit; not for the root segment, whose backward placement the forward pass
// discards). With `last_direction` (a unit vector) the last segment is not reached but set:
// joint n-2 one length back from the target along it, unlimited.
void ConstrainedBackwardPass(std::span<glm::vec3> p, std::span<const float> len,
                             const ChainConstraints& cs, const Frame& base, const glm::vec3& target,
                             const glm::vec3* last_direction = nullptr);

// Forward pass: the root back to `root`, then each segment moved into its limit relative to the
// frame carried from the base (the limits then hold exactly). With `last_direction` (a unit
// vector) the last segment aims along it before its limit is applied. Returns how many
// directions had to be moved (by more than about 1e-4 rad) into their limits.
int ConstrainedForwardPass(std::span<glm::vec3> p, std::span<const float> len,
                           const ChainConstraints& cs, const Frame& base, const glm::vec3& root,
                           const glm::vec3* last_direction = nullptr);

// The rest pose from `root`: every segment straight on from its parent (the first along the
// base axis), moved into its limit. Always inside the limits.
void ConstrainedRestPose(std::span<glm::vec3> p, std::span<const float> len,
                         const ChainConstraints& cs, const Frame& base, const glm::vec3& root);

// ---- One segment's step, for chains (the passes below) and trees (tree.cpp) alike. A
// segment is named by the node it starts from, `start` (joint k for a chain's segment k, the
// parent for a tree's).

// Forward: direction `d` moved into the segment's own limit `c`, in its parent segment's frame
// `parent`; counts in `active` a direction that had to move by more than about 1e-4 rad.
inline glm::vec3 ForwardLimit(const JointConstraint& c, const Frame& parent, const glm::vec3& d,
                              int& active) {
  if (!IsConstrained(c)) return d;
  const glm::vec3 limited = ConstrainDirection(c, parent, d);
  if (glm::dot(limited, d) < 1.0f - 5e-9f) ++active;
  return limited;
}

// Backward: direction `d` of a segment, limited by the constraint `child` of its child
// segment (starting at `child_start`) seen from that child (MirroredConstraint, in the child
// segment's frame `child_frame`); a fixed limit (IsFixedLimit) is left to the child's own step.
inline glm::vec3 MirroredLimit(const JointConstraint& child, std::size_t child_start,
                               const Frame& child_frame, const glm::vec3& d) {
  if (!IsConstrained(child) || IsFixedLimit(child_start, child)) return d;
  return ConstrainDirection(MirroredConstraint(child), child_frame, d);
}

// Backward: direction `d` moved into the segment's own limit `own` when that limit is fixed
// (IsFixedLimit; measured in the base frame `base`).
inline glm::vec3 FixedLimit(const JointConstraint& own, std::size_t start, const Frame& base,
                            const glm::vec3& d) {
  return IsFixedLimit(start, own) ? ConstrainDirection(own, base, d) : d;
}

// Rest pose: straight on from the parent segment (frame `parent`), moved into limit `c`.
inline glm::vec3 RestDirection(const JointConstraint& c, const Frame& parent) {
  return IsConstrained(c) ? ConstrainDirection(c, parent, parent.forward) : parent.forward;
}

// ---- Iterating with limits, for chains (constrained_fabrik.cpp) and trees (tree.cpp).

// One run of iterations from a pose.
struct PassAttempt {
  bool stalled = false;  // stopped for lack of progress, not reached
  int active = 0;        // directions the last forward pass had to move into their limits
};

// No more progress: the effector moved (`moved`) less than a thousandth of its remaining
// `distance`, or than float noise (`noise`); converging solves move it by a fair fraction of
// that distance.
inline bool NoProgress(float moved, float distance, float noise) {
  return moved <= std::max(noise, 1e-3f * distance);
}

// Limits make local minima: a chain can wrap itself the wrong way round and stall short of a
// target it could reach. Runs iterate(1) (iterate(first) runs iterations first ..
// max_iterations, updating `iterations`); when that stalled, `may_retry` holds and iterations
// are left, keeps the pose in `kept` (at least pose.size()), calls restart() (the rest pose)
// and iterates once more, keeping whichever pose misses less (miss(): a double, lower is
// closer).
template <class Iterate, class Miss, class Restart>
PassAttempt IterateWithRestart(std::span<glm::vec3> pose, std::span<glm::vec3> kept, bool may_retry,
                               const int& iterations, int max_iterations, Iterate&& iterate,
                               Miss&& miss, Restart&& restart) {
  const PassAttempt first = iterate(1);
  if (!may_retry || !first.stalled || iterations >= max_iterations) return first;
  std::copy(pose.begin(), pose.end(), kept.begin());
  const double kept_miss = miss();
  restart();
  const PassAttempt second = iterate(iterations + 1);
  if (miss() < kept_miss) return second;
  std::copy(kept.begin(), kept.begin() + static_cast<std::ptrdiff_t>(pose.size()), pose.begin());
  return first;
}

}  // namespace fabrik
