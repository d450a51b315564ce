#include "targets/target_sources.h"

#include <algorithm>
#include <cmath>

#include "ik/vec_util.h"

namespace fabrik {
std::optional<glm::vec3> SplineTarget::Wanted(float dt) {
  if (!follower.has_spline()) return std::nullopt;
  return follower.Advance(dt);
}

void TargetMixer::Jump(const glm::vec3& p) {
  if (!IsFinite(p)) return;
  position_ = wanted_ = p;
  gliding_ = false;
}

void TargetMixer::BeginGlide() {
  from_ = wanted_ = position_;
  elapsed_ = 0.0f;
  gliding_ = true;
}

void TargetMixer::CancelGlide() {
  wanted_ = position_;
  gliding_ = false;
}

void TargetMixer::Settle() {
  position_ = wanted_;
  gliding_ = false;
}

void TargetMixer::Update(const std::optional<glm::vec3>& wanted, float dt, bool no_glide) {
  if (wanted && IsFinite(*wanted)) wanted_ = *wanted;
  if (no_glide) gliding_ = false;
  glm::vec3 next = wanted_;
  if (gliding_) {
    elapsed_ += std::isfinite(dt) ? std::max(dt, 0.0f) : 0.0f;
    const float t = std::clamp(elapsed_ / kGlideSeconds, 0.0f, 1.0f);
    const float s = t * t * (3.0f - 2.0f * t);  // smoothstep: no velocity jump at either end
    next = from_ + (wanted_ - from_) * s;
    if (t >= 1.0f) gliding_ = false;
  }
  if (IsFinite(next)) position_ = next;
}

}  // namespace fabrik
