// `solver two_bone` in the arm scene (docs/tools.md: In the demo): shoulder, elbow and wrist
// by the law of cosines in one step, the hand ending on a reachable target, the elbow on the
// pole's side, soften easing the wrist in near full reach, and back to constrained FABRIK.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "core_test_util.h"
#include "ik/soften.h"
#include "scenes/arm/arm_panel_commands.h"
#include "scenes/arm/arm_scene.h"
#include "tools_test_util.h"

namespace fabrik {
namespace {

using testing::Core;
using testing::Joints;

// Signed height of the elbow above the line from shoulder to wrist, in the vertical plane.
float ElbowAbove(const std::vector<glm::vec3>& p) {
  const glm::vec3 line = glm::normalize(p[3] - p[1]);
  const glm::vec3 off = (p[2] - p[1]) - line * glm::dot(p[2] - p[1], line);
  return off.y;
}

Core ArmWithTwoBone() {
  Core core;
  core.Run("scene arm");
  core.Run("mode console");
  core.Run("solver two_bone");
  EXPECT_EQ(core.LastKind(), ConsoleLine::Kind::kOutput) << core.LastLine();
  return core;
}

TEST(ArmTwoBone, TheHandReachesAReachableTargetInOneStep) {
  Core core = ArmWithTwoBone();
  const std::vector<glm::vec3> before = Joints(core);
  core.Run("target 2.5 1.5 -1");
  core.Frames(60);
  const nlohmann::json j = core.Json();
  EXPECT_EQ(j["solver"], "two_bone");
  EXPECT_EQ(j["iterations"], 1);
  EXPECT_TRUE(j["reached"].get<bool>());
  const std::vector<glm::vec3> p = Joints(core);
  ASSERT_EQ(p.size(), 5u);
  EXPECT_LT(glm::length(p[4] - glm::vec3(2.5f, 1.5f, -1.0f)), 1e-4f);
  EXPECT_EQ(p[0], before[0]);  // the pedestal stays
  EXPECT_EQ(p[1], before[1]);
  const float lengths[] = {0.8f, 2.0f, 1.8f, 0.5f};
  for (int i = 0; i < 4; ++i) EXPECT_NEAR(glm::length(p[i + 1] - p[i]), lengths[i], 1e-4);
  // The hand points along the line from the shoulder to the target.
  const glm::vec3 along = glm::normalize(glm::vec3(2.5f, 1.5f, -1.0f) - p[1]);
  EXPECT_GT(glm::dot(glm::normalize(p[4] - p[3]), along), 1.0f - 1e-5f);
}

TEST(ArmTwoBone, TheElbowBendsTowardsThePole) {
  Core core = ArmWithTwoBone();
  core.Run("target 2 2 1");
  core.Send(app::ArmOptions{true, true, glm::vec3(1.0f, 6.0f, 0.5f)});  // above
  core.Frames(60);
  EXPECT_GT(ElbowAbove(Joints(core)), 0.2f);
  core.Send(app::ArmOptions{true, true, glm::vec3(1.0f, -3.0f, 0.5f)});  // below
  core.Frames(2);
  EXPECT_LT(ElbowAbove(Joints(core)), -0.2f);
  EXPECT_TRUE(core.Json()["reached"].get<bool>());
}

TEST(ArmTwoBone, SoftenEasesTheWristInNearFullReach) {
  Core core = ArmWithTwoBone();
  // The wrist's goal 3.7 from the shoulder (0, 0.8, 0): 97 % of upper arm + forearm (3.8).
  const glm::vec3 dir = glm::normalize(glm::vec3(1.0f, 0.3f, 0.5f));
  const glm::vec3 target = glm::vec3(0.0f, 0.8f, 0.0f) + dir * (3.7f + 0.5f);
  core.Run("target " + std::to_string(target.x) + " " + std::to_string(target.y) + " " +
           std::to_string(target.z));
  core.Frames(60);
  EXPECT_TRUE(core.Json()["reached"].get<bool>());
  core.Run("soften 0.8");
  core.Frames(2);
  const std::vector<glm::vec3> p = Joints(core);
  const double wrist_goal = glm::length(target - glm::vec3(0.0f, 0.8f, 0.0f)) - 0.5;
  EXPECT_NEAR(glm::length(p[3] - p[1]), SoftenedDistance(wrist_goal, 3.8, 0.8), 1e-4);
  EXPECT_FALSE(core.Json()["reached"].get<bool>());
}

TEST(ArmTwoBone, AnotherSolverGoesBackToConstrainedFabrik) {
  Core core = ArmWithTwoBone();
  core.Run("target 2 2 1");
  core.Frames(60);
  core.Run("solver fabrik");
  EXPECT_EQ(core.Json()["solver"], "fabrik");
  core.Run("target 1 3 -1");
  core.Frames(60);
  // The constrained solve keeps the hinges within their limits again.
  EXPECT_LT(core.Json()["max_violation"].get<double>(), 1e-3);
  EXPECT_FALSE(core.state().tools.two_bone);
}

TEST(ArmTwoBone, OtherScenesRefuseIt) {
  Core core;
  core.Run("scene creature");
  core.Run("solver two_bone");
  EXPECT_EQ(core.LastKind(), ConsoleLine::Kind::kError);
  EXPECT_EQ(core.LastLine(),
            "solver two_bone: the chain scene's (3 joints) and the arm's ('scene chain' or "
            "'scene arm' first)");
  EXPECT_EQ(core.Json()["solver"], "fabrik");
}

}  // namespace
}  // namespace fabrik
