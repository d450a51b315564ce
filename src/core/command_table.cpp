#include "core/command_table.h"

#include <array>

#include "core/app_state.h"
#include "core/commands.h"
#include "core/frame.h"

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

constexpr std::string_view kEchoDetails[] = {
    "  In a script: 'at 3 echo now the arm' prints when the line fires."};

// One entry per command.
const std::array<AppCommandEntry, 1> kTable = {{
    {{"echo",
      "echo TEXT ...",
      "print the text (scripts narrate with it)",
      kEchoDetails,
      ParseEcho,
      {}},
     ApplyEcho},
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
