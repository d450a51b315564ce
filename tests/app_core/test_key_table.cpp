// The key table (app/key_table.h) against README's Controls table: the same bindings, row
// for row by their key text, so the help overlay, the input step and the README agree.
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "app/key_table.h"

namespace fabrik {
namespace {

// The key column of every row of README's table headed "| input | action |".
std::vector<std::string> ReadmeControlKeys() {
  std::ifstream in(std::string(FABRIK_SOURCE_DIR) + "/README.md");
  std::vector<std::string> keys;
  std::string line;
  bool in_table = false;
  while (std::getline(in, line)) {
    if (!in_table) {
      in_table = line.rfind("| input | action |", 0) == 0;
      if (in_table) std::getline(in, line);  // the |---|---| line
      continue;
    }
    if (line.rfind("| ", 0) != 0) break;
    const std::size_t end = line.find(" | ", 2);
    if (end == std::string::npos) break;
    keys.push_back(line.substr(2, end - 2));
  }
  return keys;
}

TEST(KeyTable, MatchesReadmesControlsTable) {
  const std::vector<std::string> readme = ReadmeControlKeys();
  ASSERT_FALSE(readme.empty()) << "README.md has no '| input | action |' table";
  std::set<std::string> table;
  for (const keys::Binding& b : keys::kBindings) table.emplace(b.keys);
  const std::set<std::string> in_readme(readme.begin(), readme.end());
  for (const std::string& key : in_readme) {
    EXPECT_TRUE(table.count(key)) << "README's Controls row '" << key
                                  << "' is not in app/key_table.h";
  }
  for (const std::string& key : table) {
    EXPECT_TRUE(in_readme.count(key))
        << "app/key_table.h's binding '" << key << "' has no row in README's Controls table";
  }
  EXPECT_EQ(readme.size(), in_readme.size()) << "README lists a binding twice";
}

// The modifier + wheel row exists (it was once missing from the overlay), and every key
// action has its keys.
TEST(KeyTable, EveryKeyActionHasItsKeys) {
  const auto has = [](std::string_view text) {
    return std::any_of(std::begin(keys::kBindings), std::end(keys::kBindings),
                       [&](const keys::Binding& b) { return b.keys.find(text) != b.keys.npos; });
  };
  EXPECT_TRUE(has("`Shift` / `Ctrl` / `Alt` + wheel"));
  std::set<keys::Action> seen;
  for (const keys::Binding& b : keys::kBindings) {
    const bool mouse = b.action == keys::Action::kMouse || b.action == keys::Action::kConsoleKeys;
    EXPECT_EQ(mouse, b.codes[0] == keys::kNone) << b.keys;
    if (!mouse) {
      EXPECT_TRUE(seen.insert(b.action).second) << "two rows do one action: " << b.keys;
    }
    EXPECT_FALSE(b.text.empty()) << b.keys;
  }
  EXPECT_EQ(keys::Find(keys::Action::kMode).codes[3], keys::k4);
  EXPECT_EQ(keys::Find(keys::Action::kHelp).codes[1], keys::kEscape);
}

TEST(KeyTable, PlainTextDropsTheMarkdown) {
  EXPECT_EQ(keys::PlainText("`R` / *Reset camera*"), "R / Reset camera");
  EXPECT_EQ(keys::PlainText("`` ` `` (backtick)"), "` (backtick)");
  EXPECT_EQ(keys::PlainText("`Shift` + `Left` / `Right`"), "Shift + Left / Right");
  EXPECT_EQ(keys::PlainText("right drag"), "right drag");
}

}  // namespace
}  // namespace fabrik
