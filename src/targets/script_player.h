// script_player.h - plays a parsed Script (lang/script.h) against script time: which lines
// are due in each step and where the scripted target glides.
#pragma once

#include <cstddef>
#include <memory>
#include <optional>
#include <vector>

#include <glm/vec3.hpp>

#include "lang/script.h"

namespace fabrik {

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
