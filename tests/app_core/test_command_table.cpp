// The app's command table: an entry's command parses, completes, is listed by help, runs in
// scripts, and a bad line gives the entry's one error and changes nothing.
#include <map>
#include <set>

#include "core/command_table.h"
#include "core/settings.h"
#include "core_test_util.h"

namespace fabrik {
namespace {

using testing::Core;

TEST(CommandTable, EveryEntryHasItsParts) {
  std::size_t typed = 0;
  for (const CommandEntry& e : CommandRegistry()) {
    EXPECT_FALSE(e.language.name.empty());
    EXPECT_EQ(e.language.usage.substr(0, e.language.name.size()), e.language.name);
    EXPECT_FALSE(e.language.summary.empty());
    EXPECT_EQ(FindCommandEntry(e.language.name), &e);
    if (e.typed) {  // a typed built-in: its language half is its spec, its apply ApplyBuiltin
      ASSERT_NE(e.spec, nullptr) << e.language.name;
      EXPECT_EQ(e.spec, FindCommand(e.language.name));
      EXPECT_EQ(e.apply, nullptr);
      EXPECT_FALSE(e.is_flag());
      ++typed;
      continue;
    }
    // Not the name of a built-in command.
    EXPECT_EQ(FindCommand(e.language.name), nullptr) << e.language.name;
    EXPECT_EQ(e.language.on_off, e.is_flag()) << e.language.name;
    if (e.is_flag()) {  // a flag: the language parses it, the registry sets it
      EXPECT_EQ(e.apply, nullptr);
      EXPECT_EQ(e.saved, nullptr);
      EXPECT_EQ(e.setting, nullptr);
    } else {
      EXPECT_NE(e.language.parse, nullptr);
      EXPECT_NE(e.apply, nullptr);
    }
  }
  EXPECT_EQ(typed, CommandList().size());
  EXPECT_EQ(AppCommandLanguage().size(), CommandRegistry().size() - typed);
}

// One registry: every command once, the built-ins in the language's order first, and `help`
// lists exactly the registry's commands in its order.
TEST(CommandTable, EveryCommandIsOneEntryAndHelpListsTheRegistry) {
  std::set<std::string_view> names;
  for (const CommandEntry& e : CommandRegistry()) {
    EXPECT_TRUE(names.insert(e.language.name).second) << "two entries named " << e.language.name;
  }
  const std::span<const CommandSpec> specs = CommandList();
  ASSERT_LE(specs.size(), CommandRegistry().size());
  for (std::size_t i = 0; i < specs.size(); ++i) {
    EXPECT_EQ(CommandRegistry()[i].language.name, specs[i].name) << i;
    EXPECT_TRUE(CommandRegistry()[i].typed) << specs[i].name;
  }
  Core core;
  const std::vector<std::string> lines = HelpLines("", core.state().command_context);
  std::vector<std::string> listed;
  for (const std::string& line : lines) {
    // A command's line: two spaces, then its usage; the name is the usage's start.
    if (line.rfind("  ", 0) != 0) continue;
    listed.push_back(line);
  }
  ASSERT_EQ(listed.size(), CommandRegistry().size());
  for (std::size_t i = 0; i < listed.size(); ++i) {
    const CommandEntry& e = CommandRegistry()[i];
    const std::string usage = e.typed && e.spec->context_usage != nullptr
                                  ? e.spec->context_usage(core.state().command_context)
                                  : std::string(e.language.usage);
    EXPECT_EQ(listed[i].rfind("  " + usage, 0), 0u) << listed[i] << " is not " << usage;
  }
}

// accelerate, as every flag: parsed, printed, completed, listed, refused with the one
// on/off error, and sent typed by the panel.
TEST(CommandTable, AccelerateIsAFlag) {
  Core core;
  const CommandContext& context = core.state().command_context;
  for (const char* line : {"accelerate on", "ACCELERATE On"}) {
    auto r = ParseCommand(line, context);
    ASSERT_TRUE(r.ok()) << r.error();
    EXPECT_EQ(FormatCommand(r.value()), "accelerate on");
  }
  auto off = ParseCommand("accelerate off", context);
  ASSERT_TRUE(off.ok());
  EXPECT_EQ(FormatCommand(off.value()), "accelerate off");
  EXPECT_EQ(CommandName(off.value()), "accelerate");
  EXPECT_EQ(ParseCommand("accelerate maybe", context).error(),
            "accelerate: expected on or off, got 'maybe' (usage: accelerate on|off)");
  EXPECT_FALSE(ParseCommand("accelerate", context).ok());
  EXPECT_FALSE(ParseCommand("accelerate on now", context).ok());
  EXPECT_EQ(CompleteCommand("accelerate o", context),
            (std::vector<std::string>{"accelerate off", "accelerate on"}));
  EXPECT_EQ(HelpLines("accelerate", AppCommandLanguage())[0].rfind("usage: accelerate on|off", 0),
            0u);
  // A hand-built command with a bad word is refused like a typed one, changing nothing.
  core.Frames(1);
  const std::string before = core.Fingerprint();
  core.Send(Command(cmd::Extension{"accelerate", {"maybe"}}));
  ApplyCommands(core.state(), core.queue());
  EXPECT_EQ(core.Fingerprint(), before);
  EXPECT_EQ(core.LastLine(),
            "accelerate: expected on or off, got 'maybe' (usage: accelerate on|off)");
  EXPECT_EQ(core.LastKind(), ConsoleLine::Kind::kError);
}

// What the table does for every flag from its entry alone: the command sets it, the state
// line shows it under its name, and a saved flag goes through settings.json and back.
TEST(CommandTable, EveryFlagIsSetShownAndSaved) {
  std::size_t flags = 0;
  for (const CommandEntry& flag : CommandRegistry()) {
    if (!flag.is_flag()) continue;
    ++flags;
    const std::string name(flag.language.name);
    Core core;
    core.Frames(1);
    EXPECT_EQ(FlagValue(core.state(), flag), flag.flag.initial) << name;
    for (const bool on : {!flag.flag.initial, flag.flag.initial}) {
      core.Run(name + (on ? " on" : " off"));
      EXPECT_EQ(FlagValue(core.state(), flag), on) << name;
      EXPECT_EQ(core.Json()[name], on) << name;
      const Settings captured = CaptureSettings(core.state(), std::nullopt, std::nullopt);
      EXPECT_EQ(captured.values.count(name), flag.flag.saved ? 1u : 0u) << name;
      if (!flag.flag.saved) continue;
      const SettingsRead read = ParseSettings(SettingsJson(captured), "settings.json");
      EXPECT_EQ(read.problem, "") << name;
      ASSERT_EQ(read.settings.values.count(name), 1u) << name;
      EXPECT_EQ(read.settings.Get<bool>(name), on) << name;
      // Restored on a fresh start by its console line.
      Core fresh;
      for (AppCommand& command : SettingsCommands(read.settings)) fresh.Send(std::move(command));
      fresh.Frames(1);
      EXPECT_EQ(FlagValue(fresh.state(), flag), on) << name;
    }
  }
  EXPECT_GE(flags, 4u);  // accelerate, skin, axes, spline ik
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
  EXPECT_EQ(core.state().console.log.size() - before, CommandRegistry().size() + 2);
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

// Every command of the one table, built-in or app entry, has a good line here that the core
// applies (echoed, no error, a result or a state change): adding a command without a line
// here fails this test.
TEST(CommandTable, EveryCommandHasAGoodLineTheCoreApplies) {
  const std::map<std::string_view, std::string> good = {
      {"target", "target 1 2 0"},
      {"mode", "mode spline"},
      {"joints", "joints 6"},
      {"length", "length 0.5"},
      {"lengths", "lengths 1 0.5"},
      {"moe", "moe 0.02"},
      {"iterations", "iterations 40"},
      {"spline", "spline load assets/splines/loop.txt"},
      {"script", "script run assets/scripts/square.txt"},
      {"camera", "camera reset"},
      {"state", "state"},
      {"help", "help joints"},
      {"solver", "solver ccd"},
      {"accelerate", "accelerate off"},
      {"scene", "scene arm"},
      {"clear", "clear"},
      {"step", "step on"},
      {"race", "race on"},
      {"quit", "quit"},
      {"echo", "echo hi"},
      {"chains", "chains 4 5"},
      {"terrain", "terrain load assets/terrain/hills.png"},
      {"walker", "walker debug on"},
      {"skin", "skin on"},
      {"axes", "axes on"},
      {"orient", "orient 10 20 30"},
      {"screenshot", "screenshot"},
      {"record", "record start " + ::testing::TempDir() + "command_table_record.txt"},
      {"root", "root free"},
      {"view", "view 2d"},
      {"mocap", "mocap speed 0.5"},
      {"reach", "reach left 0.3 1.2 0.4"},
      {"look", "look 1 1.6 2"},
      {"ik", "ik weight 0.5"},
      {"ghost", "ghost off"},
      {"follow", "follow off"},
      {"character", "character /usr/share/assimp/models/X/BCN_Epileptic.X"},
      {"retarget", "retarget off"},
      {"characters", "characters 20"},
      {"soften", "soften 0.8"},
      {"stretch", "stretch 1.5"},
      {"turn", "turn limit 30"},
      {"stiffness", "stiffness 1 1"},
      {"pole", "pole 1 0 0"},
      {"spline ik", "spline ik on"},
      {"aim", "aim 2 3 1 axis 1 0 0 joints 2"},
      {"markers", "markers load /usr/share/assimp/models/CSM/ThomasFechten.csm"},
  };
  std::vector<std::string_view> names;
  for (const CommandEntry& e : CommandRegistry()) names.push_back(e.language.name);
  for (std::string_view name : names) {
    SCOPED_TRACE(std::string(name));
    const auto it = good.find(name);
    ASSERT_NE(it, good.end()) << "no good line for this command";
    Core core;
    if (name == "walker") core.Run("scene walker");
    for (std::string_view needs_clip :
         {"mocap", "reach", "look", "ik", "ghost", "follow", "character", "retarget"}) {
      if (name == needs_clip) core.Run("scene mocap");
    }
    if (name == "camera") core.Send(app::CameraOrbit{{80.0f, 0.0f}});  // so reset moves it
    core.Frames(1);
    const std::string before = core.Fingerprint();
    const std::size_t printed = core.state().console.printed;
    core.Run(it->second);
    const std::vector<ConsoleLine>& log = core.state().console.log;
    for (const ConsoleLine& line : log)
      EXPECT_NE(line.kind, ConsoleLine::Kind::kError) << line.text;
    const bool said_something = core.state().console.printed > printed + 1;
    EXPECT_TRUE(said_something || core.Fingerprint() != before || log.empty() ||
                core.state().quit_requested || !core.state().screenshot_pending.empty())
        << "the line changed nothing and printed nothing";
  }
}

}  // namespace
}  // namespace fabrik
