// The step view with the chain scene's tools on (docs/tools.md: In the demo): it records the
// tools' own solve, each tool that moves the chain adds a step of its own after the recorded
// passes, and the last step is exactly the pose the frame's solve gives from the same start.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "core_test_util.h"
#include "tools_test_util.h"

namespace fabrik {
namespace {

using testing::ChainTowards;
using testing::Core;

struct Case {
  const char* name;
  std::vector<std::string> setup;  // after the chain is built and settled
  const char* target;              // the jump the step view records
  const char* last_tool;           // the last step's tool, or "" (no tool step)
};

std::vector<Case> Cases() {
  return {
      {"soften", {"soften 0.8"}, "3.6 1 0.5", ""},
      {"stretch", {"stretch 1.5"}, "0 5 2", "stretch"},
      {"turn limit", {"turn limit 10"}, "-2 1 1", "turn_limit"},
      {"stiffness", {"stiffness 2 1"}, "-1 1.5 1", "stiffness"},
      {"aim", {"aim 3 6 2 axis 1 0 0 joints 2"}, "-2 1 1", "aim"},
      {"two_bone",
       {"joints 3", "solver two_bone", "pole 0 0 5", "soften 0.9"},
       "1.5 0.6 0.3",
       "two_bone"},
      {"aim, accelerated", {"accelerate on", "aim 3 5 2 axis 1 0 0 joints 2"}, "-2 1 1", "aim"},
      {"aim, textbook", {"accelerate off", "aim 3 5 2 axis 1 0 0 joints 2"}, "-2 1 1", "aim"},
      {"together", {"soften 0.9", "aim 2 5 -1 joints 2", "turn limit 25"}, "-2 2 1", "turn_limit"},
  };
}

TEST(ToolStepView, TheLastStepIsTheFramesSolveWithEachTool) {
  for (const Case& c : Cases()) {
    SCOPED_TRACE(c.name);
    Core core = ChainTowards("1 2 0");
    for (const std::string& line : c.setup) {
      core.Run(line);
      ASSERT_EQ(core.LastKind(), ConsoleLine::Kind::kOutput) << line << ": " << core.LastLine();
    }
    core.Frames(5);
    core.Run("step on");
    core.Run(std::string("target ") + c.target);
    core.Run("step end");
    const nlohmann::json stepped = core.Json();
    ASSERT_TRUE(stepped.contains("step"));
    const nlohmann::json& step = stepped["step"];
    EXPECT_EQ(step["step"], step["step_count"]);
    if (*c.last_tool != '\0') {
      EXPECT_GT(step["tool_steps"].get<int>(), 0);
      EXPECT_EQ(step["tool"], c.last_tool);
    }
    // The chain still has the pose the recording started from; the frame's solve from there:
    core.Run("step off");
    const nlohmann::json solved = core.Json();
    ASSERT_EQ(solved["joints"].size(), stepped["joints"].size());
    for (std::size_t i = 0; i < solved["joints"].size(); ++i) {
      for (int k = 0; k < 3; ++k) {
        EXPECT_NEAR(stepped["joints"][i][k].get<double>(), solved["joints"][i][k].get<double>(),
                    1e-6)
            << "joint " << i;
      }
    }
  }
}

TEST(ToolStepView, ToolStepsComeAfterThePassesOneAtATime) {
  Core core = ChainTowards("1 2 0");
  core.Run("aim 3 6 2 joints 2");
  core.Run("turn limit 15");
  core.Run("step on");
  core.Run("target -2 1 1");
  const int reaches = core.Json()["step"]["reach_count"];
  ASSERT_GT(reaches, 0);
  EXPECT_EQ(core.Json()["step"]["tool_steps"], 2);
  // A pass step stops at the end of the recorded passes, then each tool is one step.
  for (int i = 0; i < 200 && core.Json()["step"]["step"].get<int>() < reaches; ++i) {
    core.Run("step pass");
  }
  EXPECT_EQ(core.Json()["step"]["step"], reaches);
  EXPECT_FALSE(core.Json()["step"].contains("tool"));
  core.Run("step pass");
  EXPECT_EQ(core.Json()["step"]["tool"], "aim");
  core.Run("step next");
  EXPECT_EQ(core.Json()["step"]["tool"], "turn_limit");
  core.Run("step next");  // clamped at the end
  EXPECT_EQ(core.Json()["step"]["step"], reaches + 2);
  core.Run("step back");
  EXPECT_EQ(core.Json()["step"]["tool"], "aim");
  // A tool changed while stepping records again.
  core.Run("turn limit off");
  EXPECT_EQ(core.Json()["step"]["tool_steps"], 1);
  EXPECT_EQ(core.Json()["step"]["step"], 0);
}

}  // namespace
}  // namespace fabrik
