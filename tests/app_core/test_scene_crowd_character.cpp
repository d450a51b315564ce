// The crowd scene's skinned characters in the headless core (docs/mocap.md: The crowd scene):
// `character PATH` in the crowd reloads every clip on the model, the characters nearest the
// camera's pivot are retargeted and skinned each frame, the feet stay on the ground, capsules
// come back, a bad file changes nothing, and the settings restore the model with the crowd.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "character/pose.h"
#include "core/app_state.h"
#include "core/settings.h"
#include "core_test_util.h"
#include "scenes/crowd/crowd_scene.h"

namespace fabrik::testing {
namespace {

const char* const kCrowdHuman = "/usr/share/assimp/models/X/BCN_Epileptic.X";

Core CrowdOf(int characters) {
  StartOptions options = FixedStep();
  options.scene_options.SetNumber("--characters", characters);
  Core core(options);
  core.Run("scene crowd");
  EXPECT_EQ(core.state().scene.name(), "crowd") << core.LastLine();
  return core;
}

const CrowdScene& Crowd(const Core& core) { return *core.state().scene.As<CrowdScene>(); }

// The squared horizontal distance of member i's pelvis from the camera's pivot.
float FromPivot(const Core& core, std::size_t i) {
  const mocap::Character& c = Crowd(core).crowd().character(i);
  const glm::vec3 d = c.pose().positions[static_cast<std::size_t>(c.rig().limbs.pelvis)] -
                      core.state().view.camera.pivot();
  return d.x * d.x + d.z * d.z;
}

TEST(CrowdCharacter, TheNearestAreSkinnedAndTheFeetStayOnTheGround) {
  Core core = CrowdOf(130);
  const nlohmann::json capsules = core.Json();
  EXPECT_TRUE(capsules["character"].is_null());
  EXPECT_EQ(capsules["retarget_us"], 0);
  EXPECT_TRUE(Crowd(core).skinned().empty());
  const double capsule_height = Crowd(core).crowd().character(0).rig().clip.rest_height();

  core.Run(std::string("character ") + kCrowdHuman);
  ASSERT_NE(core.LastKind(), ConsoleLine::Kind::kError) << core.LastLine();
  EXPECT_NE(core.LastLine().find("100 nearest"), std::string::npos) << core.LastLine();
  core.Frames(30);
  const nlohmann::json j = core.Json();
  ASSERT_TRUE(j["character"].is_object());
  EXPECT_EQ(j["character"]["path"], kCrowdHuman);
  EXPECT_EQ(j["character"]["bones"], 54);
  EXPECT_EQ(j["character"]["skinned"], kMaxSkinnedCharacters);
  EXPECT_GT(j["retarget_us"].get<double>(), 0.0);
  EXPECT_GT(j["skin_us"].get<double>(), 0.0);
  EXPECT_EQ(j["characters"], 130);
  // Every clip is scaled to the human's legs (0.84 of a 1.7 m CMU skeleton's legs,
  // docs/characters.md): the skeletons are shorter than the capsules' by about that much.
  const double height = Crowd(core).crowd().character(0).rig().clip.rest_height();
  EXPECT_NEAR(height / capsule_height, 0.84, 0.03);
  // The IK grounds the scaled clips as it did the others.
  EXPECT_GE(j["crowd"]["lowest_foot"].get<double>(), -0.002);

  // The skinned are the nearest to the pivot: none of the others is nearer than any of them.
  const std::span<const CrowdSkinned> skinned = Crowd(core).skinned();
  ASSERT_EQ(skinned.size(), static_cast<std::size_t>(kMaxSkinnedCharacters));
  std::vector<char> is_skinned(Crowd(core).crowd().size(), 0);
  float farthest_skinned = 0.0f;
  for (const CrowdSkinned& s : skinned) {
    ASSERT_GE(s.member, 0);
    EXPECT_EQ(is_skinned[static_cast<std::size_t>(s.member)], 0) << "skinned twice: " << s.member;
    is_skinned[static_cast<std::size_t>(s.member)] = 1;
    farthest_skinned = std::max(farthest_skinned, FromPivot(core, s.member));
    EXPECT_EQ(s.bones.size(), 54u);
  }
  for (std::size_t i = 0; i < is_skinned.size(); ++i) {
    if (is_skinned[i] == 0) {
      EXPECT_GE(FromPivot(core, i), farthest_skinned) << i;
    }
  }
  // Each skinned character stands where its member does: its root bone (which goes with the
  // pelvis, docs/characters.md), taken from the bind pose by its skinning transform, lies at
  // the member's pelvis.
  const character::Model& model = Crowd(core).skin()->model();
  std::vector<character::BoneTransform> bind(54);
  ASSERT_TRUE(character::BindPose(model.skeleton, bind));
  for (const CrowdSkinned& s : skinned) {
    const mocap::Character& c = Crowd(core).crowd().character(static_cast<std::size_t>(s.member));
    const glm::vec3 pelvis = c.pose().positions[static_cast<std::size_t>(c.rig().limbs.pelvis)];
    EXPECT_LT(glm::distance(s.bones[0].TransformPoint(bind[0].translation), pelvis), 0.15f)
        << s.member;
  }

  core.Run("character capsules");
  ASSERT_NE(core.LastKind(), ConsoleLine::Kind::kError) << core.LastLine();
  core.Frames(1);
  EXPECT_TRUE(core.Json()["character"].is_null());
  EXPECT_TRUE(Crowd(core).skinned().empty());
  EXPECT_NEAR(Crowd(core).crowd().character(0).rig().clip.rest_height(), capsule_height, 1e-6);
}

TEST(CrowdCharacter, AFewCharactersAreAllSkinned) {
  Core core = CrowdOf(7);
  core.Run(std::string("character ") + kCrowdHuman);
  ASSERT_NE(core.LastKind(), ConsoleLine::Kind::kError) << core.LastLine();
  core.Frames(2);
  EXPECT_EQ(core.Json()["character"]["skinned"], 7);
}

TEST(CrowdCharacter, RefusedLinesChangeNothing) {
  Core core = CrowdOf(10);
  core.Run(std::string("character ") + kCrowdHuman);
  ASSERT_NE(core.LastKind(), ConsoleLine::Kind::kError) << core.LastLine();
  core.Frames(2);
  const nlohmann::json before = core.Json();
  for (const std::string line : {"character /no/such/model.x", "character skinning linear",
                                 "character " FABRIK_SOURCE_DIR "/assets/terrain/hills.png"}) {
    SCOPED_TRACE(line);
    core.Run(line);
    EXPECT_EQ(core.LastKind(), ConsoleLine::Kind::kError);
    EXPECT_EQ(core.LastLine().rfind("character", 0), 0u) << core.LastLine();
    const nlohmann::json after = core.Json();
    EXPECT_EQ(after["character"], before["character"]);
    EXPECT_EQ(after["crowd"]["clips"], before["crowd"]["clips"]);
    EXPECT_EQ(after["characters"], before["characters"]);
  }
  EXPECT_EQ(core.state().scene.configs.Get<MocapConfig>().character_path, kCrowdHuman);
}

// Saved with the crowd on, the model comes back with it at the next start.
TEST(CrowdCharacter, TheSettingsRestoreTheModelWithTheCrowd) {
  Core core = CrowdOf(10);
  core.Run(std::string("character ") + kCrowdHuman);
  ASSERT_NE(core.LastKind(), ConsoleLine::Kind::kError) << core.LastLine();
  const Settings saved = CaptureSettings(core.state(), std::nullopt, std::nullopt);
  EXPECT_EQ(saved.Get<std::string>("character"), std::string(kCrowdHuman));
  StartOptions options = FixedStep();
  options.saved = SettingsCommands(saved);
  Core restored(options);
  restored.Frames(2);
  EXPECT_EQ(restored.state().scene.name(), "crowd");
  const nlohmann::json j = restored.Json();
  ASSERT_TRUE(j["character"].is_object()) << restored.LastLine();
  EXPECT_EQ(j["character"]["path"], kCrowdHuman);
  EXPECT_EQ(j["character"]["skinned"],
            std::min(j["characters"].get<int>(), kMaxSkinnedCharacters));
}

}  // namespace
}  // namespace fabrik::testing
