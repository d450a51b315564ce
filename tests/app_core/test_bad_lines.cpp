// Bad console lines: one error line naming the problem, after the echo, and nothing changed.
#include <string>

#include "core_test_util.h"

namespace fabrik {
namespace {

using testing::Core;

class BadLine : public ::testing::TestWithParam<const char*> {};

TEST_P(BadLine, PrintsOneErrorAndChangesNothing) {
  Core core;
  core.Run("spline load assets/splines/loop.txt");
  core.Run("mode drag");
  core.Frames(60);
  const std::string before = core.Fingerprint();
  const std::size_t lines = core.state().console.log.size();
  // Apply without running a frame, so only the command could change anything.
  core.Type(GetParam());
  ApplyCommands(core.state(), core.queue());
  ASSERT_EQ(core.state().console.log.size(), lines + 2) << GetParam();
  EXPECT_EQ(core.state().console.log[lines].text, std::string("> ") + GetParam());
  EXPECT_EQ(core.LastKind(), ConsoleLine::Kind::kError) << GetParam();
  EXPECT_FALSE(core.LastLine().empty());
  EXPECT_EQ(core.LastLine().find('\n'), std::string::npos);
  EXPECT_EQ(core.state().message, core.LastLine());
  EXPECT_TRUE(core.state().message_is_error);
  EXPECT_EQ(core.Fingerprint(), before) << GetParam();
}

INSTANTIATE_TEST_SUITE_P(AppCommands, BadLine,
                         ::testing::Values("jionts 5", "joints 1", "joints abc", "joints 10001",
                                           "length -1", "length 1e-40", "lengths", "lengths 1 nan",
                                           "moe nan", "moe 0", "iterations 0", "target 1 2",
                                           "target 1e7 0 0", "target 1 2 inf", "mode fly",
                                           "spline load no/such/file.txt", "spline speed 0",
                                           "spline wobble", "script run no/such/file.txt",
                                           "script jump", "solver nope", "scene nope",
                                           "step sideways", "race maybe", "camera spin",
                                           "help nope extra words", "\"unterminated"));

TEST(AppCommands, ScriptsCannotStartScripts) {
  const std::string path =
      testing::WriteTempFile("nested.txt", "at 0 script run assets/scripts/tour.txt\n");
  Core core;
  core.Run("script run " + path);
  EXPECT_EQ(core.LastKind(), ConsoleLine::Kind::kError);
  EXPECT_FALSE(core.state().script.player.has_script());
}

}  // namespace
}  // namespace fabrik

namespace fabrik {
namespace {

TEST(AppCommands, StepAndRaceOutsideTheChainSceneAreErrors) {
  testing::Core core;
  core.Run("scene creature");
  for (const char* line : {"step on", "step next", "race on"}) {
    const std::string before = core.Fingerprint();
    core.Run(line);
    EXPECT_EQ(core.LastKind(), ConsoleLine::Kind::kError) << line;
    EXPECT_NE(core.LastLine().find("chain scene"), std::string::npos) << line;
    core.Frames(0);
    EXPECT_FALSE(core.state().step.active);
    EXPECT_FALSE(core.state().race.active);
  }
}

TEST(AppCommands, LongConsoleLinesAreCutWithANote) {
  testing::Core core;
  core.Run("echo " + std::string(20000, 'x'));
  EXPECT_LT(core.LastLine().size(), ConsoleState::kMaxLineBytes + 40);
  EXPECT_NE(core.LastLine().find("more bytes"), std::string::npos);
}

TEST(AppCommands, StateDoesNotNestThePreviousLine) {
  testing::Core core;
  core.Run("state");
  core.Run("state");
  const auto j = nlohmann::json::parse(core.LastLine());
  EXPECT_FALSE(j.contains("console_last"));
}

}  // namespace
}  // namespace fabrik
