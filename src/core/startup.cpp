#include "core/startup.h"

#include <algorithm>
#include <filesystem>

#include "core/builtin_table.h"
#include "core/command_table.h"
#include "core/execute.h"
#include "core/frame.h"
#include "core/scene_registry.h"
#include "core/terrain_load.h"
#include "ik/chain_rebuild.h"
#include "ik/fabrik.h"
#include "lang/spline_file.h"

namespace fabrik {
namespace {

// The chain at start: rising from the origin, then bent once towards a pleasant target so
// the first frame shows a curved arm rather than a stick.
Result<Chain> InitialChain(const std::vector<float>& lengths, glm::vec3& target) {
  auto chain = Chain::Straight(glm::vec3(0.0f), glm::vec3(0.0f, 1.0f, 0.0f), lengths);
  if (!chain) return chain;
  const float reach = chain.value().total_length();
  target = glm::vec3(0.45f, 0.5f, 0.25f) * reach;
  SolveSettings settings;
  settings.tolerance = 1e-4f * reach;
  settings.max_iterations = 200;
  (void)SolveFabrik(chain.value(), target, settings);
  return chain;
}

std::vector<std::string> ListTextFiles(const std::string& data_dir, const std::string& folder) {
  std::vector<std::string> files;
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator(data_dir + "/" + folder, ec)) {
    if (entry.path().extension() == ".txt") {
      files.push_back(folder + "/" + entry.path().filename().string());
    }
  }
  std::sort(files.begin(), files.end());
  return files;
}

// The files the options name: a file that cannot be read or parsed is a bad option (exit 2).
Status LoadStartFiles(AppState& state, const StartOptions& options) {
  if (!options.spline_path.empty()) {
    auto spline =
        LoadSplineFile(ResolveDataPath(options.spline_path, state.command_context.search_roots));
    if (!spline) return MakeError(spline.error());
    UseSpline(state, std::move(spline).value(), options.spline_path);
  }
  if (!options.script_path.empty()) {
    auto script =
        LoadScriptFile(ResolveDataPath(options.script_path, state.command_context.search_roots),
                       state.command_context);
    if (!script) return MakeError(script.error());
    UseScript(state, std::make_shared<const Script>(std::move(script).value()),
              options.script_path);
  }
  if (state.mode == TargetMode::kSpline && state.spline.follower.has_spline()) {
    // Start on the curve: no glide from the default pose's target.
    state.targeting.Jump(state.spline.follower.position());
  }
  state.terrain.size = options.terrain_size;
  state.terrain.height = options.terrain_height;
  if (!options.terrain_path.empty()) {
    const std::string resolved =
        ResolveDataPath(options.terrain_path, state.command_context.search_roots);
    if (!LoadTerrain(state, options.terrain_path, resolved, options.terrain_size,
                     options.terrain_height)) {
      return MakeError("--terrain: " + state.message);
    }
  }
  // Each scene's files (SceneOption::check), whatever the scene: a file that cannot be used
  // exits 2 at start (docs/options.md), not later when a scene first asks for it.
  for (const SceneEntry& entry : RegisteredScenes()) {
    for (const SceneOption& option : entry.options) {
      if (option.check == nullptr || !options.scene_options.Given(option.name)) continue;
      const std::string problem = option.check(
          ResolveDataPath(options.scene_options.Text(option.name),
                          state.command_context.search_roots),
          options.scene_options);
      if (!problem.empty()) return MakeError(std::string(option.name) + ": " + problem);
    }
  }
  return Ok{};
}

}  // namespace

Result<std::unique_ptr<AppState>> StartApp(const StartOptions& options,
                                           const std::string& data_dir) {
  const auto solver = ParseSolverKind(options.solver);
  if (!solver) return MakeError("--solver: unknown or unavailable solver '" + options.solver + "'");
  const std::vector<float> lengths = options.lengths.empty()
                                         ? UniformLengths(options.joints - 1, options.length)
                                         : options.lengths;
  glm::vec3 start_target(0.0f);
  auto chain = InitialChain(lengths, start_target);
  if (!chain) return MakeError(chain.error());

  auto owned = std::make_unique<AppState>(std::move(chain).value());
  AppState& state = *owned;
  state.data_dir = data_dir;
  state.fixed_dt = options.fixed_dt;
  state.lengths = lengths;
  state.uniform_length = options.length;
  state.settings.tolerance = options.moe;
  state.settings.max_iterations = options.max_iterations;
  SetInitialFlags(state);  // accelerate on, ... (core/command_table.h: FlagPart::initial)
  state.solver = *solver;
  state.mode = options.mode;
  state.targeting.Jump(start_target);
  state.view.camera.SetHome(HomeFor(state.chain));
  state.view.camera.Reset();
  state.command_context.search_roots = {data_dir};
  state.command_context.extensions = AppCommandLanguage();
  const std::span<const std::string_view> scenes = RegisteredSceneNames();
  state.command_context.scene_names.assign(scenes.begin(), scenes.end());
  state.spline_files = ListTextFiles(data_dir, "assets/splines");
  state.script_files = ListTextFiles(data_dir, "assets/scripts");

  if (const Status files = LoadStartFiles(state, options); !files) {
    return MakeError(files.error());
  }
  // Each scene's configuration from the options (the field's shape, the mocap clip).
  for (const SceneEntry& entry : RegisteredScenes()) {
    if (entry.start) entry.start(state, options);
  }
  state.scene.current = MakeScene("chain");
  state.screenshot_dir = options.screenshot_dir;
  if (!options.settings_problem.empty()) {
    ConsolePrint(state, options.settings_problem, ConsoleLine::Kind::kError);
  }
  // Saved settings, as commands like any other; one that fails (a spline file since moved)
  // has printed its error and the rest still apply.
  for (const AppCommand& command : options.saved) {
    (void)ApplyCommand(state, command, CommandSource::kQuiet);
  }
  if (options.scene != "chain" && !SetScene(state, options.scene)) {
    return MakeError("--scene: " + state.message);
  }
  ConsolePrint(state, "FABRIK console. Type 'help' for the commands; ` closes.");
  // --exec lines are applied like typed lines; the first error stops the start.
  for (const std::string& line : options.exec) {
    if (!ApplyCommand(state, app::Line{line}, CommandSource::kStartup)) {
      return MakeError("--exec '" + line + "': " + state.console.log.back().text);
    }
  }
  return owned;
}

}  // namespace fabrik
