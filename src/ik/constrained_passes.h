// constrained_passes.h - FABRIK's two passes with joint limits (Aristidou & Lasenby 2011,
// section 4) and the rest pose, shared by the constrained solver (constrained_fabrik.cpp) and
// the oriented solver (orientation_target.cpp). Internal to src/ik.
//
// All functions work in place on `p` (joint positions, world space, at least 2 joints) with
// `len` the segment lengths (len.size() == p.size() - 1) and `cs` already validated
// (ValidateChainConstraints); `base` is MakeFrame(cs.base). Every segment keeps its length.
#pragma once

#include <cstddef>
#include <span>

#include <glm/vec3.hpp>

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

}  // namespace fabrik
