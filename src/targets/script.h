// script.h - timed command scripts (assets/scripts/*.txt, docs/language.md "Script files") and the
// player that runs them.
//
// Format, one item per line:
//   # comment                       '#' starts a comment anywhere (also after a command)
//   at T COMMAND...                 run COMMAND (command.h) when script time reaches T s
//   at T target X Y Z over D        glide the target linearly, from wherever it is at time
//                                   T, to X Y Z, arriving at time T + D
// Blank lines are ignored; `at` and `over` are case-insensitive.
//   * T: seconds from the start, a finite number in [0, kMaxTime]. Times must not decrease
//     down the file (an earlier time after a later one is an error, so the file reads in the
//     order it runs); equal times run in file order.
//   * D: seconds, finite, in [0, kMaxTime]; D = 0 is the same as a plain `target`.
//   * COMMAND: any command of command.h except `script run` (no scripts inside scripts).
//     `spline load PATH` is loaded when the script is parsed, resolving PATH like the console
//     does (working directory, then the context's search roots), so a script file names
//     splines relative to the project root ("assets/splines/word.txt").
// Errors are one line, "NAME:LINE: message", e.g.
//   "assets/scripts/tour.txt:12: joints: expected an integer from 2 to 10000, got 'x'"
//   "assets/scripts/tour.txt:9: time 3 is earlier than the previous line's time 5"
// Nothing throws.
#pragma once

#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <glm/vec3.hpp>

#include "ik/result.h"
#include "targets/command.h"

namespace fabrik {

// One timed line of a script.
struct ScriptLine {
  double time = 0.0;  // seconds from the script's start, >= 0, non-decreasing down the list
  // Never cmd::Nothing or cmd::ScriptRun. A cmd::Target here moves the scripted target (it
  // never appears in ScriptStep::commands).
  Command command;
  double glide_seconds = 0.0;   // > 0 only for `target ... over D`
  std::size_t source_line = 0;  // 1-based line in the file
  std::string text;             // the line as written, without comment, for the panel
};

class Script;

// Parses script text. `source_name` labels errors; `context` resolves `spline load` paths
// (its in_script flag is forced on). An empty script (only comments) is valid.
Result<Script> ParseScriptText(std::string_view text, std::string_view source_name,
                               const CommandContext& context = {});

// Reads and parses the script at `path` (used as given; `script run` resolves it first).
// A missing or unreadable file gives "PATH: cannot open file (reason)".
Result<Script> LoadScriptFile(const std::string& path, const CommandContext& context = {});

// A parsed, valid script: its timed lines in the order they run.
class Script {
 public:
  static constexpr double kMaxTime = 1.0e6;  // seconds, for T and D
  // Bounds on what one script may hold, so that no script can exhaust memory (docs/language.md:
  // Script files): timed lines, and spline control points over all its `spline load` lines.
  static constexpr std::size_t kMaxLines = 100000;
  static constexpr std::size_t kMaxSplinePoints = 100000;

  const std::string& source_name() const { return source_name_; }
  const std::vector<ScriptLine>& lines() const { return lines_; }
  // The time of the last event: max over lines of time + glide_seconds (0 if empty).
  double duration() const { return duration_; }

 private:
  friend Result<Script> ParseScriptText(std::string_view, std::string_view, const CommandContext&);
  std::string source_name_;
  std::vector<ScriptLine> lines_;
  double duration_ = 0.0;
};

// What one ScriptPlayer::Advance produced.
struct ScriptStep {
  // Commands that became due during this step, in file order. Never cmd::Target (targets
  // come out in `target`), never cmd::Nothing or cmd::ScriptRun. The app carries them out
  // after Advance returns, exactly as if typed in the console, except that script commands
  // (script pause/stop/restart) act on this same player.
  std::vector<Command> commands;
  // The scripted target at the end of this step, once any target line has fired since the
  // start; it then keeps its last value (also while paused and after the end).
  std::optional<glm::vec3> target;
  bool gliding = false;  // a glide is in progress at the end of this step
  // The angles (yaw, pitch, roll in degrees, each within kMaxTargetAngleDegrees) of the last
  // `target X Y Z YAW PITCH ROLL` line that fired during this step, if one did: the app sets
  // its orientation target to them at once, while the position glides.
  std::optional<glm::vec3> target_angles_deg;
};

// How much of one step's due work may run (docs/limits.md: Bounds, "script lines in a frame").
// Each due line costs cost(command) units (1 when `cost` is null; a target line costs 1). A
// line runs when the units used so far in the step plus its cost fit in `units`, and the
// first due line of a step always runs, so a script always moves on. Lines that do not fit
// stay due and run first on the next steps, in file order; script time moves on regardless.
struct ScriptBudget {
  std::size_t units = static_cast<std::size_t>(-1);  // no limit
  std::size_t (*cost)(const Command& command) = nullptr;
};

// Plays a Script against script time. Deterministic: time is accumulated in double, and a
// line at time T is due once script time >= T - kTimeEpsilon, so with a fixed dt a line at
// T = k * dt fires on step k exactly (float rounding of the sum cannot delay it a step), and
// every line fires exactly once per run, in file order.
//
// The player does not know about modes. Suggested app behaviour: keep advancing a started
// script until it finishes or is stopped, even if one of its commands switches the mode
// (so a tour can show spline mode), and use ScriptStep::target as the target while the mode
// is `script`.
class ScriptPlayer {
 public:
  static constexpr double kTimeEpsilon = 1.0e-7;  // seconds

  ScriptPlayer() = default;

  // Loads `script` (null unloads) and stops: time 0, not playing. Call Start() to run it.
  void SetScript(std::shared_ptr<const Script> script);
  bool has_script() const { return script_ != nullptr; }
  // The loaded script; only valid when has_script().
  const Script& script() const { return *script_; }

  // From the beginning, playing: time 0, no line fired, no scripted target yet.
  void Start();
  // Keeps going from the current time. Does nothing without a script.
  void Play();
  void Pause() { playing_ = false; }
  // Same as Start().
  void Restart() { Start(); }
  // Back to time 0, not playing, no scripted target.
  void Stop();

  // Advances script time by dt seconds when playing (negative, NaN or infinite dt counts as
  // 0) and returns what happened. `current_target` is where the target is now (world
  // space): a glide that fires in this step starts from it, unless an earlier glide is still
  // running at that moment, in which case it starts from that glide's position then.
  // Glide positions are exact at the step's end time; at T + D the target is exactly XYZ.
  // `budget` bounds the lines run in this step (ScriptBudget); a line held back by it runs on
  // a later step (even while paused it stays due), before any line after it.
  ScriptStep Advance(double dt, const glm::vec3& current_target, const ScriptBudget& budget = {});

  bool playing() const { return playing_; }
  // Script time in seconds since Start (0 when stopped).
  double time() const { return time_; }
  // Index into script().lines() of the next line to fire; == lines().size() when all fired.
  std::size_t next_line_index() const { return next_; }
  // Its 1-based file line, or 0 when all have fired or there is no script.
  std::size_t next_source_line() const;
  // Lines whose time has come but that a budget held back (0 when none).
  std::size_t due_lines() const;
  double duration() const { return script_ ? script_->duration() : 0.0; }
  // True when every line has fired and the last glide has arrived (also for an empty
  // script once started). A finished script stays finished until Start/Restart.
  bool finished() const;

 private:
  glm::vec3 GlideAt(double t) const;

  std::shared_ptr<const Script> script_;
  bool playing_ = false;
  bool started_ = false;
  double time_ = 0.0;
  std::size_t next_ = 0;
  // The scripted target: a glide from glide_from_ (at glide_start_) to glide_to_ (at
  // glide_end_); a plain target is a glide of zero duration.
  bool has_target_ = false;
  glm::vec3 glide_from_{0.0f};
  glm::vec3 glide_to_{0.0f};
  double glide_start_ = 0.0;
  double glide_end_ = 0.0;
};

}  // namespace fabrik
