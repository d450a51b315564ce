// The chain scene's everyday IK tools as console commands (docs/tools.md: In the demo):
// each parses, applies what it says to the solve, refuses a bad value with one error line and
// no change, and the saved ones go through settings.json and back.
#include <gtest/gtest.h>

#include <cmath>
#include <numbers>
#include <vector>

#include "core/command_table.h"
#include "core/settings.h"
#include "core_test_util.h"
#include "ik/stiffness.h"
#include "tools_test_util.h"

namespace fabrik {
namespace {

using testing::ChainTowards;
using testing::Core;
using testing::ExpectRefused;
using testing::Joints;

TEST(ToolCommands, BadValuesAreOneErrorAndChangeNothing) {
  Core core = ChainTowards("1 2 0");
  ExpectRefused(
      core,
      {"soften 0",      "soften 1.5",    "soften nan",      "soften",          "soften 0.5 0.5",
       "stretch 0.5",   "stretch 11",    "stretch x",       "turn limit 0",    "turn limit 181",
       "turn 30",       "turn limit -5", "turn limit inf",  "stiffness 1 1.5", "stiffness -1 0",
       "stiffness 9 1", "stiffness 4 1", "stiffness 1",     "stiffness 1 off", "pole 1 2",
       "pole nan 0 0",  "pole 1 2 3e7",  "solver two_bone", "spline ik maybe", "spline ik"});
  // The errors name the problem and the command.
  core.Run("soften 0");
  EXPECT_EQ(core.LastLine(),
            "soften: expected a ratio R with 0 < R <= 1, or off, got '0' (usage: soften R|off)");
  core.Run("solver two_bone");
  EXPECT_EQ(core.LastLine(),
            "solver two_bone: needs a chain of exactly 3 joints, this one has 5 ('joints 3' "
            "first)");
  core.Run("stiffness 4 1");
  EXPECT_EQ(core.LastLine(),
            "stiffness: joint 4 has no bend to keep (joints 0 to 3 of this chain; the effector "
            "has none)");
}

TEST(ToolCommands, ConflictingToolsAreRefused) {
  Core core = ChainTowards("1 2 0");
  core.Run("soften 0.8");
  const std::string before = core.Fingerprint();
  core.Run("stretch 2");
  EXPECT_EQ(core.LastKind(), ConsoleLine::Kind::kError);
  EXPECT_NE(core.LastLine().find("not with soften"), std::string::npos);
  core.Run("soften off");
  core.Run("stiffness 1 1");
  core.Run("stretch 2");
  EXPECT_NE(core.LastLine().find("not with stiffness"), std::string::npos);
  EXPECT_EQ(core.Json()["stretch"], 1.0);
  (void)before;
}

TEST(ToolCommands, SoftenKeepsTheEffectorShortOfAFarTarget) {
  Core core = ChainTowards("0 3.9 0");
  ASSERT_TRUE(core.Json()["reached"].get<bool>());
  // The softened target lies near the rim, where the textbook passes creep (5 mm short after
  // 30 frames); the accelerated FABRIK lands on it, so the curve itself is what is checked.
  core.Run("accelerate on");
  core.Run("soften 0.8");
  core.Frames(30);
  nlohmann::json j = core.Json();
  EXPECT_EQ(j["soften"], 0.8f);
  EXPECT_FALSE(j["reached"].get<bool>());
  ASSERT_FALSE(j["soft_target"].is_null());
  // ozz's curve: 3.2 + 0.8 (1 - exp(-0.7 / 0.8)) = 3.467 from the root, on the same line.
  const std::vector<glm::vec3> p = Joints(core);
  EXPECT_NEAR(glm::length(p.back()), 3.2 + 0.8 * (1.0 - std::exp(-0.7 / 0.8)), 2e-3);
  core.Run("soften off");
  core.Frames(30);
  EXPECT_TRUE(core.Json()["reached"].get<bool>());
  EXPECT_TRUE(core.Json()["soft_target"].is_null());
}

TEST(ToolCommands, StretchReachesPastTheReachWithOneFactor) {
  Core core = ChainTowards("0 5.2 0");  // 1.3 x the reach of 4
  EXPECT_FALSE(core.Json()["reached"].get<bool>());
  core.Run("stretch 1.5");
  core.Frames(2);
  nlohmann::json j = core.Json();
  EXPECT_NEAR(j["stretch_factor"].get<double>(), 1.3, 1e-4);
  EXPECT_TRUE(j["reached"].get<bool>());
  // The drawn pose is stretched: every segment 1.3 long, the effector on the target.
  const std::vector<glm::vec3> p = Joints(core);
  for (std::size_t i = 0; i + 1 < p.size(); ++i)
    EXPECT_NEAR(glm::length(p[i + 1] - p[i]), 1.3, 1e-4);
  // Farther than 1.5 x the reach: stretched by 1.5, short of the target.
  core.Run("target 0 8 0");
  core.Frames(60);
  EXPECT_NEAR(core.Json()["stretch_factor"].get<double>(), 1.5, 1e-6);
  EXPECT_FALSE(core.Json()["reached"].get<bool>());
  core.Run("stretch off");
  core.Frames(1);
  EXPECT_EQ(core.Json()["stretch_factor"], 1.0);
  const std::vector<glm::vec3> q = Joints(core);
  EXPECT_NEAR(glm::length(q[1] - q[0]), 1.0, 1e-4);
}

TEST(ToolCommands, TurnLimitBoundsEachSegmentsTurnPerFrame) {
  Core core = ChainTowards("2 2 0");
  core.Run("turn limit 5");
  core.Run("target -2 -1 1");
  double largest = 0.0;
  bool moved = false;
  for (int frame = 0; frame < 40; ++frame) {
    const std::vector<glm::vec3> before = Joints(core);
    core.Frames(1);
    const std::vector<glm::vec3> after = Joints(core);
    for (std::size_t i = 0; i + 1 < after.size(); ++i) {
      const glm::vec3 a = glm::normalize(before[i + 1] - before[i]);
      const glm::vec3 b = glm::normalize(after[i + 1] - after[i]);
      const double turn = std::atan2(glm::length(glm::cross(a, b)), glm::dot(a, b));
      largest = std::max(largest, turn);
      moved |= turn > 1e-3;
    }
  }
  EXPECT_TRUE(moved);
  EXPECT_LE(largest, 5.0 * std::numbers::pi / 180.0 + 1e-4);
  EXPECT_EQ(core.Json()["turn_limit"], 5.0);
}

TEST(ToolCommands, AStiffJointKeepsItsBendWhileTheOthersReach) {
  Core core = ChainTowards("2 2 0");
  const std::vector<glm::vec3> start = Joints(core);
  const float bend = BendAngle(start, 2);
  core.Run("stiffness 2 1");
  core.Run("target -1 1.5 1");
  core.Frames(60);
  nlohmann::json j = core.Json();
  EXPECT_TRUE(j["reached"].get<bool>());
  EXPECT_EQ(j["stiffness"].size(), 5u);
  EXPECT_EQ(j["stiffness"][2], 1.0);
  EXPECT_NEAR(BendAngle(Joints(core), 2), bend, 0.5 * std::numbers::pi / 180.0);
  core.Run("stiffness off");
  EXPECT_TRUE(core.Json()["stiffness"].empty());
}

TEST(ToolCommands, TwoBoneSolvesAThreeJointChainInOneStepWithItsPole) {
  Core core;
  core.Run("joints 3");
  core.Run("length 1");
  core.Run("mode console");
  core.Run("solver two_bone");
  EXPECT_EQ(core.LastKind(), ConsoleLine::Kind::kOutput);
  core.Run("pole 0 0 5");
  core.Run("target 1.2 0.8 0");
  core.Frames(60);
  nlohmann::json j = core.Json();
  EXPECT_EQ(j["solver"], "two_bone");
  EXPECT_TRUE(j["reached"].get<bool>());
  EXPECT_EQ(j["iterations"], 1);
  EXPECT_GT(Joints(core)[1].z, 0.3f);  // the elbow towards the pole
  core.Run("pole 0 0 -5");
  core.Frames(2);
  EXPECT_LT(Joints(core)[1].z, -0.3f);
  // Another joint count: the selected solver takes over, with a message.
  core.Run("joints 4");
  core.Frames(2);
  EXPECT_EQ(core.Json()["solver"], "fabrik");
  core.Run("solver ccd");
  EXPECT_EQ(core.Json()["solver"], "ccd");
}

TEST(ToolCommands, SplineIkLaysTheChainAlongTheSplineBehindItsTarget) {
  Core core;
  core.Run("joints 8");
  core.Run("length 0.4");
  core.Run("spline load assets/splines/loop.txt");
  core.Run("mode spline");
  core.Run("spline ik on");
  core.Frames(90);
  nlohmann::json j = core.Json();
  EXPECT_TRUE(j["spline ik"].get<bool>());
  EXPECT_EQ(j["on_curve"], 8);
  const std::vector<glm::vec3> p = Joints(core);
  const glm::vec3 head(j["spline"]["position"][0], j["spline"]["position"][1],
                       j["spline"]["position"][2]);
  EXPECT_LT(glm::length(p.back() - head), 1e-3f);  // the head on the spline target
  for (std::size_t i = 0; i + 1 < p.size(); ++i)
    EXPECT_NEAR(glm::length(p[i + 1] - p[i]), 0.4, 1e-4);
  // Every joint on the loaded spline: near one of its dense samples.
  const std::vector<glm::vec3> dense = core.state().spline.follower.spline().Tessellate(200);
  for (const glm::vec3& q : p) {
    float nearest = 1e9f;
    for (const glm::vec3& d : dense) nearest = std::min(nearest, glm::length(q - d));
    EXPECT_LT(nearest, 5e-3f);
  }
  EXPECT_GT(glm::length(p.front()), 0.5f);  // the root left the origin with the snake
  core.Run("spline ik off");
  core.Frames(1);
  EXPECT_LT(glm::length(Joints(core).front()), 1e-6f);
}

TEST(ToolCommands, SavedToolsGoThroughSettingsAndBack) {
  Core core;
  core.Run("soften 0.75");
  core.Run("turn limit 12.5");
  Core other;
  other.Run("stretch 2.5");
  for (Core* c : {&core, &other}) {
    const Settings captured = CaptureSettings(c->state(), std::nullopt, std::nullopt);
    const SettingsRead read = ParseSettings(SettingsJson(captured), "settings.json");
    EXPECT_EQ(read.problem, "");
    Core fresh;
    for (AppCommand& command : SettingsCommands(read.settings)) fresh.Send(std::move(command));
    fresh.Frames(1);
    for (const char* key : {"soften", "stretch", "turn_limit"}) {
      EXPECT_EQ(fresh.Json()[key], c->Json()[key]) << key;
    }
  }
  EXPECT_EQ(ParseSettings(SettingsJson(CaptureSettings(core.state(), std::nullopt, std::nullopt)),
                          "settings.json")
                .settings.Get<std::string>("turn"),
            "limit 12.5");
  // A bad saved value is ignored, with the problem named; the rest is kept.
  const SettingsRead bad =
      ParseSettings(R"({"version": 1, "soften": "2", "turn": 30, "stretch": "1.5"})", "s.json");
  EXPECT_NE(bad.problem.find("soften"), std::string::npos);
  EXPECT_NE(bad.problem.find("turn"), std::string::npos);
  EXPECT_EQ(bad.settings.values.count("soften"), 0u);
  EXPECT_EQ(bad.settings.Get<std::string>("stretch"), "1.5");
}

}  // namespace
}  // namespace fabrik
