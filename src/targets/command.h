// command.h - the one command language of the console panel and of script files
// (README "The console and script language"), parsed into plain, fully validated values.
//
// A line is words separated by spaces; "double quotes" make one word of text with spaces
// (for paths); '#' outside quotes starts a comment. Command names and keywords are
// case-insensitive; paths are taken as written. Numbers are decimal ("2", "-0.5", "1e-3");
// NaN, inf and out-of-range values are rejected.
//
//   target X Y Z [YAW PITCH ROLL] set the target, world units, |coordinate| <= 1e6; the
//                                optional angles (degrees, |angle| <= 3600) also set its
//                                orientation (README: Rotations, orientation target and skinning)
//   mode drag|spline|console|script
//   joints N                     joint count, root included: 2..10000
//   length L                     every segment's length: 0.0001 <= L <= 1000
//   lengths A B C ...            per-segment lengths (1..9999 of them, each 0.0001..1000)
//   moe E                        margin of error, world units: 0 < E <= 100
//   iterations N                 iteration cap per solve: 1..100000
//   spline load PATH             load a spline file (spline_file.h) now, at parse time
//   spline speed V               world units per second along the curve: 0 < V <= 1000
//   spline play|pause|restart    spline playback
//   spline loop|pingpong         what an open curve does at its end
//   script run PATH              load a script file (script.h) now, at parse time
//   script play|pause|restart|stop
//   camera reset                 state                    help [COMMAND]
//   solver fabrik|ccd|jacobian_transpose|dls              (the app checks availability)
//   scene chain|arm|creature|walker                       clear (clears the console)
//   step on|off|next [N]|prev [N]|pass|back|iteration|start|end|play|pause
//   race on|off                  quit
//   accelerate on|off            accelerated FABRIK (ik/fabrik_accelerated.h) or the textbook
//
// The promise: ParseCommand either fails with one line naming the problem, or returns a
// Command whose every value is within the ranges above, so that carrying it out cannot
// fail. Files named by `spline load` and `script run` are read and parsed during
// ParseCommand: the Command carries the parsed Spline / Script, and a missing or malformed
// file is a parse error ("assets/splines/x.txt:7: expected 3 numbers 'X Y Z', got '1 2'")
// that changes nothing.
//
// Relative paths are looked up first in the working directory, then under each of
// CommandContext::search_roots in order (the app passes the project's root, so that
// "assets/splines/word.txt" works from any working directory). Absolute paths are used as is.
#pragma once

#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include <glm/vec3.hpp>

#include "ik/result.h"
#include "targets/catmull_rom.h"
#include "targets/spline_follower.h"

namespace fabrik {

class Script;  // script.h

// Where the target comes from.
enum class TargetMode { kDrag, kSpline, kConsole, kScript };
// "drag", "spline", "console", "script".
std::string_view ModeName(TargetMode mode);

// Ranges promised for parsed commands (inclusive unless noted).
inline constexpr int kMinJoints = 2;
inline constexpr int kMaxJoints = 10000;
inline constexpr float kMinSegmentLength = 1.0e-4f;  // lengths are in [kMin, kMax]: shorter
inline constexpr float kMaxSegmentLength = 1000.0f;  // ones cannot keep their length in float
                                                     // beside the longest reach (README)
inline constexpr float kMaxTolerance = 100.0f;       // moe is in (0, this]
inline constexpr int kMinIterations = 1;
inline constexpr int kMaxIterations = 100000;
inline constexpr float kMaxTargetCoordinate = 1.0e6f;     // |x|, |y|, |z| <= this
inline constexpr float kMaxTargetAngleDegrees = 3600.0f;  // |yaw|, |pitch|, |roll| <= this
// Spline speeds are in (0, SplineFollower::kMaxSpeed].

// A command the app adds to the language: one entry of the app's command table
// (core/command_table.h) holds it, with how the app carries it out. Parsing checks the words
// with `parse`; the command travels as cmd::Extension.
struct CommandExtension {
  std::string_view name;     // first word, lower case, not a built-in command's name
  std::string_view usage;    // e.g. "echo TEXT ..."
  std::string_view summary;  // one line for `help`
  std::span<const std::string_view> details;  // extra lines for `help NAME`
  // Checks the words after the name. Returns them in canonical form (what FormatCommand
  // writes back: keywords lower case), or one error line naming the command and problem.
  Result<std::vector<std::string>> (*parse)(std::span<const std::string> args) = nullptr;
  std::span<const std::string_view> keywords;  // Tab completions of the first argument
};

// How ParseCommand finds files and which commands it allows.
struct CommandContext {
  // Folders tried, in order, after the working directory, for relative paths. Usually one
  // entry: the project root (the folder holding assets/).
  std::vector<std::string> search_roots;
  // Set while parsing a script file: `script run` is then an error (scripts cannot start
  // scripts, so there is no recursion).
  bool in_script = false;
  // The scenes `scene NAME` accepts, when the app has its own list (its scene registry);
  // empty: SceneNames(). The views must outlive the context (the app's are literals).
  std::vector<std::string_view> scene_names;
  // Commands the app adds (its command table); they parse, complete and are listed by
  // `help` when given here. Must outlive the context (the app's table is static).
  std::span<const CommandExtension> extensions;
};

// The commands, one struct each. Names of fields say their units.
namespace cmd {

enum class Playback { kPlay, kPause, kRestart, kStop };

// Blank line or comment: do nothing; not an error.
struct Nothing {};
// target X Y Z [YAW PITCH ROLL]
struct Target {
  glm::vec3 position{0.0f};  // world space, each |coordinate| <= kMaxTargetCoordinate
  // Yaw, pitch, roll in degrees, each |angle| <= kMaxTargetAngleDegrees, when given: the
  // orientation the end effector should take (ik/orientation_target.h's EulerDegreesToQuat).
  // Without them the orientation is left as it is.
  std::optional<glm::vec3> angles_deg;
};
// mode drag|spline|console|script
struct Mode {
  TargetMode mode = TargetMode::kDrag;
};
// joints N
struct Joints {
  int count = 2;  // [kMinJoints, kMaxJoints], root included
};
// length L
struct Length {
  float length = 1.0f;  // world units, [kMinSegmentLength, kMaxSegmentLength]
};
// lengths A B C ...
struct Lengths {
  std::vector<float> lengths;  // 1..kMaxJoints-1 values, each in [kMinSegmentLength, kMaxSegmentLength]
};
// moe E
struct Moe {
  float tolerance = 0.01f;  // world units, (0, kMaxTolerance]
};
// iterations N
struct Iterations {
  int max_iterations = 10;  // [kMinIterations, kMaxIterations]
};
// spline load PATH
struct SplineLoad {
  std::string path;           // as written
  std::string resolved_path;  // where it was found
  Spline spline;              // parsed and valid
};
// spline speed V
struct SplineSpeed {
  float speed = 1.0f;  // world units per second, (0, SplineFollower::kMaxSpeed]
};
// spline play|pause|restart
struct SplinePlayback {
  Playback action = Playback::kPlay;  // never kStop
};
// spline loop|pingpong
struct SplineEnd {
  EndBehavior behavior = EndBehavior::kLoop;
};
// script run PATH
struct ScriptRun {
  std::string path;                      // as written
  std::string resolved_path;             // where it was found
  std::shared_ptr<const Script> script;  // parsed and valid, never null
};
// script play|pause|restart|stop
struct ScriptPlayback {
  Playback action = Playback::kPlay;
};
// camera reset
struct CameraReset {};
// state
struct State {};
// help [COMMAND]
struct Help {
  std::string topic;  // empty, or a name from CommandList() (lower case)
};
// solver NAME
struct Solver {
  std::string name;  // one of SolverNames() (lower case)
};
// scene NAME
struct Scene {
  std::string name;  // one of SceneNames() (lower case)
};
// clear (the console)
struct Clear {};

// step on|off|next [N]|prev [N]|pass|back|iteration|start|end|play|pause: the step-through
// view of a solve (the app replays one recorded solve reach by reach).
enum class StepAction {
  kOn, kOff, kNext, kPrev, kPass, kBack, kIteration, kStart, kEnd, kPlay, kPause
};
struct Step {
  StepAction action = StepAction::kOn;
  int count = 1;  // reaches for next/prev: 1..100000
};
// race on|off: every solver on its own copy of the chain
struct Race {
  bool on = true;
};
// quit: close the demo
struct Quit {};
// accelerate on|off: FABRIK with bend-scale steps (SolveSettings::accelerate) or textbook
struct Accelerate {
  bool on = true;
};
// A command from CommandContext::extensions: its name and canonical argument words.
struct Extension {
  std::string name;
  std::vector<std::string> args;
};

}  // namespace cmd

using Command =
    std::variant<cmd::Nothing, cmd::Target, cmd::Mode, cmd::Joints, cmd::Length, cmd::Lengths,
                 cmd::Moe, cmd::Iterations, cmd::SplineLoad, cmd::SplineSpeed, cmd::SplinePlayback,
                 cmd::SplineEnd, cmd::ScriptRun, cmd::ScriptPlayback, cmd::CameraReset, cmd::State,
                 cmd::Help, cmd::Solver, cmd::Scene, cmd::Clear, cmd::Step, cmd::Race,
                 cmd::Quit, cmd::Accelerate, cmd::Extension>;

// Parses one line (see the top of this file). Blank and comment-only lines give
// cmd::Nothing. Errors are one line naming the command and the problem, e.g.
//   "joints: expected an integer from 2 to 10000, got 'abc'"
//   "moe: expected a number > 0 and <= 100, got 'nan' (not a finite number)"
//   "unknown command 'jionts' (type 'help' for the list)"
Result<Command> ParseCommand(std::string_view line, const CommandContext& context = {});

// The same, for a line already split into words (comments removed); used by script.cpp.
Result<Command> ParseCommandWords(std::span<const std::string> words,
                                  const CommandContext& context = {});

// Checks a command against the ranges documented above, field by field: OK for anything
// ParseCommand returns without extensions (a `help` topic or an extension command is checked
// only by name here); an error naming the first bad field for a hand-built command
// ("joints: count 1 is outside 2..10000"). The app can use it before carrying out commands
// that did not come from the parser.
Status ValidateCommand(const Command& command);

// Canonical text of a command, which ParseCommand reads back to an equal command (floats
// are written with 9 significant digits; loads write the path as written). "" for Nothing.
std::string FormatCommand(const Command& command);

// The command's name as typed: "target", "spline", ...; "" for Nothing.
std::string_view CommandName(const Command& command);

// A command in the help list.
struct CommandInfo {
  std::string_view name;     // first word, lower case
  std::string_view usage;    // e.g. "joints N"
  std::string_view summary;  // one line
};
// Every command, in the order `help` lists them.
std::span<const CommandInfo> CommandList();

// Lines to print for `help` (topic empty: one line per command) or `help TOPIC` (usage,
// summary and details of that command). An unknown topic gives one line saying so.
std::vector<std::string> HelpLines(std::string_view topic = {});
// The same, with the app's own commands (listed after the built-in ones).
std::vector<std::string> HelpLines(std::string_view topic,
                                   std::span<const CommandExtension> extensions);

// Names accepted by `solver` and `scene`, in the order they are listed.
std::span<const std::string_view> SolverNames();
std::span<const std::string_view> SceneNames();

// Tab completion. Returns every complete line the user could mean by `prefix`, sorted:
//   "sp"          -> {"spline "}          (a trailing space when more words must follow)
//   "spline p"    -> {"spline pause", "spline pingpong", "spline play"}
//   "mode s"      -> {"mode script", "mode spline"}
//   "help jo"     -> {"help joints"}
// Empty when nothing matches. With a context, the PATH of `spline load` and `script run`
// is completed from files on disk (working directory, then search roots; folders end in '/').
std::vector<std::string> CompleteCommand(std::string_view prefix);
std::vector<std::string> CompleteCommand(std::string_view prefix, const CommandContext& context);

// The longest common prefix of `candidates` ("" for none): what Tab can safely insert when
// there are several candidates.
std::string CommonPrefix(std::span<const std::string> candidates);

// Where a data file named `path` is: `path` itself if absolute or if it exists relative to
// the working directory, else the first search_roots[i]/path that exists, else `path`
// unchanged (so opening it reports the path the user wrote). Never fails.
std::string ResolveDataPath(std::string_view path, std::span<const std::string> search_roots);

}  // namespace fabrik
