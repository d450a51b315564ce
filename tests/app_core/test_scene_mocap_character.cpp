// The mocap scene's skinned character in the headless core (docs/mocap.md: The skinned
// character): loading the packaged human, the state line's fields, its bones following the
// clip after the IK, retargeting off, capsules back, and files refused with nothing changed.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <fstream>
#include <string>

#include "core/app_state.h"
#include "core/settings.h"
#include "core_test_util.h"

// LeakSanitizer (the sanitizer build): Debian's Assimp, which is not instrumented, keeps a few
// hundred bytes when it refuses some of the files below, as tests/character does and the
// fuzzers' suppressions say (tests/fuzz/lsan.supp). Leaks allocated inside it are not this
// code's; every other leak in fabrik_app_tests is still reported.
extern "C" const char* __lsan_default_suppressions() { return "leak:libassimp.so\n"; }

namespace fabrik::testing {
namespace {

const char* const kHuman = "/usr/share/assimp/models/X/BCN_Epileptic.X";

glm::vec3 PointAt(const nlohmann::json& v) {
  return {v[0].get<float>(), v[1].get<float>(), v[2].get<float>()};
}

int IndexOf(const nlohmann::json& names, const std::string& name) {
  for (std::size_t i = 0; i < names.size(); ++i) {
    if (names[i] == name) return static_cast<int>(i);
  }
  return -1;
}

// A character bone's world position and a clip joint's, from one state line.
glm::vec3 Bone(const nlohmann::json& j, const std::string& name) {
  const int i = IndexOf(j["character"]["names"], name);
  EXPECT_GE(i, 0) << name;
  return i < 0 ? glm::vec3(NAN) : PointAt(j["character"]["joints"][static_cast<std::size_t>(i)]);
}
glm::vec3 Joint(const nlohmann::json& j, const std::string& name) {
  const int i = IndexOf(j["skeleton"]["names"], name);
  EXPECT_GE(i, 0) << name;
  return i < 0 ? glm::vec3(NAN) : PointAt(j["skeleton"]["joints"][static_cast<std::size_t>(i)]);
}

// What a refused `character` line must leave alone: the scene, the clip (its path, scale and
// time: not reloaded, not restarted) and the character (its file and settings; the pose
// itself goes on settling under the IK while the clip is paused).
std::string KeptByCharacter(const Core& core) {
  nlohmann::json j = core.Json();
  if (j["character"].is_object()) j["character"].erase("joints");
  return nlohmann::json{{"scene", j["scene"]},
                        {"clip", j["clip"]},
                        {"character", j["character"]},
                        {"retarget", j["retarget"]}}
      .dump();
}

TEST(MocapCharacter, CapsulesByDefault) {
  Core core;
  core.Run("scene mocap");
  core.Frames(2);
  const nlohmann::json j = core.Json();
  EXPECT_TRUE(j["character"].is_null());
  EXPECT_EQ(j["retarget"], true);
  EXPECT_EQ(j["retarget_us"], 0);
  EXPECT_EQ(j["skin_us"], 0);
}

TEST(MocapCharacter, TheHumanFollowsTheClipAfterTheIk) {
  Core core;
  core.Run("scene mocap");
  core.Frames(2);
  const double capsule_scale = core.Json()["clip"]["scale"];
  core.Run(std::string("character ") + kHuman);
  ASSERT_NE(core.LastKind(), ConsoleLine::Kind::kError) << core.LastLine();
  core.Frames(5);
  const nlohmann::json a = core.Json();
  ASSERT_TRUE(a["character"].is_object());
  EXPECT_EQ(a["character"]["path"], kHuman);
  EXPECT_EQ(a["character"]["bones"], 54);
  EXPECT_EQ(a["character"]["vertices"], 3014);
  EXPECT_EQ(a["character"]["joints"].size(), 54u);
  EXPECT_GT(a["retarget_us"].get<double>(), 0.0);
  EXPECT_GT(a["skin_us"].get<double>(), 0.0);
  // The clip is scaled to the human's legs: 0.84 of the auto scale for the human on the CMU
  // skeleton (docs/characters.md: Retargeting).
  EXPECT_NEAR(a["clip"]["scale"].get<double>() / capsule_scale, 0.84, 0.02);

  // The pelvis is the clip's, after the IK; the feet where the clip's are, the hands where
  // the clip's are from the shoulders in proportion to the arms (the human's shoulders sit
  // higher than the clip's), to the retargeting's fit (docs/characters.md: Retargeting).
  EXPECT_LT(glm::distance(Bone(a, "B_LowerPelvis"), Joint(a, "Hips")), 1e-4f);
  for (const char* side : {"Left", "Right"}) {
    SCOPED_TRACE(side);
    const std::string s = side;
    EXPECT_LT(glm::distance(Bone(a, "B_Ankle_" + s), Joint(a, s + "Foot")), 0.04f);
    const glm::vec3 shoulder = Bone(a, "B_UpperArm_" + s), elbow = Bone(a, "B_ForeArm_" + s);
    const glm::vec3 hand = Bone(a, "B_Hand_" + s);
    const glm::vec3 clip_shoulder = Joint(a, s + "Arm"), clip_elbow = Joint(a, s + "ForeArm");
    const glm::vec3 clip_hand = Joint(a, s + "Hand");
    const float ratio =
        (glm::distance(shoulder, elbow) + glm::distance(elbow, hand)) /
        (glm::distance(clip_shoulder, clip_elbow) + glm::distance(clip_elbow, clip_hand));
    EXPECT_LT(glm::distance(hand - shoulder, ratio * (clip_hand - clip_shoulder)), 0.04f);
  }
  // The character's ankles above the ground the IK grounded the clip's feet on.
  const char* const ankles[2] = {"B_Ankle_Left", "B_Ankle_Right"};
  for (int side = 0; side < 2; ++side) {
    const float ground = a["skeleton"]["feet"][static_cast<std::size_t>(side)]["ground"];
    EXPECT_GT(Bone(a, ankles[side]).y, ground) << ankles[side];
    EXPECT_LT(Bone(a, ankles[side]).y, ground + 0.5f) << ankles[side];
  }

  core.Frames(60);
  const nlohmann::json b = core.Json();
  EXPECT_GT(glm::distance(Bone(b, "B_LowerPelvis"), Bone(a, "B_LowerPelvis")), 0.02f);
  EXPECT_LT(glm::distance(Bone(b, "B_LowerPelvis"), Joint(b, "Hips")), 1e-4f);
  EXPECT_LT(glm::distance(Bone(b, "B_Ankle_Left"), Joint(b, "LeftFoot")), 0.04f);
  // The bones keep the character's lengths: the shin as in frame 5.
  EXPECT_NEAR(glm::distance(Bone(b, "B_Knee_Left"), Bone(b, "B_Ankle_Left")),
              glm::distance(Bone(a, "B_Knee_Left"), Bone(a, "B_Ankle_Left")), 1e-4f);
}

// A reaching hand of the human reaches the target the clip's hand was given (its wrist goes
// where the clip's is, not in proportion), fading in and out with the reach.
TEST(MocapCharacter, AReachingHandReachesTheTarget) {
  Core core;
  core.Run("scene mocap");
  core.Run("mocap pause");
  core.Run(std::string("character ") + kHuman);
  ASSERT_NE(core.LastKind(), ConsoleLine::Kind::kError) << core.LastLine();
  core.Frames(5);
  const nlohmann::json a = core.Json();
  // A point the clip's arm and the human's both reach: between the clip's shoulder and hand,
  // moved forward and up a little.
  const glm::vec3 target =
      0.5f * (Joint(a, "RightArm") + Joint(a, "RightHand")) + glm::vec3(0.05f, 0.1f, 0.05f);
  const float before = glm::distance(Bone(a, "B_Hand_Right"), target);
  char line[128];
  std::snprintf(line, sizeof line, "reach right %.4f %.4f %.4f", target.x, target.y, target.z);
  core.Run(line);
  ASSERT_NE(core.LastKind(), ConsoleLine::Kind::kError) << core.LastLine();
  core.Frames(90);
  const nlohmann::json b = core.Json();
  EXPECT_LT(glm::distance(Joint(b, "RightHand"), target), 0.01f);  // the clip's IK
  EXPECT_LT(glm::distance(Bone(b, "B_Hand_Right"), target), 0.01f) << "before: " << before;
  // The other hand is untouched: still where the clip's is in proportion.
  const glm::vec3 shoulder = Bone(b, "B_UpperArm_Left"), elbow = Bone(b, "B_ForeArm_Left");
  const glm::vec3 hand = Bone(b, "B_Hand_Left");
  const float ratio = (glm::distance(shoulder, elbow) + glm::distance(elbow, hand)) /
                      (glm::distance(Joint(b, "LeftArm"), Joint(b, "LeftForeArm")) +
                       glm::distance(Joint(b, "LeftForeArm"), Joint(b, "LeftHand")));
  EXPECT_LT(glm::distance(hand - shoulder, ratio * (Joint(b, "LeftHand") - Joint(b, "LeftArm"))),
            0.04f);
  // The arm keeps its lengths.
  EXPECT_NEAR(glm::distance(Bone(b, "B_ForeArm_Right"), Bone(b, "B_Hand_Right")),
              glm::distance(Bone(a, "B_ForeArm_Right"), Bone(a, "B_Hand_Right")), 1e-4f);
  core.Run("reach right off");
  core.Frames(90);
  const nlohmann::json c = core.Json();
  EXPECT_LT(glm::distance(Bone(c, "B_Hand_Right"), Bone(a, "B_Hand_Right")), 0.01f);
}

// The character's model is saved under "character" and put on again at the next start when
// the mocap scene was on; capsules save nothing; --character wins over it.
TEST(MocapCharacter, TheSettingsRestoreTheCharacter) {
  Core core;
  core.Run("scene mocap");
  EXPECT_FALSE(CaptureSettings(core.state(), std::nullopt, std::nullopt)
                   .Get<std::string>("character")
                   .has_value());
  core.Run(std::string("character ") + kHuman);
  ASSERT_NE(core.LastKind(), ConsoleLine::Kind::kError) << core.LastLine();
  const Settings saved = CaptureSettings(core.state(), std::nullopt, std::nullopt);
  EXPECT_EQ(saved.Get<std::string>("character"), std::string(kHuman));
  StartOptions options = FixedStep();
  options.saved = SettingsCommands(saved);
  Core restored(options);
  restored.Frames(2);
  EXPECT_EQ(restored.state().scene.name(), "mocap");
  const nlohmann::json j = restored.Json();
  ASSERT_TRUE(j["character"].is_object()) << restored.LastLine();
  EXPECT_EQ(j["character"]["path"], kHuman);
  EXPECT_EQ(j["clip"]["scale"], core.Json()["clip"]["scale"]);  // scaled to the human again
  Settings overridden = saved;
  const std::string given[] = {"--character"};
  DropOverridden(overridden, given);
  EXPECT_FALSE(overridden.Get<std::string>("character").has_value());
  core.Run("character capsules");
  EXPECT_FALSE(CaptureSettings(core.state(), std::nullopt, std::nullopt)
                   .Get<std::string>("character")
                   .has_value());
}

TEST(MocapCharacter, RetargetOffHoldsTheBindPoseAtThePelvis) {
  Core core;
  core.Run("scene mocap");
  core.Run(std::string("character ") + kHuman);
  core.Run("retarget off");
  ASSERT_NE(core.LastKind(), ConsoleLine::Kind::kError) << core.LastLine();
  core.Frames(3);
  const nlohmann::json a = core.Json();
  EXPECT_EQ(a["retarget"], false);
  core.Frames(40);
  const nlohmann::json b = core.Json();
  EXPECT_LT(glm::distance(Bone(b, "B_LowerPelvis"), Joint(b, "Hips")), 1e-4f);
  const glm::vec3 before = Bone(a, "B_Hand_Left") - Bone(a, "B_LowerPelvis");
  const glm::vec3 after = Bone(b, "B_Hand_Left") - Bone(b, "B_LowerPelvis");
  EXPECT_LT(glm::distance(before, after), 1e-4f);  // rigid: the bind pose moved
  core.Run("retarget on");
  core.Frames(3);
  const nlohmann::json c = core.Json();
  EXPECT_GT(glm::distance(Bone(c, "B_Hand_Left") - Bone(c, "B_LowerPelvis"), after), 1e-3f);
}

TEST(MocapCharacter, SkinningIsDualQuaternionsOrLinear) {
  Core core;
  core.Run("scene mocap");
  core.Run(std::string("character ") + kHuman);
  core.Frames(1);
  EXPECT_EQ(core.Json()["character"]["skinning"], "dq");
  core.Run("character skinning LINEAR");
  ASSERT_NE(core.LastKind(), ConsoleLine::Kind::kError) << core.LastLine();
  EXPECT_EQ(core.Json()["character"]["skinning"], "linear");
  core.Run("mocap pause");
  core.Frames(2);
  const std::string before = KeptByCharacter(core);
  core.Run("character skinning quaternions");
  EXPECT_EQ(core.LastKind(), ConsoleLine::Kind::kError);
  EXPECT_NE(core.LastLine().find("expected dq or linear"), std::string::npos) << core.LastLine();
  EXPECT_EQ(KeptByCharacter(core), before);
  core.Run("character skinning dq");
  EXPECT_EQ(core.Json()["character"]["skinning"], "dq");
}

TEST(MocapCharacter, CapsulesBackAndTheCharacterOutlivesTheScene) {
  Core core;
  core.Run("scene mocap");
  core.Frames(1);
  const nlohmann::json capsules = core.Json();
  core.Run(std::string("character ") + kHuman);
  core.Run("scene chain");
  core.Run("scene mocap");
  core.Frames(1);
  EXPECT_EQ(core.Json()["character"]["path"], kHuman);  // kept while another scene was on
  core.Run("mocap load /usr/share/assimp/models/BVH/01_03.bvh");
  ASSERT_NE(core.LastKind(), ConsoleLine::Kind::kError) << core.LastLine();
  core.Frames(1);
  EXPECT_EQ(core.Json()["character"]["path"], kHuman);
  core.Run("character capsules");
  ASSERT_NE(core.LastKind(), ConsoleLine::Kind::kError) << core.LastLine();
  core.Frames(1);
  const nlohmann::json j = core.Json();
  EXPECT_TRUE(j["character"].is_null());
  EXPECT_EQ(j["retarget_us"], 0);
  core.Run("mocap load /usr/share/assimp/models/BVH/01_01.bvh");
  EXPECT_EQ(core.Json()["clip"]["scale"], capsules["clip"]["scale"]);  // the clip's own again
}

TEST(MocapCharacter, FilesRefusedChangeNothing) {
  const std::string garbage = ::testing::TempDir() + "mocap_character_garbage.x";
  {
    std::ofstream out(garbage);
    out << "xof 0303txt 0032\nFrame { this is not a model\n";
  }
  const std::string bad[][2] = {
      {"/nonexistent/model.x", "no such file"},
      {"/usr/share/assimp/models/X", "is a directory"},
      {garbage, garbage},
      {"/usr/share/assimp/models/X/anim_test.x", "anim_test.x"},
  };
  for (const bool loaded : {false, true}) {
    Core core;
    core.Run("scene mocap");
    if (loaded) core.Run(std::string("character ") + kHuman);
    core.Run("mocap pause");
    core.Frames(2);
    const std::string before = KeptByCharacter(core);
    for (const auto& [path, says] : bad) {
      SCOPED_TRACE(path);
      core.Run("character " + path);
      EXPECT_EQ(core.LastKind(), ConsoleLine::Kind::kError);
      EXPECT_EQ(core.LastLine().rfind("character: ", 0), 0u) << core.LastLine();
      EXPECT_NE(core.LastLine().find(says), std::string::npos) << core.LastLine();
      EXPECT_EQ(core.LastLine().find('\n'), std::string::npos);
      EXPECT_EQ(KeptByCharacter(core), before);
    }
  }
  Core chain;
  chain.Run(std::string("character ") + kHuman);
  EXPECT_EQ(chain.LastKind(), ConsoleLine::Kind::kError);  // not in the mocap scene
  EXPECT_NE(chain.LastLine().find("scene mocap"), std::string::npos) << chain.LastLine();
}

TEST(MocapCharacter, StartsWithTheCharacterOption) {
  StartOptions options = FixedStep();
  options.scene = "mocap";
  options.scene_options.SetText("--character", kHuman);
  Core core(options);
  core.Frames(2);
  EXPECT_EQ(core.state().scene.name(), "mocap");
  EXPECT_EQ(core.Json()["character"]["bones"], 54);

  StartOptions bad = FixedStep();
  bad.scene = "mocap";
  bad.scene_options.SetText("--character", "/nonexistent/model.x");
  auto started = StartApp(bad, FABRIK_SOURCE_DIR);
  ASSERT_FALSE(started);
  EXPECT_NE(started.error().find("--character: /nonexistent/model.x"), std::string::npos)
      << started.error();
}

}  // namespace
}  // namespace fabrik::testing
