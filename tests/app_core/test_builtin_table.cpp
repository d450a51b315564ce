// The built-in commands' core table (core/builtin_table.h): every struct of Command has
// exactly one apply, the check that the start-up makes says which one does not, and a command
// reaches its apply by its place in Command.
#include <gtest/gtest.h>

#include <vector>

#include "core/builtin_table.h"
#include "core_test_util.h"

namespace fabrik {
namespace {

// Every apply of the real table.
std::vector<BuiltinApply> AllApplies() {
  std::vector<BuiltinApply> all;
  for (const BuiltinEntry& e : BuiltinTable())
    all.insert(all.end(), e.applies.begin(), e.applies.end());
  return all;
}

TEST(BuiltinTable, EveryCommandStructHasExactlyOneApply) {
  const Status check = CheckBuiltinApplies(BuiltinTable());
  EXPECT_TRUE(check) << (check ? "" : check.error());
  for (std::size_t i = 0; i < std::variant_size_v<Command>; ++i) {
    EXPECT_NE(BuiltinApplyFor(i), nullptr) << i;
  }
  EXPECT_EQ(BuiltinApplyFor(std::variant_size_v<Command>), nullptr);
  EXPECT_EQ(AllApplies().size(), std::variant_size_v<Command>);
}

bool QuitAgain(AppState&, const cmd::Quit&, CommandOutput&) { return true; }

TEST(BuiltinTable, TheCheckNamesAStructWithoutItsApplyOrWithTwo) {
  std::vector<BuiltinApply> missing;
  for (const BuiltinApply& a : AllApplies()) {
    if (a.index != kCommandIndex<cmd::Moe>) missing.push_back(a);
  }
  const BuiltinEntry without[] = {{.name = "all but moe", .applies = missing}};
  const Status none = CheckBuiltinApplies(without);
  ASSERT_FALSE(none);
  EXPECT_NE(none.error().find("'moe'"), std::string::npos) << none.error();
  EXPECT_NE(none.error().find("no apply"), std::string::npos) << none.error();

  std::vector<BuiltinApply> doubled = AllApplies();
  doubled.push_back(ApplyOf<cmd::Quit, QuitAgain>());
  const BuiltinEntry twice[] = {{.name = "quit twice", .applies = doubled}};
  const Status two = CheckBuiltinApplies(twice);
  ASSERT_FALSE(two);
  EXPECT_NE(two.error().find("'quit'"), std::string::npos) << two.error();
  EXPECT_NE(two.error().find("more than one"), std::string::npos) << two.error();
}

TEST(BuiltinTable, ACommandReachesItsApplyByItsPlaceInCommand) {
  static_assert(kCommandIndex<cmd::Nothing> == 0);
  static_assert(kCommandIndex<cmd::Extension> == std::variant_size_v<Command> - 1);
  testing::Core core;
  core.Send(Command(cmd::Moe{0.125f}));
  core.Send(Command(cmd::Iterations{42}));
  core.Frames(1);
  EXPECT_EQ(core.state().settings.tolerance, 0.125f);
  EXPECT_EQ(core.state().settings.max_iterations, 42);
}

}  // namespace
}  // namespace fabrik
