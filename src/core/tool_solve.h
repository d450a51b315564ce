// tool_solve.h - the chain scene's solve with the everyday IK tools of ToolState
// (core/tool_state.h, docs/tools.md: In the demo).
//
// Order, as fabrik-solve's (src/tools/solve_tools.h): soften the target, solve (two_bone,
// stiffness or the selected solver; accelerate as set), limit each segment's turn against the
// pose the frame started from, then stretch. With spline IK on and a spline loaded, the chain
// instead lies along the spline behind the spline target: joint n-1 (the head) at the
// follower's point, every joint on the curve, lengths kept, the root wherever the tail ends
// (the trail behind the head is rebuilt as a small curve each frame, which allocates; the
// other tools allocate nothing once their buffers are warm).
// state.last's distance and reached are measured from the drawn effector to the real target
// (never the softened one); with stretch, reachable means within stretch x reach.
#pragma once

#include <glm/vec3.hpp>
#include <nlohmann/json_fwd.hpp>
#include <span>

namespace fabrik {

struct AppState;
struct ToolState;

// True when some tool changes the chain scene's solve (soften, stretch, turn limit,
// a non-zero stiffness, two_bone, or spline IK with a spline loaded).
bool ToolsActive(const AppState& state);
// Some joint has a stiffness above 0.
bool AnyStiffness(const ToolState& tools);
// The chain scene's solve with the tools, called before its plain solve: first lays the chain
// straight up from the origin again if the snake had moved its root and spline IK no longer
// applies, and forgets the last tool solve's stretch; then, when ToolsActive, solves (setting
// state.last, the solve time and histories, or the message when the solver refuses) and
// returns true. False: no tool is on, nothing solved.
bool SolveWithTools(AppState& state);
// Just the first part: the root back at the origin after the snake (see above).
void RestoreRootAfterSnake(AppState& state);
// The state line's tool fields (docs/state.md): soften (1: off), stretch (1: off),
// stretch_factor (the last solve's, 1: none), turn_limit (degrees, 0: off), stiffness (one
// per joint; empty: all 0), pole ([x, y, z] or null), soft_target (the point the chain aimed
// at, while softening pulled the target in), on_curve (the snake's joints on the spline).
void WriteToolFields(const AppState& state, nlohmann::json& j);
// The chain scene's pose to draw: the stretched pose while the last solve stretched, else the
// chain's.
std::span<const glm::vec3> ToolPose(const AppState& state);

}  // namespace fabrik
