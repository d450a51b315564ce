// cpu_skin.h - skinning a loaded character on the CPU: linear blend (LBS) or dual quaternion
// (DQS) skinning of every vertex, the reference a GPU pass is checked against.
//
// The algorithms are src/skin's (BlendLinear and BlendDualQuat in skinning.h): one copy each.
// Input: a pose in model space (pose.h). Output: model-space positions and unit normals, one
// per Model::vertices. Every function checks the sizes it is given and returns false, writing
// nothing, when they do not match the model; none allocates.
#pragma once

#include <glm/vec3.hpp>
#include <span>

#include "character/model.h"
#include "skin/dual_quat.h"

namespace fabrik::character {

enum class SkinMethod { kLinear, kDualQuat };

// Each bone's skinning transform, pose[b] * inverse_bind[b], as a unit dual quaternion.
bool SkinningTransforms(const Skeleton& skeleton, std::span<const BoneTransform> pose,
                        std::span<DualQuat> out);

// Skins every vertex with the transforms from SkinningTransforms.
bool SkinVertices(std::span<const Vertex> vertices, std::span<const DualQuat> transforms,
                  SkinMethod method, std::span<glm::vec3> positions, std::span<glm::vec3> normals);

}  // namespace fabrik::character
