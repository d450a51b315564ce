// scene_palette.h - what the scene drawing files share: the palette and small line helpers.
// Internal to src/app.
#pragma once

#include <cmath>
#include <glm/geometric.hpp>
#include <glm/vec3.hpp>
#include <glm/vec4.hpp>
#include <vector>

#include "render/renderer.h"

namespace fabrik::draw {

inline constexpr float kPi = 3.14159265f;

// The palette: cool joints on warm bones, an orange effector, a green target that turns
// amber when out of reach.
inline const glm::vec4 kBoneColor(0.86f, 0.83f, 0.76f, 1.0f);
inline const glm::vec4 kJointColor(0.30f, 0.52f, 0.86f, 1.0f);
inline const glm::vec4 kRootColor(0.32f, 0.34f, 0.38f, 1.0f);
inline const glm::vec4 kEffectorColor(1.00f, 0.52f, 0.12f, 1.0f);
inline const glm::vec4 kTargetReached(0.25f, 0.92f, 0.45f, 0.75f);
inline const glm::vec4 kTargetChasing(0.95f, 0.88f, 0.25f, 0.75f);
inline const glm::vec4 kTargetOutOfReach(0.98f, 0.35f, 0.30f, 0.75f);
inline const glm::vec4 kReachColor(0.35f, 0.62f, 0.98f, 0.10f);
inline const glm::vec4 kAtLimitColor(0.95f, 0.25f, 0.22f, 1.0f);
inline const glm::vec4 kSubBaseColor(0.55f, 0.40f, 0.90f, 1.0f);
// Bones stretched past their length (`stretch S`, docs/tools.md): warmer the more they stretch.
inline const glm::vec4 kStretchedBoneColor(0.98f, 0.42f, 0.22f, 1.0f);

// The field scene (scenes/field/field_draw.cpp): dark stems, tips green when reached and amber
// while chasing, the near chains' bones and joints, the two sampled chains.
inline const glm::vec4 kFieldStem(0.10f, 0.32f, 0.24f, 1.0f);
inline const glm::vec4 kFieldTipReached(0.62f, 0.96f, 0.58f, 1.0f);
inline const glm::vec4 kFieldTipChasing(0.98f, 0.72f, 0.28f, 1.0f);
inline const glm::vec4 kFieldBone(0.80f, 0.86f, 0.74f, 1.0f);
inline const glm::vec4 kFieldJoint(0.30f, 0.62f, 0.86f, 1.0f);
inline const glm::vec4 kFieldSample(0.98f, 0.45f, 0.80f, 1.0f);

// The walker (scenes/walker/walker_draw.cpp): legs in the bone and joint colours; planted feet
// green, swinging ones orange, step goals amber, pre-solve ghosts pale, knee poles violet.
inline const glm::vec4 kWalkerPlanted(0.25f, 0.92f, 0.45f, 0.9f);
inline const glm::vec4 kWalkerSwinging(1.00f, 0.62f, 0.15f, 0.9f);
inline const glm::vec4 kWalkerGoal(0.95f, 0.88f, 0.25f, 0.85f);
inline const glm::vec4 kWalkerGhost(0.75f, 0.80f, 1.0f, 0.55f);
inline const glm::vec4 kWalkerPole(0.85f, 0.45f, 0.95f, 0.9f);

inline void AddCircle(std::vector<LineVertex>& out, glm::vec3 c, float r, glm::vec3 u, glm::vec3 v,
                      glm::vec4 color, int segments) {
  for (int i = 0; i < segments; ++i) {
    const float a0 = 2.0f * kPi * i / segments, a1 = 2.0f * kPi * (i + 1) / segments;
    out.push_back({c + r * (std::cos(a0) * u + std::sin(a0) * v), color});
    out.push_back({c + r * (std::cos(a1) * u + std::sin(a1) * v), color});
  }
}

inline glm::vec3 SafeDirection(const glm::vec3& v) {
  const float l = glm::length(v);
  return l > 1e-12f && std::isfinite(l) ? v / l : glm::vec3(1.0f, 0.0f, 0.0f);
}

// Grid spacing: 1, 2 or 5 times a power of ten, about 20 lines across the reach.

}  // namespace fabrik::draw
