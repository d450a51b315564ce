// The built-in commands about the session: camera, state, help, and the choices of solver
// and scene (docs/language.md). The scene names come from the app's registry through
// CommandContext::scene_names.
#include <algorithm>
#include <array>

#include "lang/command_parse.h"

namespace fabrik {

using namespace command_parse;

namespace {

// The library's solvers (ik/solver.h) and the demo's two_bone (ik/two_bone.h: 3-joint chains
// and the arm's elbow).
constexpr std::array<std::string_view, 5> kSolverNames = {"fabrik", "ccd", "jacobian_transpose",
                                                          "dls", "two_bone"};
constexpr std::string_view kReset[] = {"reset"};

Status Fail(std::string message) { return MakeError(std::move(message)); }

bool Named(const std::string& name, std::span<const std::string_view> names) {
  return std::find(names.begin(), names.end(), name) != names.end();
}

// The scenes the context names (the app's registry); empty without one.
std::span<const std::string_view> Scenes(const CommandContext* context) {
  if (context == nullptr) return {};
  return context->scene_names;
}

// A word that can be a scene's name: 1 to 32 lower-case letters, digits, '_' or '-' (after
// lower-casing). The language has no list of scenes of its own: without the app's, `scene`
// takes any such word and the app's apply step refuses one it does not have.
bool SceneNameLike(std::string_view name) {
  if (name.empty() || name.size() > 32) return false;
  return std::all_of(name.begin(), name.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' || c == '-';
  });
}

// ---- camera reset, state ----
Result<Command> ParseCamera(Words args, const CommandContext&) {
  if (args.size() != 1) return WrongArity("camera", "camera reset", 1, args.size());
  if (text::Lower(args[0]) != "reset") {
    return MakeError("camera: expected reset, got " + text::Quote(args[0]));
  }
  return Command(cmd::CameraReset{});
}

Result<Command> ParseState(Words args, const CommandContext&) {
  if (!args.empty()) return WrongArity("state", "state", 0, args.size());
  return Command(cmd::State{});
}

// ---- help [COMMAND] ----
Result<Command> ParseHelp(Words args, const CommandContext& context) {
  if (args.size() > 1) {
    return MakeError("help: expected at most 1 argument (usage: help [COMMAND]), got " +
                     std::to_string(args.size()));
  }
  if (args.empty()) return Command(cmd::Help{});
  const std::string topic = text::Lower(args[0]);
  const bool extension = std::any_of(context.extensions.begin(), context.extensions.end(),
                                     [&](const CommandExtension& e) { return e.name == topic; });
  if (FindCommand(topic) == nullptr && !extension) {
    return MakeError("help: unknown command " + text::Quote(args[0]));
  }
  return Command(cmd::Help{topic});
}

void HelpTopics(const CommandContext* context, std::vector<std::string_view>& out) {
  for (const CommandSpec& spec : CommandList()) out.push_back(spec.name);
  if (context == nullptr) return;
  for (const CommandExtension& e : context->extensions) out.push_back(e.name);
}

// ---- solver NAME, scene NAME ----
Result<Command> ParseNamed(std::string_view what, Words args,
                           std::span<const std::string_view> names, bool solver) {
  const std::string usage = std::string(what) + " " + JoinNames(names, "|", "|");
  if (args.size() != 1) return WrongArity(what, usage, 1, args.size());
  std::optional<std::string> name = OneOf(args[0], names);
  if (!name) {
    return MakeError(std::string(what) + ": unknown " + std::string(what) + " " +
                     text::Quote(args[0]) + " (known: " + JoinNames(names, ", ", ", ") + ")");
  }
  if (solver) return Command(cmd::Solver{*name});
  return Command(cmd::Scene{*name});
}

constexpr std::string_view kSolverDetails[] = {
    "  two_bone: the analytic solver for 3-joint chains (chain scene) and the arm's elbow",
    "  (arm scene), with 'pole X Y Z' and 'soften R'.",
    "  The app reports a solver it does not have."};

Result<Command> ParseSolver(Words args, const CommandContext&) {
  return ParseNamed("solver", args, kSolverNames, true);
}

Result<Command> ParseScene(Words args, const CommandContext& context) {
  if (!context.scene_names.empty()) return ParseNamed("scene", args, context.scene_names, false);
  if (args.size() != 1) return WrongArity("scene", "scene NAME", 1, args.size());
  const std::string name = text::Lower(args[0]);
  if (!SceneNameLike(name)) {
    return MakeError("scene: expected a scene name, got " + text::Quote(args[0]));
  }
  return Command(cmd::Scene{name});
}

// "scene chain|arm|..." from the context's scenes; "scene NAME" without them.
std::string SceneUsage(const CommandContext& context) {
  if (context.scene_names.empty()) return "scene NAME";
  return "scene " + JoinNames(context.scene_names, "|", "|");
}

void SceneKeywords(const CommandContext* context, std::vector<std::string_view>& out) {
  for (std::string_view name : Scenes(context)) out.push_back(name);
}

const CommandSpec kSpecs[] = {
    {.name = cmd::CameraReset::kName,
     .usage = "camera reset",
     .summary = "back to the starting view",
     .parse = ParseCamera,
     .keywords = kReset},
    {.name = cmd::State::kName,
     .usage = "state",
     .summary = "print chain, target and solver state",
     .parse = ParseState,
     .name_takes_words = false},
    {.name = cmd::Help::kName,
     .usage = "help [COMMAND]",
     .summary = "list the commands, or explain one",
     .parse = ParseHelp,
     .name_takes_words = false,
     .context_keywords = HelpTopics},
    {.name = cmd::Solver::kName,
     .usage = "solver fabrik|ccd|jacobian_transpose|dls|two_bone",
     .summary = "choose the IK solver",
     .details = kSolverDetails,
     .parse = ParseSolver,
     .keywords = kSolverNames},
    {.name = cmd::Scene::kName,
     .usage = "scene NAME",
     .summary = "choose the scene",
     .parse = ParseScene,
     .context_keywords = SceneKeywords,
     .context_usage = SceneUsage},
};

}  // namespace

std::span<const CommandSpec> command_parse::SessionCommands() { return kSpecs; }
std::span<const std::string_view> SolverNames() { return kSolverNames; }

namespace cmd {

std::string CameraReset::Format() const { return "camera reset"; }
Status CameraReset::Validate() const { return Ok{}; }

std::string State::Format() const { return "state"; }
Status State::Validate() const { return Ok{}; }

std::string Help::Format() const { return topic.empty() ? std::string("help") : "help " + topic; }
Status Help::Validate() const {
  return topic.empty() || FindCommand(topic) != nullptr ? Status(Ok{})
                                                        : Fail("help: unknown topic");
}

std::string Solver::Format() const { return "solver " + name; }
Status Solver::Validate() const {
  return Named(name, kSolverNames) ? Status(Ok{}) : Fail("solver: unknown name");
}

std::string Scene::Format() const { return "scene " + name; }
Status Scene::Validate() const {
  return SceneNameLike(name) ? Status(Ok{}) : Fail("scene: not a scene name");
}

}  // namespace cmd
}  // namespace fabrik
