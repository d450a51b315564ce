#include "skin/skinning.h"

#include <glm/geometric.hpp>

namespace fabrik {

bool SkinBones(const SkinMesh& mesh, std::span<const glm::quat> rotations,
               std::span<const glm::vec3> joints, std::span<DualQuat> out) {
  const std::size_t n = mesh.bone_count();
  if (rotations.size() != n || out.size() != n || joints.size() < n) return false;
  for (std::size_t i = 0; i < n; ++i) {
    const glm::quat r = glm::normalize(rotations[i]);
    out[i] = DualQuat::FromRotationTranslation(r, joints[i] - r * mesh.rest_origins[i]);
  }
  return true;
}

SkinnedPoint SkinDualQuat(const SkinVertex& v, std::span<const DualQuat> bones) {
  const DualQuat pair[2] = {bones[static_cast<std::size_t>(v.bones[0])],
                            bones[static_cast<std::size_t>(v.bones[1])]};
  const float w[2] = {v.weights.x, v.weights.y};
  const DualQuat b = Blend(pair, w);
  return {b.TransformPoint(v.position), glm::normalize(b.TransformVector(v.normal))};
}

SkinnedPoint SkinLinear(const SkinVertex& v, std::span<const DualQuat> bones) {
  SkinnedPoint out{glm::vec3(0.0f), glm::vec3(0.0f)};
  for (int i = 0; i < 2; ++i) {
    const DualQuat& b = bones[static_cast<std::size_t>(v.bones[i])];
    out.position += v.weights[i] * b.TransformPoint(v.position);
    out.normal += v.weights[i] * b.TransformVector(v.normal);
  }
  const float len = glm::length(out.normal);
  out.normal = len > 1e-12f ? out.normal / len : v.normal;
  return out;
}

}  // namespace fabrik
