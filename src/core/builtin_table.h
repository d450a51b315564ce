// builtin_table.h - the app core's half of the typed built-in commands (lang/command.h): the
// apply of every struct of Command, and Typed<T>, the entry that puts the command in the one
// registry (core/command_table.h) with, when the settings file keeps it, its SavedSetting.
// The language half of the same command is its CommandSpec (lang/commands/GROUP.cpp).
//
// Adding a typed built-in: its struct and its place in Command (lang/command.h); its section
// in the language's group file (help text, parser, Format, Validate, CommandSpec); in the
// core's group file of the same name its apply `bool ApplyBuiltin(AppState&, const
// cmd::NAME&, CommandOutput&)`, declared below, and its entry `Typed<cmd::NAME>(&kSaved)` (no
// argument when the settings file does not keep it) in the group's array. Execute
// (core/execute.h) calls the apply through std::visit over Command, so the compiler checks the
// dispatch: a struct of Command without an apply declared here does not compile (the deleted
// template is chosen, and Typed<T> refuses it), and one declared but never defined does not
// link.
#pragma once

#include <concepts>
#include <span>
#include <string_view>
#include <type_traits>
#include <variant>

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

// Whether T has its apply (the deleted template does not count).
template <class T>
concept HasBuiltinApply = requires(AppState& state, const T& command, CommandOutput& out) {
  { ApplyBuiltin(state, command, out) } -> std::same_as<bool>;
};

template <class T, class Variant>
inline constexpr bool kIsAlternativeOf = false;
template <class T, class... Ts>
inline constexpr bool kIsAlternativeOf<T, std::variant<Ts...>> = (std::is_same_v<T, Ts> || ...);

// A typed built-in's entry in the registry (core/command_table.h): the command whose structs
// are First and Rest (all of one name: `spline` parses to SplineLoad, SplineSpeed, ...), with
// how the settings file keeps it (`setting`, or null). The registry takes its language half
// from the CommandSpec of that name. Each struct must be in Command and have its apply: this
// does not compile otherwise.
template <class First, class... Rest>
constexpr CommandEntry Typed(const SavedSetting* setting = nullptr) {
  static_assert(((Rest::kName == First::kName) && ...), "one entry is one command name");
  static_assert(kIsAlternativeOf<First, Command> && (kIsAlternativeOf<Rest, Command> && ...),
                "a typed built-in's struct is in Command (lang/command.h)");
  static_assert(HasBuiltinApply<First> && (HasBuiltinApply<Rest> && ...),
                "a typed built-in's struct has its ApplyBuiltin, declared above");
  CommandEntry entry{};
  entry.language.name = First::kName;
  entry.setting = setting;
  entry.typed = true;
  return entry;
}

}  // namespace fabrik
