// The chain scene's look-at (`aim`, docs/tools.md: In the demo): after the position solve the
// last joints turn so that an axis fixed in the effector's frame points at the aim point; bad
// values are one error line and change nothing; the aim is saved and restored.
#include <gtest/gtest.h>

#include <cmath>
#include <numbers>
#include <vector>

#include "core/settings.h"
#include "core_test_util.h"
#include "ik/rotations.h"
#include "tools_test_util.h"

namespace fabrik {
namespace {

using testing::ChainTowards;
using testing::Core;
using testing::ExpectRefused;
using testing::Joints;

double Degrees(const glm::vec3& a, const glm::vec3& b) {
  const glm::dvec3 u(a), v(b);
  return std::atan2(glm::length(glm::cross(u, v)), glm::dot(u, v)) * 180.0 / std::numbers::pi;
}

// The effector's frame from the pose alone (ik/rotations.h), the axis carried by it.
glm::vec3 WorldAxis(const std::vector<glm::vec3>& p, const glm::vec3& axis) {
  std::vector<glm::quat> r(p.size() - 1);
  EXPECT_TRUE(ChainRotations(p, {}, r));
  return r.back() * glm::normalize(axis);
}

TEST(ToolAim, TheLastBonePointsAtTheAimPointAfterThePositionSolve) {
  Core core = ChainTowards("1 2 0");
  core.Run("aim 3 6 2");
  EXPECT_EQ(core.LastKind(), ConsoleLine::Kind::kOutput);
  core.Frames(20);
  const nlohmann::json j = core.Json();
  ASSERT_FALSE(j["aim"].is_null());
  EXPECT_EQ(j["aim"]["joints"], 1);
  ASSERT_FALSE(j["aim_error_deg"].is_null());
  EXPECT_LT(j["aim_error_deg"].get<double>(), 0.5);
  // Measured here from the pose: the last bone (+Y) points from the effector at the point.
  const std::vector<glm::vec3> p = Joints(core);
  EXPECT_LT(Degrees(p[4] - p[3], glm::vec3(3, 6, 2) - p[4]), 0.5);
  EXPECT_LT(glm::length(p[0]), 1e-6f);  // the root stays
  for (std::size_t i = 0; i + 1 < p.size(); ++i) EXPECT_NEAR(glm::length(p[i + 1] - p[i]), 1, 1e-4);
  // Only the last joint turned: the joints before it are where the position solve put them,
  // within reach of the target's neighbourhood (joint 3 within one segment of the target).
  EXPECT_LT(glm::length(p[3] - glm::vec3(1, 2, 0)), 1.05f);
}

TEST(ToolAim, ASidewaysAxisIsAimedWithSeveralJoints) {
  Core core = ChainTowards("2 1 1");
  core.Run("aim -3 5 4 axis 1 0 0 joints 3");
  core.Frames(20);
  const nlohmann::json j = core.Json();
  EXPECT_EQ(j["aim"]["joints"], 3);
  EXPECT_EQ(j["aim"]["axis"][0], 1.0);
  const std::vector<glm::vec3> p = Joints(core);
  EXPECT_LT(Degrees(WorldAxis(p, {1, 0, 0}), glm::vec3(-3, 5, 4) - p.back()), 0.5);
  EXPECT_NEAR(j["aim_error_deg"].get<double>(),
              Degrees(WorldAxis(p, {1, 0, 0}), glm::vec3(-3, 5, 4) - p.back()), 1e-3);
  core.Run("aim off");
  core.Frames(30);
  EXPECT_TRUE(core.Json()["aim"].is_null());
  EXPECT_TRUE(core.Json()["aim_error_deg"].is_null());
  EXPECT_TRUE(core.Json()["reached"].get<bool>());  // the plain solve again
}

TEST(ToolAim, BadValuesAreOneErrorAndChangeNothing) {
  Core core = ChainTowards("1 2 0");
  core.Run("aim 3 6 2 joints 2");
  core.Frames(5);
  ExpectRefused(
      core, {"aim", "aim 1 2", "aim nan 0 0", "aim 1 2 inf", "aim 1 2 3e7", "aim axis 0 0 0",
             "aim axis 1 nan 0", "aim joints 0", "aim joints 33", "aim joints 2.5", "aim joints 5",
             "aim 1 2 3 foo", "aim 1 2 3 axis 1 0 0 axis 0 1 0", "aim joints", "aim off now"});
  core.Run("aim axis 0 0 0");
  EXPECT_EQ(core.LastLine(),
            "aim: the axis must not be zero, got 0 0 0 (usage: aim X Y Z [axis AX AY AZ] "
            "[joints K] | aim axis AX AY AZ | aim joints K | aim off)");
  core.Run("aim joints 5");
  EXPECT_EQ(core.LastLine(), "aim: joints 5 is more than this chain's 4 segments (1 to 4)");
}

TEST(ToolAim, FewerJointsCutTheAimToTheSegments) {
  Core core = ChainTowards("1 2 0");
  core.Run("aim 2 5 1 joints 4");
  core.Run("joints 3");
  core.Frames(5);
  EXPECT_EQ(core.Json()["aim"]["joints"], 2);
  EXPECT_LT(core.Json()["aim_error_deg"].get<double>(), 0.5);
}

TEST(ToolAim, TheAimIsSavedAndRestored) {
  Core core;
  core.Run("aim 1.5 4 -2 axis 0 0 1 joints 2");
  const Settings captured = CaptureSettings(core.state(), std::nullopt, std::nullopt);
  const SettingsRead read = ParseSettings(SettingsJson(captured), "settings.json");
  EXPECT_EQ(read.problem, "");
  EXPECT_EQ(read.settings.Get<std::string>("aim"), "1.5 4 -2 axis 0 0 1 joints 2");
  Core fresh;
  for (AppCommand& command : SettingsCommands(read.settings)) fresh.Send(std::move(command));
  fresh.Frames(1);
  EXPECT_EQ(fresh.Json()["aim"], core.Json()["aim"]);
  // Off: nothing saved.
  core.Run("aim off");
  EXPECT_EQ(CaptureSettings(core.state(), std::nullopt, std::nullopt).values.count("aim"), 0u);
}

}  // namespace
}  // namespace fabrik
