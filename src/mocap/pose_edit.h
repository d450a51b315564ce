// pose_edit.h - rigid edits of a world-space Pose (clip_sample.h), the moves IK makes.
//
// Every edit turns a whole subtree (joints [j, clip.subtree_end(j)) ) about a pivot, so every
// bone length of the pose is kept exactly up to float rounding. No allocation.
#pragma once

#include <glm/gtc/quaternion.hpp>
#include <glm/vec3.hpp>

#include "mocap/clip_sample.h"

namespace fabrik::mocap {

// The shortest rotation taking direction `from` to direction `to` (any lengths > 0);
// identity when either is (near) zero; a half turn about some perpendicular when they are
// opposite.
glm::quat ShortestArc(const glm::vec3& from, const glm::vec3& to);

// Turns joints [first, end) by `q` about `pivot`: positions p -> pivot + q (p - pivot),
// rotations r -> q r.
void RotateJoints(Pose& pose, int first, int end, const glm::quat& q, const glm::vec3& pivot);

// `q` scaled to `fraction` of its angle (0: identity, 1: q), along the shorter arc.
glm::quat ScaleRotation(const glm::quat& q, float fraction);

// `q` limited to at most `max_angle` radians (same axis).
glm::quat LimitRotation(const glm::quat& q, float max_angle);

// `from` turned towards `to` by at most `most` radians; exactly `to` once within reach (so a
// paused clip settles instead of changing in its last bits every frame).
glm::quat TurnTowards(const glm::quat& from, const glm::quat& to, float most);

}  // namespace fabrik::mocap
