// app_state.h - the one place the demo's state lives, in five named parts (below: the solve,
// the target, the scene and its views, this frame's results, the session). Every frame step
// reads it; only the apply step (ApplyCommands, core/frame.h) and the core's own frame steps
// (target, solve) write it. The shell enqueues AppCommands (core/app_command.h) instead of
// writing, and holds the state only through AppCore (core/app_core.h), which gives it no
// mutable reference.
#pragma once

#include <glm/mat4x4.hpp>
#include <glm/vec2.hpp>
#include <glm/vec3.hpp>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "camera/orbit_camera.h"
#include "core/app_command.h"
#include "core/free_root_state.h"
#include "core/history.h"
#include "core/orient.h"
#include "core/scene.h"
#include "core/target_recording.h"
#include "targets/target_sources.h"
#include "core/tool_passes.h"
#include "core/tool_state.h"
#include "ik/chain.h"
#include "ik/recording_observer.h"
#include "ik/solve_types.h"
#include "ik/solver.h"
#include "lang/command.h"
#include "lang/script.h"
#include "targets/drag_source.h"
#include "targets/spline_follower.h"
#include "terrain/heightmap.h"

namespace fabrik {

// Limits of the panel's widgets (the command line and console allow more joints).
inline constexpr int kPanelMaxJoints = 200;

struct FrameTiming {
  long frame = 0;         // frames completed
  double time = 0.0;      // simulated seconds (fixed-dt aware)
  float dt = 0.0f;        // simulated seconds this frame
  float real_dt = 0.0f;   // wall-clock seconds this frame
  float fps = 0.0f;       // smoothed
  float frame_ms = 0.0f;  // smoothed
};

struct ViewState {
  OrbitCamera camera;
  glm::ivec2 window_size{1, 1};
  glm::ivec2 framebuffer_size{1, 1};
  glm::mat4 view{1.0f};
  glm::mat4 projection{1.0f};
  float panel_width = 340.0f;  // screen coordinates; the scene is centred beside it
};

// The console's scrollback log (the input line and its history belong to the shell).
struct ConsoleLine {
  enum class Kind { kInput, kOutput, kError };
  Kind kind = Kind::kOutput;
  std::string text;
};

struct ConsoleState {
  std::vector<ConsoleLine> log;  // bounded: oldest lines dropped past kMaxLines
  std::size_t printed = 0;       // lines ever printed (the shell scrolls when it grows)
  static constexpr std::size_t kMaxLines = 2000;
  static constexpr std::size_t kMaxLineBytes = 8192;  // longer lines are cut, with a note
};

// The step-through view: one solve recorded half-pass by half-pass and replayed one reach at
// a time. While it is on, target sources are paused and the real chain keeps the pose the
// recorded solve started from; leaving the view lets the normal solve run on from there.
struct StepState {
  // The recording keeps at most this many joint positions (48 MB): a long chain with a high
  // iteration cap records its first iterations only, and the view says so (docs/scenes.md: Step
  // view).
  static constexpr std::size_t kMaxRecordedPositions = 4'000'000;
  bool active = false;
  RecordingObserver recording;
  std::size_t reserved_joints = 0;  // the shape `recording` was made for
  int reserved_iterations = 0;
  SolveResult result;  // what the recorded solve returned
  glm::vec3 recorded_target{0.0f};
  std::vector<glm::vec3> recorded_from;  // the chain pose the recording started from
  std::size_t step = 0;                  // 0 = start pose, k = after reach k - 1
  std::vector<glm::vec3> pose;           // the pose shown for `step`
  std::vector<glm::vec3> ghost;          // the pose one reach earlier
  bool playing = false;                  // advance automatically
  float reaches_per_second = 4.0f;
  float play_accumulator = 0.0f;
  // With the chain scene's tools on, the recorded solve is theirs (core/tool_passes.h): the
  // recorded passes are the position solve's, and each tool that then moves the chain (two_bone,
  // stiffness, aim, turn limit, stretch) adds one step after them, its whole pose. Steps
  // reach_count() + 1 .. total_steps() show tool_steps in order; the last one is the pose the
  // frame's solve would draw.
  struct ToolStep {
    ToolStage stage;
    std::vector<glm::vec3> pose;
  };
  std::vector<ToolStep> tool_steps;
  std::size_t tool_step_count = 0;  // tool_steps in use (the rest are kept for their storage)
  ToolState tools;                  // the recorded solve's copy of the tools' settings
  std::size_t total_steps() const { return recording.reach_count() + tool_step_count; }
};

// The race: every solver on its own copy of the chain, chasing the same target.
struct RaceEntry {
  SolverKind kind = SolverKind::kFabrik;
  bool accelerate = false;  // FABRIK only: the accelerated racer
  std::optional<Chain> chain;
  SolveResult last;
  double solve_us = 0.0;
  History<240> iteration_history;
  History<240> solve_us_history;
};

struct RaceState {
  bool active = false;
  std::vector<RaceEntry> entries;
};

// The ground the walker scene stands on (docs/walker.md: Terrain). Loaded by --terrain, by
// `terrain load`, or (the default file, else flat ground) when the walker scene first starts.
struct TerrainState {
  std::shared_ptr<const Heightmap> map;  // null until loaded
  std::string path;                      // as written; "" for flat ground
  float size = 40.0f;                    // S, world units (--terrain-size)
  float height = 3.0f;                   // H, world units (--terrain-height)
  int revision = 0;                      // bumped on every change (the shell rebuilds its mesh)
};

// AppState's parts. Each is a plain struct, so a function that needs one part can take just
// that part (const SolvePart&, ...); AppState is all of them.

// The chain and how it is solved: what `joints`, `length`, `lengths`, `moe`, `iterations`,
// `solver`, `accelerate` and the tools' commands (soften, stretch, ...) change.
struct SolvePart {
  explicit SolvePart(Chain initial) : chain(std::move(initial)) {}
  Chain chain;
  std::vector<float> lengths;  // what the panel edits; applied through RebuildChain
  float uniform_length = 1.0f;
  SolveSettings settings;
  SolverKind solver = SolverKind::kFabrik;
  ToolState tools;  // the chain scene's everyday IK tools (core/tool_state.h)
};

// The target and where it comes from (targets/target_sources.h): the mode, the mixer that is
// the target's one writer, and the four sources.
struct TargetPart {
  TargetMode mode = TargetMode::kDrag;
  TargetMixer targeting;  // the target's one writer
  DragTarget drag;
  SplineTarget spline;
  ConsoleTarget typed;
  ScriptTarget script;
  const glm::vec3& target() const { return targeting.position(); }
  TargetSource& source(TargetMode m) {
    switch (m) {
      case TargetMode::kSpline:
        return spline;
      case TargetMode::kConsole:
        return typed;
      case TargetMode::kScript:
        return script;
      case TargetMode::kDrag:
        break;
    }
    return drag;
  }
};

// What is solved and the views on the solve: the current scene and what scenes keep (their
// configurations, state.scene.configs; the terrain), bone rotations and skinning, the step view,
// the race, record and replay, the free root.
struct ScenePart {
  SceneState scene;
  TerrainState terrain;
  OrientState orient;  // bone rotations, orientation target, skin and axes (core/orient.h)
  StepState step;
  RaceState race;
  // Record and replay (core/target_recording.h) and the free root (core/free_root_state.h;
  // the 2D view, core/view_2d.h, is the camera's planar mode).
  TargetRecording recording;
  FreeRootState root;
};

// Results of this frame's solve, the histories the panel plots, and the frame's timing.
struct ResultsPart {
  SolveResult last;
  double solve_us = 0.0;
  History<240> iteration_history;
  History<240> solve_us_history;
  History<240> fps_history;
  FrameTiming timing;
};

// The session around the solve: where data lives, the console and the command language's
// context, the camera and window, help, screenshots, the last message and quitting.
struct SessionPart {
  std::string data_dir;   // folder holding shaders/ and assets/
  double fixed_dt = 0.0;  // seconds per frame; 0 = real time (--fixed-dt)
  ConsoleState console;
  CommandContext command_context;         // search roots for relative paths (the data dir)
  std::vector<std::string> spline_files;  // assets/splines/*.txt, for the panel's picker
  std::vector<std::string> script_files;  // assets/scripts/*.txt
  ViewState view;

  bool quit_requested = false;  // `quit`: the shell closes the window after this frame

  // Help overlay and screenshots (docs/settings.md).
  bool help_open = false;                      // the help overlay (F1)
  std::string screenshot_dir = ".";            // --screenshot-dir
  std::string screenshot_pending;              // the shell writes this PNG this frame; "" none
  std::optional<std::string> last_screenshot;  // the last one written

  // The latest user-facing message (an error in red, or a notice).
  std::string message;
  bool message_is_error = false;
};

struct AppState : SolvePart, TargetPart, ScenePart, ResultsPart, SessionPart {
  explicit AppState(Chain initial) : SolvePart(std::move(initial)) {}
};

}  // namespace fabrik
