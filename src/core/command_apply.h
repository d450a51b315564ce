// command_apply.h - the apply half of the built-in commands: one Apply overload per command
// struct of lang/command.h. Each built-in's group file (core/commands/NAME.cpp) defines its
// Apply there, beside its parser, Format and Validate. Execute (core/commands.h) picks
// the overload by the command's type, so a struct without its Apply does not compile.
//
// Each Apply carries out a command whose values the parser (or Validate) has checked; it
// prints its result through `out` (nothing for kQuiet), and what can still be refused (a
// solver this build lacks, a chain too long to rebuild) is one error through out.Fail,
// having changed nothing.
#pragma once

#include "core/command_table.h"

namespace fabrik {

// core/commands/chain.cpp
bool Apply(AppState& state, const cmd::Target& c, CommandOutput& out);
bool Apply(AppState& state, const cmd::Mode& c, CommandOutput& out);
bool Apply(AppState& state, const cmd::Joints& c, CommandOutput& out);
bool Apply(AppState& state, const cmd::Length& c, CommandOutput& out);
bool Apply(AppState& state, const cmd::Lengths& c, CommandOutput& out);
bool Apply(AppState& state, const cmd::Moe& c, CommandOutput& out);
bool Apply(AppState& state, const cmd::Iterations& c, CommandOutput& out);
// core/commands/playback.cpp
bool Apply(AppState& state, const cmd::SplineLoad& c, CommandOutput& out);
bool Apply(AppState& state, const cmd::SplineSpeed& c, CommandOutput& out);
bool Apply(AppState& state, const cmd::SplinePlayback& c, CommandOutput& out);
bool Apply(AppState& state, const cmd::SplineEnd& c, CommandOutput& out);
bool Apply(AppState& state, const cmd::ScriptRun& c, CommandOutput& out);
bool Apply(AppState& state, const cmd::ScriptPlayback& c, CommandOutput& out);
// core/commands/session.cpp
bool Apply(AppState& state, const cmd::CameraReset& c, CommandOutput& out);
bool Apply(AppState& state, const cmd::State& c, CommandOutput& out);
bool Apply(AppState& state, const cmd::Help& c, CommandOutput& out);
bool Apply(AppState& state, const cmd::Solver& c, CommandOutput& out);
bool Apply(AppState& state, const cmd::Scene& c, CommandOutput& out);
// core/commands/view.cpp
bool Apply(AppState& state, const cmd::Clear& c, CommandOutput& out);
bool Apply(AppState& state, const cmd::Step& c, CommandOutput& out);
bool Apply(AppState& state, const cmd::Race& c, CommandOutput& out);
bool Apply(AppState& state, const cmd::Quit& c, CommandOutput& out);
// core/commands.cpp: nothing for a blank line; an extension by its AppCommandEntry (a flag by
// its FlagEntry).
bool Apply(AppState& state, const cmd::Nothing& c, CommandOutput& out);
bool Apply(AppState& state, const cmd::Extension& c, CommandOutput& out);

}  // namespace fabrik
