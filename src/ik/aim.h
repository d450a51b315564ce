// aim.h - look-at: turn the chain's last segments so that an axis fixed in the effector's frame
// points at a point (as ozz-animation's IKAimJob does for one joint, spread over the last k
// joints with weights, as a head and neck share a look).
//
// The effector's frame is the last bone's rotation as ChainRotations (rotations.h) computes it
// from the pose alone (no previous rotations): +Y along the last segment. The aim ray starts at
// the effector joint and runs along rotation * axis; it should pass through `at`.
// Method: passes over the last k joints (pivots joint_count() - 1 - k .. joint_count() - 2,
// nearest the root first). At each pivot the part of the chain beyond it turns rigidly about
// the pivot, by weight_i / (sum of the weights from i on) of the rotation that would now turn the
// aim axis onto the direction from the effector to `at`, so the last pivot takes what is left.
// Turning moves the effector, so passes repeat until the axis is within 1e-4 rad of that
// direction or max_passes ran. Joints before the first pivot, and the root, never move; every
// length is kept to float rounding.
// Achievable: a single joint (k = 1) turns its bone but cannot choose the bone's twist, which
// rotations.h sets by parallel transport from the parent, so with k = 1 only an axis along the
// bone (+Y) can be aimed anywhere; k >= 2 can aim any axis. `at` must be far enough from the
// turning joints that they can face it. Each turn is kept only when the measured error shrank
// (else retried at half the angle), so the aim never gets worse, but the search can stall in a
// local minimum where the transported twist works against the turn (a straight chain turning a
// sideways axis with k = 2 is one). Tested on 300 random chains of 3-8 joints with points 3-10
// chain lengths away: at least 297 end within 0.5 degrees. `reached` reports whether the
// result is within 0.5 degrees, measured from the pose.
// Failure (ok = false, static message, chain untouched): axis zero or not finite, `at` not
// finite, joints outside 1..segment_count(), weights neither empty nor `joints` finite values
// >= 0 with a positive sum, max_passes < 1. No heap allocation once warm (the solver keeps its
// rotation buffer, sized to the longest chain seen).
#pragma once

#include <glm/gtc/quaternion.hpp>
#include <glm/vec3.hpp>
#include <span>
#include <vector>

#include "chain.h"

namespace fabrik {

struct AimTarget {
  glm::vec3 axis{0.0f, 1.0f, 0.0f};  // in the effector's frame; normalised here; non-zero
  glm::vec3 at{0.0f};                // world point
  int joints = 1;                    // k: how many of the last joints share the turn
  std::span<const float> weights;    // k weights, nearest the root first; empty: all equal
  int max_passes = 100;
};

struct AimResult {
  bool ok = true;
  const char* error = nullptr;  // static text when !ok
  float angle = 0.0f;           // radians between the aim axis and the effector -> at direction
  bool reached = false;         // angle <= 0.5 degrees
  int passes = 0;
};

class AimSolver {
 public:
  [[nodiscard]] AimResult Solve(Chain& chain, const AimTarget& target);

 private:
  float AxisError(std::span<const glm::vec3> joints, const glm::vec3& axis, const glm::vec3& at,
                  glm::vec3* world_axis);
  std::vector<glm::quat> rotations_;
  std::vector<glm::vec3> tail_;  // the turning part, to undo a turn that made the aim worse
};

}  // namespace fabrik
