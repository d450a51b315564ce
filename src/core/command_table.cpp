#include "core/command_table.h"

#include <array>
#include <exception>
#include <string>

#include "core/app_state.h"
#include "core/commands.h"
#include "core/frame.h"
#include "core/scene_field.h"
#include "core/scene_registry.h"

namespace fabrik {
namespace {

using Args = std::span<const std::string>;

// echo TEXT ...: prints its words, so that a script can narrate what it shows.
Result<std::vector<std::string>> ParseEcho(Args args) {
  if (args.empty()) return MakeError("echo: expected some text (usage: echo TEXT ...)");
  return std::vector<std::string>(args.begin(), args.end());
}

bool ApplyEcho(AppState&, Args args, CommandOutput& out) {
  std::string text;
  for (const std::string& a : args) text += (text.empty() ? "" : " ") + a;
  out.Print(std::move(text));
  return true;
}

// chains N [JOINTS]: the field scene's shape (README "The field scene").
Result<std::vector<std::string>> ParseChains(Args args) {
  if (args.empty() || args.size() > 2) {
    return MakeError(
        "chains: expected a chain count and optionally joints per chain (usage: "
        "chains N [JOINTS])");
  }
  std::vector<std::string> out;
  const int low[] = {kFieldMinChains, 2};
  const int high[] = {kFieldMaxChains, kMaxJoints};
  const char* what[] = {"chain count", "joints per chain"};
  for (std::size_t i = 0; i < args.size(); ++i) {
    std::size_t used = 0;
    long v = 0;
    try {
      v = std::stol(args[i], &used);
    } catch (const std::exception&) {
      used = 0;
    }
    if (used != args[i].size() || v < low[i] || v > high[i]) {
      return MakeError("chains: " + std::string(what[i]) + " '" + args[i] +
                       "' is not a whole "
                       "number from " +
                       std::to_string(low[i]) + " to " + std::to_string(high[i]));
    }
    out.push_back(std::to_string(v));
  }
  return out;
}

bool ApplyChains(AppState& state, Args args, CommandOutput& out) {
  const FieldConfig before = state.field;
  FieldConfig next = before;
  next.chains = std::stoi(args[0]);
  if (args.size() > 1) next.joints = std::stoi(args[1]);
  if (static_cast<long>(next.chains) * next.joints > kFieldMaxTotalJoints) {
    return out.Fail("chains: " + args[0] + " chains x " + std::to_string(next.joints) +
                    " joints is more than " + std::to_string(kFieldMaxTotalJoints) + " joints");
  }
  state.field = next;
  // In the field, rebuild it now; elsewhere the next `scene field` uses the new shape.
  if (state.scene.name() == "field" && !SetScene(state, "field")) {
    state.field = before;
    return out.Fail(state.message);
  }
  out.Print("field: " + std::to_string(next.chains) + " chains x " + std::to_string(next.joints) +
            " joints");
  return true;
}

constexpr std::string_view kChainsDetails[] = {
    "  The field scene's chain count (1 to 100000) and joints per chain (default 10);",
    "  chains x joints at most 2000000. In the field it is rebuilt at once."};

constexpr std::string_view kEchoDetails[] = {
    "  In a script: 'at 3 echo now the arm' prints when the line fires."};

// One entry per command.
const std::array<AppCommandEntry, 2> kTable = {{
    {{"echo",
      "echo TEXT ...",
      "print the text (scripts narrate with it)",
      kEchoDetails,
      ParseEcho,
      {}},
     ApplyEcho},
    {{"chains",
      "chains N [JOINTS]",
      "the field scene's chain count and joints per chain",
      kChainsDetails,
      ParseChains,
      {}},
     ApplyChains},
}};

// The language halves, in the same order (CommandContext::extensions takes a span of them).
const std::array<CommandExtension, kTable.size()> kLanguage = [] {
  std::array<CommandExtension, kTable.size()> out{};
  for (std::size_t i = 0; i < kTable.size(); ++i) out[i] = kTable[i].language;
  return out;
}();

}  // namespace

void CommandOutput::Print(std::string text) {
  if (source_ != CommandSource::kQuiet) ConsolePrint(state_, std::move(text));
}

bool CommandOutput::Fail(const std::string& text) {
  ConsolePrint(state_, text, ConsoleLine::Kind::kError);
  SetMessage(state_, text, true);
  return false;
}

std::span<const AppCommandEntry> AppCommandTable() { return kTable; }
std::span<const CommandExtension> AppCommandLanguage() { return kLanguage; }

const AppCommandEntry* FindAppCommand(std::string_view name) {
  for (const AppCommandEntry& e : kTable) {
    if (e.language.name == name) return &e;
  }
  return nullptr;
}

}  // namespace fabrik
