// clip_sample.cpp - see clip_sample.h.
#include "mocap/clip_sample.h"

#include <algorithm>
#include <cmath>
#include <glm/geometric.hpp>

namespace fabrik::mocap {
namespace {

// Normalised lerp on the shorter arc: within 0.1 degree of slerp between frames 1/120 s
// apart, and cheaper (no trigonometry), which matters for a crowd.
glm::quat Nlerp(const glm::quat& a, const glm::quat& b, float t) {
  const float sign = glm::dot(a, b) < 0.0f ? -1.0f : 1.0f;
  return glm::normalize(a * (1.0f - t) + b * (sign * t));
}

// The frames around `time` and the blend between them.
struct Span {
  int f0 = 0, f1 = 0;
  float alpha = 0.0f;
};
Span FindSpan(const Clip& clip, float time) {
  if (!std::isfinite(time) || time <= 0.0f || clip.frame_count() < 2) return {};
  const float position = time / clip.frame_time();
  const int last = clip.frame_count() - 1;
  if (position >= static_cast<float>(last)) return {last, last, 0.0f};
  const int f0 = static_cast<int>(position);
  return {f0, std::min(f0 + 1, last), position - static_cast<float>(f0)};
}

void Blend(const Clip& clip, int f0, int f1, float alpha, Pose& out,
           const glm::quat& turn = glm::quat(1, 0, 0, 0), const glm::vec3& shift = glm::vec3(0)) {
  const int joints = clip.joint_count();
  const auto parents = clip.parents();
  for (int j = 0; j < joints; ++j) {
    const glm::quat r = alpha == 0.0f ? clip.rotation(f0, j)
                                      : Nlerp(clip.rotation(f0, j), clip.rotation(f1, j), alpha);
    glm::vec3 t = clip.translation(f0, j);
    if (alpha != 0.0f && clip.has_translation(j)) {
      t += (clip.translation(f1, j) - t) * alpha;
    }
    const int p = parents[j];
    if (p < 0) {
      out.positions[j] = turn * t + shift;
      out.rotations[j] = turn * r;
    } else {
      out.positions[j] = out.positions[p] + out.rotations[p] * t;
      out.rotations[j] = out.rotations[p] * r;
    }
  }
}

}  // namespace

void Pose::Resize(int joints) {
  positions.resize(joints);
  rotations.resize(joints);
}

void SampleClip(const Clip& clip, float time, Pose& out) {
  const Span s = FindSpan(clip, time);
  Blend(clip, s.f0, s.f1, s.alpha, out);
}

void SampleClipPlaced(const Clip& clip, float time, const glm::quat& turn, const glm::vec3& shift,
                      Pose& out) {
  const Span s = FindSpan(clip, time);
  Blend(clip, s.f0, s.f1, s.alpha, out, turn, shift);
}

glm::vec3 SampleRootTranslation(const Clip& clip, float time) {
  const Span s = FindSpan(clip, time);
  const glm::vec3 t = clip.translation(s.f0, 0);
  return t + (clip.translation(s.f1, 0) - t) * s.alpha;
}

void SampleFrame(const Clip& clip, int frame, Pose& out) {
  const int f = std::clamp(frame, 0, clip.frame_count() - 1);
  Blend(clip, f, f, 0.0f, out);
}

float WrapClipTime(const Clip& clip, float time) {
  const float d = clip.duration();
  if (!std::isfinite(time) || !(d > 0.0f)) return 0.0f;
  float t = std::fmod(time, d);
  if (t < 0.0f) t += d;
  return t >= d ? 0.0f : t;
}

}  // namespace fabrik::mocap
