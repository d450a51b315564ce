// turn_limit.h - at most A of turn per segment per call: the anti-jitter clamp of Godot's
// IterateIK3D angular_delta_limit and Unreal's Full Body IK max_angle, applied per solve call.
//
// LimitTurn(before, max_turn, chain) compares each segment's direction in `before` (the pose
// the call started from) with its direction in `chain` now. A segment that turned by more than
// `max_turn` radians is turned from its old direction towards its new one by exactly max_turn
// (in the plane of the two; a segment that reversed turns about any axis perpendicular to its
// old direction, preferring +Y); the pose is then rebuilt from the root outwards with the
// chain's lengths, so the root stays put and every length is kept (to float rounding). So
// after the call no segment's direction is more than max_turn (plus float rounding, ~1e-6 rad)
// from where it was, and a target that jumps is followed over several calls.
// Failure: `before` not of joint_count() points, or max_turn not finite and >= 0: returns -1
// and leaves the chain untouched. Otherwise returns how many segments were held back.
// No heap allocation.
#pragma once

#include <glm/vec3.hpp>
#include <span>

#include "chain.h"
#include "solve_types.h"
#include "solver.h"

namespace fabrik {

int LimitTurn(std::span<const glm::vec3> before, float max_turn, Chain& chain);

// Solver `kind` then LimitTurn, with `scratch` (joint_count() points, the caller's) holding the
// start pose. distance and reached are recomputed for the limited pose; reachable is the
// solver's. A wrong scratch size or an invalid max_turn gives ok = false with a static message
// and the chain untouched. No heap allocation.
[[nodiscard]] SolveResult SolveWithTurnLimit(SolverKind kind, Chain& chain, const glm::vec3& target,
                                             const SolveSettings& settings, float max_turn,
                                             std::span<glm::vec3> scratch);

}  // namespace fabrik
