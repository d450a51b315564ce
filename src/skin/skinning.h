// skinning.h - bones to skinning transforms, and a CPU reference of the GPU skinning.
//
// A bone's skinning transform takes a rest-pose point (tube_mesh.h) to world space: rotate by
// the bone's world rotation about its rest origin, then move that origin onto the bone's
// current start joint:  world = R_i (p - rest_i) + joint_i.  As a dual quaternion: rotation
// R_i, translation joint_i - R_i rest_i. The rotations are rotations.h's (one per segment,
// +Y onto the segment), so a rest vertex at height s_i + x on the bone axis lands x along the
// segment from joint i.
#pragma once

#include <span>

#include <glm/gtc/quaternion.hpp>
#include <glm/vec3.hpp>

#include "skin/dual_quat.h"
#include "skin/tube_mesh.h"

namespace fabrik {

// out[i] for every bone: needs rotations.size() == mesh.bone_count() == out.size() and
// joints.size() >= bone_count(); otherwise returns false and leaves `out` alone.
bool SkinBones(const SkinMesh& mesh, std::span<const glm::quat> rotations,
               std::span<const glm::vec3> joints, std::span<DualQuat> out);

// A skinned vertex (position, normal), as shaders/skin.vert computes it.
struct SkinnedPoint {
  glm::vec3 position;
  glm::vec3 normal;
};

// Dual quaternion skinning of one vertex (the reference for the shader).
SkinnedPoint SkinDualQuat(const SkinVertex& v, std::span<const DualQuat> bones);
// Linear blend skinning of one vertex, for comparison (volume loss under twist).
SkinnedPoint SkinLinear(const SkinVertex& v, std::span<const DualQuat> bones);

}  // namespace fabrik
