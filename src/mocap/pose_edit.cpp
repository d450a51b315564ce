// pose_edit.cpp - see pose_edit.h.
#include "mocap/pose_edit.h"

#include <algorithm>
#include <cmath>
#include <glm/geometric.hpp>

namespace fabrik::mocap {

glm::quat ShortestArc(const glm::vec3& from, const glm::vec3& to) {
  const float lf = glm::length(from), lt = glm::length(to);
  if (!(lf > 1e-12f) || !(lt > 1e-12f)) return glm::quat(1, 0, 0, 0);
  const glm::vec3 a = from / lf, b = to / lt;
  const float d = glm::dot(a, b);
  if (d < -0.999999f) {
    glm::vec3 axis = glm::cross(glm::vec3(1, 0, 0), a);
    if (glm::dot(axis, axis) < 1e-6f) axis = glm::cross(glm::vec3(0, 1, 0), a);
    return glm::angleAxis(3.14159265f, glm::normalize(axis));
  }
  // Half-angle form: q = (1 + d, a x b) normalised, exact for any angle below a half turn.
  const glm::vec3 c = glm::cross(a, b);
  return glm::normalize(glm::quat(1.0f + d, c.x, c.y, c.z));
}

void RotateJoints(Pose& pose, int first, int end, const glm::quat& q, const glm::vec3& pivot) {
  for (int j = first; j < end; ++j) {
    pose.positions[j] = pivot + q * (pose.positions[j] - pivot);
    // Unit times unit: no renormalising (a frame's pose is rebuilt from the clip each frame,
    // so rounding cannot build up over time).
    pose.rotations[j] = q * pose.rotations[j];
  }
}

glm::quat ScaleRotation(const glm::quat& q, float fraction) {
  glm::quat r = q.w < 0.0f ? -q : q;
  const float angle = 2.0f * std::acos(std::clamp(r.w, -1.0f, 1.0f));
  if (angle < 1e-7f) return glm::quat(1, 0, 0, 0);
  const glm::vec3 axis = glm::vec3(r.x, r.y, r.z) / std::sin(angle * 0.5f);
  return glm::angleAxis(angle * fraction, glm::normalize(axis));
}

glm::quat LimitRotation(const glm::quat& q, float max_angle) {
  glm::quat r = q.w < 0.0f ? -q : q;
  const float angle = 2.0f * std::acos(std::clamp(r.w, -1.0f, 1.0f));
  if (angle <= max_angle) return r;
  return ScaleRotation(r, max_angle / angle);
}

glm::quat TurnTowards(const glm::quat& from, const glm::quat& to, float most) {
  glm::quat step = to * glm::inverse(from);
  if (step.w < 0.0f) step = -step;
  const float angle = 2.0f * std::acos(std::clamp(step.w, -1.0f, 1.0f));
  if (angle <= most) return to;
  return glm::normalize(ScaleRotation(step, most / angle) * from);
}

}  // namespace fabrik::mocap
