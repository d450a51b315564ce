// command_table.h - the app's own commands: one entry each, holding the command's name,
// usage, help, argument parsing and validation, completion and how it is applied.
//
// The console and script language (README "The console and script language") is the
// built-in commands of targets/command.h plus these entries. The start-up passes the table to
// the parser (CommandContext::extensions), so an entry's command is typed in the console,
// written in scripts and --exec lines, completed with Tab and listed by `help` like any
// other; a bad line gives the entry's one error line and changes nothing.
//
// Adding a command: add one AppCommandEntry (its parse and apply functions next to it) to a
// group of entries: the core group in command_table.cpp, or a file of its own exposing a
// function that returns its entries, listed once in kGroups in command_table.cpp. Add a test
// in tests/core and document the command in README.
#pragma once

#include <span>
#include <string>
#include <vector>

#include "core/app_command.h"
#include "targets/command.h"

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

struct AppCommandEntry {
  CommandExtension language;  // name, usage, summary, details, parse, keywords
  // Carries the command out at the apply step; `args` as `language.parse` returned them.
  // Returns false (having changed nothing, with an error printed) when it cannot.
  bool (*apply)(AppState& state, std::span<const std::string> args, CommandOutput& out);
};

// Groups of entries defined in their own files (listed in kGroups in command_table.cpp).
std::span<const AppCommandEntry> OrientCommandEntries();  // commands_orient.cpp

// The entries, in the order `help` lists them (after the built-in commands).
std::span<const AppCommandEntry> AppCommandTable();
// The table's language halves, contiguous, for CommandContext::extensions.
std::span<const CommandExtension> AppCommandLanguage();
// Groups of entries from their own files, listed in kGroups (command_table.cpp).
std::span<const AppCommandEntry> CaptureCommandEntries();  // commands_capture.cpp: screenshot
std::span<const AppCommandEntry> RecordViewEntries();  // commands_record.cpp: record, root, view

// The entry named `name`, or null.
const AppCommandEntry* FindAppCommand(std::string_view name);

}  // namespace fabrik
