// walker.h - a legged walker on a heightmap: FABRIK legs, a two-group gait, a body that
// follows its feet, walking and turning to a goal (docs/walker.md: The walker). No GL.
//
// Each frame the scene calls Update(dt, goal); it runs whole fixed steps of
// settings().fixed_step seconds (the remainder waits for the next frame). One step:
//   1. locomotion: the body turns towards the goal (at most turn_rate) and moves straight
//      towards it, slower when it does not face it, near it, or when a planted foot has
//      drifted far (stopping at max_drift so feet stay in reach); it never overshoots and
//      stops exactly on the goal.
//   2. gait: swinging feet advance along their arc (gait.h) and land on the ground, exactly on
//      the terrain (Heightmap::PointAt); then, if every foot is down and a group's worst drift
//      exceeds step_threshold (settle_threshold once the body stands at its goal), that
//      group's drifted feet lift. So at most half the feet are ever in the air, and the
//      groups (diagonal pairs) alternate.
//   3. body: height and tilt ease towards the plane fitted to the support points (planted feet
//      and the landing points of swinging ones), with bounded climb and tilt rates.
//   4. legs: every leg is solved from its hip to its foot target with its knee pole (leg.h).
// Guarantees: a planted foot's target never moves and lies on the terrain; at least half the
// feet are planted after every step; legs keep their segment lengths; per step the body moves
// at most (max_speed + max_climb_rate) x fixed_step and turns at most
// (turn_rate + max_tilt_rate) x fixed_step; nothing becomes NaN. Update allocates nothing
// (a refused call allocates its message only).
//
// Bad input: a non-finite goal, or dt that is not finite and > 0, is refused with a message
// and changes nothing. A goal off the terrain (or too near its edge for the legs) is clamped
// into the square [-S/2 + m, S/2 - m]^2 with m = goal_margin(); goal() is the clamped goal.
// The goal's y is ignored (the walker stays on the ground). A frame longer than
// max_frame_time is clamped to it.
#pragma once

#include <cstdint>
#include <glm/gtc/quaternion.hpp>
#include <glm/vec2.hpp>
#include <glm/vec3.hpp>
#include <memory>
#include <span>
#include <vector>

#include "ik/recording_observer.h"
#include "ik/result.h"
#include "terrain/heightmap.h"
#include "walker/leg.h"
#include "walker/walker_settings.h"

namespace fabrik {

// Everything about one leg the scene may draw or serialise. World space.
struct WalkerLegState {
  Leg leg;                      // joints() hip first, foot last; pre_solve() for the debug view
  LegLayout layout;             // body-local hip and rest foot, gait group
  bool planted = true;          // false while the foot swings
  glm::vec3 foot_target{0.0f};  // planted: fixed, on the terrain; swinging: the arc point
  glm::vec3 swing_from{0.0f};   // swinging: where it lifted off
  glm::vec3 swing_to{0.0f};     // swinging: where it will land (on the terrain)
  float swing_phase = 0.0f;     // swinging: 0 at lift-off .. 1 at landing
  float drift = 0.0f;           // horizontal distance to where the body wants the foot
  glm::vec3 pole{0.0f};         // the knee pole of the last solve
  ConstrainedSolveResult last_solve{};
};

class Walker {
 public:
  // A walker standing at (start.x, start.y) = world (x, z) (clamped like a goal), facing
  // `yaw` radians (0 = +Z, positive turns towards +X), all feet planted at their rest points,
  // with no goal but its own position. Fails on a null terrain or bad settings
  // (ValidateWalkerSettings) or non-finite start/yaw.
  static Result<Walker> Create(std::shared_ptr<const Heightmap> terrain,
                               WalkerSettings settings = WalkerSettings::Spider(4),
                               glm::vec2 start = {0.0f, 0.0f}, float yaw = 0.0f);

  // Advances by dt seconds towards `goal` (world; see the header comment). Returns the number
  // of fixed steps run (0 when dt is shorter than what is left of a step), or an error.
  Result<int> Update(float dt, const glm::vec3& goal);

  // Puts the walker on another terrain (e.g. after `terrain load`): the body keeps its x, z
  // (clamped into the new ground like a goal) and heading, every foot is set down at its rest
  // point on the new ground (the one time planted targets move), the body settles onto them
  // and the goal is re-clamped. Fails on null, changing nothing.
  Status SetTerrain(std::shared_ptr<const Heightmap> terrain);

  // Records every solve of leg `index` for the step view (-1, or any invalid index: none).
  void SetRecordedLeg(int index);
  int recorded_leg() const { return recorded_leg_; }
  // The last recorded solve, in world coordinates (ik/recording_observer.h).
  const RecordingObserver& recording() const { return recording_; }

  // Body origin (world) and orientation (body-local x right, y up, z forward -> world).
  const glm::vec3& body_position() const { return body_; }
  const glm::quat& body_rotation() const { return rotation_; }
  float yaw() const { return yaw_; }
  // The clamped goal, on the ground.
  const glm::vec3& goal() const { return goal_; }
  // True when the body stands on the goal and every foot is planted near its rest point.
  bool arrived() const;
  // Half the side of the square the goal is kept out of at each edge.
  float goal_margin() const { return goal_margin_; }

  std::span<const WalkerLegState> legs() const { return legs_; }
  // One quaternion per segment of leg `index` (BoneRotations in leg.h, +X along the knee
  // axis). Writes nothing for a bad index.
  void LegBoneRotations(std::size_t index, std::span<glm::quat> out) const;

  const Heightmap& terrain() const { return *terrain_; }
  const std::shared_ptr<const Heightmap>& terrain_ptr() const { return terrain_; }
  const WalkerSettings& settings() const { return settings_; }
  // Steps simulated and feet lifted since creation; simulated seconds.
  std::int64_t steps() const { return steps_; }
  std::int64_t foot_steps() const { return foot_steps_; }
  double time() const { return double(steps_) * settings_.fixed_step; }

 private:
  Walker() = default;
  void Step();
  void Locomote(float dt);
  void RunGait(float dt);
  void FollowFeet(float dt);
  void SolveLegs();
  void Replant();
  glm::vec3 DesiredFoot(const WalkerLegState& leg) const;
  glm::vec3 GoalOnGround(glm::vec2 xz) const;

  std::shared_ptr<const Heightmap> terrain_;
  WalkerSettings settings_;
  SolveSettings solve_settings_;
  std::vector<WalkerLegState> legs_;
  std::vector<glm::vec3> support_;  // scratch for the plane fit, one per leg
  RecordingObserver recording_;
  int recorded_leg_ = -1;

  glm::vec3 body_{0.0f};
  glm::quat rotation_{1.0f, 0.0f, 0.0f, 0.0f};
  glm::vec3 up_{0.0f, 1.0f, 0.0f};
  float yaw_ = 0.0f;
  glm::vec2 velocity_{0.0f};  // horizontal, units/s, of the last step
  glm::vec3 goal_{0.0f};
  float goal_margin_ = 0.0f;
  float accumulator_ = 0.0f;
  bool settling_ = false;
  int last_group_ = -1;
  std::int64_t steps_ = 0;
  std::int64_t foot_steps_ = 0;
};

}  // namespace fabrik
