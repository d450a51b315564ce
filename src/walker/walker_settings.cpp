#include "walker/walker_settings.h"

#include <cmath>
#include <glm/geometric.hpp>
#include <glm/vec2.hpp>
#include <numeric>
#include <string>

#include "ik/vec_util.h"

namespace fabrik {
namespace {

bool Positive(float v) { return std::isfinite(v) && v > 0.0f; }
}  // namespace

WalkerSettings WalkerSettings::Spider(int legs) {
  WalkerSettings s;
  if (legs == 6) {
    // Tripods: left front, left back and right middle step together.
    const float rows[3] = {0.7f, 0.0f, -0.7f};
    const float feet[3] = {1.7f, 0.0f, -1.7f};
    s.body_size = glm::vec3(1.3f, 0.6f, 2.0f);
    for (int side = 0; side < 2; ++side) {
      const float x = side == 0 ? -1.0f : 1.0f;
      for (int r = 0; r < 3; ++r) {
        s.legs.push_back({{x * 0.5f, 0.0f, rows[r]}, {x * 1.9f, 0.0f, feet[r]}, (side + r) % 2});
      }
    }
    return s;
  }
  // Four legs: left front with right back (group 0), right front with left back (group 1).
  s.legs = {
      {{-0.5f, 0.0f, 0.6f}, {-1.7f, 0.0f, 1.6f}, 0},
      {{0.5f, 0.0f, 0.6f}, {1.7f, 0.0f, 1.6f}, 1},
      {{-0.5f, 0.0f, -0.6f}, {-1.7f, 0.0f, -1.6f}, 1},
      {{0.5f, 0.0f, -0.6f}, {1.7f, 0.0f, -1.6f}, 0},
  };
  return s;
}

Status ValidateWalkerSettings(const WalkerSettings& s) {
  if (s.legs.size() < 2 || s.legs.size() % 2 != 0 || s.legs.size() > 16) {
    return MakeError("walker needs an even number of legs from 2 to 16, got " +
                     std::to_string(s.legs.size()));
  }
  if (s.segment_lengths.size() < 2 || s.segment_lengths.size() > 16) {
    return MakeError("walker legs need 2 to 16 segments");
  }
  for (float l : s.segment_lengths) {
    if (!Positive(l)) return MakeError("walker segment lengths must be finite and > 0");
  }
  const float reach = std::accumulate(s.segment_lengths.begin(), s.segment_lengths.end(), 0.0f);
  std::size_t in_group0 = 0;
  for (std::size_t i = 0; i < s.legs.size(); ++i) {
    const LegLayout& leg = s.legs[i];
    const std::string name = "walker legs[" + std::to_string(i) + "]";
    if (!IsFinite(leg.hip) || !IsFinite(leg.rest_foot)) return MakeError(name + ": not finite");
    if (leg.group != 0 && leg.group != 1) return MakeError(name + ": group must be 0 or 1");
    in_group0 += leg.group == 0 ? 1 : 0;
    const glm::vec3 rest(leg.rest_foot.x, leg.hip.y - s.ride_height, leg.rest_foot.z);
    if (glm::length(rest - leg.hip) + s.max_drift >= reach) {
      return MakeError(name + ": rest foot plus max_drift is beyond the leg's reach");
    }
    if (glm::length(glm::vec2(leg.rest_foot.x - leg.hip.x, leg.rest_foot.z - leg.hip.z)) < 1e-3f) {
      return MakeError(name + ": rest foot directly below the hip (no outward direction)");
    }
  }
  if (in_group0 * 2 != s.legs.size()) {
    return MakeError("walker gait groups 0 and 1 must each hold half the legs");
  }
  const float positives[] = {s.ride_height,    s.max_speed,        s.turn_rate,     s.slow_radius,
                             s.max_climb_rate, s.max_tilt_rate,    s.follow_rate,   s.max_tilt,
                             s.step_threshold, s.settle_threshold, s.max_drift,     s.swing_time,
                             s.fixed_step,     s.max_frame_time,   s.foot_tolerance};
  for (float v : positives) {
    if (!Positive(v))
      return MakeError("walker settings: a speed, rate, time or distance is not > 0");
  }
  if (!std::isfinite(s.pole_out) || !std::isfinite(s.pole_up) || !(s.swing_height >= 0.0f) ||
      !std::isfinite(s.swing_height)) {
    return MakeError("walker settings: pole or swing height not finite");
  }
  if (!(s.settle_threshold < s.step_threshold && s.step_threshold < s.max_drift)) {
    return MakeError("walker settings: need settle_threshold < step_threshold < max_drift");
  }
  if (s.max_iterations < 1 || s.max_iterations > 1000) {
    return MakeError("walker settings: max_iterations must be 1 to 1000");
  }
  if (s.max_frame_time < s.fixed_step || s.max_frame_time / s.fixed_step > 1000.0f) {
    return MakeError("walker settings: max_frame_time must be 1 to 1000 fixed steps");
  }
  return Ok{};
}

}  // namespace fabrik
