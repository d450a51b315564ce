// The built-in commands about the session, their language half: camera, state, help, solver,
// scene (docs/language.md). A section holds the command's help text, its parser, its struct's
// canonical text (Format) and range check (Validate) and its CommandSpec; the group's list at
// the end is what lang/command.cpp's kGroups reads. Their applies and saved settings are in
// core/commands/session.cpp. The structs are in lang/command.h. The scene names come from the
// app's registry through CommandContext::scene_names.
#include <algorithm>
#include <array>
#include <vector>

#include "ik/solver.h"
#include "lang/command_parse.h"

namespace fabrik {

using namespace command_parse;

// ---- camera reset ----
namespace {

constexpr std::string_view kReset[] = {"reset"};

Result<Command> ParseCamera(Words args, const CommandContext&) {
  if (args.size() != 1) return WrongArity("camera", "camera reset", 1, args.size());
  if (text::Lower(args[0]) != "reset") {
    return MakeError("camera: expected reset, got " + text::Quote(args[0]));
  }
  return Command(cmd::CameraReset{});
}

}  // namespace

std::string cmd::CameraReset::Format() const { return "camera reset"; }
Status cmd::CameraReset::Validate() const { return Ok{}; }

namespace {
const CommandSpec kCameraSpec = {.name = cmd::CameraReset::kName,
                                 .usage = "camera reset",
                                 .summary = "back to the starting view",
                                 .parse = ParseCamera,
                                 .keywords = kReset};
}  // namespace

// ---- state ----
FABRIK_COMMAND_WITHOUT_ARGUMENTS(cmd::State)

namespace {
const CommandSpec kStateSpec = {.name = cmd::State::kName,
                                .usage = "state",
                                .summary = "print chain, target and solver state",
                                .parse = ParseWithoutArguments<cmd::State>,
                                .name_takes_words = false};
}  // namespace

// ---- help [COMMAND] ----
namespace {

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

// Completion after `help`: every built-in, then the context's extensions.
void HelpTopics(const CommandContext* context, std::vector<std::string_view>& out) {
  for (const CommandSpec& spec : CommandList()) out.push_back(spec.name);
  if (context == nullptr) return;
  for (const CommandExtension& e : context->extensions) out.push_back(e.name);
}

}  // namespace

std::string cmd::Help::Format() const {
  return topic.empty() ? std::string("help") : "help " + topic;
}
Status cmd::Help::Validate() const {
  return topic.empty() || FindCommand(topic) != nullptr ? Status(Ok{})
                                                        : Fail("help: unknown topic");
}

namespace {
const CommandSpec kHelpSpec = {.name = cmd::Help::kName,
                               .usage = "help [COMMAND]",
                               .summary = "list the commands, or explain one",
                               .parse = ParseHelp,
                               .name_takes_words = false,
                               .context_keywords = HelpTopics};
}  // namespace

// ---- solver NAME and scene NAME share their parser ----
namespace {

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

}  // namespace

// ---- solver fabrik|ccd|jacobian_transpose|dls|two_bone ----
namespace {

constexpr std::string_view kSolverDetails[] = {
    "  two_bone: the analytic solver for 3-joint chains (chain scene) and the arm's elbow",
    "  (arm scene), with 'pole X Y Z' and 'soften R'.",
    "  The app reports a solver it does not have."};

Result<Command> ParseSolver(Words args, const CommandContext&) {
  return ParseNamed("solver", args, SolverNames(), true);
}

}  // namespace

// The library's one list (ik/solver.h): its solvers, then two_bone (ik/two_bone.h: 3-joint
// chains and the arm's elbow).
std::span<const std::string_view> SolverNames() {
  static const std::vector<std::string_view> names = [] {
    std::vector<std::string_view> n;
    for (SolverKind kind : AllSolvers()) n.emplace_back(SolverName(kind));
    n.push_back(kTwoBoneSolverName);
    return n;
  }();
  return names;
}

std::string cmd::Solver::Format() const { return "solver " + name; }
Status cmd::Solver::Validate() const {
  const std::span<const std::string_view> names = SolverNames();
  const bool known = std::find(names.begin(), names.end(), name) != names.end();
  return known ? Status(Ok{}) : Fail("solver: unknown name");
}

namespace {
// "solver fabrik|ccd|jacobian_transpose|dls|two_bone"
const std::string kSolverUsage = "solver " + JoinNames(SolverNames(), "|", "|");
const CommandSpec kSolverSpec = {.name = cmd::Solver::kName,
                                 .usage = kSolverUsage,
                                 .summary = "choose the IK solver",
                                 .details = kSolverDetails,
                                 .parse = ParseSolver,
                                 .keywords = SolverNames()};
}  // namespace

// ---- scene NAME ----
namespace {

// A word that can be a scene's name: 1 to 32 lower-case letters, digits, '_' or '-' (after
// lower-casing). The language has no list of scenes of its own: without the app's, `scene`
// takes any such word and the app's apply step refuses one it does not have.
bool SceneNameLike(std::string_view name) {
  if (name.empty() || name.size() > 32) return false;
  return std::all_of(name.begin(), name.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' || c == '-';
  });
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

// Completion after `scene`: the context's scenes (the app's registry); none without one.
void SceneKeywords(const CommandContext* context, std::vector<std::string_view>& out) {
  if (context == nullptr) return;
  for (std::string_view name : context->scene_names) out.push_back(name);
}

}  // namespace

std::string cmd::Scene::Format() const { return "scene " + name; }
Status cmd::Scene::Validate() const {
  return SceneNameLike(name) ? Status(Ok{}) : Fail("scene: not a scene name");
}

namespace {
const CommandSpec kSceneSpec = {.name = cmd::Scene::kName,
                                .usage = "scene NAME",
                                .summary = "choose the scene",
                                .parse = ParseScene,
                                .context_keywords = SceneKeywords,
                                .context_usage = SceneUsage};
}  // namespace

// ---- the group, in the order `help` lists them ----
namespace {
const CommandSpec kSessionSpecs[] = {kCameraSpec, kStateSpec, kHelpSpec, kSolverSpec, kSceneSpec};
}  // namespace

std::span<const CommandSpec> command_parse::SessionCommands() { return kSessionSpecs; }

}  // namespace fabrik
