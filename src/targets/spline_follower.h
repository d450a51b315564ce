// spline_follower.h - moves a target along a Spline at constant speed (spline mode).
//
// The follower holds a Spline (or none yet), a distance along it and a playback state.
// Units: speed in world units per second along the arc; time steps in seconds; distances in
// world units from the spline's first control point.
//
// At the end of an open curve:
//   EndBehavior::kLoop      jumps back to the start and carries on (the default);
//   EndBehavior::kPingPong  turns round and runs back, and so on, forever.
// Closed curves always wrap round smoothly; the end behaviour is kept but not used.
//
// Deterministic: the same calls with the same dt values give bit-identical positions (the
// distance is accumulated in double). Nothing throws; only SetSpeed can fail.
#pragma once

#include <optional>

#include <glm/vec3.hpp>

#include "ik/result.h"
#include "ik/catmull_rom.h"
#include "lang/spline_playback.h"

namespace fabrik {

class SplineFollower {
 public:
  static constexpr float kDefaultSpeed = 1.0f;  // world units per second
  static constexpr float kMaxSpeed = kMaxSplineSpeed;  // speeds must be in (0, kMaxSpeed]

  // No spline yet, playing, speed kDefaultSpeed, kLoop. position() is the origin.
  SplineFollower() = default;

  // Replaces the spline and moves to its start, heading forward. Speed, end behaviour and
  // play/pause state are kept.
  void SetSpline(Spline spline);
  bool has_spline() const { return spline_.has_value(); }
  // The current spline; only valid when has_spline().
  const Spline& spline() const { return *spline_; }

  // Sets the speed. Fails, leaving the speed unchanged, unless 0 < speed <= kMaxSpeed and
  // finite ("spline speed must be a number > 0 and <= 1000, got nan").
  Status SetSpeed(float speed);
  float speed() const { return speed_; }

  void SetEndBehavior(EndBehavior behavior) { end_behavior_ = behavior; }
  EndBehavior end_behavior() const { return end_behavior_; }

  void Play() { playing_ = true; }
  void Pause() { playing_ = false; }
  bool playing() const { return playing_; }
  // Back to the start, heading forward; play/pause state is kept.
  void Restart();

  // Moves speed() * dt along the curve when playing (nothing when paused or without a
  // spline) and returns the new position. dt in seconds; negative, NaN or infinite dt counts
  // as 0; dt above kMaxStepSeconds counts as kMaxStepSeconds. Any other dt is handled
  // exactly (a long step wraps or bounces as many times as needed).
  static constexpr double kMaxStepSeconds = 1.0e9;
  glm::vec3 Advance(double dt);

  // The current position (world space); the origin when there is no spline.
  glm::vec3 position() const { return position_; }
  // Distance from the start along the arc, in [0, spline().length()].
  double distance() const { return distance_; }
  // +1 when moving towards the end, -1 when a ping-pong is on its way back.
  int direction() const { return direction_; }
  // distance() / length in [0, 1]; 0 without a spline.
  double progress() const;

 private:
  std::optional<Spline> spline_;
  float speed_ = kDefaultSpeed;
  EndBehavior end_behavior_ = EndBehavior::kLoop;
  bool playing_ = true;
  double distance_ = 0.0;
  int direction_ = 1;
  glm::vec3 position_{0.0f};
};

}  // namespace fabrik
