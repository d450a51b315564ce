// command_table.h - the one command registry: every console and script command, built-in or
// the app's, a flag, a valued setting or a scene's, is one CommandEntry, and every entry is
// in one list of groups (docs/architecture.md "Commands"). `help`, Tab completion, the
// settings file and the state line's flags all walk CommandRegistry(). An entry is one of:
//
// * a flag: its `language` is OnOffLanguage(NAME, USAGE, SUMMARY, DETAILS) and its `flag`
//   part names the bool it sets, its start value, what it prints and whether the settings
//   file keeps it; the registry makes the rest (parsed by the language's one ParseOnOff,
//   completed with on/off, written in the state line, saved under its name). The form for a
//   new on/off command.
// * an app command: its `language` half (CommandExtension: name, usage, summary, details,
//   parse, keywords) and its `apply` side by side, with `saved` or `setting` when the
//   settings file keeps it. The form for any other new command, valued or not.
// * a typed built-in (Typed<cmd::Mode>(&kModeSaved), core/builtin_table.h): a command that
//   keys and panel widgets send as a typed value (Command{cmd::Mode{...}}), or whose parse
//   reads a file. Its language half is its CommandSpec (lang/commands/GROUP.cpp: parse,
//   Format, Validate), its apply an ApplyBuiltin overload (core/builtin_table.h) that
//   Execute calls through std::visit (a struct without one does not build, and Typed<T>
//   refuses it too), and its entry, in core/commands/GROUP.cpp, carries its SavedSetting.
//
// A group is a file's array of entries, exposed by a function declared below and listed
// once in kGroups in command_table.cpp; a scene's group comes through its registry line
// (SceneEntry::commands, core/scene_registry.h). The console, scripts, --exec lines and the
// panel take the command from here (the start-up passes AppCommandLanguage() to the parser
// as CommandContext::extensions), and a bad line gives the entry's one error line and changes
// nothing. Add a test in tests/app_core (test_command_table.cpp's list of good lines fails
// until the new command has one) and document the command in docs/language.md.
#pragma once

#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/app_command.h"
#include "lang/command.h"

namespace fabrik {

struct AppState;

// Where an applied command prints: the console log, unless the command came from a key or a
// panel widget (CommandSource::kQuiet).
class CommandOutput {
 public:
  CommandOutput(AppState& state, CommandSource source) : state_(state), source_(source) {}
  void Print(std::string text);
  // Prints an error line (always), sets the panel's message and returns false.
  bool Fail(const std::string& text);
  CommandSource source() const { return source_; }

 private:
  AppState& state_;
  CommandSource source_;
};

struct SavedSetting;  // core/saved_setting.h

// The on/off part of a flag's entry (CommandEntry::flag); `field` set makes the entry a flag.
struct FlagPart {
  bool& (*field)(AppState& state) = nullptr;  // the flag: read and set through this only
  bool initial = false;                       // its value at start (StartApp sets it)
  // Printed when set from the console or a script: "NAME on" / "NAME off" when empty.
  std::string_view on_text{};
  std::string_view off_text{};
  // Appended to the printed line when it has something to say about the state ("" if not).
  std::string (*note)(const AppState& state, bool on) = nullptr;
  // The settings file keeps it under the command's name as a JSON bool and restores it with
  // the line `NAME on|off` (RestoreOrder::kFlag). False: not saved.
  bool saved = false;
};

// One command, whatever its form (see the top of this file).
struct CommandEntry {
  // The language half: name, usage, summary, details, parse, keywords. For a typed built-in
  // only the name is written (Typed<T> gives it); the registry fills the rest from its spec.
  CommandExtension language;
  // An app command's apply, at the apply step; `args` as `language.parse` returned them.
  // Returns false (having changed nothing, with an error printed) when it cannot. Null for a
  // flag (the registry sets it) and a typed built-in (its ApplyBuiltin).
  bool (*apply)(AppState& state, std::span<const std::string> args, CommandOutput& out) = nullptr;
  // A typed built-in's language half (lang/command.h's CommandSpec), set by the registry.
  const CommandSpec* spec = nullptr;
  // Optional: the settings file keeps the command. Returns the canonical argument words (as
  // `language.parse` gives them, joined by spaces) that restore the current value, or "" for
  // the default (not written). Written under the entry's name as a JSON string, checked with
  // `language.parse` when read, restored with the line `NAME WORDS` after the flags.
  std::string (*saved)(const AppState& state) = nullptr;
  // Optional, for a value the simple `saved` cannot say (another key, a JSON value that is
  // not the command's words, a restore that depends on other settings) and for a typed
  // built-in: the whole saved setting (core/saved_setting.h), such as `moe` or the mocap
  // clip under `clip`.
  const SavedSetting* setting = nullptr;
  // Optional: true when a script line of the command, with these arguments, rebuilds or
  // re-reads something large (a field, a crowd, a file) and so takes a whole frame of the
  // script's budget (ScriptLineCost, core/apply.cpp); null: one unit, as most lines.
  bool (*whole_frame)(std::span<const std::string> args) = nullptr;
  // A flag's on/off part (`flag.field` set), with `language` from OnOffLanguage.
  FlagPart flag{};
  // A typed built-in (Typed<T>, core/builtin_table.h): `language.name` names its CommandSpec.
  bool typed = false;

  bool is_flag() const { return flag.field != nullptr; }
};
// The older name, for entries written before the forms were one.
using AppCommandEntry = CommandEntry;

// For CommandEntry::whole_frame: every line of the command takes a whole frame.
bool EveryLineAWholeFrame(std::span<const std::string> args);

// The first argument's completions of a flag.
inline constexpr std::string_view kOnOffWords[] = {"on", "off"};
// A flag's language half: `NAME on|off`, parsed by the language's one ParseOnOff into the
// word "on" or "off", completed with on/off; it travels as cmd::Extension{NAME, {"on"}}.
constexpr CommandExtension OnOffLanguage(std::string_view name, std::string_view usage,
                                         std::string_view summary,
                                         std::span<const std::string_view> details) {
  return CommandExtension{.name = name,
                          .usage = usage,
                          .summary = summary,
                          .details = details,
                          .keywords = kOnOffWords,
                          .on_off = true};
}

// The groups, one per file of core/commands/, in the order of kGroups (command_table.cpp).
std::span<const CommandEntry> ChainCommandEntries();     // chain.cpp: target, mode, ... (typed)
std::span<const CommandEntry> PlaybackCommandEntries();  // playback.cpp: spline, script (typed)
std::span<const CommandEntry> SessionCommandEntries();   // session.cpp: camera, ..., scene (typed)
std::span<const CommandEntry> ViewCommandEntries();     // view.cpp: clear, step, race, quit (typed)
std::span<const CommandEntry> SolveCommandEntries();    // solve.cpp: accelerate
std::span<const CommandEntry> OrientCommandEntries();   // orient.cpp: orient, skin, axes
std::span<const CommandEntry> CaptureCommandEntries();  // capture.cpp: screenshot
std::span<const CommandEntry> RecordViewEntries();      // record.cpp: record, root, view
// tools.cpp: soften, stretch, turn limit, stiffness, pole, aim, spline ik (docs/tools.md)
std::span<const CommandEntry> ToolCommandEntries();

// Every command, in the order `help` lists them: the typed built-ins (in the language's
// order, CommandList()), the app's commands (the core's, then each scene's in the registry's
// order), then the flags. Built once, on first use, from kGroups and the scenes' groups.
std::span<const CommandEntry> CommandRegistry();
// The entry named `name` (lower case), or null.
const CommandEntry* FindCommandEntry(std::string_view name);
// The language halves of the entries that are not typed built-ins, in the registry's order
// and contiguous, for CommandContext::extensions.
std::span<const CommandExtension> AppCommandLanguage();

// A flag's value now (`entry` is a flag).
bool FlagValue(const AppState& state, const CommandEntry& entry);
// Sets every flag to its `initial` value (the start-up does, before the settings).
void SetInitialFlags(AppState& state);

}  // namespace fabrik
