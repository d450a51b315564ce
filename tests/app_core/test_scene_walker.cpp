// The walker scene in the headless core (docs/walker.md: The walker scene): switching to it,
// walking to a typed target and stopping, dragging on the hills, loading terrain good and bad.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <iterator>

#include "core/app_state.h"
#include "core/scene_registry.h"
#include "core/terrain_load.h"
#include "core_test_util.h"
#include "scenes/walker/walker_panel_commands.h"
#include "scenes/walker/walker_scene.h"

namespace fabrik::testing {
namespace {

const Walker& TheWalker(const Core& core) {
  const WalkerScene* scene = core.state().scene.As<WalkerScene>();
  EXPECT_NE(scene, nullptr);
  return *scene->walker;
}

float Horizontal(const glm::vec3& a, const glm::vec3& b) {
  return std::hypot(a.x - b.x, a.z - b.z);
}

// What a refused terrain load must leave alone: the terrain, its revision, and every planted
// foot (planted targets never move).
nlohmann::json KeptJson(const Core& core) {
  nlohmann::json j = core.Json();
  nlohmann::json planted = nlohmann::json::array();
  for (const auto& leg : j["legs"]) {
    if (leg["planted"].get<bool>()) planted.push_back(leg["foot_target"]);
  }
  return {{"terrain", j["terrain"]},
          {"revision", core.state().terrain.revision},
          {"planted", planted},
          {"goal", j["goal"]},
          {"scene", j["scene"]}};
}

TEST(WalkerScene, SwitchingToItStandsTheWalkerOnTheDefaultHills) {
  Core core;
  core.Run("scene walker");
  ASSERT_EQ(core.state().scene.name(), "walker");
  EXPECT_NE(core.LastKind(), ConsoleLine::Kind::kError);
  const nlohmann::json j = core.Json();
  EXPECT_EQ(j["terrain"]["path"], kDefaultTerrainPath);
  EXPECT_EQ(j["terrain"]["size"], 40.0);
  EXPECT_EQ(j["terrain"]["height"], 3.0);
  ASSERT_EQ(j["legs"].size(), 4u);
  std::size_t joints = 0;
  for (const auto& leg : j["legs"]) {
    EXPECT_EQ(leg["joints"].size(), 4u);     // hip, two knees, foot
    EXPECT_EQ(leg["rotations"].size(), 3u);  // one per bone
    EXPECT_TRUE(leg["planted"].get<bool>());
    joints += leg["joints"].size();
  }
  EXPECT_EQ(j["joints"].size(), joints);  // the pose is every leg, hip first, foot last
  ASSERT_EQ(j["body"]["rotation"].size(), 4u);
  const Walker& w = TheWalker(core);
  // The target starts on the ground under the body, so it stands still.
  EXPECT_LT(Horizontal(core.state().target(), w.body_position()), 1e-4f);
  for (const WalkerLegState& leg : w.legs()) {
    EXPECT_NEAR(leg.foot_target.y, w.terrain().HeightAt(leg.foot_target.x, leg.foot_target.z),
                1e-4f);
  }
  // Back to the chain: it is whole again.
  core.Run("scene chain");
  EXPECT_EQ(core.state().scene.name(), "chain");
  EXPECT_EQ(core.Json()["joints"].size(), 8u);
}

TEST(WalkerScene, ATypedTargetMakesItWalkThereWithFeetPlantedAndStop) {
  Core core;
  core.Run("scene walker");
  core.Run("target 5 0 -4");
  ASSERT_EQ(core.state().mode, TargetMode::kConsole);
  const Walker& w = TheWalker(core);
  const glm::vec3 start = w.body_position();
  int frames = 0;
  std::int64_t steps_before = w.foot_steps();
  while (!w.arrived() && frames < 60 * 40) {
    core.Frames(1);
    ++frames;
    // Every frame: at least half the feet planted, each planted foot on the ground.
    int planted = 0;
    for (const WalkerLegState& leg : w.legs()) {
      if (!leg.planted) continue;
      ++planted;
      ASSERT_NEAR(leg.foot_target.y, w.terrain().HeightAt(leg.foot_target.x, leg.foot_target.z),
                  1e-3f);
    }
    ASSERT_GE(planted * 2, static_cast<int>(w.legs().size())) << "frame " << frames;
  }
  ASSERT_TRUE(w.arrived()) << "not there after " << frames << " frames";
  EXPECT_LT(Horizontal(w.body_position(), {5.0f, 0.0f, -4.0f}), 0.05f);
  EXPECT_GT(Horizontal(start, w.body_position()), 6.0f);
  EXPECT_GT(w.foot_steps(), steps_before + 4);  // it walked: feet stepped
  EXPECT_TRUE(core.Json()["arrived"].get<bool>());
  // And it stays there.
  const glm::vec3 there = w.body_position();
  core.Frames(120);
  EXPECT_LT(Horizontal(there, w.body_position()), 1e-3f);
}

TEST(WalkerScene, ADragPutsTheTargetOnTheHillsUnderTheCursor) {
  Core core;
  core.Run("scene walker");
  const Heightmap& map = TheWalker(core).terrain();
  app::DragStart press;
  press.grab = {Grab::Kind::kTarget, -1};
  press.position = core.state().target();
  press.plane_normal = core.state().view.camera.forward();
  core.Send(press);
  // Straight down onto (6, -3): the target lands on the ground there, not on the drag plane.
  core.Send(app::DragMove{Ray{{6.0f, 50.0f, -3.0f}, {0.0f, -1.0f, 0.0f}}});
  core.Frames(1);
  ASSERT_TRUE(core.state().drag.dragging);
  core.Send(app::DragEnd{});
  core.Frames(60);
  const glm::vec3 t = core.state().target();
  EXPECT_NEAR(t.x, 6.0f, 1e-3f);
  EXPECT_NEAR(t.z, -3.0f, 1e-3f);
  EXPECT_NEAR(t.y, map.HeightAt(6.0f, -3.0f), 1e-3f);
  EXPECT_LT(Horizontal(TheWalker(core).goal(), t), 1e-3f);
}

TEST(WalkerScene, TerrainLoadReplacesTheGroundAndSetsTheFeetOnIt) {
  Core core;
  core.Run("scene walker");
  const int revision = core.state().terrain.revision;
  core.Run(std::string("terrain load ") + kDefaultTerrainPath + " 24 1.5");
  ASSERT_NE(core.LastKind(), ConsoleLine::Kind::kError) << core.LastLine();
  const nlohmann::json j = core.Json();
  EXPECT_EQ(j["terrain"]["size"], 24.0);
  EXPECT_EQ(j["terrain"]["height"], 1.5);
  EXPECT_EQ(core.state().terrain.revision, revision + 1);
  const Walker& w = TheWalker(core);
  EXPECT_EQ(w.terrain().size(), 24.0f);
  EXPECT_EQ(w.terrain_ptr(), core.state().terrain.map);
  for (const WalkerLegState& leg : w.legs()) {
    if (!leg.planted) continue;
    EXPECT_NEAR(leg.foot_target.y, w.terrain().HeightAt(leg.foot_target.x, leg.foot_target.z),
                1e-4f);
  }
  // Without S H the current ones stay.
  core.Run(std::string("terrain load ") + kDefaultTerrainPath);
  ASSERT_NE(core.LastKind(), ConsoleLine::Kind::kError) << core.LastLine();
  EXPECT_EQ(core.Json()["terrain"]["size"], 24.0);
}

// The loaded line says where the terrain shows only in a scene that does not stand on it;
// the scenes it names are the registry's own (SceneEntry::on_terrain).
TEST(WalkerScene, TerrainLoadSaysWhereTheGroundShowsOutsideTheScenesOnIt) {
  Core core;
  const std::string line = std::string("terrain load ") + kDefaultTerrainPath;
  core.Run(line);
  ASSERT_NE(core.LastKind(), ConsoleLine::Kind::kError) << core.LastLine();
  EXPECT_NE(core.LastLine().find(" (shown in the walker, mocap and crowd scenes)"),
            std::string::npos)
      << core.LastLine();
  for (const char* scene : {"walker", "mocap", "crowd"}) {
    core.Run(std::string("scene ") + scene);
    core.Run(line);
    ASSERT_NE(core.LastKind(), ConsoleLine::Kind::kError) << core.LastLine();
    EXPECT_EQ(core.LastLine().find("shown in"), std::string::npos) << scene;
  }
  EXPECT_FALSE(SceneOnTerrain("arm"));
  EXPECT_FALSE(SceneOnTerrain("no such scene"));
}

TEST(WalkerScene, BadTerrainFilesAreRefusedWithTheStateUnchanged) {
  Core core;
  core.Run("scene walker");
  core.Frames(30);
  const std::string text = WriteTempFile("walker_not_a_png.png", "this is not a picture\n");
  // The first 100 bytes of a real PNG: a valid signature, then nothing.
  std::ifstream in(std::string(FABRIK_SOURCE_DIR) + "/" + kDefaultTerrainPath, std::ios::binary);
  std::string head(100, '\0');
  in.read(head.data(), 100);
  const std::string truncated = WriteTempFile("walker_truncated.png", head);
  struct Case {
    std::string line;
    std::string says;
  };
  const Case cases[] = {
      {"terrain load /no/such/file.png", "cannot find"},
      {"terrain load " + text, "walker_not_a_png.png"},
      {"terrain load " + truncated, "walker_truncated.png"},
      {std::string("terrain load ") + kDefaultTerrainPath + " -2 3", "terrain load S"},
      {std::string("terrain load ") + kDefaultTerrainPath + " 40 nan", "terrain load H"},
      // No leading '+' (docs/language.md: Numbers).
      {std::string("terrain load ") + kDefaultTerrainPath + " +5 3",
       "terrain load S: expected a number from 0.001 to 1e5, got '+5'"},
      // The message states the real minimum (a size of 0.0005 parses as > 0 but cannot load).
      {std::string("terrain load ") + kDefaultTerrainPath + " 0.0005 3",
       "terrain load S: expected a number from 0.001 to 1e5, got '0.0005'"},
      {"terrain load", "usage"},
      {"terrain dig", "expected load"},
  };
  for (const Case& c : cases) {
    const nlohmann::json before = KeptJson(core);
    core.Run(c.line);
    EXPECT_EQ(core.LastKind(), ConsoleLine::Kind::kError) << c.line;
    EXPECT_NE(core.LastLine().find(c.says), std::string::npos)
        << c.line << " -> " << core.LastLine();
    EXPECT_EQ(KeptJson(core), before) << c.line;
    EXPECT_EQ(core.state().scene.name(), "walker");
  }
}

TEST(WalkerScene, StartupTerrainOptionLoadsOrRefuses) {
  StartOptions good = FixedStep();
  good.terrain_path = kDefaultTerrainPath;
  good.terrain_size = 30.0f;
  good.terrain_height = 2.0f;
  good.scene = "walker";
  Core core(good);
  EXPECT_EQ(core.Json()["terrain"]["size"], 30.0);
  EXPECT_EQ(TheWalker(core).terrain().height_scale(), 2.0f);

  StartOptions bad = FixedStep();
  bad.terrain_path = WriteTempFile("walker_bad_start.png", "nope");
  const auto started = StartApp(bad, FABRIK_SOURCE_DIR);
  ASSERT_FALSE(started.ok());
  EXPECT_NE(started.error().find("--terrain"), std::string::npos) << started.error();
}

TEST(WalkerScene, DebugViewsRecordTheChosenLeg) {
  Core core;
  core.Run("scene walker");
  core.Send(app::WalkerView{true, 2});
  core.Run("target 3 0 3");
  core.Frames(5);
  const Walker& w = TheWalker(core);
  EXPECT_EQ(w.recorded_leg(), 2);
  EXPECT_TRUE(w.recording().recorded());
  EXPECT_EQ(core.Json()["walker_debug"]["step_leg"], 2);
  core.Send(app::WalkerView{false, 99});  // out of range: none
  core.Frames(1);
  EXPECT_EQ(w.recorded_leg(), -1);
}

TEST(WalkerScene, DebugCommandsSetTheViewsOrAreRefused) {
  Core core;
  core.Run("walker debug on");
  EXPECT_EQ(core.LastKind(), ConsoleLine::Kind::kError);  // not in the walker scene
  core.Run("scene walker");
  core.Run("walker debug on");
  ASSERT_NE(core.LastKind(), ConsoleLine::Kind::kError) << core.LastLine();
  core.Run("walker leg 1");
  ASSERT_NE(core.LastKind(), ConsoleLine::Kind::kError) << core.LastLine();
  EXPECT_EQ(core.Json()["walker_debug"], (nlohmann::json{{"pre_solve", true}, {"step_leg", 1}}));
  EXPECT_EQ(TheWalker(core).recorded_leg(), 1);
  for (const char* bad : {"walker leg 4", "walker leg -1", "walker leg x", "walker debug maybe",
                          "walker", "walker jump 1"}) {
    core.Run(bad);
    EXPECT_EQ(core.LastKind(), ConsoleLine::Kind::kError) << bad;
    EXPECT_EQ(core.Json()["walker_debug"]["step_leg"], 1) << bad;
  }
  core.Run("walker leg none");
  core.Run("walker debug off");
  EXPECT_EQ(core.Json()["walker_debug"], (nlohmann::json{{"pre_solve", false}, {"step_leg", -1}}));
}

}  // namespace
}  // namespace fabrik::testing
