#include "core/command_table.h"

#include <array>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <filesystem>
#include <string>
#include <vector>

#include "core/app_state.h"
#include "core/execute.h"
#include "core/frame.h"
#include "core/scene_registry.h"
#include "lang/text.h"

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

// The groups of entries listed after the core's own (kTable) and the scenes' (each scene's
// SceneEntry::commands, in the registry's order), in the order `help` lists them. A core file
// that adds commands exposes a function returning its entries (declared in command_table.h)
// and is listed here once; a scene's commands come through its registry line instead.
using EntryGroup = std::span<const AppCommandEntry> (*)();
std::span<const AppCommandEntry> CoreEntries() { return kTable; }
constexpr EntryGroup kEntryGroups[] = {
    OrientCommandEntries,
    CaptureCommandEntries,
    RecordViewEntries,
    ToolCommandEntries,
};

// Every group of flags, in the order `help` lists them (after the entries above). A file that
// adds flags exposes a function returning them (declared in command_table.h), listed here once.
using FlagGroup = std::span<const FlagEntry> (*)();
constexpr FlagGroup kFlagGroups[] = {
    SolveFlagEntries,
    OrientFlagEntries,
    ToolFlagEntries,
};

constexpr std::string_view kOnOff[] = {"on", "off"};

struct Table {
  std::vector<FlagEntry> flags;
  std::vector<AppCommandEntry> entries;
  std::vector<CommandExtension> language;  // the entries' language halves, same order
};

// Built once, on first use (the groups are constants; nothing is added later).
const Table& TheTable() {
  static const Table table = [] {
    Table t;
    auto add = [&t](std::span<const AppCommandEntry> group) {
      for (const AppCommandEntry& e : group) {
        t.entries.push_back(e);
        t.language.push_back(e.language);
      }
    };
    add(CoreEntries());
    // The scenes' own commands (SceneEntry::commands), in the registry's order.
    for (const SceneEntry& scene : RegisteredScenes()) {
      if (scene.commands) add(scene.commands());
    }
    for (EntryGroup group : kEntryGroups) add(group());
    for (FlagGroup group : kFlagGroups) {
      for (const FlagEntry& f : group()) t.flags.push_back(f);
    }
    // After every flag is in place, so that the pointers to them stay valid.
    for (const FlagEntry& f : t.flags) {
      const CommandExtension language{.name = f.name,
                                      .usage = f.usage,
                                      .summary = f.summary,
                                      .details = f.details,
                                      .keywords = kOnOff,
                                      .on_off = true};
      t.entries.push_back(AppCommandEntry{language, nullptr, &f});
      t.language.push_back(language);
    }
    return t;
  }();
  return table;
}

}  // namespace

void CommandOutput::Print(std::string text) {
  if (source_ != CommandSource::kQuiet) ConsolePrint(state_, std::move(text));
}

bool CommandOutput::Fail(const std::string& text) {
  ConsolePrint(state_, text, ConsoleLine::Kind::kError);
  SetMessage(state_, text, true);
  return false;
}

std::span<const AppCommandEntry> AppCommandTable() { return TheTable().entries; }
std::span<const FlagEntry> FlagTable() { return TheTable().flags; }

const FlagEntry* FindFlag(std::string_view name) {
  for (const FlagEntry& f : TheTable().flags) {
    if (f.name == name) return &f;
  }
  return nullptr;
}

// `field` gives a mutable reference so one accessor serves both setting and reading; reading
// through it changes nothing.
bool FlagValue(const AppState& state, const FlagEntry& flag) {
  return flag.field(const_cast<AppState&>(state));
}

void SetInitialFlags(AppState& state) {
  for (const FlagEntry& f : FlagTable()) f.field(state) = f.initial;
}
std::span<const CommandExtension> AppCommandLanguage() { return TheTable().language; }

bool EveryLineAWholeFrame(std::span<const std::string>) { return true; }

const AppCommandEntry* FindAppCommand(std::string_view name) {
  for (const AppCommandEntry& e : TheTable().entries) {
    if (e.language.name == name) return &e;
  }
  return nullptr;
}

}  // namespace fabrik
