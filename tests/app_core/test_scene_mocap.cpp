// The mocap and crowd scenes in the headless core (docs/mocap.md: The mocap scene): loading
// clips good and bad, playback, the commands' parse and refusals, reach and look, the IK
// weight, the state line's fields, and the crowd's size.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>

#include "core/app_state.h"
#include "core/settings.h"
#include "core_test_util.h"
#include "mocap/mocap_test_util.h"
#include "scenes/crowd/crowd_scene.h"
#include "scenes/mocap/mocap_scene.h"

namespace fabrik::testing {
namespace {

const char* const kClip01 = "/usr/share/assimp/models/BVH/01_01.bvh";
const char* const kClip03 = "/usr/share/assimp/models/BVH/01_03.bvh";

glm::vec3 At(const nlohmann::json& v) {
  return {v[0].get<float>(), v[1].get<float>(), v[2].get<float>()};
}

// What a refused command must leave alone in the mocap scene.
// What a refused line must leave alone.
nlohmann::json Kept(const Core& core) {
  nlohmann::json j = core.Json();
  return nlohmann::json{{"scene", j["scene"]},
                        {"clip", j["clip"]},
                        {"skeleton", j["skeleton"]},
                        {"ik_weight", j["ik_weight"]},
                        {"playback", j["playback"]}};
}

// Whether `a` and `b` are the same but for numbers within `tolerance`: a paused clip's pose
// keeps its place under the IK, but the solve from the previous frame's pose may move a joint
// by float rounding (1e-8 m), which a refused line does not cause.
bool SameWithin(const nlohmann::json& a, const nlohmann::json& b, double tolerance) {
  if (a.is_number_float() || b.is_number_float()) {
    return a.is_number() && b.is_number() &&
           std::abs(a.get<double>() - b.get<double>()) <= tolerance;
  }
  if (a.type() != b.type() || a.size() != b.size()) return false;
  if (a.is_object()) {
    for (auto it = a.begin(); it != a.end(); ++it) {
      if (!b.contains(it.key()) || !SameWithin(it.value(), b[it.key()], tolerance)) return false;
    }
    return true;
  }
  if (a.is_array()) {
    for (std::size_t i = 0; i < a.size(); ++i) {
      if (!SameWithin(a[i], b[i], tolerance)) return false;
    }
    return true;
  }
  return a == b;
}

TEST(MocapScene, StartsOnTheDefaultClipWithEveryStateField) {
  Core core;
  core.Run("scene mocap");
  ASSERT_EQ(core.state().scene.name(), "mocap") << core.LastLine();
  core.Frames(3);
  const nlohmann::json j = core.Json();
  EXPECT_EQ(j["clip"]["path"], kClip01);
  EXPECT_EQ(j["clip"]["frames"], 2752);
  EXPECT_GT(j["clip"]["scale"].get<double>(), 0.0);
  const nlohmann::json& s = j["skeleton"];
  const std::size_t n = s["names"].size();
  EXPECT_EQ(n, 38u);
  EXPECT_EQ(s["parents"].size(), n);
  EXPECT_EQ(s["parents"][0], -1);
  EXPECT_EQ(s["joints"].size(), n);
  EXPECT_EQ(s["animated"].size(), n);
  ASSERT_EQ(s["feet"].size(), 2u);
  for (const auto& foot : s["feet"]) {
    EXPECT_GE(foot["joint"].get<int>(), 0);
    EXPECT_TRUE(foot["contact"].is_boolean());
    EXPECT_TRUE(foot["pinned"].is_null() || foot["pinned"].is_array());
  }
  ASSERT_EQ(s["hands"].size(), 2u);
  EXPECT_NE(s["hands"][0]["joint"], s["hands"][1]["joint"]);
  EXPECT_TRUE(s["head"]["look"].is_null());
  EXPECT_EQ(j["ik_weight"], 1.0);
  EXPECT_TRUE(j["ik_us"].is_number());
  EXPECT_EQ(j["joints"].size(), n);  // the pose the shell draws is the final one
}

TEST(MocapScene, FixedDtPlaysTheClipDeterministically) {
  Core a, b;
  a.Run("scene mocap");
  b.Run("scene mocap");
  a.Frames(30);
  b.Frames(30);
  EXPECT_EQ(a.Json()["skeleton"]["joints"], b.Json()["skeleton"]["joints"]);
  // 31 frames of 1/60 s after the scene started (the switch's frame plays one step).
  EXPECT_NEAR(a.Json()["clip"]["time"].get<double>(), 31.0 / 60.0, 1e-4);
  a.Run("mocap pause");
  const double paused = a.Json()["clip"]["time"];
  a.Frames(10);
  EXPECT_EQ(a.Json()["clip"]["time"].get<double>(), paused);
  a.Run("mocap frame 600");
  EXPECT_EQ(a.Json()["clip"]["frame"], 600);
  a.Run("mocap speed 2");
  a.Run("mocap play");
  const double before = a.Json()["clip"]["time"];
  a.Frames(6);
  EXPECT_NEAR(a.Json()["clip"]["time"].get<double>() - before, 2.0 * 6.0 / 60.0, 1e-4);
}

TEST(MocapScene, WeightZeroShowsTheClipItself) {
  Core core;
  core.Run("scene mocap");
  core.Run("reach right 0.4 1.3 0.5");
  core.Run("look 2 1.6 3");
  core.Run("ik weight 0");
  core.Frames(40);
  const nlohmann::json s = core.Json()["skeleton"];
  EXPECT_EQ(s["joints"], s["animated"]);
  core.Run("ik weight 1");
  core.Frames(2);
  const nlohmann::json t = core.Json()["skeleton"];
  EXPECT_NE(t["joints"], t["animated"]);
}

TEST(MocapScene, ReachAndLookEaseInAndHit) {
  Core core;
  core.Run("scene mocap");
  core.Run("mocap pause");
  const nlohmann::json j0 = core.Json();
  const int wrist = j0["skeleton"]["hands"][1]["joint"];
  const glm::vec3 start = At(j0["skeleton"]["joints"][wrist]);
  // A point 25 cm from the wrist: within reach of the arm.
  const glm::vec3 goal = start + glm::vec3(0.15f, 0.1f, 0.17f);
  core.Run("reach right " + std::to_string(goal.x) + " " + std::to_string(goal.y) + " " +
           std::to_string(goal.z));
  const nlohmann::json j1 = core.Json();
  // Never in one frame: after the first frame the blend has only begun.
  EXPECT_LT(j1["skeleton"]["hands"][1]["blend"].get<float>(), 0.5f);
  EXPECT_GT(glm::distance(At(j1["skeleton"]["joints"][wrist]), goal), 0.05f);
  core.Frames(30);  // past the 0.3 s blend
  const nlohmann::json j2 = core.Json();
  EXPECT_NEAR(glm::distance(At(j2["skeleton"]["joints"][wrist]), goal), 0.0f, 0.002f);
  EXPECT_EQ(At(j2["target"]), At(j2["skeleton"]["hands"][1]["target"]));
  core.Run("look 3 1.5 4");
  core.Frames(30);
  EXPECT_EQ(At(core.Json()["skeleton"]["head"]["look"]), glm::vec3(3.0f, 1.5f, 4.0f));
  core.Run("reach right off");
  core.Run("look off");
  core.Frames(30);
  const nlohmann::json j3 = core.Json();
  EXPECT_TRUE(j3["skeleton"]["hands"][1]["target"].is_null());
  EXPECT_TRUE(j3["skeleton"]["head"]["look"].is_null());
}

TEST(MocapScene, RefusedCommandsChangeNothing) {
  Core core;
  core.Run("scene mocap");
  core.Run("mocap pause");
  const nlohmann::json before = Kept(core);
  for (const char* line : {"ik weight 1.5",     "ik weight nan",  "ik",
                           "reach up 1 2 3",    "reach left 1 2", "reach left 1e9 0 0",
                           "reach left target", "look 1 2",       "look inf 0 0",
                           "mocap speed 0",     "mocap speed 9",  "mocap frame -1",
                           "mocap loop maybe",  "mocap",          "mocap jump",
                           "ghost maybe",       "follow 2",       "characters 0",
                           "characters 6000",   "characters x"}) {
    SCOPED_TRACE(line);
    core.Run(line);
    EXPECT_EQ(core.LastKind(), ConsoleLine::Kind::kError);
    EXPECT_TRUE(SameWithin(Kept(core), before, 1e-6)) << Kept(core).dump() << "\n" << before.dump();
  }
}

TEST(MocapScene, SceneCommandsOutsideTheSceneAreRefused) {
  Core core;
  core.Frames(2);
  auto kept = [&] {
    const nlohmann::json j = core.Json();
    return nlohmann::json{j["scene"], j["target"], j["mode"],
                          core.state().scene.configs.Get<MocapConfig>().clip_path}
        .dump();
  };
  for (const char* line : {"reach left 0 1 0", "look 0 1 0", "ik weight 0.5", "ghost off",
                           "follow off", "mocap pause"}) {
    SCOPED_TRACE(line);
    const std::string before = kept();
    core.Run(line);
    EXPECT_EQ(core.LastKind(), ConsoleLine::Kind::kError);
    EXPECT_NE(core.LastLine().find("scene"), std::string::npos) << core.LastLine();
    EXPECT_EQ(kept(), before);
  }
}

TEST(MocapScene, HostileLoadsGiveOneErrorAndChangeNothing) {
  Core core;
  core.Run("scene mocap");
  core.Run("mocap pause");
  const nlohmann::json before = Kept(core);
  const std::string dir = ::testing::TempDir() + "mocap_dir.bvh";
  std::filesystem::create_directories(dir);
  // A copy of 01_01 cut in the middle of its motion data.
  std::ifstream in(kClip01, std::ios::binary);
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const std::string cut = WriteTempFile("mocap_cut.bvh", text.substr(0, text.size() / 2));
  const std::string nan_clip =
      WriteTempFile("mocap_nan.bvh",
                    "HIERARCHY\nROOT a\n{\nOFFSET 0 0 0\nCHANNELS 3 Zrotation Xrotation "
                    "Yrotation\nEnd Site\n{\nOFFSET 0 1 0\n}\n}\nMOTION\nFrames: 1\nFrame "
                    "Time: 0.01\nnan 0 0\n");
  for (const std::string& path : {dir, cut, nan_clip, ::testing::TempDir() + "mocap_missing.bvh"}) {
    SCOPED_TRACE(path);
    const std::size_t printed = core.state().console.printed;
    core.Run("mocap load " + path);
    EXPECT_EQ(core.LastKind(), ConsoleLine::Kind::kError);
    EXPECT_EQ(core.state().console.printed, printed + 2);  // the typed line and one error
    EXPECT_TRUE(SameWithin(Kept(core), before, 1e-6)) << Kept(core).dump() << "\n" << before.dump();
    EXPECT_EQ(core.state().scene.configs.Get<MocapConfig>().clip_path, kClip01);
  }
}

TEST(MocapScene, LoadsAnotherClipKeepingTheWeight) {
  Core core;
  core.Run("scene mocap");
  core.Run("ik weight 0.5");
  core.Run(std::string("mocap load ") + kClip03);
  EXPECT_NE(core.LastKind(), ConsoleLine::Kind::kError) << core.LastLine();
  const nlohmann::json j = core.Json();
  EXPECT_EQ(j["clip"]["path"], kClip03);
  EXPECT_EQ(j["clip"]["frames"], 4511);
  EXPECT_EQ(j["ik_weight"], 0.5);
  // A scale of its own: 0.01 m per unit makes the CMU skeleton about 0.37 m tall.
  core.Run("mocap scale 0.01");
  EXPECT_NEAR(core.Json()["clip"]["scale"].get<double>(), 0.01, 1e-9);
}

TEST(MocapScene, TheSettingsRestoreTheSceneAndItsClip) {
  Core core;
  core.Run(std::string("mocap load ") + kClip03);
  ASSERT_EQ(core.state().scene.name(), "mocap");
  const Settings saved = CaptureSettings(core.state(), std::nullopt, std::nullopt);
  ASSERT_TRUE(saved.Get<std::string>("clip").has_value());
  StartOptions options = FixedStep();
  options.saved = SettingsCommands(saved);
  Core restored(options);
  restored.Frames(1);
  EXPECT_EQ(restored.state().scene.name(), "mocap");
  EXPECT_EQ(restored.Json()["clip"]["frames"], 4511);
  // A --bvh on the command line wins over the saved clip and scene.
  Settings overridden = saved;
  const std::string given[] = {"--bvh"};
  DropOverridden(overridden, given);
  EXPECT_FALSE(overridden.Get<std::string>("clip").has_value());
  EXPECT_FALSE(overridden.Get<std::string>("scene").has_value());
}

TEST(MocapScene, FeetStayOnTheHills) {
  StartOptions options = FixedStep();
  options.terrain_path = "assets/terrain/hills.png";
  Core core(options);
  core.Run("scene mocap");
  for (int i = 0; i < 120; ++i) {
    core.Frames(1);
    const nlohmann::json j = core.Json();
    for (const auto& foot : j["skeleton"]["feet"]) {
      const glm::vec3 ankle = At(j["skeleton"]["joints"][foot["joint"].get<int>()]);
      const float ground = core.state().terrain.map->HeightAt(ankle.x, ankle.z);
      EXPECT_GE(ankle.y, ground - 0.002f) << "frame " << i;
    }
  }
}

// The live grounding figures (docs/state.md, "grounding"): every frame played is counted for
// the clip and the IK alike; the IK's planted feet slide far less than the clip's; the clip
// measured against itself never pops; new ground starts the figures afresh.
TEST(MocapScene, GroundingFiguresCompareTheClipWithTheIk) {
  StartOptions options = FixedStep();
  options.terrain_path = "assets/terrain/hills.png";
  Core core(options);
  core.Run("scene mocap");
  core.Frames(240);
  const nlohmann::json g = core.Json()["grounding"];
  const nlohmann::json clip = g["clip"], ik = g["ik"];
  EXPECT_GE(clip["frames"].get<int>(), 200);
  EXPECT_EQ(ik["frames"], clip["frames"]);
  EXPECT_GT(clip["skate_worst"].get<double>(), 0.01);  // the clip's feet slide on the hills
  EXPECT_LT(ik["skate_worst"].get<double>(), 0.25 * clip["skate_worst"].get<double>());
  EXPECT_LT(ik["penetration_worst"].get<double>(), 0.01);
  EXPECT_EQ(clip["pop_worst"].get<double>(), 0.0);  // the clip against itself
  EXPECT_GT(ik["pop_worst"].get<double>(), 0.0);    // frames are compared
  EXPECT_LT(ik["pop_worst"].get<double>(), 0.05);
  for (const char* key : {"skate_mean", "skate_worst", "penetration_worst", "pop_worst"}) {
    EXPECT_TRUE(ik[key].is_number() && ik[key].get<double>() >= 0.0) << key;
  }
  core.Run("terrain load assets/terrain/hills.png");
  core.Frames(1);
  EXPECT_LE(core.Json()["grounding"]["ik"]["frames"].get<int>(), 2);
}

TEST(MocapScene, DraggingTheLookPointMovesIt) {
  Core core;
  core.Run("scene mocap");
  core.Run("look 1 1.6 2");
  std::vector<Handle> handles;
  core.state().scene.current->Handles(core.state(), handles);
  ASSERT_EQ(handles.size(), 2u);  // the right hand's target and the look point
  EXPECT_EQ(handles[1].grab.index, MocapScene::kLookHandle);
  ASSERT_TRUE(core.state().scene.current->MoveHandle(handles[1].grab, {2.0f, 1.5f, 2.0f}));
  EXPECT_EQ(At(core.Json()["skeleton"]["head"]["look"]), glm::vec3(2.0f, 1.5f, 2.0f));
}

TEST(CrowdScene, CharactersSetsTheCrowdAndItsFeetStayOnTheGround) {
  StartOptions options = FixedStep();
  options.scene_options.SetNumber("--characters", 12);
  Core core(options);
  core.Run("scene crowd");
  ASSERT_EQ(core.state().scene.name(), "crowd") << core.LastLine();
  core.Frames(20);
  nlohmann::json j = core.Json();
  EXPECT_EQ(j["characters"], 12);
  EXPECT_GE(j["crowd"]["lowest_foot"].get<double>(), -0.002);
  core.Run("characters 30");
  EXPECT_EQ(core.Json()["characters"], 30);
  core.Run("characters 0");
  EXPECT_EQ(core.LastKind(), ConsoleLine::Kind::kError);
  EXPECT_EQ(core.Json()["characters"], 30);
}

TEST(CrowdScene, ALargeSkeletonBoundsTheCrowdsSizeAndWhatIsDrawn) {
  // A humanoid with a 960-joint tail (987 joints with its End Sites; 0.96 m long, so the clip
  // is not taken for a Z-up one): a crowd's memory grows
  // with characters x joints, so 2,000 of them are refused with the largest size allowed,
  // and drawing is capped by joints, not only by characters.
  std::vector<mocap::testing::TestJoint> joints = mocap::testing::Humanoid();
  int parent = 0;
  for (int i = 0; i < 960; ++i) {
    joints.push_back({"Tail" + std::to_string(i), parent, {0.0f, 0.0f, -0.001f}});
    parent = static_cast<int>(joints.size()) - 1;
  }
  joints.push_back({"", parent, {0.0f, 0.0f, -0.001f}, true});
  mocap::testing::TempDir dir;
  const std::string path = dir.Write(
      "tail.bvh", mocap::testing::MakeBvh(joints, 0.01f, 4, [](int, std::vector<float>&) {}));
  StartOptions options = FixedStep();
  options.scene_options.SetText("--bvh", path);
  options.scene_options.SetNumber("--characters", 2000);
  Core core(options);
  core.Run("scene crowd");
  EXPECT_EQ(core.state().scene.name(), "chain");
  EXPECT_EQ(core.LastKind(), ConsoleLine::Kind::kError);
  const long n = static_cast<long>(joints.size());  // End Sites are joints of the clip too
  EXPECT_NE(core.LastLine().find("2000 characters x " + std::to_string(n) + " joints"),
            std::string::npos)
      << core.LastLine();
  const long most = kMaxCrowdJoints / n;
  EXPECT_NE(core.LastLine().find("at most " + std::to_string(most) + " characters"),
            std::string::npos)
      << core.LastLine();
  core.Run("characters 100");
  core.Run("scene crowd");
  ASSERT_EQ(core.state().scene.name(), "crowd") << core.LastLine();
  EXPECT_EQ(core.Json()["crowd"]["drawn_cap"], kMaxDrawnCrowdJoints / n);
  core.Run("characters " + std::to_string(most + 1));
  EXPECT_EQ(core.LastKind(), ConsoleLine::Kind::kError);
  EXPECT_EQ(core.Json()["characters"], 100);
  // The packaged clips' crowd keeps its cap of characters.
  EXPECT_EQ(DrawnCharacterCap(38), kMaxDrawnCharacters);
  EXPECT_EQ(DrawnCharacterCap(100000), 1);
}

}  // namespace
}  // namespace fabrik::testing
