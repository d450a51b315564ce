// The built-in commands about the view and the demo itself, their language half: clear, step,
// race, quit (docs/language.md). A section holds the command's help text, its parser, its
// struct's canonical text (Format) and range check (Validate) and its CommandSpec; the group's
// list at the end is what lang/command.cpp's kGroups reads. Their applies are in
// core/commands/view.cpp. The structs are in lang/command.h.
#include <algorithm>
#include <array>

#include "lang/command_parse.h"

namespace fabrik {

using namespace command_parse;

// ---- clear ----
FABRIK_COMMAND_WITHOUT_ARGUMENTS(cmd::Clear)

namespace {
const CommandSpec kClearSpec = {.name = cmd::Clear::kName,
                                .usage = "clear",
                                .summary = "clear the console",
                                .parse = ParseWithoutArguments<cmd::Clear>,
                                .name_takes_words = false};
}  // namespace

// ---- step on|off|next [N]|prev [N]|pass|back|iteration|start|end|play|pause ----
namespace {

// In the order of cmd::StepAction.
constexpr std::array<std::string_view, 11> kStepSubcommands = {
    "on", "off", "next", "prev", "pass", "back", "iteration", "start", "end", "play", "pause"};
constexpr int kMaxStepCount = 100000;

constexpr std::string_view kStepDetails[] = {
    "  step on / off          pause the solve and replay it reach by reach (key P)",
    "  step next [N] / prev [N]   N reaches forward or back (default 1)",
    "  step pass / back       to the next / previous half-pass boundary",
    "  step iteration         to the next iteration boundary", "  step start / end / play / pause"};

Result<Command> ParseStep(Words args, const CommandContext&) {
  const std::string usage = "step " + JoinNames(kStepSubcommands, "|", "|");
  if (args.empty() || args.size() > 2) return WrongArity("step", usage, 1, args.size());
  const std::string sub = text::Lower(args[0]);
  const auto it = std::find(kStepSubcommands.begin(), kStepSubcommands.end(), sub);
  if (it == kStepSubcommands.end()) {
    return MakeError("step: expected " + JoinNames(kStepSubcommands, ", ", " or ") + ", got " +
                     text::Quote(args[0]));
  }
  cmd::Step step{static_cast<cmd::StepAction>(it - kStepSubcommands.begin()), 1};
  if (args.size() == 2) {
    if (step.action != cmd::StepAction::kNext && step.action != cmd::StepAction::kPrev) {
      return MakeError("step " + sub + ": takes no count");
    }
    Result<int> n = IntegerIn("step " + sub, args[1], 1, kMaxStepCount);
    if (!n.ok()) return MakeError(n.error());
    step.count = n.value();
  }
  return Command(step);
}

}  // namespace

std::string cmd::Step::Format() const {
  std::string out = "step " + std::string(kStepSubcommands[static_cast<std::size_t>(action)]);
  if ((action == StepAction::kNext || action == StepAction::kPrev) && count != 1) {
    out += ' ';
    out += std::to_string(count);
  }
  return out;
}
Status cmd::Step::Validate() const {
  const auto a = static_cast<int>(action);
  if (a < 0 || a > static_cast<int>(StepAction::kPause)) return Fail("step: unknown action");
  return count >= 1 && count <= kMaxStepCount ? Status(Ok{}) : Fail("step: count out of range");
}

namespace {
const CommandSpec kStepSpec = {
    .name = cmd::Step::kName,
    .usage = "step on|off|next [N]|prev [N]|pass|back|iteration|start|end|play|pause",
    .summary = "replay one solve reach by reach",
    .details = kStepDetails,
    .parse = ParseStep,
    .keywords = kStepSubcommands};
}  // namespace

// ---- race on|off ----
namespace {

constexpr std::string_view kOnOff[] = {"on", "off"};

Result<Command> ParseRace(Words args, const CommandContext&) {
  Result<bool> on = ParseOnOff("race", args);
  if (!on.ok()) return MakeError(on.error());
  return Command(cmd::Race{on.value()});
}

}  // namespace

std::string cmd::Race::Format() const { return on ? "race on" : "race off"; }
Status cmd::Race::Validate() const { return Ok{}; }

namespace {
const CommandSpec kRaceSpec = {.name = cmd::Race::kName,
                               .usage = "race on|off",
                               .summary = "run every solver side by side",
                               .parse = ParseRace,
                               .keywords = kOnOff};
}  // namespace

// ---- quit ----
FABRIK_COMMAND_WITHOUT_ARGUMENTS(cmd::Quit)

namespace {
const CommandSpec kQuitSpec = {.name = cmd::Quit::kName,
                               .usage = "quit",
                               .summary = "close the demo",
                               .parse = ParseWithoutArguments<cmd::Quit>,
                               .name_takes_words = false};
}  // namespace

// ---- the group, in the order `help` lists them ----
namespace {
const CommandSpec kViewSpecs[] = {kClearSpec, kStepSpec, kRaceSpec, kQuitSpec};
}  // namespace

std::span<const CommandSpec> command_parse::ViewCommands() { return kViewSpecs; }

}  // namespace fabrik
