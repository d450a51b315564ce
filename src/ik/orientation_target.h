// orientation_target.h - reaching a position with a given end-effector rotation.
//
// The effector's frame is the last bone's frame (rotations.h): +Y along the last segment,
// from joint n-2 to the effector. An oriented target asks for the effector at `position`
// with its frame equal to `rotation`.
//
// Method (FABRIK on a sub-chain). For a bone of length L to end at p with +Y along
// d = rotation * (0, 1, 0), its start must be at p - d L. So the solve runs ordinary FABRIK
// (fabrik.h, or constrained_fabrik.h with the constraints of the first n-2 joints) on the
// chain without its last bone, towards that sub-target, then places the effector at
// joint n-2 + d L. When the sub-chain reaches its sub-target within tolerance, the effector
// is within tolerance of p and its direction is exactly d. The roll about d is free for a
// ball joint (a segment's direction does not fix its twist), so the effector's frame takes
// the target's roll: EffectorTwist(rotation, d) (rotations.h), which equals `rotation` when
// the direction matches.
// With limits the last joint's limit must be met by the bones before it, so instead of a
// sub-chain solve the whole chain runs FABRIK passes with limits (as constrained_fabrik.h)
// in which the backward pass sets the last segment (effector on p, joint n-2 at p - d L) rather
// than reaching it, and the forward pass aims the last segment along d before moving it into
// its limit; a stalled solve is retried once from the rest pose. A hinge at joint n-2 fixes the
// effector's roll (the frame ChainRotations gives it).
// Priorities, when both cannot be met:
//   * sub-target out of the sub-chain's reach (total_length - L from the root, plus the
//     tolerance) but the position within reach - or, with limits, the oriented passes not
//     reaching it while a plain constrained solve does: the position wins - a plain position
//     solve of the whole chain; the direction is whatever that gives (orientation_met false).
//   * position out of reach: the chain is laid straight towards it (as every solver does).
//   * a 2-joint chain has no sub-chain: plain position solve.
// Guarantees: those of the underlying solver (root fixed, lengths kept, finite, limits held);
// with a reachable sub-target and no limits in the way the effector direction is within
// float rounding of d. No heap allocation inside Solve once warm: the solver keeps a copy of
// the chain without its last bone, built by the first unconstrained solve whose sub-target is
// reachable and rebuilt when the joint count or lengths change, and scratch sized to the
// longest chain seen.
// Failure: a non-finite position, a rotation that is non-finite or zero, or bad settings or
// constraints give ok = false with a static message, and the chain is untouched.
#pragma once

#include <optional>
#include <vector>

#include <glm/gtc/quaternion.hpp>
#include <glm/vec3.hpp>

#include "chain.h"
#include "constraints.h"
#include "solve_types.h"

namespace fabrik {

// Euler angles, the console's `target X Y Z YAW PITCH ROLL` (docs/rotations.md: Orientation
// target): yaw about +Y, pitch about +X, roll about +Z, in radians, composed as
//   R = Ry(yaw) * Rx(pitch) * Rz(roll)
// i.e. applied to a vector roll first, then pitch, then yaw, all about the fixed world axes
// (equivalently yaw, then pitch about the yawed X, then roll about the resulting Z). All zero
// is the identity: the effector bone pointing straight up (+Y). Same as glm::eulerAngleYXZ.
// Non-finite angles give the identity.
glm::quat EulerToQuat(float yaw, float pitch, float roll);
// The same from degrees, for the console.
glm::quat EulerDegreesToQuat(float yaw_deg, float pitch_deg, float roll_deg);
// Inverse of EulerToQuat: (yaw, pitch, roll) in radians with pitch in [-pi/2, pi/2]; at
// pitch = +-pi/2 (gimbal lock) roll is 0 and yaw takes the whole turn about the vertical.
glm::vec3 QuatToEuler(const glm::quat& q);

struct OrientedTarget {
  glm::vec3 position{0.0f};                    // world space, finite
  glm::quat rotation{1.0f, 0.0f, 0.0f, 0.0f};  // world space; normalised here; non-zero
};

struct OrientedSolveResult {
  // ok, error, iterations, distance (effector to position), reached, reachable (position):
  // as SolveResult documents. With limits, the constrained solver's extra figures are below.
  SolveResult base;
  bool limited = false;
  float max_violation = 0.0f;
  // The angle (radians) between the last bone's direction and rotation * (0, 1, 0).
  float direction_error = 0.0f;
  // The effector's frame: EffectorTwist(rotation, last direction), or for a hinge at joint
  // n-2 the hinge-fixed frame as ChainRotations computes it.
  glm::quat effector_rotation{1.0f, 0.0f, 0.0f, 0.0f};
  // RotationAngle(effector_rotation, rotation): what remains, radians in [0, pi].
  float remaining_angle = 0.0f;
  // Reached, and remaining_angle within 2 degrees.
  bool orientation_met = false;
};

class OrientedSolver {
 public:
  // Solves `chain` towards `target`; with `constraints` (valid, as for
  // SolveFabrikConstrained) the limits are kept. See the header comment.
  [[nodiscard]] OrientedSolveResult Solve(Chain& chain, const OrientedTarget& target,
                                          const SolveSettings& settings,
                                          const ChainConstraints* constraints = nullptr);

 private:
  bool PrepareSubChain(const Chain& chain);
  std::optional<Chain> sub_;
  std::vector<float> sub_lengths_;
  std::vector<glm::vec3> pose_;  // sized to the whole chain: sub-chain poses and retries
  std::vector<glm::quat> rotations_;
};

}  // namespace fabrik
