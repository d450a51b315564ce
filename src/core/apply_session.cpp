// Applying camera, state, help and the choices of solver and scene (the
// language half is lang/commands_session.cpp).
#include "core/command_apply.h"
#include "core/frame.h"
#include "core/scene_registry.h"
#include "core/state_writer.h"

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
  if (c.name == "two_bone") {
    // The analytic solver of ik/two_bone.h, a tool of the chain scene (core/tool_solve.h);
    // state.solver stays the one that takes over when it is left.
    const std::size_t n = state.chain.joint_count();
    if (!state.scene.free_chain()) {
      return out.Fail("solver two_bone: the chain scene's solver ('scene chain' first)");
    }
    if (n != 3) {
      return out.Fail("solver two_bone: needs a chain of exactly 3 joints, this one has " +
                      std::to_string(n) + " ('joints 3' first)");
    }
    state.tools.two_bone = true;
    out.Print("solver two_bone: the law of cosines in one step" +
              std::string(state.tools.pole ? " (elbow towards the pole)" : ""));
    return true;
  }
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
