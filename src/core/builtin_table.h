// builtin_table.h - the app core's half of the built-in commands (lang/command.h): for each
// command's section in core/commands/GROUP.cpp, the apply of every struct it parses to and
// whether and how the settings file keeps its value. The language half of the same section
// is its CommandSpec.
//
// Adding a built-in command: its struct and its place in Command (lang/command.h), and its
// section in a group file (help text, parser, Format, Validate, apply, CommandSpec and this
// entry, listed at the end of the file). Nothing else: Execute (core/execute.h) finds the
// apply by the struct's place in Command, and the start-up refuses to start when any struct
// has no apply or more than one (CheckBuiltinApplies). A new group file exposes a function
// returning its entries, declared here and listed once in kBuiltinGroups in builtin_table.cpp.
#pragma once

#include <cstddef>
#include <span>
#include <string_view>
#include <type_traits>
#include <variant>

#include "core/command_table.h"
#include "core/saved_setting.h"

namespace fabrik {

// The place of T in Command (its variant index); fails to compile when T is not in it.
template <class T, class V>
struct CommandIndexOf;
template <class T, class... Ts>
struct CommandIndexOf<T, std::variant<Ts...>> {
  static_assert((std::is_same_v<T, Ts> || ...), "not a built-in command struct");
  static constexpr std::size_t value = [] {
    std::size_t i = 0;
    (void)((std::is_same_v<T, Ts> ? true : (++i, false)) || ...);
    return i;
  }();
};
template <class T>
inline constexpr std::size_t kCommandIndex = CommandIndexOf<T, Command>::value;

// The apply of one command struct: carries out a command whose values the parser (or
// Validate) has checked; prints its result through `out` (nothing for kQuiet), and what can
// still be refused (a solver this build lacks, a chain too long to rebuild) is one error
// through out.Fail, having changed nothing. Returns false on that error.
struct BuiltinApply {
  std::size_t index = 0;  // the struct's place in Command
  bool (*apply)(AppState& state, const Command& command, CommandOutput& out) = nullptr;
};

// The BuiltinApply of `F`, the apply of struct T.
template <class T, bool (*F)(AppState&, const T&, CommandOutput&)>
constexpr BuiltinApply ApplyOf() {
  return {kCommandIndex<T>, [](AppState& state, const Command& command, CommandOutput& out) {
            return F(state, *std::get_if<T>(&command), out);
          }};
}

// One built-in command's section, as the core sees it.
struct BuiltinEntry {
  std::string_view name;                  // the command's first word (its CommandSpec's name)
  std::span<const BuiltinApply> applies;  // one per struct the command parses to
  const SavedSetting* saved = nullptr;    // how the settings file keeps it; null: not saved
};

// The groups, one per file of core/commands/, and the core's own (execute.cpp: the blank
// line and the app commands' cmd::Extension, which have no section).
std::span<const BuiltinEntry> ChainBuiltins();     // chain.cpp: target, mode, joints, ...
std::span<const BuiltinEntry> PlaybackBuiltins();  // playback.cpp: spline, script
std::span<const BuiltinEntry> SessionBuiltins();   // session.cpp: camera, state, help, ...
std::span<const BuiltinEntry> ViewBuiltins();      // view.cpp: clear, step, race, quit
std::span<const BuiltinEntry> CoreBuiltins();      // execute.cpp: Nothing, Extension

// Every built-in's entry, in the order of the groups above. Built once.
std::span<const BuiltinEntry> BuiltinTable();

// OK when every alternative of Command has exactly one apply in `entries`; otherwise one
// line naming the first that has none or more than one ("built-in commands: 'moe' (Command
// alternative 6) has no apply"). The start-up checks BuiltinTable() with it.
Status CheckBuiltinApplies(std::span<const BuiltinEntry> entries);

// The apply of the alternative `index` of Command in BuiltinTable(), or null when it has
// none (only possible when CheckBuiltinApplies(BuiltinTable()) fails).
auto BuiltinApplyFor(std::size_t index) -> decltype(BuiltinApply::apply);

}  // namespace fabrik
