// orient.h - bone rotations, the orientation target, the skinned tentacle and joint axes in
// the app core (docs/rotations.md).
//
// Every frame, after the scene's solve, UpdateRotations rebuilds one world-space rotation per
// bone (ik/rotations.h: rest axis +Y, twist carried along the chain and over time) for the
// scenes with chains: chain and arm (the arm's hinges keep their axes) and the creature (its
// tree). The walker and the field have none (their state line writes "rotations": null).
// The state line's "rotations", "effector_rotation" and "orient_error_deg" and the drawn
// tentacle and joint axes all read these rotations, so what is drawn is what is written.
//
// The orientation target: yaw, pitch, roll in degrees (ik/orientation_target.h's
// EulerDegreesToQuat: R = Ry(yaw) Rx(pitch) Rz(roll); all zero points the effector up, +Y).
// Set by `target X Y Z YAW PITCH ROLL` or `orient YAW PITCH ROLL`, dropped by `orient off`;
// the chain and arm scenes then solve with OrientedSolver.
#pragma once

#include <glm/gtc/quaternion.hpp>
#include <glm/vec3.hpp>
#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <vector>

#include "ik/constraints.h"
#include "ik/orientation_target.h"
#include "ik/rotations.h"

namespace fabrik {

struct AppState;
class Scene;

struct OrientState {
  // The orientation target as typed: yaw, pitch, roll in degrees (each |angle| <= 3600);
  // nullopt: none. `rotation` is its quaternion (unit) while set.
  std::optional<glm::vec3> euler_deg;
  glm::quat rotation{1.0f, 0.0f, 0.0f, 0.0f};
  bool skin = false;  // the chain scene draws the skinned tentacle instead of the bones
  bool axes = false;  // small RGB frames at every bone's start joint

  // Filled by UpdateRotations for the scene's current pose.
  RotationTracker tracker;
  const Scene* tracked = nullptr;      // the scene `tracker` follows (a new scene starts afresh)
  bool has_rotations = false;          // false in scenes without chains (walker, field)
  std::vector<glm::vec3> bone_starts;  // world position of each bone's start joint
  float shortest_bone = 0.0f;          // the shortest of those bones' lengths
  std::optional<glm::quat> effector_rotation;  // the (primary) end effector bone's rotation
  std::optional<float> error_deg;  // angle from effector_rotation to `rotation`, degrees
  bool last_met = false;           // the last oriented solve met the orientation (2 degrees)

  OrientedSolver solver;  // keeps its scratch between frames
};

// Sets (a value) or drops (nullopt) the orientation target. `euler_deg` must be finite with
// |angle| <= kMaxTargetAngleDegrees (the parser guarantees it); otherwise nothing changes and
// false is returned.
bool SetOrientation(AppState& state, const std::optional<glm::vec3>& euler_deg);

// The chain and arm scenes' solve while an orientation is set: OrientedSolver on state.chain
// towards state.target() with the orientation (and `constraints` when given), timed; fills
// state.last and state.solve_us, or sets the message on a rejected solve. Returns the
// solver's result (base.ok false when rejected).
OrientedSolveResult SolveOriented(AppState& state, const ChainConstraints* constraints);

// Rebuilds the rotations for the scene's pose (see the top of this file). Allocates only when
// the bone count changes.
void UpdateRotations(AppState& state);

// Adds "rotations", "target_rotation", "target_euler_deg",
// "effector_rotation" and "orient_error_deg" to the state line (docs/state.md).
void WriteOrientState(const AppState& state, nlohmann::json& line);

}  // namespace fabrik
