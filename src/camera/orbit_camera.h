// orbit_camera.h - an orbit/pan/zoom camera around a pivot point, as pure math (no GL).
//
// World space is right-handed with +Y up. The camera sits on a sphere around `pivot`, at
// `distance`, placed by `yaw` (radians about +Y, 0 looks along -Z) and `pitch` (radians,
// positive looks down on the pivot). Every input is sanitised: non-finite deltas are ignored,
// pitch stays within +-kMaxPitch, distance within [kMinDistance, kMaxDistance], and the pivot
// within kMaxPivot of the origin, so no sequence of calls can produce NaN or inf matrices.
//
// Planar (2D) mode (docs/scenes.md: The 2D view): the camera looks down -Z at the XY plane (+Y up
// on screen, +X right) through an orthographic projection. The eye sits `distance` in front of the
// pivot (+Z); the view shows 2 x distance x tan(kFovY / 2) world units of height, the same scale
// the perspective view has at the pivot, so switching keeps what is under the pivot the same size.
// Orbit does nothing; Pan moves the pivot in X and Y; Zoom scales the view. Yaw and pitch are kept
// (unused) for the return to 3D.
#pragma once

#include <glm/mat4x4.hpp>
#include <glm/vec2.hpp>
#include <glm/vec3.hpp>

namespace fabrik {

class OrbitCamera {
 public:
  static constexpr float kMaxPitch = 1.50f;  // ~86 degrees: never look straight down the pole
  static constexpr float kMinDistance = 0.5f;
  static constexpr float kMaxDistance = 5000.0f;
  static constexpr float kMaxPivot = 1000.0f;
  static constexpr float kFovY = 0.7854f;  // 45 degrees, vertical
  // Clip planes follow the distance (near = distance x kNearFactor, far = distance x
  // kFarFactor), so depth precision is the same at every zoom level.
  static constexpr float kNearFactor = 0.005f;
  static constexpr float kFarFactor = 60.0f;

  // The pose Reset() returns to.
  struct Home {
    glm::vec3 pivot{0.0f, 2.0f, 0.0f};
    float yaw = 0.35f;
    float pitch = 0.35f;
    float distance = 14.0f;
  };

  OrbitCamera() { Reset(); }
  explicit OrbitCamera(const Home& home) : home_(home) { Reset(); }

  void SetHome(const Home& home) { home_ = home; }
  // Back to the home pose (in planar mode: the home pivot and distance, still planar).
  void Reset();

  // Planar mode on or off (see above). Turning it on keeps the pivot's X and Y and puts its Z
  // at 0, the plane the 2D view shows.
  void SetPlanar(bool planar);
  bool planar() const { return planar_; }

  // Rotates by a cursor movement of `delta_pixels` (window coordinates); 1 pixel ~ 0.3 deg.
  // Ignored in planar mode.
  void Orbit(glm::vec2 delta_pixels);
  // Moves the pivot in the view plane so the point under the cursor follows it, for a window
  // `window_height` screen coordinates tall.
  void Pan(glm::vec2 delta_pixels, float window_height);
  // Zooms by `steps` wheel notches: positive moves closer, each notch ~12 %.
  void Zoom(float steps);
  // Sets the whole pose (a saved camera): yaw taken modulo 2 pi, pitch, distance and each
  // pivot coordinate clamped to their ranges. Any non-finite value leaves the pose as it was.
  void SetPose(glm::vec3 pivot, float yaw, float pitch, float distance);

  glm::vec3 pivot() const { return pivot_; }
  float yaw() const { return yaw_; }
  float pitch() const { return pitch_; }
  float distance() const { return distance_; }
  glm::vec3 eye() const;
  // Unit vector from the eye towards the pivot ((0, 0, -1) in planar mode).
  glm::vec3 forward() const;

  glm::mat4 View() const;
  // Perspective projection for a viewport of the given aspect (width / height, sanitised).
  // `lens_shift_x` moves the image centre right by that fraction of the viewport's half
  // width (NDC units), so the pivot can sit in the middle of the area beside a side panel.
  // In planar mode the same, orthographic: half height = distance x tan(kFovY / 2).
  glm::mat4 Projection(float aspect, float lens_shift_x = 0.0f) const;
  // World units per screen unit at the pivot's depth, for a window `window_height` tall.
  float UnitsPerPixel(float window_height) const;
  float near_plane() const { return distance_ * kNearFactor; }
  float far_plane() const { return distance_ * kFarFactor; }

 private:
  Home home_;
  glm::vec3 pivot_{};
  float yaw_ = 0.0f;
  float pitch_ = 0.0f;
  float distance_ = 1.0f;
  bool planar_ = false;
};

}  // namespace fabrik
