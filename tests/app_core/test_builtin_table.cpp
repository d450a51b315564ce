// The built-in commands' core half (core/builtin_table.h): the compiler finds each struct's
// apply (a struct without one is refused at compile time, checked below with the concept
// Typed<T> holds every entry to), a command sent as a typed value reaches its apply, and every
// built-in of the language is one typed entry of the registry, its saved setting's key its own.
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
concept HasApply = HasBuiltinApply<T>;

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

TEST(BuiltinTable, EveryBuiltinIsOneTypedEntryAndEverySettingKeyIsOnce) {
  std::set<std::string> typed;
  std::set<std::string> keys;
  for (const CommandEntry& e : CommandRegistry()) {
    if (e.setting != nullptr) {
      EXPECT_TRUE(keys.insert(std::string(e.setting->key)).second) << e.setting->key;
    }
    if (!e.typed) continue;
    EXPECT_TRUE(typed.insert(std::string(e.language.name)).second) << e.language.name;
    EXPECT_NE(FindCommand(e.language.name), nullptr) << e.language.name;
  }
  for (const CommandSpec& spec : CommandList()) EXPECT_TRUE(typed.count(std::string(spec.name)));
  // The built-ins' keys of settings.json, as older files write them (docs/settings.md).
  for (const char* key : {"mode", "length", "lengths", "moe", "max_iterations", "spline", "script",
                          "solver", "scene"}) {
    EXPECT_TRUE(keys.count(key)) << key;
  }
}

}  // namespace
}  // namespace fabrik
