// aim.h - look-at: turn the chain's last segments so that an axis fixed in the effector's frame
// points at a point (as ozz-animation's IKAimJob does for one joint, spread over the last k
// joints with weights, as a head and neck share a look).
//
// The effector's frame is the last bone's rotation as ChainRotations (rotations.h) computes it
// from the pose alone (no previous rotations): +Y along the last segment. The aim ray starts at
// the effector joint and runs along rotation * axis; it should pass through `at`.
// Method: passes over the last k joints (pivots joint_count() - 1 - k .. joint_count() - 2,
// nearest the root first). At each pivot the part of the chain beyond it turns rigidly about
// the pivot. The turn that aims the axis exactly from that pivot is found in closed form (the
// effector's frame follows rotations.h's parallel transport, and a turn chosen by the smallest
// rotation from the pivot's parent bone carries that frame rigidly, see aim.cpp); a pivot
// takes weight_i / (sum of the weights from i on) of it, measured as a turn of its bone's
// direction, and the last pivot with a positive weight takes all of what is left. Turning
// moves the effector and so the line to `at`: passes repeat until the axis is within 1e-4 rad
// of it or max_passes ran; a pass that does not lower the error is undone and retried once
// with the last turning pivot alone, then the solve ends, so the aim never gets worse. Joints
// before the first pivot, and the root, never move; every length is kept to float rounding.
// Achievable: with k >= 2, any axis, when `at` is far enough from the turning joints that
// moving them does not swing the line to it round as fast (points farther than the turning
// part's length are). With k = 1 the one pivot's bone can only take the smallest rotation from
// its parent bone, so an axis across the bone may need the bone folded (nearly) straight back
// onto its parent, where that rotation - and the frame - is ambiguous; k = 1 is dependable for
// an axis along the bone (+Y). The old search's local minimum - a straight chain turning a
// sideways axis with k = 2, ~69 degrees off - is gone: the twist the smallest rotations add is
// part of the closed form. A pass that does not lower the error is undone (`reached` false,
// the angle reported). Tested on 300 random chains of 3-8 joints with points 3-10 chain lengths
// away (random axes for k >= 2, +Y for k = 1) and on straight chains turning sideways axes
// with k = 2-4: all end within 0.5 degrees. `reached` reports whether the result is within 0.5
// degrees, measured from the pose.
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
  // Turns the part beyond pivot j by `share` (0..1] of the turn that aims exactly from j.
  void TurnPivot(std::span<glm::vec3> p, std::size_t j, const glm::vec3& axis, const glm::vec3& at,
                 double share);
  std::vector<glm::quat> rotations_;
  std::vector<glm::vec3> tail_;  // the turning part, to undo a pass that made the aim worse
};

}  // namespace fabrik
