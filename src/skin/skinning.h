// skinning.h - bones to skinning transforms, and a CPU reference of the GPU skinning.
//
// A bone's skinning transform takes a rest-pose point (tube_mesh.h) to world space: rotate by
// the bone's world rotation about its rest origin, then move that origin onto the bone's
// current start joint:  world = R_i (p - rest_i) + joint_i.  As a dual quaternion: rotation
// R_i, translation joint_i - R_i rest_i. The rotations are rotations.h's (one per segment,
// +Y onto the segment), so a rest vertex at height s_i + x on the bone axis lands x along the
// segment from joint i.
#pragma once

#include <cstddef>
#include <cstdint>
#include <glm/gtc/quaternion.hpp>
#include <glm/vec3.hpp>
#include <span>

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

// The most influences one vertex may have in BlendDualQuat and BlendLinear.
inline constexpr std::size_t kMaxSkinInfluences = 4;

// One vertex's influences: bone indices into the transforms, with their weights (summing to 1;
// a weight of 0 may pad). At most kMaxSkinInfluences are read; every index must be valid.
struct Influences {
  std::span<const std::int32_t> bones;
  std::span<const float> weights;  // same size as bones
};

// Dual quaternion skinning of a rest-pose point and unit normal (Blend, dual_quat.h): the one
// copy of the algorithm, for the tube (SkinDualQuat) and for loaded characters
// (src/character/cpu_skin.h). The normal comes back unit.
SkinnedPoint BlendDualQuat(const glm::vec3& position, const glm::vec3& normal,
                           const Influences& influences, std::span<const DualQuat> transforms);
// Linear blend skinning: the weighted sum of the transformed point (and normal, made unit
// again; the rest normal when the sum vanishes). The one copy, as above.
SkinnedPoint BlendLinear(const glm::vec3& position, const glm::vec3& normal,
                         const Influences& influences, std::span<const DualQuat> transforms);

// Dual quaternion skinning of one vertex (the reference for the shader).
SkinnedPoint SkinDualQuat(const SkinVertex& v, std::span<const DualQuat> bones);
// Linear blend skinning of one vertex, for comparison (volume loss under twist).
SkinnedPoint SkinLinear(const SkinVertex& v, std::span<const DualQuat> bones);

}  // namespace fabrik
