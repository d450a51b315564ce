// Applying camera, state, help and the choices of solver and scene (the
// language half is lang/commands_session.cpp).
#include "core/command_apply.h"
#include "core/frame.h"
#include "core/scene_registry.h"
#include "core/state_writer.h"
#include "core/tool_solve.h"

namespace fabrik {

bool Apply(AppState& state, const cmd::CameraReset&, CommandOutput&) {
  state.view.camera.SetHome(state.scene.current ? state.scene.current->CameraHome(state)
                                                : HomeFor(state.chain));
  state.view.camera.Reset();
  return true;
}

bool Apply(AppState& state, const cmd::State&, CommandOutput& out) {
  out.Print(StateLine(state, ShellReport{}, /*with_console_last=*/false));
  return true;
}

bool Apply(AppState& state, const cmd::Help& c, CommandOutput& out) {
  for (std::string& line : HelpLines(c.topic, state.command_context)) {
    out.Print(std::move(line));
  }
  return true;
}

bool Apply(AppState& state, const cmd::Solver& c, CommandOutput& out) {
  if (c.name == "two_bone") return SelectTwoBone(state, out);  // core/tool_solve.h
  const auto kind = ParseSolverKind(c.name);
  if (!kind) return out.Fail("solver: '" + c.name + "' is not in this build");
  state.solver = *kind;
  state.tools.two_bone = false;
  out.Print("solver " + c.name);
  return true;
}

bool Apply(AppState& state, const cmd::Scene& c, CommandOutput& out) {
  if (!SetScene(state, c.name)) return out.Fail(state.message);
  out.Print("scene " + c.name);
  return true;
}

}  // namespace fabrik
