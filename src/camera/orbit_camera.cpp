#include "camera/orbit_camera.h"

#include <algorithm>
#include <cmath>
#include <glm/geometric.hpp>
#include <glm/gtc/matrix_transform.hpp>

namespace fabrik {
namespace {

bool IsFinite(glm::vec2 v) { return std::isfinite(v.x) && std::isfinite(v.y); }

constexpr float kOrbitRadiansPerPixel = 0.005f;
constexpr float kZoomPerStep = 0.88f;
constexpr float kTwoPi = 6.2831853f;

}  // namespace

void OrbitCamera::Reset() {
  pivot_ = home_.pivot;
  yaw_ = home_.yaw;
  pitch_ = std::clamp(home_.pitch, -kMaxPitch, kMaxPitch);
  distance_ = std::clamp(home_.distance, kMinDistance, kMaxDistance);
  if (planar_) pivot_.z = 0.0f;
}

bool OrbitCamera::AtHome() const {
  OrbitCamera home = *this;
  home.Reset();
  return home.pivot_ == pivot_ && home.yaw_ == yaw_ && home.pitch_ == pitch_ &&
         home.distance_ == distance_;
}

void OrbitCamera::SetPlanar(bool planar) {
  planar_ = planar;
  if (planar_) pivot_.z = 0.0f;
}

float OrbitCamera::UnitsPerPixel(float window_height) const {
  if (!std::isfinite(window_height) || window_height < 1.0f) window_height = 1.0f;
  return 2.0f * distance_ * std::tan(kFovY * 0.5f) / window_height;
}

void OrbitCamera::Orbit(glm::vec2 delta_pixels) {
  if (planar_ || !IsFinite(delta_pixels)) return;
  // Clamp one event's rotation so a wild cursor jump cannot spin the camera many turns.
  delta_pixels = glm::clamp(delta_pixels, glm::vec2(-2000.0f), glm::vec2(2000.0f));
  yaw_ = std::fmod(yaw_ - delta_pixels.x * kOrbitRadiansPerPixel, kTwoPi);
  pitch_ = std::clamp(pitch_ + delta_pixels.y * kOrbitRadiansPerPixel, -kMaxPitch, kMaxPitch);
}

void OrbitCamera::Pan(glm::vec2 delta_pixels, float window_height) {
  if (!IsFinite(delta_pixels) || !std::isfinite(window_height) || window_height < 1.0f) return;
  delta_pixels = glm::clamp(delta_pixels, glm::vec2(-4000.0f), glm::vec2(4000.0f));
  // World units per pixel at the pivot's depth: the view's height there over the pixels.
  // (The same in planar mode, where the orthographic view is that tall everywhere.)
  const float units_per_pixel = UnitsPerPixel(window_height);
  const glm::vec3 f = forward();
  const glm::vec3 right = planar_ ? glm::vec3(1.0f, 0.0f, 0.0f)
                                  : glm::normalize(glm::cross(f, glm::vec3(0.0f, 1.0f, 0.0f)));
  const glm::vec3 up = planar_ ? glm::vec3(0.0f, 1.0f, 0.0f) : glm::cross(right, f);
  pivot_ += (-delta_pixels.x * right + delta_pixels.y * up) * units_per_pixel;
  pivot_ = glm::clamp(pivot_, glm::vec3(-kMaxPivot), glm::vec3(kMaxPivot));
}

void OrbitCamera::Zoom(float steps) {
  if (!std::isfinite(steps)) return;
  steps = std::clamp(steps, -20.0f, 20.0f);
  distance_ = std::clamp(distance_ * std::pow(kZoomPerStep, steps), kMinDistance, kMaxDistance);
}

void OrbitCamera::SetPose(glm::vec3 pivot, float yaw, float pitch, float distance) {
  if (!IsFinite(glm::vec2(pivot.x, pivot.y)) || !std::isfinite(pivot.z) || !std::isfinite(yaw) ||
      !std::isfinite(pitch) || !std::isfinite(distance)) {
    return;
  }
  pivot_ = glm::clamp(pivot, glm::vec3(-kMaxPivot), glm::vec3(kMaxPivot));
  yaw_ = std::fmod(yaw, kTwoPi);
  pitch_ = std::clamp(pitch, -kMaxPitch, kMaxPitch);
  distance_ = std::clamp(distance, kMinDistance, kMaxDistance);
}

glm::vec3 OrbitCamera::forward() const {
  if (planar_) return glm::vec3(0.0f, 0.0f, -1.0f);
  // Camera offset from the pivot: yaw about +Y, pitch raising the eye above the pivot.
  const glm::vec3 offset(std::sin(yaw_) * std::cos(pitch_), std::sin(pitch_),
                         std::cos(yaw_) * std::cos(pitch_));
  return -offset;
}

glm::vec3 OrbitCamera::eye() const { return pivot_ - forward() * distance_; }

glm::mat4 OrbitCamera::View() const {
  return glm::lookAt(eye(), pivot_, glm::vec3(0.0f, 1.0f, 0.0f));
}

glm::mat4 OrbitCamera::Projection(float aspect, float lens_shift_x) const {
  if (!std::isfinite(aspect) || aspect <= 0.0f) aspect = 1.0f;
  aspect = std::clamp(aspect, 1e-3f, 1e3f);
  if (!std::isfinite(lens_shift_x)) lens_shift_x = 0.0f;
  lens_shift_x = std::clamp(lens_shift_x, -1.0f, 1.0f);
  const glm::mat4 shift = glm::translate(glm::mat4(1.0f), glm::vec3(lens_shift_x, 0.0f, 0.0f));
  if (planar_) {
    const float half_height = distance_ * std::tan(kFovY * 0.5f);
    const float half_width = half_height * aspect;
    return shift * glm::ortho(-half_width, half_width, -half_height, half_height, near_plane(),
                              far_plane());
  }
  return shift * glm::perspective(kFovY, aspect, near_plane(), far_plane());
}

}  // namespace fabrik
