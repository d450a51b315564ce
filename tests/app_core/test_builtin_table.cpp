// The built-in commands' core half (core/builtin_table.h): the compiler finds each struct's
// apply (a struct without one is refused at compile time, checked below with a concept), a
// command sent as a typed value reaches its apply, and every saved entry names a command of
// the language with a saved setting.
#include <gtest/gtest.h>

#include <concepts>
#include <set>
#include <string>
#include <variant>

#include "core/builtin_table.h"
#include "core_test_util.h"

namespace fabrik {
namespace {

// Whether ApplyBuiltin has an overload for T (the deleted template does not count).
template <class T>
concept HasApply = requires(AppState& state, const T& command, CommandOutput& out) {
  { ApplyBuiltin(state, command, out) } -> std::same_as<bool>;
};

template <class... Ts>
constexpr bool EveryAlternativeHasApply(const std::variant<Ts...>*) {
  return (HasApply<Ts> && ...);
}

// A command struct nobody wrote an apply for: Execute would not compile with it in Command.
struct Unapplied {
  static constexpr std::string_view kName = "unapplied";
};

// Checked when this file compiles: every struct of Command has its apply, and one without an
// apply (or a type that is no command) has none, so Execute's std::visit would not compile.
static_assert(EveryAlternativeHasApply(static_cast<const Command*>(nullptr)));
static_assert(!HasApply<Unapplied>);
static_assert(!HasApply<int>);

TEST(BuiltinTable, ACommandSentAsATypedValueReachesItsApply) {
  testing::Core core;
  core.Send(Command(cmd::Moe{0.125f}));
  core.Send(Command(cmd::Iterations{42}));
  core.Send(Command(cmd::Extension{"accelerate", {"on"}}));
  core.Frames(1);
  EXPECT_EQ(core.state().settings.tolerance, 0.125f);
  EXPECT_EQ(core.state().settings.max_iterations, 42);
  EXPECT_TRUE(core.state().settings.accelerate);
}

TEST(BuiltinTable, EverySavedEntryIsACommandWithASetting) {
  std::set<std::string> names;
  for (const CommandSpec& spec : CommandList()) names.insert(std::string(spec.name));
  std::set<std::string> keys;
  ASSERT_FALSE(BuiltinTable().empty());
  for (const BuiltinEntry& e : BuiltinTable()) {
    EXPECT_TRUE(names.count(std::string(e.name))) << e.name;
    ASSERT_NE(e.saved, nullptr) << e.name;
    EXPECT_TRUE(keys.insert(std::string(e.saved->key)).second) << e.saved->key;
  }
}

}  // namespace
}  // namespace fabrik
