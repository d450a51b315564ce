#include "skin/dual_quat.h"

#include <cmath>

#include <glm/geometric.hpp>

namespace fabrik {

DualQuat DualQuat::FromRotationTranslation(const glm::quat& rotation,
                                           const glm::vec3& translation) {
  DualQuat d;
  d.real = glm::normalize(rotation);
  d.dual = glm::quat(0.0f, translation.x, translation.y, translation.z) * d.real * 0.5f;
  return d;
}

glm::vec3 DualQuat::Translation() const {
  const glm::quat t = dual * glm::conjugate(real) * 2.0f;
  return {t.x, t.y, t.z};
}

glm::vec3 DualQuat::TransformPoint(const glm::vec3& p) const {
  // Kavan et al. 2008, algorithm 1: p' = p + 2 r x (r x p + w p) + 2 (w d - e r + r x d) with
  // real = (w, r) and dual = (e, d).
  const glm::vec3 r(real.x, real.y, real.z);
  const glm::vec3 d(dual.x, dual.y, dual.z);
  const float w = real.w, e = dual.w;
  return p + 2.0f * glm::cross(r, glm::cross(r, p) + w * p) +
         2.0f * (w * d - e * r + glm::cross(r, d));
}

glm::vec3 DualQuat::TransformVector(const glm::vec3& v) const {
  const glm::vec3 r(real.x, real.y, real.z);
  return v + 2.0f * glm::cross(r, glm::cross(r, v) + real.w * v);
}

DualQuat Blend(std::span<const DualQuat> bones, std::span<const float> weights) {
  DualQuat sum;
  sum.real = glm::quat(0.0f, 0.0f, 0.0f, 0.0f);
  const std::size_t n = std::min(bones.size(), weights.size());
  for (std::size_t i = 0; i < n; ++i) {
    const float sign = glm::dot(bones[i].real, bones[0].real) < 0.0f ? -1.0f : 1.0f;
    sum.real = sum.real + bones[i].real * (weights[i] * sign);
    sum.dual = sum.dual + bones[i].dual * (weights[i] * sign);
  }
  const float len = std::sqrt(glm::dot(sum.real, sum.real));
  if (!(len > 1e-12f) || !std::isfinite(len)) return DualQuat{};
  sum.real = sum.real / len;
  sum.dual = sum.dual / len;
  return sum;
}

}  // namespace fabrik
