// The scene interface: a scene written outside the registry plugs in through EnterScene,
// and the switch does exactly what scene_registry.h lists.
#include <nlohmann/json.hpp>

#include "core/scene_creature.h"
#include "core/scene_registry.h"
#include "core_test_util.h"

namespace fabrik {
namespace {

using testing::Core;

// A scene that holds a point on a circle: what a new scene has to write, and nothing more.
class PointScene final : public Scene {
 public:
  std::string_view name() const override { return "point"; }
  bool Enter(AppState& state) override {
    PlaceTarget(state, glm::vec3(3.0f, 0.0f, 0.0f));
    return true;
  }
  void Solve(AppState& state) override {
    ++solves;
    pose[0] = state.target();
    state.last.iterations = 1;
    state.last.reached = true;
  }
  std::span<const glm::vec3> Pose(const AppState&) const override { return pose; }
  void WriteState(nlohmann::json& line) const override { line["point_solves"] = solves; }
  int solves = 0;
  std::vector<glm::vec3> pose{glm::vec3(0.0f)};
};

TEST(SceneInterface, ANewScenePlugsInWithoutTouchingTheOthers) {
  Core core;
  ASSERT_TRUE(EnterScene(core.state(), std::make_unique<PointScene>()));
  core.Frames(3);
  const auto j = core.Json();
  EXPECT_EQ(j["scene"], "point");
  EXPECT_EQ(j["point_solves"], 3);
  EXPECT_EQ(j["joints"].size(), 1u);
  EXPECT_EQ(j["joints"][0][0], 3.0);
  // Chain-only features refuse it.
  core.Run("step on");
  EXPECT_FALSE(core.state().step.active);
  // And the chain comes back with its lengths.
  core.Run("scene chain");
  EXPECT_EQ(core.state().chain.joint_count(), 8u);
}

TEST(SceneInterface, RegistryNamesEveryBuiltInSceneAndTheLanguageAcceptsThem) {
  Core core;
  std::vector<std::string_view> names;
  for (const SceneEntry& e : RegisteredScenes()) names.push_back(e.name);
  EXPECT_EQ(names, (std::vector<std::string_view>{"chain", "arm", "creature", "field", "walker"}));
  for (std::string_view name : names) {
    core.Run("scene " + std::string(name));
    EXPECT_EQ(core.state().scene.name(), name);
    EXPECT_NE(core.state().console.log.back().kind, ConsoleLine::Kind::kError);
  }
  EXPECT_EQ(MakeScene("nope"), nullptr);
}

TEST(SceneInterface, SwitchingPlacesTheTargetAndFramesTheCamera) {
  Core core;
  core.Send(app::CameraOrbit{{300.0f, 0.0f}});
  core.Run("scene arm");
  EXPECT_EQ(core.state().target(), glm::vec3(2.2f, 2.2f, 1.2f));
  const OrbitCamera home(core.state().scene.current->CameraHome(core.state()));
  EXPECT_FLOAT_EQ(core.state().view.camera.yaw(), home.yaw());
  EXPECT_FLOAT_EQ(core.state().view.camera.distance(), home.distance());
}

TEST(SceneInterface, DragMovesTheArmsPoleAndACreaturesOtherEffector) {
  Core core;
  core.Run("scene arm");
  core.Send(app::DragStart{{Grab::Kind::kPole, -1}, glm::vec3(1.5f, 5.0f, 1.0f), {0, 0, -1}});
  core.Send(app::DragMove{Ray{{0.0f, 4.0f, 10.0f}, {0.0f, 0.0f, -1.0f}}});
  const glm::vec3 target = core.state().target();
  core.Frames(1);
  EXPECT_EQ(core.Json()["pole"], nlohmann::json({0.0, 4.0, 1.0}));
  EXPECT_EQ(core.state().target(), target);  // the pole, not the target, moved
  core.Send(app::DragEnd{});
  core.Run("scene creature");
  const auto* creature = core.state().scene.As<CreatureScene>();
  ASSERT_NE(creature, nullptr);
  const int other = creature->primary == 0 ? 1 : 0;
  const glm::vec3 at = creature->targets[static_cast<std::size_t>(other)].position;
  core.Send(app::DragStart{{Grab::Kind::kEffectorTarget, other}, at, {0, 0, -1}});
  core.Send(app::DragMove{Ray{{at.x + 0.3f, at.y, at.z + 5.0f}, {0.0f, 0.0f, -1.0f}}});
  core.Frames(1);
  EXPECT_NEAR(creature->targets[static_cast<std::size_t>(other)].position.x, at.x + 0.3f, 1e-5f);
}

}  // namespace
}  // namespace fabrik
