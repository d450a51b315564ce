// builtin_table.h - the app core's half of the built-in commands (lang/command.h): for each
// command's section in core/commands/GROUP.cpp, whether and how the settings file keeps its
// value (SavedSetting). The language half of the same section is its CommandSpec.
//
// Adding a built-in command to a group: its section (help text, parser, Format, Validate,
// apply, CommandSpec and this entry) in the group's file, its entry in the group's list at the
// end of that file. A new group file exposes a function returning its entries, declared here
// and listed once in kGroups in builtin_table.cpp.
#pragma once

#include <span>
#include <string_view>

#include "core/saved_setting.h"

namespace fabrik {

// One built-in command's section, as the core sees it.
struct BuiltinEntry {
  std::string_view name;                // the command's first word (its CommandSpec's name)
  const SavedSetting* saved = nullptr;  // how the settings file keeps it; null: not saved
};

// The groups, one per file of core/commands/.
std::span<const BuiltinEntry> ChainBuiltins();     // chain.cpp: target, mode, joints, ...
std::span<const BuiltinEntry> PlaybackBuiltins();  // playback.cpp: spline, script
std::span<const BuiltinEntry> SessionBuiltins();   // session.cpp: camera, state, help, ...
std::span<const BuiltinEntry> ViewBuiltins();      // view.cpp: clear, step, race, quit

// Every built-in's entry, in the order of the groups above. Built once.
std::span<const BuiltinEntry> BuiltinTable();

}  // namespace fabrik
