// dual_quat.h - unit dual quaternions for rigid bone transforms, and their skinning blend.
//
// Kavan, Collins, Zara & O'Sullivan, "Skinning with Dual Quaternions", I3D 2007 (and "Geometric
// Skinning with Approximate Dual Quaternion Blending", ACM TOG 27(4), 2008): a rigid transform
// (rotation q, translation t) is the unit dual quaternion real = q, dual = 1/2 (0, t) q.
// Blending several with weights and normalising (dual quaternion linear blending, DLB) gives a
// rigid transform again, so a skinned joint bends without the volume loss ("candy wrapper")
// of blending matrices linearly.
//
// Conventions: glm::quat, world space; a transform maps p to q p q^-1 + t. The GPU packs a
// bone as two vec4 (real.xyzw, dual.xyzw) - see shaders/skin.vert, which repeats Transform.
#pragma once

#include <span>

#include <glm/gtc/quaternion.hpp>
#include <glm/vec3.hpp>

namespace fabrik {

struct DualQuat {
  glm::quat real{1.0f, 0.0f, 0.0f, 0.0f};
  glm::quat dual{0.0f, 0.0f, 0.0f, 0.0f};

  // The rigid transform "rotate by unit `rotation`, then translate by `translation`".
  static DualQuat FromRotationTranslation(const glm::quat& rotation, const glm::vec3& translation);
  // The translation part (2 dual real^*).
  glm::vec3 Translation() const;
  // Applies the transform to a point (a unit dual quaternion is assumed; Blend returns one).
  glm::vec3 TransformPoint(const glm::vec3& p) const;
  // Applies the rotation part to a direction.
  glm::vec3 TransformVector(const glm::vec3& v) const;
};

// DLB: the weighted sum of `bones` (each flipped to the hemisphere of the first, since q and -q
// are the same rotation but would cancel in a sum), normalised. `weights` pairs with `bones`;
// they need not sum to 1 but must not all be 0 (then the identity comes back).
DualQuat Blend(std::span<const DualQuat> bones, std::span<const float> weights);

}  // namespace fabrik
