// rotations.h - bone rotations rebuilt from joint positions: what a skinned mesh needs.
//
// FABRIK moves points; a rig turns bones. This file turns a solved pose into one world-space
// rotation per segment (bone), rebuilt from the positions on every call, so nothing drifts:
//
// Conventions (docs/rotations.md).
//   * Every bone's rest axis is +Y: rotation i turns (0, 1, 0) onto the unit direction of
//     segment i (joint i -> joint i+1, or parent -> node in a tree) to float rounding (1e-5).
//   * World space, right-handed, +Y up. A bone's local X and Z are its frame's side axes; for a
//     constraint Frame (constraints.h) local (X, Y, Z) = (right, forward, -up), so the default
//     BaseFrame (forward +Y, up -Z) is the identity rotation.
//   * Quaternions are glm::quat (constructor order w, x, y, z); the state line and JSON write
//     them as [w, x, y, z], unit length, w of either sign (q and -q are the same rotation).
//
// Twist. A direction fixes a bone's rotation up to a twist about the bone. The twist is chosen
//   along the chain: the parent's rotation carried by the smallest rotation that turns the
//     parent's direction onto the bone's (parallel transport; for the first bone the parent is
//     the base frame), so neighbouring bones twist as little as possible - this is the
//     "spatial" candidate S;
//   over time, when the previous call's rotations are given: the bone's previous rotation
//     carried by the smallest rotation from its previous direction onto its new one - the
//     "temporal" candidate P, which never flips whatever axis the bone passes (-Y included).
//   The result is P turned about the bone towards S by at most a budget: the summed direction
//   change (radians) of the bone's ancestors since the previous call, plus settings.settle.
//   So, guaranteed (to float rounding): between two calls, bone i's rotation turns by at most
//   (direction change of bone i and of every bone between it and the root) + settle. Bones
//   that move with their parents follow parallel transport at once; a twist left behind
//   (a bend through a half turn, where parallel transport itself jumps) relaxes back at
//   `settle` radians per call. Without previous rotations (the first call, or a bone whose
//   previous rotation is missing, non-finite or not unit, or whose direction reversed within
//   1.4e-3 rad of a half turn in one step) the bone takes S.
// Fold-back: a bone bent within 1.4e-3 rad of straight back onto its parent has no smallest
//   rotation from it; S then turns half a turn about the parent's local X, and with a
//   previous rotation the bone just keeps P (no correction), so it never spins.
// Constrained chains and trees: the base rotation is the BaseFrame's; a hinge bone's
//   rotation is fixed by its hinge, not chosen: it keeps the hinge axis (world, or carried
//   from the parent as the constrained solver carries it) on a fixed bone-local axis - the
//   axis's parent-local (x, y) part as bone-local (x, -z), or bone X if that is zero - so a
//   hinge turns its bone about its axis only. A pose off its hinge plane (rounding) is handled
//   by taking the axis's part perpendicular to the bone. Ball joints twist as above.
// Input: joint positions should be finite with no zero-length segment (a Chain or Tree
//   guarantees both); a zero or non-finite segment direction is replaced by its parent's
//   direction, so the output is always finite unit quaternions. Sizes are checked: a wrong
//   `out` size returns false with `out` untouched. No heap allocation, except that a
//   RotationTracker sizes its two buffers in its first two calls after the bone count changes
//   and TreeRotations sizes its scratch when the node count changes (tested).
#pragma once

#include <cstddef>
#include <span>
#include <vector>

#include <glm/gtc/quaternion.hpp>
#include <glm/vec3.hpp>

#include "constraints.h"

namespace fabrik {

class Tree;

struct RotationSettings {
  // Radians per call by which a bone's twist may relax towards parallel transport even when
  // nothing above it moved. Finite, >= 0 (negative or NaN counts as 0).
  float settle = 0.002f;
  // Optional: the end effector's wanted rotation (orientation target). When set, the last
  // bone of a chain takes the twist of this rotation (EffectorTwist below) instead of its
  // own, unless that bone is a hinge. Not used by TreeRotations.
  const glm::quat* effector_target = nullptr;
};

// Rotation of the constraint Frame `f` (local X, Y, Z = right, forward, -up).
glm::quat FrameRotation(const Frame& f);

// The smallest rotation turning unit `from` onto unit `to`. Within 1e-6 of opposite (1 +
// dot below 1e-6), half a turn about `half_turn_axis` (unit, perpendicular to `from`).
glm::quat MinimalRotation(const glm::vec3& from, const glm::vec3& to,
                          const glm::vec3& half_turn_axis);

// The rotation whose +Y is unit `direction` and which is nearest `target` (swing-twist: the
// target carried by the smallest rotation from its own +Y onto `direction`). Used to give the
// effector bone the target's roll.
glm::quat EffectorTwist(const glm::quat& target, const glm::vec3& direction);

// Angle of the rotation a^-1 b, radians in [0, pi]: how far apart two rotations are.
float RotationAngle(const glm::quat& a, const glm::quat& b);

// An unconstrained chain: `joints` root first (>= 2), `previous` empty or joints.size() - 1
// rotations from the previous call, `out` joints.size() - 1. The base is the identity (+Y).
bool ChainRotations(std::span<const glm::vec3> joints, std::span<const glm::quat> previous,
                    std::span<glm::quat> out, const RotationSettings& settings = {});

// A constrained chain: as above, with the BaseFrame and hinges of `constraints` (assumed valid,
// see ValidateChainConstraints; entries beyond the segments are ignored).
bool ChainRotations(std::span<const glm::vec3> joints, const ChainConstraints& constraints,
                    std::span<const glm::quat> previous, std::span<glm::quat> out,
                    const RotationSettings& settings = {});

// Per-node working space for TreeRotations, kept by the caller between calls.
struct RotationScratch {
  std::vector<Frame> frames;        // constraint frame of each node's incoming segment
  std::vector<glm::quat> rotation;  // rotation of each node's incoming segment (root: base)
  std::vector<float> budget;        // summed direction change from the root to the node
};

// A tree: out[k] is the rotation of the segment into node k + 1 (node_count() - 1 entries;
// `previous` empty or the same size). Bones with several children share their rotation as
// every children's parent frame; the tree's BaseFrame and hinges are used as for chains.
bool TreeRotations(const Tree& tree, std::span<const glm::quat> previous, std::span<glm::quat> out,
                   RotationScratch& scratch, const RotationSettings& settings = {});

// Keeps the previous call's rotations for temporal continuity: one per animated chain or tree.
// The bone count may change between calls (a rebuilt chain): the tracker then starts afresh.
class RotationTracker {
 public:
  // Each returns the new rotations (valid until the next call) and remembers them.
  std::span<const glm::quat> Update(std::span<const glm::vec3> joints,
                                    const RotationSettings& settings = {});
  std::span<const glm::quat> Update(std::span<const glm::vec3> joints,
                                    const ChainConstraints& constraints,
                                    const RotationSettings& settings = {});
  std::span<const glm::quat> Update(const Tree& tree, const RotationSettings& settings = {});
  // Forgets the previous rotations (e.g. after a scene change): the next call is spatial only.
  void Reset();
  std::span<const glm::quat> rotations() const { return current_; }

 private:
  bool Prepare(std::size_t bones);
  std::vector<glm::quat> current_;
  std::vector<glm::quat> previous_;
  RotationScratch scratch_;
};

}  // namespace fabrik
