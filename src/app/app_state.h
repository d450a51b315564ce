// app_state.h - the one place the demo's state lives. Every system reads and writes this.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <glm/mat4x4.hpp>
#include <glm/vec2.hpp>
#include <glm/vec3.hpp>

#include "app/history.h"
#include "app/options.h"
#include "app/scenes.h"
#include "camera/orbit_camera.h"
#include "ik/chain.h"
#include "ik/recording_observer.h"
#include "ik/solve_types.h"
#include "ik/solver.h"
#include "targets/command.h"
#include "targets/drag_source.h"
#include "targets/script.h"
#include "targets/spline_follower.h"

namespace fabrik {

// Limits of the panel's widgets (the command line and console allow more joints).
inline constexpr int kPanelMaxJoints = 200;

// Smoothly carries the target from where it was to where a new source wants it, so that
// switching modes never makes the chain jump.
struct TargetBlend {
  bool active = false;
  glm::vec3 from{0.0f};
  float elapsed = 0.0f;
  float duration = 0.6f;  // seconds
};

struct FrameTiming {
  long frame = 0;          // frames completed
  double time = 0.0;       // simulated seconds (fixed-dt aware)
  float dt = 0.0f;         // simulated seconds this frame
  float real_dt = 0.0f;    // wall-clock seconds this frame
  float fps = 0.0f;        // smoothed
  float frame_ms = 0.0f;   // smoothed
};

struct ViewState {
  OrbitCamera camera;
  glm::ivec2 window_size{1, 1};
  glm::ivec2 framebuffer_size{1, 1};
  glm::mat4 view{1.0f};
  glm::mat4 projection{1.0f};
  float panel_width = 340.0f;  // screen coordinates; the scene is centred beside it
  // The pointer as this frame's input saw it (window coordinates, top-left origin), and the
  // left, right and middle buttons. Written to the state line so tests can wait for input
  // to arrive instead of sleeping.
  bool cursor_valid = false;
  glm::vec2 cursor{0.0f};
  bool buttons[3] = {false, false, false};
};

// The console panel: a scrollback log, an input line and its history.
struct ConsoleLine {
  enum class Kind { kInput, kOutput, kError };
  Kind kind = Kind::kOutput;
  std::string text;
};

struct ConsoleState {
  bool open = false;
  bool focus_input = false;      // give the input line the keyboard on the next frame
  bool scroll_to_bottom = false;
  char input[512] = {};
  std::vector<ConsoleLine> log;  // bounded: oldest lines dropped past kMaxLines
  std::vector<std::string> history;
  int history_pos = -1;          // -1: editing a new line
  static constexpr std::size_t kMaxLines = 2000;
  static constexpr std::size_t kMaxLineBytes = 8192;  // longer lines are cut, with a note
};

struct SplineState {
  SplineFollower follower;
  std::string path;                     // as loaded, for the panel
  std::vector<glm::vec3> polyline;      // tessellated once per load, for drawing
  char path_input[512] = {};
  int picked = -1;                      // index in the panel's file list
};

struct ScriptState {
  ScriptPlayer player;
  std::string path;
  bool running = false;                 // started and not stopped or finished
  std::optional<glm::vec3> target;      // the scripted target, once a line set it
  char path_input[512] = {};
  int picked = -1;
};

// The step-through view: one solve recorded half-pass by half-pass and replayed one reach at
// a time. While it is on, target sources are paused and the real chain keeps the pose the
// recorded solve started from; leaving the view lets the normal solve run on from there.
struct StepState {
  // The recording keeps at most this many joint positions (48 MB): a long chain with a high
  // iteration cap records its first iterations only, and the view says so (README: Step view).
  static constexpr std::size_t kMaxRecordedPositions = 4'000'000;
  bool active = false;
  RecordingObserver recording;
  std::size_t reserved_joints = 0;  // the shape `recording` was made for
  int reserved_iterations = 0;
  SolveResult result;                  // what the recorded solve returned
  glm::vec3 recorded_target{0.0f};
  std::vector<glm::vec3> recorded_from;  // the chain pose the recording started from
  std::size_t step = 0;                // 0 = start pose, k = after reach k - 1
  std::vector<glm::vec3> pose;         // the pose shown for `step`
  std::vector<glm::vec3> ghost;        // the pose one reach earlier
  bool playing = false;                // advance automatically
  float reaches_per_second = 4.0f;
  float play_accumulator = 0.0f;
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

struct AppState {
  explicit AppState(Chain initial) : chain(std::move(initial)) {}

  Options options;
  std::string data_dir;  // folder holding shaders/ and assets/

  // The chain and how it is solved.
  Chain chain;
  std::vector<float> lengths;  // what the panel edits; applied through RebuildChain
  float uniform_length = 1.0f;
  SolveSettings settings;
  SolverKind solver = SolverKind::kFabrik;

  // The target and where it comes from.
  TargetMode mode = TargetMode::kDrag;
  glm::vec3 target{0.0f};
  glm::vec3 source_target{0.0f};  // what the active source asks for (before blending)
  TargetBlend blend;
  DragSource drag;
  bool dragging = false;
  SplineState spline;
  ScriptState script;
  ConsoleState console;
  CommandContext command_context;  // search roots for relative paths (the data dir)
  std::vector<std::string> spline_files;  // assets/splines/*.txt, for the panel's picker
  std::vector<std::string> script_files;  // assets/scripts/*.txt

  // Results of this frame's solve.
  SolveResult last;
  double solve_us = 0.0;
  History<240> iteration_history;
  History<240> solve_us_history;
  History<240> fps_history;

  StepState step;
  RaceState race;
  SceneState scene;

  ViewState view;
  FrameTiming timing;
  int draw_calls = 0;

  // Requests made during a frame (by the panel, keys or console) and applied next frame at
  // the settings step, so a frame never changes the chain half-way through.
  std::optional<std::vector<float>> pending_lengths;
  std::optional<TargetMode> pending_mode;
  bool pending_camera_reset = false;
  bool quit_requested = false;

  // The latest user-facing message (an error in red, or a notice).
  std::string message;
  bool message_is_error = false;
};

}  // namespace fabrik
