// walker_settings.h - the shape and behaviour of a legged walker (docs/walker.md: The walker).
//
// Body-local space: x to the body's right, y up, z forward (right-handed, +Y up like the
// world). Lengths in world units, times in seconds, angles in radians.
#pragma once

#include <glm/vec3.hpp>
#include <vector>

#include "ik/constraints.h"
#include "ik/result.h"

namespace fabrik {

struct LegLayout {
  // Where the leg's chain is rooted, body-local.
  glm::vec3 hip{0.0f};
  // Where the foot rests when the body stands still, body-local; only x and z are used (the
  // foot stands on the terrain under that point).
  glm::vec3 rest_foot{0.0f};
  // Gait group, 0 or 1. Legs of one group step together (diagonal pairs for four legs, a
  // tripod for six); the two groups alternate, and each holds exactly half the legs.
  int group = 0;
};

struct WalkerSettings {
  std::vector<LegLayout> legs;
  // Segment lengths of every leg, hip outwards (at least 2 segments, each > 0).
  std::vector<float> segment_lengths{0.5f, 1.2f, 1.5f};
  // The knee pole, relative to the hip: `pole_out` along the leg's outward direction and
  // `pole_up` along the body's up. The knees bend towards it (a spider's arched legs).
  float pole_out = 1.0f;
  float pole_up = 2.5f;
  // Limits of the first segment (the coxa) around the leg's outward direction, radians
  // (constraints.h: up / down along the body's up, left / right around it).
  ConeLimits hip_cone{0.8f, 0.5f, 0.6f, 0.6f};

  // Full size of the body (body-local x, y, z) for drawing it, e.g. as an ellipsoid centred on
  // body_position(); the simulation does not use it.
  glm::vec3 body_size{1.3f, 0.6f, 1.7f};

  // Body origin height above the mean height of its feet.
  float ride_height = 1.0f;
  // Largest walking speed (units/s) and turning rate (rad/s); the body slows near the goal
  // (within `slow_radius`) and while it does not face the goal.
  float max_speed = 1.5f;
  float turn_rate = 2.0f;
  float slow_radius = 1.5f;
  // Largest vertical speed (units/s) and tilt rate (rad/s) of the body, and how fast it
  // follows its feet (1/s, exponential): together they bound every step of the body.
  float max_climb_rate = 2.0f;
  float max_tilt_rate = 1.5f;
  float follow_rate = 8.0f;
  // Largest tilt of the body away from vertical.
  float max_tilt = 0.45f;

  // A planted foot steps when it drifts farther than this (horizontally) from where the body
  // wants it; once the body stands at its goal, feet farther than `settle_threshold` step home.
  float step_threshold = 0.45f;
  float settle_threshold = 0.08f;
  // The body slows down as the worst planted drift grows from step_threshold towards this, and
  // stops there, so planted feet stay within reach.
  float max_drift = 1.1f;
  // A lifted foot's flight: its duration and the height of its arc above the ground.
  float swing_time = 0.25f;
  float swing_height = 0.45f;

  // Fixed simulation step (Update splits a frame into steps of this length) and the longest
  // frame time taken at once (longer frames are clamped to it).
  float fixed_step = 1.0f / 60.0f;
  float max_frame_time = 0.25f;

  // Each leg's FABRIK solve: margin of error and iteration cap.
  float foot_tolerance = 2e-3f;
  int max_iterations = 40;

  // A four-legged (legs = 4) or six-legged (legs = 6) spider with diagonal / tripod groups.
  // Any other count gives four legs.
  static WalkerSettings Spider(int legs = 4);
};

// Ok, or an error naming the first bad field (odd or fewer than 2 legs, unequal groups, a
// non-finite or non-positive quantity, a rest foot out of the legs' reach, ...).
Status ValidateWalkerSettings(const WalkerSettings& settings);

}  // namespace fabrik
