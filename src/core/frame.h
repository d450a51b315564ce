// frame.h - the core's steps of one frame, each a function of the AppState. No GL, no window:
// tests/app_core drives these headless with a fixed time step.
//
// Frame order (SimulateFrame below runs them; the app and the tests both call it, the app
// with a FrameShell for the steps that need the window; docs/architecture.md "One frame"):
//   1. input      the shell reads the mouse and keys and enqueues AppCommands
//   2. apply      ApplyCommands: the queue, then the running script's due commands
//   3. target     UpdateTarget: the active source moves the target (with blending)
//   4. solve      RunSolve: the scene's solve (the chain: the selected solver, timed)
//   5. render     the shell draws the state
//   6. panel      the shell's ImGui panel and console (their changes are enqueued)
//   7. output     the state line (core/state_writer.h), screenshot, swap; EndFrame
#pragma once

#include <chrono>
#include <cstddef>
#include <string>
#include <vector>

#include "core/app_state.h"

namespace fabrik {

// Starts a frame: `real_dt` wall-clock seconds since the last one (ignored for the
// simulation when state.fixed_dt > 0; otherwise clamped to [0, 0.1]). Updates timing.
void BeginFrame(AppState& state, float real_dt);
// A frame's budget for a script's due lines, in cost units: an ordinary line costs 1, `state` 8,
// `joints`, `length`, `lengths` and `spline load` 16, and `scene`, `chains`, `terrain load`,
// `characters`, `mocap load`, `mocap scale` and `screenshot` the whole budget. Due lines beyond it
// run on the next frames, in file order (ScriptBudget in targets/script_player.h), so no script
// freezes a frame for long (docs/limits.md: Bounds).
inline constexpr std::size_t kScriptFrameUnits = 256;

// Step 2: applies every queued command in order, then advances the running script and
// applies the due commands that fit in kScriptFrameUnits. The only step that changes
// settings, mode, chain or scene.
void ApplyCommands(AppState& state, CommandQueue& queue);
// Applies one command now (ApplyCommands and the start-up use it). Returns false when the
// command was refused (an error line is in the console log; nothing changed).
bool ApplyCommand(AppState& state, const AppCommand& command, CommandSource source);
// Step 3: the active source moves the target (with blending on a mode switch).
void UpdateTarget(AppState& state);
// Step 4: solves the current scene towards the target.
void RunSolve(AppState& state);
// Step 7: counts the frame as done.
void EndFrame(AppState& state);
// The window's part of a frame (app/app.cpp): it reads the state and enqueues commands,
// and never writes the state.
class FrameShell {
 public:
  virtual ~FrameShell() = default;
  // Step 1: reads the mouse and keys (the state is the last frame's) and enqueues commands.
  virtual void Input(const AppState& state, CommandQueue& queue) = 0;
  // Steps 5 to 7 (render, panel, output), after the solve and the view matrices and before
  // the frame is counted; what the panel changes is enqueued for the next frame.
  virtual void Present(const AppState& state, CommandQueue& queue) = 0;
};

// One whole frame, the only place the frame order is written: BeginFrame, the shell's input,
// steps 2 to 4, the view matrices, the shell's render, panel and output, EndFrame. `shell`
// null: a frame without a window (tests, tools).
void SimulateFrame(AppState& state, CommandQueue& queue, float real_dt,
                   FrameShell* shell = nullptr);

// Recomputes view and projection for the current window size and panel width.
void UpdateViewMatrices(AppState& state);
// Where the camera should look to frame the whole chain's reach.
OrbitCamera::Home HomeFor(const Chain& chain);

// Sets state.solve_us to the time since `start` (a scene's Solve, after its solver ran).
void RecordSolveTime(AppState& state, std::chrono::steady_clock::time_point start);

// Used while applying commands (apply.cpp, execute.cpp, scenes.cpp, step_view.cpp) only.
// Switches the target mode; the target blends from where it is to the new source.
void SetMode(AppState& state, TargetMode mode);
// Puts the target at `position` now (no glide); the active source holds it there until it
// next wants somewhere else (a scene's start, a creature effector becoming the driven one).
void PlaceTarget(AppState& state, const glm::vec3& position);
// Rebuilds the chain with new segment lengths, keeping its pose's directions, and reframes
// the camera on the new reach unless the user has moved it from its home. On an invalid
// request (count outside 2..kMaxJoints joints, a length outside (0, 1000]) sets the error
// message, changes nothing and returns false.
bool ApplyLengths(AppState& state, std::vector<float> lengths);
void SetMessage(AppState& state, std::string text, bool is_error);
// The settings one solve of `joint_count` joints runs with: the user's, with the iteration
// cap lowered where needed so that one solve does at most kMaxJointUpdatesPerSolve joint
// updates (docs/options.md: Limits), so that no cap and chain length can freeze a frame.
// `shares` solves that run in one frame share that budget (the race's solvers: each gets
// 1/shares of it).
inline constexpr long kMaxJointUpdatesPerSolve = 10'000'000;
SolveSettings BoundedSettings(const AppState& state, std::size_t joint_count,
                              std::size_t shares = 1);

}  // namespace fabrik
