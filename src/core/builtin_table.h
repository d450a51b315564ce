// builtin_table.h - the app core's half of the built-in commands (lang/command.h): the apply
// of every struct of Command, and, for each command's section in core/commands/GROUP.cpp,
// whether and how the settings file keeps its value. The language half of the same section
// is its CommandSpec.
//
// Adding a built-in command: its struct and its place in Command (lang/command.h), and its
// section in a group file (help text, parser, Format, Validate, CommandSpec, its apply
// `bool ApplyBuiltin(AppState&, const cmd::NAME&, CommandOutput&)` declared below, and a
// BuiltinEntry when the settings file keeps its value). Execute (core/execute.h) calls the apply
// through std::visit over Command, so the compiler checks the dispatch: a struct of Command
// without an apply declared here does not compile (the deleted template is chosen), and one
// declared but never defined does not link. A new group file exposes a function returning
// its entries, declared here and listed once in kBuiltinGroups in builtin_table.cpp.
#pragma once

#include <span>
#include <string_view>

#include "core/command_table.h"
#include "core/saved_setting.h"

namespace fabrik {

// The apply of each struct of Command: carries out a command whose values the parser (or
// Validate) has checked; prints its result through `out` (nothing for kQuiet), and what can
// still be refused (a solver this build lacks, a chain too long to rebuild) is one error
// through out.Fail, having changed nothing. Returns false on that error.
template <class T>
bool ApplyBuiltin(AppState& state, const T& command, CommandOutput& out) = delete;
// core/execute.cpp
bool ApplyBuiltin(AppState& state, const cmd::Nothing& c, CommandOutput& out);
bool ApplyBuiltin(AppState& state, const cmd::Extension& c, CommandOutput& out);
// core/commands/chain.cpp
bool ApplyBuiltin(AppState& state, const cmd::Target& c, CommandOutput& out);
bool ApplyBuiltin(AppState& state, const cmd::Mode& c, CommandOutput& out);
bool ApplyBuiltin(AppState& state, const cmd::Joints& c, CommandOutput& out);
bool ApplyBuiltin(AppState& state, const cmd::Length& c, CommandOutput& out);
bool ApplyBuiltin(AppState& state, const cmd::Lengths& c, CommandOutput& out);
bool ApplyBuiltin(AppState& state, const cmd::Moe& c, CommandOutput& out);
bool ApplyBuiltin(AppState& state, const cmd::Iterations& c, CommandOutput& out);
// core/commands/playback.cpp
bool ApplyBuiltin(AppState& state, const cmd::SplineLoad& c, CommandOutput& out);
bool ApplyBuiltin(AppState& state, const cmd::SplineSpeed& c, CommandOutput& out);
bool ApplyBuiltin(AppState& state, const cmd::SplinePlayback& c, CommandOutput& out);
bool ApplyBuiltin(AppState& state, const cmd::SplineEnd& c, CommandOutput& out);
bool ApplyBuiltin(AppState& state, const cmd::ScriptRun& c, CommandOutput& out);
bool ApplyBuiltin(AppState& state, const cmd::ScriptPlayback& c, CommandOutput& out);
// core/commands/session.cpp
bool ApplyBuiltin(AppState& state, const cmd::CameraReset& c, CommandOutput& out);
bool ApplyBuiltin(AppState& state, const cmd::State& c, CommandOutput& out);
bool ApplyBuiltin(AppState& state, const cmd::Help& c, CommandOutput& out);
bool ApplyBuiltin(AppState& state, const cmd::Solver& c, CommandOutput& out);
bool ApplyBuiltin(AppState& state, const cmd::Scene& c, CommandOutput& out);
// core/commands/view.cpp
bool ApplyBuiltin(AppState& state, const cmd::Clear& c, CommandOutput& out);
bool ApplyBuiltin(AppState& state, const cmd::Step& c, CommandOutput& out);
bool ApplyBuiltin(AppState& state, const cmd::Race& c, CommandOutput& out);
bool ApplyBuiltin(AppState& state, const cmd::Quit& c, CommandOutput& out);

// A built-in command whose value the settings file keeps, and how.
struct BuiltinEntry {
  std::string_view name;                // the command's first word (its CommandSpec's name)
  const SavedSetting* saved = nullptr;  // how the settings file keeps it (never null)
};

// The groups, one per file of core/commands/ that has saved commands.
std::span<const BuiltinEntry> ChainBuiltins();     // chain.cpp: mode, length, lengths, moe, ...
std::span<const BuiltinEntry> PlaybackBuiltins();  // playback.cpp: spline, script
std::span<const BuiltinEntry> SessionBuiltins();   // session.cpp: solver, scene

// Every built-in's entry, in the order of the groups above. Built once.
std::span<const BuiltinEntry> BuiltinTable();

}  // namespace fabrik
