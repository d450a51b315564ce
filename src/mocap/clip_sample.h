// clip_sample.h - a clip's pose at any time: world-space joint positions and rotations.
//
// Space: the clip's own frame (clip.h), metres. A Pose holds, per joint, the position and the
// rotation of its frame (rest pose: identity everywhere), forward kinematics of the sampled
// local channels: R_j = R_parent x r_j, p_j = p_parent + R_parent x t_j.
#pragma once

#include <glm/gtc/quaternion.hpp>
#include <glm/vec3.hpp>
#include <vector>

#include "mocap/clip.h"

namespace fabrik::mocap {

struct Pose {
  std::vector<glm::vec3> positions;
  std::vector<glm::quat> rotations;
  // Sizes both to `joints` (allocates only when growing).
  void Resize(int joints);
  int joint_count() const { return static_cast<int>(positions.size()); }
};

// The pose at `time` seconds, clamped to [0, clip.duration()]: between two frames, rotations
// are interpolated by normalised lerp along the shorter arc and translations linearly.
// `out` must have been Resize()d to clip.joint_count(); no allocation. Non-finite time
// samples frame 0.
void SampleClip(const Clip& clip, float time, Pose& out);

// The same pose moved rigidly into the world: every position p becomes turn x p + shift and
// every rotation r becomes turn x r (one pass: the move is applied at the root).
void SampleClipPlaced(const Clip& clip, float time, const glm::quat& turn, const glm::vec3& shift,
                      Pose& out);

// The root's local translation at `time` (clamped like SampleClip), without the rest.
glm::vec3 SampleRootTranslation(const Clip& clip, float time);

// The pose of frame f exactly (f clamped into the clip).
void SampleFrame(const Clip& clip, int frame, Pose& out);

// `time` wrapped into [0, clip.duration()) for looping (0 for a one-frame clip or a
// non-finite time).
float WrapClipTime(const Clip& clip, float time);

}  // namespace fabrik::mocap
