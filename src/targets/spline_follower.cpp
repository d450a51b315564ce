#include "targets/spline_follower.h"

#include <algorithm>
#include <cmath>
#include <string>

namespace fabrik {

void SplineFollower::SetSpline(Spline spline) {
  spline_ = std::move(spline);
  Restart();
}

Status SplineFollower::SetSpeed(float speed) {
  if (!std::isfinite(speed) || !(speed > 0.0f) || speed > kMaxSpeed) {
    std::string shown = std::isnan(speed) ? "nan" : std::to_string(speed);
    return MakeError("spline speed must be a number > 0 and <= 1000, got " + shown);
  }
  speed_ = speed;
  return Ok{};
}

void SplineFollower::Restart() {
  distance_ = 0.0;
  direction_ = 1;
  position_ = spline_ ? spline_->PointAtDistance(0.0) : glm::vec3(0.0f);
}

double SplineFollower::progress() const {
  if (!spline_) return 0.0;
  return distance_ / static_cast<double>(spline_->length());
}

glm::vec3 SplineFollower::Advance(double dt) {
  if (!spline_) return position_;
  if (!playing_ || !std::isfinite(dt) || dt <= 0.0) return position_;
  const double length = static_cast<double>(spline_->length());
  // Past a few years of simulated time the result is meaningless anyway; the cap keeps
  // speed * dt finite for any finite dt.
  const double step = static_cast<double>(speed_) * std::min(dt, kMaxStepSeconds);

  if (spline_->closed() || end_behavior_ == EndBehavior::kLoop) {
    // Closed: the wrap is seamless. Open + loop: the target jumps from the end to the start.
    double d = std::fmod(distance_ + step, length);
    if (d < 0.0) d += length;
    distance_ = d;
    direction_ = 1;
  } else {
    // Ping-pong: unfold the back-and-forth onto a line of period 2 * length.
    const double period = 2.0 * length;
    const double unfolded = direction_ > 0 ? distance_ : period - distance_;
    double u = std::fmod(unfolded + step, period);
    if (u < 0.0) u += period;
    if (u <= length) {
      distance_ = u;
      direction_ = 1;
    } else {
      distance_ = period - u;
      direction_ = -1;
    }
  }
  position_ = spline_->PointAtDistance(distance_);
  return position_;
}

}  // namespace fabrik
