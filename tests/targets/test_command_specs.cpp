// The built-in command table (CommandSpec, lang/command.h): every entry has its parts,
// its keywords complete and parse, and every command struct formats back to its own name.
#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <string>

#include "lang/command.h"

namespace fabrik {
namespace {

bool Contains(std::span<const std::string_view> names, std::string_view name) {
  return std::find(names.begin(), names.end(), name) != names.end();
}

TEST(CommandSpecs, EveryEntryHasItsParts) {
  std::set<std::string_view> names;
  for (const CommandSpec& spec : CommandList()) {
    SCOPED_TRACE(std::string(spec.name));
    EXPECT_FALSE(spec.name.empty());
    EXPECT_TRUE(names.insert(spec.name).second) << "listed twice";
    EXPECT_EQ(spec.usage.substr(0, spec.name.size()), spec.name);
    EXPECT_FALSE(spec.summary.empty());
    ASSERT_NE(spec.parse, nullptr);
    EXPECT_EQ(FindCommand(spec.name), &spec);
    // `help NAME` shows the entry's usage, summary and details.
    const std::vector<std::string> help = HelpLines(spec.name);
    ASSERT_EQ(help.size(), 2 + spec.details.size());
    EXPECT_EQ(help[0], "usage: " + std::string(spec.usage));
    EXPECT_EQ(help[1], "  " + std::string(spec.summary));
    for (std::string_view k : spec.keywords_taking_words) EXPECT_TRUE(Contains(spec.keywords, k));
    if (!spec.path_after.empty()) {
      EXPECT_TRUE(Contains(spec.keywords_taking_words, spec.path_after));
    }
  }
  EXPECT_EQ(FindCommand("nope"), nullptr);
}

// A keyword that ends the line parses to a command named like its entry, whose canonical
// text reads back to the same text; one that needs more words is completed with a space and
// refused alone.
TEST(CommandSpecs, EveryKeywordCompletesAndParses) {
  int checked = 0;
  for (const CommandSpec& spec : CommandList()) {
    for (std::string_view k : spec.keywords) {
      const std::string line = std::string(spec.name) + " " + std::string(k);
      SCOPED_TRACE(line);
      const bool more = Contains(spec.keywords_taking_words, k);
      const std::vector<std::string> completed = CompleteCommand(line);
      ASSERT_EQ(completed.size(), 1u);
      EXPECT_EQ(completed[0], more ? line + " " : line);
      const Result<Command> parsed = ParseCommand(line);
      EXPECT_EQ(parsed.ok(), !more);
      if (!parsed.ok()) continue;
      EXPECT_EQ(CommandName(parsed.value()), spec.name);
      EXPECT_TRUE(ValidateCommand(parsed.value()).ok());
      const std::string text = FormatCommand(parsed.value());
      EXPECT_EQ(text, line);
      ++checked;
    }
  }
  EXPECT_GT(checked, 30);
}

TEST(CommandSpecs, NamesCompleteWithASpaceWhenWordsFollow) {
  for (const CommandSpec& spec : CommandList()) {
    const std::vector<std::string> completed = CompleteCommand(spec.name);
    const std::string expected = std::string(spec.name) + (spec.name_takes_words ? " " : "");
    EXPECT_TRUE(std::find(completed.begin(), completed.end(), expected) != completed.end())
        << spec.name;
    // A name that completes without a space is a whole command by itself.
    if (!spec.name_takes_words) {
      EXPECT_TRUE(ParseCommand(spec.name).ok()) << spec.name;
    }
  }
}

// Context keywords: `scene` offers the app's own list when given one, `help` the app's
// commands too.
TEST(CommandSpecs, ContextKeywordsFollowTheContext) {
  CommandContext context;
  context.scene_names = {"chain", "tower"};
  EXPECT_EQ(CompleteCommand("scene t", context), std::vector<std::string>{"scene tower"});
  EXPECT_TRUE(CompleteCommand("scene t").empty());
  EXPECT_TRUE(ParseCommand("scene tower", context).ok());
  CommandContext chain_only;
  chain_only.scene_names = {"chain"};
  EXPECT_FALSE(ParseCommand("scene tower", chain_only).ok());
  constexpr std::string_view kNoDetails[] = {"  none"};
  const CommandExtension extensions[] = {
      {"zap",
       "zap",
       "zaps",
       kNoDetails,
       [](std::span<const std::string>) -> Result<std::vector<std::string>> {
         return std::vector<std::string>{};
       },
       {}}};
  context.extensions = extensions;
  EXPECT_EQ(CompleteCommand("help z", context), std::vector<std::string>{"help zap"});
  EXPECT_EQ(CompleteCommand("z", context), std::vector<std::string>{"zap "});
  EXPECT_EQ(FormatCommand(ParseCommand("zap", context).value()), "zap");
  EXPECT_EQ(HelpLines("zap", extensions).back(), "  none");
}

}  // namespace
}  // namespace fabrik
