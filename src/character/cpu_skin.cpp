// cpu_skin.cpp - CPU skinning of a loaded character (cpu_skin.h).
#include "character/cpu_skin.h"

#include "skin/skinning.h"

namespace fabrik::character {

bool SkinningTransforms(const Skeleton& skeleton, std::span<const BoneTransform> pose,
                        std::span<DualQuat> out) {
  const auto n = static_cast<std::size_t>(skeleton.bone_count());
  if (pose.size() != n || out.size() != n) return false;
  for (std::size_t b = 0; b < n; ++b) {
    const BoneTransform t = pose[b] * skeleton.inverse_bind[b];
    out[b] = DualQuat::FromRotationTranslation(t.rotation, t.translation);
  }
  return true;
}

bool SkinVertices(std::span<const Vertex> vertices, std::span<const DualQuat> transforms,
                  SkinMethod method, std::span<glm::vec3> positions, std::span<glm::vec3> normals) {
  if (positions.size() != vertices.size() || normals.size() != vertices.size()) return false;
  for (const Vertex& v : vertices) {
    for (int i = 0; i < kMaxInfluences; ++i) {
      if (v.bones[i] < 0 || static_cast<std::size_t>(v.bones[i]) >= transforms.size()) {
        return false;
      }
    }
  }
  for (std::size_t i = 0; i < vertices.size(); ++i) {
    const Vertex& v = vertices[i];
    const float w[kMaxInfluences] = {v.weights.x, v.weights.y, v.weights.z, v.weights.w};
    const Influences influences{v.bones, w};
    const SkinnedPoint p = method == SkinMethod::kDualQuat
                               ? BlendDualQuat(v.position, v.normal, influences, transforms)
                               : BlendLinear(v.position, v.normal, influences, transforms);
    positions[i] = p.position;
    normals[i] = p.normal;
  }
  return true;
}

}  // namespace fabrik::character
