#include "skin/skinning.h"

#include <algorithm>
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

SkinnedPoint BlendDualQuat(const glm::vec3& position, const glm::vec3& normal,
                           const Influences& influences, std::span<const DualQuat> transforms) {
  const std::size_t n =
      std::min({influences.bones.size(), influences.weights.size(), kMaxSkinInfluences});
  // Influences of weight 0 (padding) add nothing and are left out.
  DualQuat picked[kMaxSkinInfluences];
  float weights[kMaxSkinInfluences];
  std::size_t used = 0;
  for (std::size_t i = 0; i < n; ++i) {
    if (influences.weights[i] == 0.0f) continue;
    picked[used] = transforms[static_cast<std::size_t>(influences.bones[i])];
    weights[used++] = influences.weights[i];
  }
  const DualQuat b =
      Blend(std::span<const DualQuat>(picked, used), std::span<const float>(weights, used));
  return {b.TransformPoint(position), glm::normalize(b.TransformVector(normal))};
}

SkinnedPoint BlendLinear(const glm::vec3& position, const glm::vec3& normal,
                         const Influences& influences, std::span<const DualQuat> transforms) {
  const std::size_t n =
      std::min({influences.bones.size(), influences.weights.size(), kMaxSkinInfluences});
  SkinnedPoint out{glm::vec3(0.0f), glm::vec3(0.0f)};
  for (std::size_t i = 0; i < n; ++i) {
    if (influences.weights[i] == 0.0f) continue;  // padding adds nothing
    const DualQuat& b = transforms[static_cast<std::size_t>(influences.bones[i])];
    out.position += influences.weights[i] * b.TransformPoint(position);
    out.normal += influences.weights[i] * b.TransformVector(normal);
  }
  const float len = glm::length(out.normal);
  out.normal = len > 1e-12f ? out.normal / len : normal;
  return out;
}

SkinnedPoint SkinDualQuat(const SkinVertex& v, std::span<const DualQuat> bones) {
  const float w[2] = {v.weights.x, v.weights.y};
  return BlendDualQuat(v.position, v.normal, {v.bones, w}, bones);
}

SkinnedPoint SkinLinear(const SkinVertex& v, std::span<const DualQuat> bones) {
  const float w[2] = {v.weights.x, v.weights.y};
  return BlendLinear(v.position, v.normal, {v.bones, w}, bones);
}

}  // namespace fabrik
