// The built-in commands about the session, the app's half: how camera, state, help, solver and
// scene are carried out (each struct's apply, registered by its place in Command) and how the
// settings file keeps the solver and the scene (SavedSetting). Their language half is in
// lang/commands/session.cpp; the group's entries at the end (Typed<T>) are what
// core/command_table.cpp's kGroups lists.
#include "core/builtin_table.h"
#include "core/frame.h"
#include "core/scene_registry.h"
#include "core/state_writer.h"
#include "core/tool_solve.h"

namespace fabrik {
bool ApplyBuiltin(AppState& state, const cmd::CameraReset&, CommandOutput&) {
  state.view.camera.SetHome(state.scene.current ? state.scene.current->CameraHome(state)
                                                : HomeFor(state.chain));
  state.view.camera.Reset();
  return true;
}

bool ApplyBuiltin(AppState& state, const cmd::State&, CommandOutput& out) {
  out.Print(StateLine(state, ShellReport{}, /*with_console_last=*/false));
  return true;
}

bool ApplyBuiltin(AppState& state, const cmd::Help& c, CommandOutput& out) {
  for (std::string& line : HelpLines(c.topic, state.command_context)) {
    out.Print(std::move(line));
  }
  return true;
}

bool ApplyBuiltin(AppState& state, const cmd::Solver& c, CommandOutput& out) {
  if (c.name == kTwoBoneSolverName) return SelectTwoBone(state, out);  // core/tool_solve.h
  const auto kind = ParseSolverKind(c.name);
  if (!kind) return out.Fail("solver: '" + c.name + "' is not in this build");
  state.solver = *kind;
  state.tools.two_bone = false;
  out.Print("solver " + c.name);
  return true;
}

namespace {
// Saved: the library solver in use (two_bone is a tool's choice, saved by none).
bool IsSolverName(const std::string& name) { return ParseSolverKind(name).has_value(); }
constexpr std::string_view kSolverOverriddenBy[] = {"--solver"};
const SavedSetting kSolverSaved = {
    .key = "solver",
    .order = RestoreOrder::kSolver,
    .capture =
        [](const AppState& state) { return nlohmann::json(std::string(SolverName(state.solver))); },
    .check =
        [](const nlohmann::json& v) { return CheckSettingWord(v, IsSolverName, "a solver name"); },
    .command = "solver",
    .overridden_by = kSolverOverriddenBy};
}  // namespace

bool ApplyBuiltin(AppState& state, const cmd::Scene& c, CommandOutput& out) {
  if (!SetScene(state, c.name)) return out.Fail(state.message);
  out.Print("scene " + c.name);
  return true;
}

namespace {
// Saved: the scene on, restored after the files (a switch keeps them) and before the mode.
bool IsSceneName(const std::string& name) {
  for (const SceneEntry& e : RegisteredScenes()) {
    if (e.name == name) return true;
  }
  return false;
}
// --bvh starts the mocap scene with its clip, as --scene would.
constexpr std::string_view kSceneOverriddenBy[] = {"--scene", "--bvh", "--markers"};
const SavedSetting kSceneSaved = {
    .key = "scene",
    .order = RestoreOrder::kScene,
    .capture =
        [](const AppState& state) { return nlohmann::json(std::string(state.scene.name())); },
    .check =
        [](const nlohmann::json& v) { return CheckSettingWord(v, IsSceneName, "a scene name"); },
    .command = "scene",
    .overridden_by = kSceneOverriddenBy};
}  // namespace

namespace {
// The group's entries, in the order of its CommandSpecs (lang/commands/session.cpp).
constexpr CommandEntry kSessionEntries[] = {Typed<cmd::CameraReset>(), Typed<cmd::State>(),
                                            Typed<cmd::Help>(), Typed<cmd::Solver>(&kSolverSaved),
                                            Typed<cmd::Scene>(&kSceneSaved)};
}  // namespace

std::span<const CommandEntry> SessionCommandEntries() { return kSessionEntries; }

}  // namespace fabrik
