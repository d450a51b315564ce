// The built-in commands that load and play spline and script files, the app's half: how each
// struct `spline ...` and `script ...` parse to is carried out (its apply, registered by its
// place in Command) and how the settings file keeps the loaded files (SavedSetting). Their
// language half is in lang/commands/playback.cpp; the group's entries at the end
// (Typed<T>) are what core/command_table.cpp's kGroups lists.
#include <cstdio>
#include <memory>

#include "core/builtin_table.h"
#include "core/execute.h"
#include "core/frame.h"
#include "lang/script.h"

namespace fabrik {
bool ApplyBuiltin(AppState& state, const cmd::SplineLoad& c, CommandOutput& out) {
  UseSpline(state, c.spline, c.path);
  if (out.source() != CommandSource::kScript) SetMode(state, TargetMode::kSpline);
  char length[64];
  std::snprintf(length, sizeof(length), ": length %.4g", static_cast<double>(c.spline.length()));
  out.Print("spline " + c.resolved_path + length);
  return true;
}

bool ApplyBuiltin(AppState& state, const cmd::SplineSpeed& c, CommandOutput& out) {
  (void)state.spline.follower.SetSpeed(c.speed);  // validated by the parser
  char text[64];
  std::snprintf(text, sizeof(text), "spline speed %.4g", static_cast<double>(c.speed));
  out.Print(text);
  return true;
}

bool ApplyBuiltin(AppState& state, const cmd::SplinePlayback& c, CommandOutput&) {
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

bool ApplyBuiltin(AppState& state, const cmd::SplineEnd& c, CommandOutput&) {
  state.spline.follower.SetEndBehavior(c.behavior);
  return true;
}

namespace {
// A spline or script on the command line sets the mode: the saved mode and files would take
// it back.
constexpr std::string_view kFileOverriddenBy[] = {"--spline", "--script", "--mode"};
// Saved: the loaded spline's path, restored by loading it again (a file since moved prints
// its error at start).
const SavedSetting kSplineSaved = {
    .key = "spline",
    .order = RestoreOrder::kFile,
    .capture =
        [](const AppState& state) {
          return state.spline.follower.has_spline() && !state.spline.path.empty()
                     ? nlohmann::json(SettingPath(state.spline.path))
                     : nlohmann::json();
        },
    .check = CheckSettingPath,
    .restore =
        [](const nlohmann::json& v, const SettingValues&, RestoreLines& out) {
          out.now.push_back(SettingQuoted("spline load", v.get<std::string>()));
        },
    .overridden_by = kFileOverriddenBy};
}  // namespace

bool ApplyBuiltin(AppState& state, const cmd::ScriptRun& c, CommandOutput& out) {
  if (out.source() == CommandSource::kScript) {
    return out.Fail("script run: scripts cannot start scripts");
  }
  UseScript(state, c.script, c.path);
  SetMode(state, TargetMode::kScript);
  out.Print("script " + c.resolved_path + " started");
  return true;
}

bool ApplyBuiltin(AppState& state, const cmd::ScriptPlayback& c, CommandOutput&) {
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

namespace {
// Saved: the loaded script's path. Restored loaded for the panel's picker, but never running
// on its own: a saved script may end in `quit`, which would end every later start. It is
// stopped unless the saved mode is script; in script mode it waits, paused (after the mode
// line, which plays it), for `script play`.
void RestoreScript(const nlohmann::json& v, const SettingValues& all, RestoreLines& out) {
  out.now.push_back(SettingQuoted("script run", v.get<std::string>()));
  const auto mode = all.find("mode");
  if (mode == all.end() || mode->second == "script") {
    out.last.push_back("script pause");
  } else {
    out.now.push_back("script stop");
  }
}
const SavedSetting kScriptSaved = {.key = "script",
                                   .order = RestoreOrder::kFile,
                                   .capture =
                                       [](const AppState& state) {
                                         return state.script.player.has_script() &&
                                                        !state.script.path.empty()
                                                    ? nlohmann::json(SettingPath(state.script.path))
                                                    : nlohmann::json();
                                       },
                                   .check = CheckSettingPath,
                                   .restore = RestoreScript,
                                   .overridden_by = kFileOverriddenBy};
}  // namespace

namespace {
// The group's entries, in the order of its CommandSpecs (lang/commands/playback.cpp).
constexpr CommandEntry kPlaybackEntries[] = {
    Typed<cmd::SplineLoad, cmd::SplineSpeed, cmd::SplinePlayback, cmd::SplineEnd>(&kSplineSaved),
    Typed<cmd::ScriptRun, cmd::ScriptPlayback>(&kScriptSaved)};
}  // namespace

std::span<const CommandEntry> PlaybackCommandEntries() { return kPlaybackEntries; }

}  // namespace fabrik
