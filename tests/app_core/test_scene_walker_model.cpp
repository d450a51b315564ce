// The walker scene's skinned quadruped in the headless core (docs/walker.md: The skinned
// quadruped): `walker model PATH` loads the packaged creature, which walks to a typed target
// with its planted feet on the ground; the state line's character fields; a bad file refused
// with nothing changed; `walker model procedural` brings the spider back.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <string>

#include "core/app_state.h"
#include "core_test_util.h"
#include "scenes/walker/walker_scene.h"

namespace fabrik::testing {
namespace {

const char* const kQuadruped = "/usr/share/assimp/models/X/Testwuson.X";

glm::vec3 PointOf(const nlohmann::json& v) {
  return {v[0].get<float>(), v[1].get<float>(), v[2].get<float>()};
}

#define SKIP_WITHOUT_MODEL()                                                  \
  if (!std::filesystem::exists(kQuadruped)) {                                 \
    GTEST_SKIP() << kQuadruped << " is missing (Debian's assimp-testmodels)"; \
  }

TEST(WalkerModel, TheQuadrupedWalksToATypedTargetWithItsFeetOnTheGround) {
  SKIP_WITHOUT_MODEL();
  Core core;
  core.Run("scene walker");
  EXPECT_EQ(core.Json()["walker_model"], "procedural");
  EXPECT_TRUE(core.Json()["character"].is_null());
  core.Run(std::string("walker model ") + kQuadruped);
  ASSERT_NE(core.LastKind(), ConsoleLine::Kind::kError) << core.LastLine();
  const WalkerScene* scene = core.state().scene.As<WalkerScene>();
  ASSERT_NE(scene, nullptr);
  ASSERT_TRUE(scene->quadruped.has_value());
  core.Frames(2);
  const nlohmann::json a = core.Json();
  EXPECT_EQ(a["walker_model"], kQuadruped);
  EXPECT_EQ(a["character"]["path"], kQuadruped);
  EXPECT_EQ(a["character"]["bones"], 38);
  EXPECT_EQ(a["character"]["vertices"], 3205);
  EXPECT_EQ(a["character"]["joints"].size(), 38u);
  ASSERT_EQ(a["legs"].size(), 4u);
  EXPECT_EQ(a["legs"][0]["joints"].size(), 5u);  // a foreleg: five bones
  EXPECT_EQ(a["legs"][2]["joints"].size(), 4u);  // a hind leg: four
  EXPECT_EQ(a["cycle"]["name"], "Wuson_Walk");

  core.Run("target 4 0 -3");
  const glm::vec3 start = PointOf(a["body"]["position"]);
  const Heightmap& ground = scene->quadruped->walker().terrain();
  bool ran = false;
  int frames = 0;
  for (; frames < 60 * 30 && !core.Json()["arrived"].get<bool>(); ++frames) {
    core.Frames(1);
    const nlohmann::json j = core.Json();
    ran = ran || j["cycle"]["name"] == "Wuson_Run";
    EXPECT_GT(j["ik_us"].get<double>(), 0.0);
    EXPECT_GT(j["skin_us"].get<double>(), 0.0);
    for (const auto& leg : j["legs"]) {
      if (!leg["planted"].get<bool>()) continue;
      // The foot (the leg's last joint) stands its own height above the ground.
      const glm::vec3 foot = PointOf(leg["joints"].back());
      const float sole = foot.y - leg["foot_height"].get<float>();
      ASSERT_NEAR(sole, ground.HeightAt(foot.x, foot.z), 0.01f) << "frame " << frames;
    }
  }
  const nlohmann::json b = core.Json();
  ASSERT_TRUE(b["arrived"].get<bool>()) << "not there after " << frames << " frames";
  const glm::vec3 end = PointOf(b["body"]["position"]);
  EXPECT_LT(std::hypot(end.x - 4.0f, end.z + 3.0f), 0.05f);
  EXPECT_GT(std::hypot(end.x - start.x, end.z - start.z), 4.0f);
  EXPECT_TRUE(ran) << "the run cycle never played";
  EXPECT_EQ(b["cycle"]["rate"], 0.0);  // standing: the cycle holds still
}

TEST(WalkerModel, ABadFileIsRefusedAndProceduralBringsTheSpiderBack) {
  SKIP_WITHOUT_MODEL();
  Core core;
  core.Run("scene walker");
  core.Run(std::string("walker model ") + kQuadruped);
  ASSERT_NE(core.LastKind(), ConsoleLine::Kind::kError) << core.LastLine();
  core.Frames(1);
  const std::string before = core.Json()["character"].dump();

  const std::string bad = ::testing::TempDir() + "walker_model_garbage.x";
  {
    std::ofstream f(bad);
    f << "xof 0303txt 0032\nthis is not a model\n";
  }
  core.Run("walker model " + bad);
  EXPECT_EQ(core.LastKind(), ConsoleLine::Kind::kError);
  EXPECT_NE(core.LastLine().find("walker model: "), std::string::npos) << core.LastLine();
  core.Run("walker model /usr/share/assimp/models/X/BCN_Epileptic.X");  // two legs
  EXPECT_EQ(core.LastKind(), ConsoleLine::Kind::kError);
  EXPECT_NE(core.LastLine().find("not a quadruped"), std::string::npos) << core.LastLine();
  core.Run("walker model /no/such/file.x");
  EXPECT_EQ(core.LastKind(), ConsoleLine::Kind::kError);
  EXPECT_EQ(core.Json()["character"].dump(), before);
  core.Run("walker leg 4");  // four legs: 0..3
  EXPECT_EQ(core.LastKind(), ConsoleLine::Kind::kError);
  EXPECT_NE(core.LastLine().find("0..3"), std::string::npos) << core.LastLine();
  core.Run("walker debug on");
  EXPECT_NE(core.LastKind(), ConsoleLine::Kind::kError);
  EXPECT_EQ(core.Json()["walker_debug"]["pre_solve"], true);

  core.Run("walker model procedural");
  ASSERT_NE(core.LastKind(), ConsoleLine::Kind::kError) << core.LastLine();
  core.Frames(1);
  const nlohmann::json j = core.Json();
  EXPECT_EQ(j["walker_model"], "procedural");
  EXPECT_TRUE(j["character"].is_null());
  EXPECT_EQ(j["legs"][0]["joints"].size(), 4u);  // the spider's hip, two knees, foot
  core.Run("walker leg 1");
  EXPECT_NE(core.LastKind(), ConsoleLine::Kind::kError) << core.LastLine();
}

// The step view records the model's own leg (hip to paw), not the stand-in walker's: the
// recording starts from the cycle's leg and ends where the solved leg stands, in world
// coordinates, aimed at the paw's goal.
TEST(WalkerModel, TheStepViewRecordsTheModelsLeg) {
  SKIP_WITHOUT_MODEL();
  Core core;
  core.Run("scene walker");
  core.Run(std::string("walker model ") + kQuadruped);
  ASSERT_NE(core.LastKind(), ConsoleLine::Kind::kError) << core.LastLine();
  core.Run("target 3 0 3");
  core.Run("walker leg 2");
  ASSERT_NE(core.LastKind(), ConsoleLine::Kind::kError) << core.LastLine();
  core.Frames(20);
  EXPECT_EQ(core.Json()["walker_debug"]["step_leg"], 2);
  const WalkerScene& scene = *core.state().scene.As<WalkerScene>();
  const character::QuadrupedWalker& q = *scene.quadruped;
  const RecordingObserver& rec = q.recording();
  ASSERT_TRUE(rec.recorded());
  ASSERT_GT(rec.half_pass_count(), 0u);
  const std::span<const glm::vec3> solved = q.leg_joints(2), before = q.leg_pre_solve(2);
  ASSERT_EQ(rec.start_pose().size(), solved.size());
  const std::span<const glm::vec3> last = rec.half_pass(rec.half_pass_count() - 1).joints;
  for (std::size_t k = 0; k < solved.size(); ++k) {
    EXPECT_LT(glm::distance(rec.start_pose()[k], before[k]), 1e-4f) << k;
    EXPECT_LT(glm::distance(last[k], solved[k]), 1e-4f) << k;
  }
  EXPECT_LT(glm::distance(rec.target(), q.foot_goal(2)), 1e-4f);
  core.Run("walker leg none");
  core.Frames(1);
  EXPECT_FALSE(scene.quadruped->recording().recorded());
}

TEST(WalkerModel, TheModelIsKeptAcrossSceneSwitches) {
  SKIP_WITHOUT_MODEL();
  Core core;
  core.Run("scene walker");
  core.Run(std::string("walker model ") + kQuadruped);
  core.Run("scene chain");
  core.Run("scene walker");
  core.Frames(1);
  EXPECT_EQ(core.Json()["walker_model"], kQuadruped);
}

}  // namespace
}  // namespace fabrik::testing
