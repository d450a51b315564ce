// The crowd scene's skinned characters in the headless core (docs/mocap.md: The crowd scene):
// `character PATH` in the crowd reloads every clip on the model, the characters nearest the
// camera's pivot are retargeted and skinned each frame, the feet stay on the ground, capsules
// come back, a bad file changes nothing, and the settings restore the model with the crowd.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
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

// How far (across the ground) a skinned member's heel (its ankle bone) or ball (the ankle's
// first child) moves while its foot's IK holds that point down, at the crowd's IK weight
// `weight` (below 1 the skin's holds let go, docs/characters.md: The human's feet): the worst
// over `frames` frames and every member while it stays skinned, from where the point was in the
// first frame it was down (afresh after a restart: a clip's time jump).
float WorstCrowdHeldDrift(float weight, int frames) {
  Core core = CrowdOf(130);  // more than are skinned: members leave and join the nearest
  core.Run(std::string("character ") + kCrowdHuman);
  EXPECT_NE(core.LastKind(), ConsoleLine::Kind::kError) << core.LastLine();
  core.Run("ik weight " + std::to_string(weight));
  EXPECT_NE(core.LastKind(), ConsoleLine::Kind::kError) << core.LastLine();
  const mocap::Limbs* limbs = Crowd(core).skin()->limbs();
  EXPECT_NE(limbs, nullptr);
  if (limbs == nullptr) return NAN;
  const character::Model& model = Crowd(core).skin()->model();
  std::vector<character::BoneTransform> bind(model.skeleton.names.size());
  EXPECT_TRUE(character::BindPose(model.skeleton, bind));
  int bones[2][2] = {{-1, -1}, {-1, -1}};
  for (int side = 0; side < 2; ++side) {
    bones[side][0] = limbs->legs[side].end();
    for (int b = 0; b < model.skeleton.bone_count() && bones[side][1] < 0; ++b) {
      if (model.skeleton.parents[static_cast<std::size_t>(b)] == bones[side][0]) bones[side][1] = b;
    }
    EXPECT_GE(bones[side][1], 0);
    if (bones[side][1] < 0) return NAN;
  }
  struct Point {
    bool down = false;
    glm::vec2 start{0.0f};
  };
  std::vector<std::array<Point, 4>> points(Crowd(core).crowd().size());
  std::vector<char> skinned_now(points.size(), 0), was_skinned(points.size(), 0);
  int joined = 0;  // members that joined the skinned after the first frame
  float worst = 0.0f;
  int held_frames = 0;
  for (int frame = 0; frame < frames; ++frame) {
    core.Frames(1);
    std::fill(skinned_now.begin(), skinned_now.end(), 0);
    for (const CrowdSkinned& s : Crowd(core).skinned()) {
      const auto member = static_cast<std::size_t>(s.member);
      skinned_now[member] = 1;
      if (frame > 0 && was_skinned[member] == 0) ++joined;
      const mocap::Character& c = Crowd(core).crowd().character(member);
      for (int side = 0; side < 2; ++side) {
        const mocap::FootState& foot = c.foot(static_cast<mocap::Side>(side));
        for (int k = 0; k < 2; ++k) {
          Point& point = points[member][static_cast<std::size_t>(2 * side + k)];
          // A restart (a clip looping: a time jump) puts the feet down afresh.
          if (c.restarted()) point = {};
          const bool down = foot.pinned && (k == 0 ? foot.heel : foot.ball);
          const auto b = static_cast<std::size_t>(bones[side][k]);
          const glm::vec3 p = s.bones[b].TransformPoint(bind[b].translation);
          if (down && !point.down) point.start = glm::vec2(p.x, p.z);
          if (down) {
            worst = std::max(worst, glm::distance(glm::vec2(p.x, p.z), point.start));
            ++held_frames;
          }
          point.down = down;
        }
      }
    }
    // A member out of the skinned is measured afresh when it comes back.
    for (std::size_t i = 0; i < points.size(); ++i) {
      if (skinned_now[i] == 0) points[i] = {};
    }
    was_skinned = skinned_now;
  }
  EXPECT_GT(held_frames, frames) << "too few points held to measure";
  EXPECT_GT(joined, 0) << "no member joined the skinned: no fresh hold measured";
  return worst;
}

// Each skinned member holds its own heels and balls where they went down, as the mocap scene's
// character does, with a hold state of its own (the crowd shares one skin per clip).
TEST(CrowdCharacter, EachSkinnedMembersHeelAndBallHoldWhereTheyWentDown) {
  const float held = WorstCrowdHeldDrift(1.0f, 300), free = WorstCrowdHeldDrift(0.999f, 300);
  EXPECT_LT(held, 0.01f);
  EXPECT_LT(held, 0.5f * free) << "held " << held << ", free " << free;
  std::printf("crowd: worst drift of a held heel or ball %.2f mm, %.2f mm with the hold off\n",
              1000.0 * held, 1000.0 * free);
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
