// model.cpp - BoneTransform arithmetic and Skeleton::Find (model.h).
#include "character/model.h"

namespace fabrik::character {

BoneTransform operator*(const BoneTransform& a, const BoneTransform& b) {
  return {glm::normalize(a.rotation * b.rotation), a.translation + a.rotation * b.translation};
}

BoneTransform Inverse(const BoneTransform& t) {
  const glm::quat r = glm::conjugate(t.rotation);
  return {r, -(r * t.translation)};
}

glm::vec3 Apply(const BoneTransform& t, const glm::vec3& p) {
  return t.rotation * p + t.translation;
}

int Skeleton::Find(std::string_view name) const {
  for (std::size_t i = 0; i < names.size(); ++i) {
    if (names[i] == name) return static_cast<int>(i);
  }
  return -1;
}

}  // namespace fabrik::character
