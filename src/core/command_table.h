// command_table.h - the one command table: every console and script command is one entry,
// holding its name, usage, help text, argument parsing and validation, canonical form,
// completion and how it is applied (docs/architecture.md "Commands"). Entries come in three
// forms:
//
// * FlagEntry (below): an on/off flag. The entry names the bool it sets, its start value,
//   what it prints and whether the settings file keeps it; the table makes its command, the
//   state line writes it and the settings read and write it from the entry alone. This is the
//   form for a new on/off command.
// * AppCommandEntry (below): a command whose arguments travel as canonical words. Its
//   language half (CommandExtension: name, usage, summary, details, parse, keywords) and its
//   apply function sit side by side. This is the form for any other new command: add one entry to a
//   group, either the core group in command_table.cpp or a file of its own exposing a
//   function that returns its entries, listed once in kEntryGroups in command_table.cpp.
// * A built-in command (lang/command.h): a command that keys and panel widgets send as a
//   typed value (Command{cmd::Mode{...}}), or whose parse reads a file. Its CommandSpec
//   (name, usage, summary, details, parse, completion keywords), its struct's Format and
//   Validate, its apply (an ApplyBuiltin overload, declared in core/builtin_table.h) and, when
//   the settings file keeps it, its BuiltinEntry sit together in one section of
//   core/commands/GROUP.cpp (chain.cpp, playback.cpp, session.cpp, view.cpp). Execute
//   (core/execute.h) calls the apply through std::visit: a struct without one does not build.
//
// Either way the console, scripts, --exec lines, Tab completion and `help` take the command
// from here (the start-up passes AppCommandLanguage() to the parser as
// CommandContext::extensions), and a bad line gives the entry's one error line and changes
// nothing. Add a test in tests/app_core (test_command_table.cpp's list of good lines fails until
// the new command has one) and document the command in docs/language.md.
#pragma once

#include <span>
#include <string>
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

struct FlagEntry;
struct SavedSetting;  // core/saved_setting.h

struct AppCommandEntry {
  CommandExtension language;  // name, usage, summary, details, parse, keywords
  // Carries the command out at the apply step; `args` as `language.parse` returned them.
  // Returns false (having changed nothing, with an error printed) when it cannot.
  bool (*apply)(AppState& state, std::span<const std::string> args, CommandOutput& out);
  // Set (and `apply` null) for an entry made from a FlagEntry: the flag it sets.
  const FlagEntry* flag = nullptr;
  // Optional: the settings file keeps the command. Returns the canonical argument words (as
  // `language.parse` gives them, joined by spaces) that restore the current value, or "" for
  // the default (not written). Written under the entry's name as a JSON string, checked with
  // `language.parse` when read, restored with the line `NAME WORDS` after the flags.
  std::string (*saved)(const AppState& state) = nullptr;
  // Optional, for a value the simple `saved` cannot say (another key, a JSON value that is
  // not the command's words, a restore that depends on other settings): the whole saved
  // setting (core/saved_setting.h), such as the mocap clip under `clip`.
  const SavedSetting* setting = nullptr;
  // Optional: true when a script line of the command, with these arguments, rebuilds or
  // re-reads something large (a field, a crowd, a file) and so takes a whole frame of the
  // script's budget (ScriptLineCost, core/apply.cpp); null: one unit, as most lines.
  bool (*whole_frame)(std::span<const std::string> args) = nullptr;
};

// For AppCommandEntry::whole_frame: every line of the command takes a whole frame.
bool EveryLineAWholeFrame(std::span<const std::string> args);

// An on/off flag of the app's state, everything about it in one entry: the command
// `name on|off` (parsed by the language's one ParseOnOff, completed with on/off, listed by
// `help`), the bool it sets, its value at start, what it prints, its state-line field and
// whether and how the settings file keeps it. The table turns each into an AppCommandEntry
// (language.on_off set), so it travels as cmd::Extension{name, {"on"|"off"}} from the console,
// scripts, --exec lines and the panel alike.
struct FlagEntry {
  std::string_view name;                      // the command's first word, lower case
  std::string_view usage;                     // "NAME on|off"
  std::string_view summary;                   // one line for `help`
  std::span<const std::string_view> details;  // extra lines for `help NAME`
  bool& (*field)(AppState& state);            // the flag: read and set through this only
  bool initial = false;                       // its value at start (StartApp sets it)
  // Printed when set from the console or a script: "NAME on" / "NAME off" when empty.
  std::string_view on_text{};
  std::string_view off_text{};
  // Appended to the printed line when it has something to say about the state ("" if not).
  std::string (*note)(const AppState& state, bool on) = nullptr;
  // The settings file keeps it under `name` as a JSON bool and restores it with the line
  // `name on|off`, applied after `solver` and before `moe`. False: not saved.
  bool saved = false;
};

// The flag's value now.
bool FlagValue(const AppState& state, const FlagEntry& flag);
// Groups of flags defined in their own files (listed in kFlagGroups in command_table.cpp).
std::span<const FlagEntry> SolveFlagEntries();   // commands/solve.cpp: accelerate
std::span<const FlagEntry> OrientFlagEntries();  // commands/orient.cpp: skin, axes
std::span<const FlagEntry> ToolFlagEntries();    // commands/tools.cpp: spline ik
// Every flag, in the order `help` lists them (after the other app commands).
std::span<const FlagEntry> FlagTable();
// The flag named `name`, or null.
const FlagEntry* FindFlag(std::string_view name);
// Sets every flag to its `initial` value (the start-up does, before the settings).
void SetInitialFlags(AppState& state);

// Groups of entries defined in their own files (listed in kEntryGroups in command_table.cpp).
std::span<const AppCommandEntry> OrientCommandEntries();  // commands/orient.cpp
// commands/tools.cpp: soften, stretch, turn limit, stiffness, pole (docs/tools.md)
std::span<const AppCommandEntry> ToolCommandEntries();

// The entries, in the order `help` lists them (after the built-in commands).
std::span<const AppCommandEntry> AppCommandTable();
// The table's language halves, contiguous, for CommandContext::extensions.
std::span<const CommandExtension> AppCommandLanguage();
// Groups of entries from their own files, listed in kEntryGroups (command_table.cpp).
std::span<const AppCommandEntry> CaptureCommandEntries();  // commands/capture.cpp: screenshot
std::span<const AppCommandEntry> RecordViewEntries();  // commands/record.cpp: record, root, view

// The entry named `name`, or null.
const AppCommandEntry* FindAppCommand(std::string_view name);

}  // namespace fabrik
