#include "core/commands.h"

#include <algorithm>
#include <cstdio>
#include <type_traits>

#include "core/command_table.h"
#include "core/frame.h"
#include "core/scene_registry.h"
#include "core/state_writer.h"
#include "core/step_view.h"
#include "ik/chain_rebuild.h"

namespace fabrik {
namespace {

template <class... Ts>
struct Overloaded : Ts... {
  using Ts::operator()...;
};
template <class... Ts>
Overloaded(Ts...) -> Overloaded<Ts...>;

std::string Fmt(const char* fmt, double a) {
  char buf[128];
  std::snprintf(buf, sizeof(buf), fmt, a);
  return buf;
}

std::string Vec(const glm::vec3& v) {
  char buf[128];
  std::snprintf(buf, sizeof(buf), "%.4g %.4g %.4g", v.x, v.y, v.z);
  return buf;
}

bool Fail(AppState& state, const std::string& text) {
  ConsolePrint(state, text, ConsoleLine::Kind::kError);
  SetMessage(state, text, true);
  return false;
}

void Playback(AppState& state, cmd::Playback action, bool spline) {
  if (spline) {
    SplineFollower& f = state.spline.follower;
    switch (action) {
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
    return;
  }
  ScriptPlayer& p = state.script.player;
  switch (action) {
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
}

}  // namespace

void ConsolePrint(AppState& state, std::string text, ConsoleLine::Kind kind) {
  auto& log = state.console.log;
  if (log.size() >= ConsoleState::kMaxLines) log.erase(log.begin(), log.begin() + 200);
  if (text.size() > ConsoleState::kMaxLineBytes) {
    // Cut on a UTF-8 character boundary, and say how much was left out.
    std::size_t cut = ConsoleState::kMaxLineBytes;
    while (cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80) --cut;
    const std::size_t left_out = text.size() - cut;
    text.resize(cut);
    text += " ... (" + std::to_string(left_out) + " more bytes)";
  }
  log.push_back({kind, std::move(text)});
  ++state.console.printed;
}

void UseSpline(AppState& state, Spline spline, const std::string& path) {
  state.spline.polyline = spline.Tessellate(24);
  state.spline.follower.SetSpline(std::move(spline));
  state.spline.path = path;
}

void UseScript(AppState& state, std::shared_ptr<const Script> script, const std::string& path) {
  state.script.player.SetScript(std::move(script));
  state.script.player.Start();
  state.script.running = true;
  state.script.target.reset();
  state.script.path = path;
}

bool Execute(AppState& state, const Command& command, CommandSource source) {
  const bool from_script = source == CommandSource::kScript;
  // Keys and panel widgets act quietly; the console, --exec and scripts print the result.
  auto out = [&](std::string text) {
    if (source != CommandSource::kQuiet) ConsolePrint(state, std::move(text));
  };
  return std::visit(
      Overloaded{
          [&](const cmd::Nothing&) { return true; },
          [&](const cmd::Target& c) {
            if (from_script) {
              state.script.target = c.position;  // the angles: `orient` in scripts
              return true;
            }
            if (c.angles_deg && !SetOrientation(state, c.angles_deg)) return false;
            if (state.mode != TargetMode::kConsole) SetMode(state, TargetMode::kConsole);
            state.typed.typed = c.position;
            if (state.step.active) {
              // Stepping: take the target at once and record the solve towards it.
              state.targeting.Jump(c.position);
              RefreshStepRecording(state);
            } else {
              // Glide to the typed target rather than teleporting the chain's goal.
              state.targeting.BeginGlide();
            }
            out("target " + Vec(c.position) +
                (c.angles_deg ? " yaw pitch roll " + Vec(*c.angles_deg) : std::string()));
            return true;
          },
          [&](const cmd::Mode& c) {
            SetMode(state, c.mode);
            out("mode " + std::string(ModeName(c.mode)));
            return true;
          },
          [&](const cmd::Joints& c) {
            // Commands apply in order, so a script's "joints" and "length" lines at the same
            // time build on each other.
            std::vector<float> lengths = state.lengths;
            lengths.resize(static_cast<std::size_t>(c.count - 1), state.uniform_length);
            if (!ApplyLengths(state, std::move(lengths))) return Fail(state, state.message);
            out("joints " + std::to_string(c.count));
            return true;
          },
          [&](const cmd::Length& c) {
            if (!ApplyLengths(state,
                              UniformLengths(static_cast<int>(state.lengths.size()), c.length))) {
              return Fail(state, state.message);
            }
            state.uniform_length = c.length;
            out(Fmt("every segment %.4g long", c.length));
            return true;
          },
          [&](const cmd::Lengths& c) {
            if (!ApplyLengths(state, c.lengths)) return Fail(state, state.message);
            out("lengths set: " + std::to_string(c.lengths.size() + 1) + " joints");
            return true;
          },
          [&](const cmd::Moe& c) {
            state.settings.tolerance = c.tolerance;
            out(Fmt("margin of error %.6g", c.tolerance));
            return true;
          },
          [&](const cmd::Iterations& c) {
            state.settings.max_iterations = c.max_iterations;
            out("iteration cap " + std::to_string(c.max_iterations));
            return true;
          },
          [&](const cmd::SplineLoad& c) {
            UseSpline(state, c.spline, c.path);
            if (!from_script) SetMode(state, TargetMode::kSpline);
            out("spline " + c.resolved_path + Fmt(": length %.4g", c.spline.length()));
            return true;
          },
          [&](const cmd::SplineSpeed& c) {
            (void)state.spline.follower.SetSpeed(c.speed);  // validated by the parser
            out(Fmt("spline speed %.4g", c.speed));
            return true;
          },
          [&](const cmd::SplinePlayback& c) {
            Playback(state, c.action, true);
            return true;
          },
          [&](const cmd::SplineEnd& c) {
            state.spline.follower.SetEndBehavior(c.behavior);
            return true;
          },
          [&](const cmd::ScriptRun& c) {
            if (from_script) return Fail(state, "script run: scripts cannot start scripts");
            UseScript(state, c.script, c.path);
            SetMode(state, TargetMode::kScript);
            out("script " + c.resolved_path + " started");
            return true;
          },
          [&](const cmd::ScriptPlayback& c) {
            Playback(state, c.action, false);
            return true;
          },
          [&](const cmd::CameraReset&) {
            state.view.camera.SetHome(state.scene.current ? state.scene.current->CameraHome(state)
                                                          : HomeFor(state.chain));
            state.view.camera.Reset();
            return true;
          },
          [&](const cmd::State&) {
            out(StateLine(state, ShellReport{}, /*with_console_last=*/false));
            return true;
          },
          [&](const cmd::Help& c) {
            for (std::string& line : HelpLines(c.topic, AppCommandLanguage())) out(std::move(line));
            return true;
          },
          [&](const cmd::Solver& c) {
            const auto kind = ParseSolverKind(c.name);
            if (!kind) return Fail(state, "solver: '" + c.name + "' is not in this build");
            state.solver = *kind;
            out("solver " + c.name);
            return true;
          },
          [&](const cmd::Scene& c) {
            if (!SetScene(state, c.name)) return Fail(state, state.message);
            out("scene " + c.name);
            return true;
          },
          [&](const cmd::Clear&) {
            state.console.log.clear();
            return true;
          },
          [&](const cmd::Step& c) {
            using A = cmd::StepAction;
            if (c.action != A::kOff && !SetStepView(state, true)) {
              return Fail(state, state.message);
            }
            switch (c.action) {
              case A::kOn:
                break;
              case A::kOff:
                SetStepView(state, false);
                break;
              case A::kNext:
                StepBy(state, c.count);
                break;
              case A::kPrev:
                StepBy(state, -c.count);
                break;
              case A::kPass:
                StepHalfPass(state, +1);
                break;
              case A::kBack:
                StepHalfPass(state, -1);
                break;
              case A::kIteration:
                StepIteration(state, +1);
                break;
              case A::kStart:
                StepToStart(state);
                break;
              case A::kEnd:
                StepToEnd(state);
                break;
              case A::kPlay:
                state.step.playing = true;
                break;
              case A::kPause:
                state.step.playing = false;
                break;
            }
            if (state.step.active) out(DescribeStep(state));
            return true;
          },
          [&](const cmd::Race& c) {
            if (!SetRace(state, c.on)) return Fail(state, state.message);
            out(c.on ? "race on: every solver chases the target" : "race off");
            return true;
          },
          [&](const cmd::Accelerate& c) {
            state.settings.accelerate = c.on;
            out(c.on ? "accelerate on: FABRIK with bend-scale steps"
                     : "accelerate off: textbook FABRIK");
            return true;
          },
          [&](const cmd::Quit&) {
            state.quit_requested = true;
            return true;
          },
          [&](const cmd::Extension& c) {
            const AppCommandEntry* entry = FindAppCommand(c.name);
            if (entry == nullptr) return Fail(state, c.name + ": not in this build");
            CommandOutput output(state, source);
            return entry->apply(state, c.args, output);
          },
      },
      command);
}

bool RunConsoleLine(AppState& state, std::string_view line, CommandSource source) {
  if (source != CommandSource::kQuiet && source != CommandSource::kScript) {
    ConsolePrint(state, "> " + std::string(line), ConsoleLine::Kind::kInput);
  }
  auto parsed = ParseCommand(line, state.command_context);
  if (!parsed) return Fail(state, parsed.error());
  return Execute(state, parsed.value(), source);
}

}  // namespace fabrik
