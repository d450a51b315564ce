// One form for a command, one list of groups (docs/architecture.md "Commands"): the registry
// every command's entry is found in, and the core's own entries (`echo`).
#include "core/command_table.h"

#include <algorithm>
#include <array>
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

const std::array<CommandEntry, 1> kCoreEntries = {{
    {{"echo",
      "echo TEXT ...",
      "print the text (scripts narrate with it)",
      kEchoDetails,
      ParseEcho,
      {}},
     ApplyEcho},
}};
std::span<const CommandEntry> CoreCommandEntries() { return kCoreEntries; }

// The one list of groups. A file of core/commands/ that adds commands exposes a function
// returning its entries (declared in command_table.h) and is listed here once; a scene's
// group comes through its registry line (SceneEntry::commands), where kScenesGroups stands.
// The registry keeps this order within each form (typed built-ins, app commands, flags).
using EntryGroup = std::span<const CommandEntry> (*)();
constexpr EntryGroup kScenesGroups = nullptr;
constexpr EntryGroup kGroups[] = {
    ChainCommandEntries,   PlaybackCommandEntries, SessionCommandEntries, ViewCommandEntries,
    CoreCommandEntries,    kScenesGroups,          SolveCommandEntries,   OrientCommandEntries,
    CaptureCommandEntries, RecordViewEntries,      ToolCommandEntries,
};

// Where an entry is listed: typed built-ins first, the flags last.
int FormRank(const CommandEntry& e) { return e.typed ? 0 : (e.is_flag() ? 2 : 1); }

// A typed built-in's language half, from its spec (the parse is the spec's own).
CommandExtension SpecLanguage(const CommandSpec& spec) {
  return CommandExtension{.name = spec.name,
                          .usage = spec.usage,
                          .summary = spec.summary,
                          .details = spec.details,
                          .keywords = spec.keywords};
}

struct CommandRegistryData {
  std::vector<CommandEntry> entries;
  std::vector<CommandExtension> extensions;  // the entries' language halves, typed ones left out
};

std::vector<CommandEntry> GatherGroups() {
  std::vector<CommandEntry> all;
  auto add = [&all](std::span<const CommandEntry> group) {
    all.insert(all.end(), group.begin(), group.end());
  };
  for (EntryGroup group : kGroups) {
    if (group != kScenesGroups) {
      add(group());
      continue;
    }
    for (const SceneEntry& scene : RegisteredScenes()) {
      if (scene.commands) add(scene.commands());
    }
  }
  return all;
}

// Built once, on first use (the groups are constants; nothing is added later).
const CommandRegistryData& TheCommandRegistry() {
  static const CommandRegistryData registry = [] {
    CommandRegistryData r;
    r.entries = GatherGroups();
    std::stable_sort(
        r.entries.begin(), r.entries.end(),
        [](const CommandEntry& a, const CommandEntry& b) { return FormRank(a) < FormRank(b); });
    for (CommandEntry& e : r.entries) {
      if (!e.typed) {
        r.extensions.push_back(e.language);
        continue;
      }
      e.spec = FindCommand(e.language.name);
      if (e.spec != nullptr) e.language = SpecLanguage(*e.spec);
    }
    return r;
  }();
  return registry;
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

std::span<const CommandEntry> CommandRegistry() { return TheCommandRegistry().entries; }
std::span<const CommandExtension> AppCommandLanguage() { return TheCommandRegistry().extensions; }

const CommandEntry* FindCommandEntry(std::string_view name) {
  for (const CommandEntry& e : TheCommandRegistry().entries) {
    if (e.language.name == name) return &e;
  }
  return nullptr;
}

// `field` gives a mutable reference so one accessor serves both setting and reading; reading
// through it changes nothing.
bool FlagValue(const AppState& state, const CommandEntry& entry) {
  return entry.flag.field(const_cast<AppState&>(state));
}

void SetInitialFlags(AppState& state) {
  for (const CommandEntry& e : CommandRegistry()) {
    if (e.is_flag()) e.flag.field(state) = e.flag.initial;
  }
}

bool EveryLineAWholeFrame(std::span<const std::string>) { return true; }

}  // namespace fabrik
