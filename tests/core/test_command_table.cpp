// The app's command table: an entry's command parses, completes, is listed by help, runs in
// scripts, and a bad line gives the entry's one error and changes nothing.
#include "core/command_table.h"
#include "core_test_util.h"

namespace fabrik {
namespace {

using testing::Core;

TEST(CommandTable, EveryEntryHasItsParts) {
  for (const AppCommandEntry& e : AppCommandTable()) {
    EXPECT_FALSE(e.language.name.empty());
    EXPECT_EQ(e.language.usage.substr(0, e.language.name.size()), e.language.name);
    EXPECT_FALSE(e.language.summary.empty());
    EXPECT_NE(e.language.parse, nullptr);
    EXPECT_NE(e.apply, nullptr);
    EXPECT_EQ(FindAppCommand(e.language.name), &e);
    // Not the name of a built-in command.
    for (const CommandInfo& info : CommandList()) EXPECT_NE(info.name, e.language.name);
  }
  EXPECT_EQ(AppCommandLanguage().size(), AppCommandTable().size());
}

TEST(CommandTable, EchoPrintsItsWords) {
  Core core;
  core.Run("echo hello   \"big world\"");
  EXPECT_EQ(core.LastLine(), "hello big world");
  EXPECT_EQ(core.LastKind(), ConsoleLine::Kind::kOutput);
}

TEST(CommandTable, ABadEntryLineIsOneErrorAndChangesNothing) {
  Core core;
  core.Frames(2);
  const std::string before = core.Fingerprint();
  const std::size_t lines = core.state().console.log.size();
  core.Type("echo");
  ApplyCommands(core.state(), core.queue());
  ASSERT_EQ(core.state().console.log.size(), lines + 2);
  EXPECT_EQ(core.LastLine(), "echo: expected some text (usage: echo TEXT ...)");
  EXPECT_EQ(core.LastKind(), ConsoleLine::Kind::kError);
  EXPECT_EQ(core.Fingerprint(), before);
}

TEST(CommandTable, EntriesCompleteAndAreListedByHelp) {
  Core core;
  const CommandContext& context = core.state().command_context;
  EXPECT_EQ(CompleteCommand("ec", context), std::vector<std::string>{"echo "});
  EXPECT_EQ(CompleteCommand("help ec", context), std::vector<std::string>{"help echo"});
  const std::size_t before = core.state().console.log.size();
  core.Run("help");
  EXPECT_EQ(core.state().console.log.size() - before,
            CommandList().size() + AppCommandTable().size() + 2);
  core.Run("help echo");
  EXPECT_NE(core.state().console.log[core.state().console.log.size() - 3].text.find("echo TEXT"),
            std::string::npos);
}

TEST(CommandTable, EntriesRunInScriptsAtTheirTimes) {
  const std::string path =
      testing::WriteTempFile("narrate.txt", "at 0.5 echo half a second\nat 1 joints 3\n");
  Core core;
  core.Run("script run " + path);
  core.Frames(40);
  bool found = false;
  for (const ConsoleLine& line : core.state().console.log) found |= line.text == "half a second";
  EXPECT_TRUE(found);
  EXPECT_EQ(FormatCommand(Command(cmd::Extension{"echo", {"two words", "x"}})),
            "echo \"two words\" x");
}

}  // namespace
}  // namespace fabrik
