// tool_solve.h - the chain scene's solve with the everyday IK tools of ToolState
// (core/tool_state.h, docs/tools.md: In the demo).
//
// Order, as fabrik-solve's (src/solve_cli/solve_tools.h) with the look-at after the position solve:
// soften the target, solve (two_bone, stiffness or the selected solver; accelerate as set), aim
// the last joints, limit each segment's turn against the pose the frame started from, then
// stretch (the passes are core/tool_passes.h's, shared with the step view). With spline IK on and a
// spline loaded, the chain instead lies along the spline behind the spline target: joint n-1 (the
// head) at the follower's point, every joint on the curve, lengths kept, the root wherever the tail
// ends (the trail behind the head is rebuilt as a small curve each frame, which allocates; the
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
class CommandOutput;

// True when some tool changes the chain scene's solve (soften, stretch, turn limit,
// a non-zero stiffness, two_bone, aim, or spline IK with a spline loaded).
bool ToolsActive(const AppState& state);
// The same without spline IK: some tool that core/tool_passes.h solves with is on.
bool ToolPassesActive(const ToolState& tools);
// Some joint has a stiffness above 0.
bool AnyStiffness(const ToolState& tools);
// The chain scene's solve with the tools, called before its plain solve: first lays the chain
// straight up from the origin again if the snake had moved its root and spline IK no longer
// applies, and forgets the last tool solve's stretch; then, when ToolsActive, solves (setting
// state.last, the solve time and histories, or the message when the solver refuses) and
// returns true. False: no tool is on, nothing solved. An aim over more joints than the chain
// has segments (after `joints N`) is cut to the segment count, with a message.
bool SolveWithTools(AppState& state);
// Just the first part: the root back at the origin after the snake (see above).
void RestoreRootAfterSnake(AppState& state);
// The state line's tool fields (docs/state.md): soften (1: off), stretch (1: off),
// stretch_factor (the last solve's, 1: none), turn_limit (degrees, 0: off), stiffness (one
// per joint; empty: all 0), pole ([x, y, z] or null), soft_target (the point the chain aimed
// at, while softening pulled the target in), on_curve (the snake's joints on the spline), aim
// ({at, axis, joints} or null) and aim_error_deg (the drawn pose's aim error, or null).
void WriteToolFields(const AppState& state, nlohmann::json& j);
// `solver two_bone` (applied from the solver command, defined in core/commands/tools.cpp):
// chosen for a chain scene of exactly 3 joints or a scene whose controls offer it (the arm's
// shoulder-elbow-wrist); otherwise one error line and nothing changes. state.solver stays
// the solver any other choice goes back to.
bool SelectTwoBone(AppState& state, CommandOutput& out);
// The chain scene's pose to draw: the stretched pose while the last solve stretched, else the
// chain's.
std::span<const glm::vec3> ToolPose(const AppState& state);

}  // namespace fabrik
