// Applying the spline and script commands (the language half, which reads the files, is
// lang/commands_playback.cpp).
#include <cstdio>

#include "core/command_apply.h"
#include "core/commands.h"
#include "core/frame.h"

namespace fabrik {

bool Apply(AppState& state, const cmd::SplineLoad& c, CommandOutput& out) {
  UseSpline(state, c.spline, c.path);
  if (out.source() != CommandSource::kScript) SetMode(state, TargetMode::kSpline);
  char length[64];
  std::snprintf(length, sizeof(length), ": length %.4g", static_cast<double>(c.spline.length()));
  out.Print("spline " + c.resolved_path + length);
  return true;
}

bool Apply(AppState& state, const cmd::SplineSpeed& c, CommandOutput& out) {
  (void)state.spline.follower.SetSpeed(c.speed);  // validated by the parser
  char text[64];
  std::snprintf(text, sizeof(text), "spline speed %.4g", static_cast<double>(c.speed));
  out.Print(text);
  return true;
}

bool Apply(AppState& state, const cmd::SplinePlayback& c, CommandOutput&) {
  SplineFollower& f = state.spline.follower;
  switch (c.action) {
    case cmd::Playback::kPlay:
      f.Play();
      break;
    case cmd::Playback::kPause:
      f.Pause();
      break;
    case cmd::Playback::kRestart:
      f.Restart();
      break;
    case cmd::Playback::kStop:
      f.Pause();
      f.Restart();
      break;
  }
  return true;
}

bool Apply(AppState& state, const cmd::SplineEnd& c, CommandOutput&) {
  state.spline.follower.SetEndBehavior(c.behavior);
  return true;
}

bool Apply(AppState& state, const cmd::ScriptRun& c, CommandOutput& out) {
  if (out.source() == CommandSource::kScript) {
    return out.Fail("script run: scripts cannot start scripts");
  }
  UseScript(state, c.script, c.path);
  SetMode(state, TargetMode::kScript);
  out.Print("script " + c.resolved_path + " started");
  return true;
}

bool Apply(AppState& state, const cmd::ScriptPlayback& c, CommandOutput&) {
  ScriptPlayer& p = state.script.player;
  switch (c.action) {
    case cmd::Playback::kPlay:
      if (p.finished() || !state.script.running) {
        p.Start();
      } else {
        p.Play();
      }
      state.script.running = p.has_script();
      break;
    case cmd::Playback::kPause:
      p.Pause();
      break;
    case cmd::Playback::kRestart:
      p.Restart();
      state.script.target.reset();
      state.script.running = p.has_script();
      break;
    case cmd::Playback::kStop:
      p.Stop();
      state.script.running = false;
      break;
  }
  return true;
}

}  // namespace fabrik
