// joint_axes.h - small RGB frames at the joints, as animators expect: each bone's local X
// (red), Y (green, along the bone) and Z (blue), drawn from the bone's start joint. Plain data
// for Renderer::DrawLines (no GL here).
#pragma once

#include <span>
#include <vector>

#include <glm/gtc/quaternion.hpp>
#include <glm/vec3.hpp>

#include "render/renderer.h"

namespace fabrik {

// Appends three line segments (six vertices) per bone: from joints[i] along rotations[i]'s
// X, Y, Z axes, each `size` world units long. Uses min(rotations.size(), joints.size()) bones.
void AppendJointAxes(std::vector<LineVertex>& out, std::span<const glm::vec3> joints,
                     std::span<const glm::quat> rotations, float size);

}  // namespace fabrik
