// command.h - the one command language of the console panel and of script files
// (docs/language.md), parsed into plain, fully validated values.
//
// A line is words separated by spaces; "double quotes" make one word of text with spaces
// (for paths); '#' outside quotes starts a comment. Command names and keywords are
// case-insensitive; paths are taken as written. Numbers are decimal ("2", "-0.5", "1e-3");
// NaN, inf and out-of-range values are rejected.
//
//   target X Y Z [YAW PITCH ROLL] set the target, world units, |coordinate| <= 1e6; the
//                                optional angles (degrees, |angle| <= 3600) also set its
//                                orientation (docs/rotations.md)
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
//   scene chain|arm|creature|field|walker                 clear (clears the console)
//   step on|off|next [N]|prev [N]|pass|back|iteration|start|end|play|pause
//   race on|off                  quit
//
// The app adds its own commands (CommandContext::extensions), among them its on/off flags
// such as `accelerate on|off`.
//
// The promise: ParseCommand either fails with one line naming the problem, or returns a
// Command whose every value is within the ranges above, so that carrying it out cannot
// fail. Files named by `spline load` and `script run` are read and parsed during
// ParseCommand: the Command carries the parsed Spline / Script, and a missing or malformed
// file is a parse error ("assets/splines/<name>.txt:7: expected 3 numbers 'X Y Z', got '1 2'")
// that changes nothing.
//
// Relative paths are looked up first in the working directory, then under each of
// CommandContext::search_roots in order (the app passes the project's root, so that
// "assets/splines/word.txt" works from any working directory). Absolute paths are used as is.
#pragma once

#include <glm/vec3.hpp>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "ik/catmull_rom.h"
#include "ik/result.h"
#include "lang/number_range.h"
#include "lang/spline_playback.h"

namespace fabrik {

class Script;  // script.h

// Where the target comes from.
enum class TargetMode { kDrag, kSpline, kConsole, kScript };
// "drag", "spline", "console", "script".
std::string_view ModeName(TargetMode mode);
// Every mode's name, in the order of TargetMode.
std::span<const std::string_view> ModeNames();

// Ranges promised for parsed commands (inclusive unless noted), as the descriptors of
// lang/number_range.h state them.
inline constexpr int kMinJoints = static_cast<int>(kJointsRange.lowest);
inline constexpr int kMaxJoints = static_cast<int>(kJointsRange.highest);
inline constexpr float kMinSegmentLength = static_cast<float>(kSegmentLengthRange.lowest);
inline constexpr float kMaxSegmentLength = static_cast<float>(kSegmentLengthRange.highest);
inline constexpr float kMaxTolerance = static_cast<float>(kMoeRange.highest);  // moe: kMoeRange
inline constexpr int kMinIterations = static_cast<int>(kIterationsRange.lowest);
inline constexpr int kMaxIterations = static_cast<int>(kIterationsRange.highest);
inline constexpr float kMaxTargetCoordinate = 1.0e6f;     // |x|, |y|, |z| <= this
inline constexpr float kMaxTargetAngleDegrees = 3600.0f;  // |yaw|, |pitch|, |roll| <= this
// Spline speeds are in (0, kMaxSplineSpeed] (lang/spline_playback.h).

// A command the app adds to the language: the language half of one entry of the app's command
// registry (core/command_table.h), which holds it with how the app carries it out. Parsing checks
// the words with `parse`; the command travels as cmd::Extension.
struct CommandExtension {
  std::string_view name;     // first word, lower case, not a built-in command's name
  std::string_view usage;    // e.g. "echo TEXT ..."
  std::string_view summary;  // one line for `help`
  std::span<const std::string_view> details{};  // extra lines for `help NAME`
  // Checks the words after the name. Returns them in canonical form (what FormatCommand
  // writes back: keywords lower case), or one error line naming the command and problem.
  Result<std::vector<std::string>> (*parse)(std::span<const std::string> args) = nullptr;
  std::span<const std::string_view> keywords{};  // Tab completions of the first argument
  // An on/off flag: `name on|off`, parsed by ParseOnOff (below) into the word "on" or "off";
  // `parse` is then unused.
  bool on_off = false;
};

// How ParseCommand finds files and which commands it allows.
struct CommandContext {
  // Folders tried, in order, after the working directory, for relative paths. Usually one
  // entry: the project root (the folder holding assets/).
  std::vector<std::string> search_roots;
  // Set while parsing a script file: `script run` is then an error (scripts cannot start
  // scripts, so there is no recursion).
  bool in_script = false;
  // The scenes `scene NAME` accepts, completes and `help scene` lists: the app's scene
  // registry (scenes/registry.h). Empty (parsing without the app): `scene` takes any word
  // that can be a name, and the app refuses a scene it does not have when applying it. The
  // views must outlive the context (the app's are literals).
  std::vector<std::string_view> scene_names;
  // Commands the app adds (its command table); they parse, complete and are listed by
  // `help` when given here. Must outlive the context (the app's table is static).
  std::span<const CommandExtension> extensions;
};

// The commands, one struct each. Names of fields say their units. Every struct has:
//   kName            its command's first word ("" for Nothing)
//   Format()         its canonical text (see FormatCommand)
//   Validate()       OK when every field is within the ranges above (see ValidateCommand)
// defined next to its command's parser, in its group file lang/commands/*.cpp (the apply is
// the app's, in the file of the same name in core/commands/).
namespace cmd {

enum class Playback { kPlay, kPause, kRestart, kStop };

// Declares the three members every command struct has.
#define FABRIK_COMMAND(name)                        \
  static constexpr std::string_view kName = (name); \
  std::string Format() const;                       \
  Status Validate() const

// Blank line or comment: do nothing; not an error.
struct Nothing {
  FABRIK_COMMAND("");
};
// target X Y Z [YAW PITCH ROLL]
struct Target {
  FABRIK_COMMAND("target");
  glm::vec3 position{0.0f};  // world space, each |coordinate| <= kMaxTargetCoordinate
  // Yaw, pitch, roll in degrees, each |angle| <= kMaxTargetAngleDegrees, when given: the
  // orientation the end effector should take (ik/orientation_target.h's EulerDegreesToQuat).
  // Without them the orientation is left as it is.
  std::optional<glm::vec3> angles_deg;
};
// mode drag|spline|console|script
struct Mode {
  FABRIK_COMMAND("mode");
  TargetMode mode = TargetMode::kDrag;
};
// joints N
struct Joints {
  FABRIK_COMMAND("joints");
  int count = 2;  // [kMinJoints, kMaxJoints], root included
};
// length L
struct Length {
  FABRIK_COMMAND("length");
  float length = 1.0f;  // world units, [kMinSegmentLength, kMaxSegmentLength]
};
// lengths A B C ...
struct Lengths {
  FABRIK_COMMAND("lengths");
  std::vector<float>
      lengths;  // 1..kMaxJoints-1 values, each in [kMinSegmentLength, kMaxSegmentLength]
};
// moe E
struct Moe {
  FABRIK_COMMAND("moe");
  float tolerance = 0.01f;  // world units, within kMoeRange (lang/number_range.h)
};
// iterations N
struct Iterations {
  FABRIK_COMMAND("iterations");
  int max_iterations = 10;  // [kMinIterations, kMaxIterations]
};
// spline load PATH
struct SplineLoad {
  FABRIK_COMMAND("spline");
  std::string path;           // as written
  std::string resolved_path;  // where it was found
  Spline spline;              // parsed and valid
};
// spline speed V
struct SplineSpeed {
  FABRIK_COMMAND("spline");
  float speed = 1.0f;  // world units per second, (0, kMaxSplineSpeed]
};
// spline play|pause|restart
struct SplinePlayback {
  FABRIK_COMMAND("spline");
  Playback action = Playback::kPlay;  // never kStop
};
// spline loop|pingpong
struct SplineEnd {
  FABRIK_COMMAND("spline");
  EndBehavior behavior = EndBehavior::kLoop;
};
// script run PATH
struct ScriptRun {
  FABRIK_COMMAND("script");
  std::string path;                      // as written
  std::string resolved_path;             // where it was found
  std::shared_ptr<const Script> script;  // parsed and valid, never null
};
// script play|pause|restart|stop
struct ScriptPlayback {
  FABRIK_COMMAND("script");
  Playback action = Playback::kPlay;
};
// camera reset
struct CameraReset {
  FABRIK_COMMAND("camera");
};
// state
struct State {
  FABRIK_COMMAND("state");
};
// help [COMMAND]
struct Help {
  FABRIK_COMMAND("help");
  std::string topic;  // empty, or a name from CommandList() (lower case)
};
// solver NAME
struct Solver {
  FABRIK_COMMAND("solver");
  std::string name;  // one of SolverNames() (lower case)
};
// scene NAME
struct Scene {
  FABRIK_COMMAND("scene");
  std::string name;  // a scene's name: 1-32 of a-z, 0-9, '_', '-' (the app checks it has it)
};
// clear (the console)
struct Clear {
  FABRIK_COMMAND("clear");
};

// step on|off|next [N]|prev [N]|pass|back|iteration|start|end|play|pause: the step-through
// view of a solve (the app replays one recorded solve reach by reach).
enum class StepAction {
  kOn,
  kOff,
  kNext,
  kPrev,
  kPass,
  kBack,
  kIteration,
  kStart,
  kEnd,
  kPlay,
  kPause
};
struct Step {
  FABRIK_COMMAND("step");
  StepAction action = StepAction::kOn;
  int count = 1;  // reaches for next/prev: 1..100000
};
// race on|off: every solver on its own copy of the chain
struct Race {
  FABRIK_COMMAND("race");
  bool on = true;
};
// quit: close the demo
struct Quit {
  FABRIK_COMMAND("quit");
};
// A command from CommandContext::extensions: its name and canonical argument words.
// (kName is empty: its name is the field `name`.)
struct Extension {
  FABRIK_COMMAND("");
  std::string name;
  std::vector<std::string> args;
};

#undef FABRIK_COMMAND

}  // namespace cmd

// Every built-in command's type. Adding one: a struct above, its place here, its section in a
// group file of lang/commands/ (its parser in a CommandSpec, below, Format and Validate), and in
// the app core its apply and its registry entry, Typed<T> (core/builtin_table.h).
using Command =
    std::variant<cmd::Nothing, cmd::Target, cmd::Mode, cmd::Joints, cmd::Length, cmd::Lengths,
                 cmd::Moe, cmd::Iterations, cmd::SplineLoad, cmd::SplineSpeed, cmd::SplinePlayback,
                 cmd::SplineEnd, cmd::ScriptRun, cmd::ScriptPlayback, cmd::CameraReset, cmd::State,
                 cmd::Help, cmd::Solver, cmd::Scene, cmd::Clear, cmd::Step, cmd::Race, cmd::Quit,
                 cmd::Extension>;

// The language half of one built-in command: everything about it except how the app carries
// it out (its apply, an ApplyBuiltin overload declared in core/builtin_table.h, and its entry in
// the app's one command registry, which points at this spec). One spec per first word; the
// specs live in the group files lang/commands/*.cpp, each group listed once in kGroups in
// lang/command.cpp.
struct CommandSpec {
  std::string_view name{};     // first word, lower case (the kName of the structs it parses to)
  std::string_view usage{};    // e.g. "joints N"
  std::string_view summary{};  // one line for `help`
  std::span<const std::string_view> details{};  // extra lines for `help NAME`
  // Parses the words after the name into a command whose Validate() is OK, or one error
  // line naming the command and the problem.
  Result<Command> (*parse)(std::span<const std::string> args,
                           const CommandContext& context) = nullptr;
  // Tab completion: whether the name is completed with a trailing space (more words follow),
  // the first argument's keywords, those of them after which more words follow, and the
  // keyword after which a PATH follows (completed from disk; "" for none).
  bool name_takes_words = true;
  std::span<const std::string_view> keywords{};
  std::span<const std::string_view> keywords_taking_words{};
  std::string_view path_after{};
  // First-argument keywords that depend on the context (scene names, help topics); context
  // is null when completing without one.
  void (*context_keywords)(const CommandContext* context,
                           std::vector<std::string_view>& out) = nullptr;
  // The usage line given the context, for a command whose arguments are the context's
  // (`scene chain|arm|...`); null: `usage` always. `usage` is the line without a context.
  std::string (*context_usage)(const CommandContext& context) = nullptr;
};
// The older name: `help` lists CommandInfo's name, usage and summary.
using CommandInfo = CommandSpec;

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

// The language's one on/off parser, for built-in and app commands alike: exactly one word,
// "on" or "off" in any case (true for on). Otherwise one error naming `what`:
//   "skin: expected on or off, got 'maybe' (usage: skin on|off)"
//   "skin: expected on or off, got 2 arguments (usage: skin on|off)"
Result<bool> ParseOnOff(std::string_view what, std::span<const std::string> args);

// Canonical text of a command, which ParseCommand reads back to an equal command (floats
// are written with 9 significant digits; loads write the path as written). "" for Nothing.
std::string FormatCommand(const Command& command);

// The command's name as typed: "target", "spline", ...; "" for Nothing.
std::string_view CommandName(const Command& command);

// Every built-in command, in the order `help` lists them.
std::span<const CommandSpec> CommandList();
// The built-in command named `name` (lower case), or null.
const CommandSpec* FindCommand(std::string_view name);

// Lines to print for `help` (topic empty: one line per command) or `help TOPIC` (usage,
// summary and details of that command). An unknown topic gives one line saying so.
std::vector<std::string> HelpLines(std::string_view topic = {});
// The same, with the app's own commands (listed after the built-in ones).
std::vector<std::string> HelpLines(std::string_view topic,
                                   std::span<const CommandExtension> extensions);
// The same in a context: its extensions, and usage lines that follow it (the scene names).
std::vector<std::string> HelpLines(std::string_view topic, const CommandContext& context);

// Names accepted by `solver`, in the order they are listed. (The scenes are the app's:
// CommandContext::scene_names.)
std::span<const std::string_view> SolverNames();

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
