// The scene interface: a scene written outside the registry plugs in through EnterScene,
// and the switch does exactly what scene_registry.h lists.
#include <nlohmann/json.hpp>

#include "core/scene_registry.h"
#include "core_test_util.h"
#include "ik/solver.h"
#include "scenes/creature/creature_scene.h"

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
  EXPECT_EQ(names, (std::vector<std::string_view>{"chain", "arm", "creature", "field", "walker",
                                                  "mocap", "crowd", "markers"}));
  // The language takes the registry's names from the app's context: parsing, the usage line
  // `help scene` prints, and Tab completion name the same scenes.
  const CommandContext& context = core.state().command_context;
  EXPECT_EQ(names, context.scene_names);
  const std::vector<std::string> help = HelpLines("scene", context);
  ASSERT_FALSE(help.empty());
  EXPECT_EQ(help[0], "usage: scene chain|arm|creature|field|walker|mocap|crowd|markers");
  for (std::string_view name : names) {
    EXPECT_EQ(CompleteCommand("scene " + std::string(name), context),
              std::vector<std::string>{"scene " + std::string(name)});
    Result<Command> parsed = ParseCommand("scene " + std::string(name), context);
    ASSERT_TRUE(parsed.ok()) << name;
    EXPECT_EQ(std::get<cmd::Scene>(parsed.value()).name, name);
  }
  // A name not registered: one error listing the registered ones.
  Result<Command> forest = ParseCommand("scene forest", context);
  ASSERT_FALSE(forest.ok());
  EXPECT_EQ(forest.error(),
            "scene: unknown scene 'forest' (known: chain, arm, creature, field, walker, mocap, "
            "crowd, markers)");
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

// scene_registry.h, step 1: an unknown name is one error and changes nothing.
TEST(SceneInterface, AnUnknownSceneIsOneErrorAndChangesNothing) {
  Core core;
  core.Frames(2);
  const std::string before = core.Fingerprint();
  EXPECT_FALSE(SetScene(core.state(), "forest"));
  EXPECT_EQ(core.state().message, "scene: 'forest' is not in this build");
  EXPECT_TRUE(core.state().message_is_error);
  EXPECT_EQ(core.state().scene.name(), "chain");
  EXPECT_EQ(core.Fingerprint(), before);
}

// Step 3: a drag in progress ends; the last line: the mode, solver, margin of error and a
// running script are untouched.
TEST(SceneInterface, SwitchingEndsADragAndKeepsTheSettings) {
  Core core;
  core.Run("solver ccd");
  core.Run("moe 0.03");
  core.Run("mode drag");
  core.Send(app::DragStart{{Grab::Kind::kTarget, -1}, core.state().target(), {0, 0, -1}});
  core.Frames(1);
  ASSERT_TRUE(core.state().drag.dragging);
  ASSERT_TRUE(SetScene(core.state(), "creature"));
  EXPECT_FALSE(core.state().drag.dragging);
  EXPECT_EQ(core.state().scene.grab.kind, Grab::Kind::kNone);
  EXPECT_EQ(core.state().solver, SolverKind::kCcd);
  EXPECT_FLOAT_EQ(core.state().settings.tolerance, 0.03f);
  EXPECT_EQ(core.state().mode, TargetMode::kDrag);
  core.Run("script run assets/scripts/square.txt");
  ASSERT_TRUE(SetScene(core.state(), "arm"));
  EXPECT_EQ(core.state().mode, TargetMode::kScript);
  EXPECT_TRUE(core.state().script.running);
}

// Step 4: the arm raises the iteration cap to 30 (never lowers it); other scenes leave it.
TEST(SceneInterface, TheArmRaisesTheIterationCapOnly) {
  Core core;
  core.Run("iterations 12");
  core.Run("scene creature");
  EXPECT_EQ(core.state().settings.max_iterations, 12);
  core.Run("scene arm");
  EXPECT_EQ(core.state().settings.max_iterations, 30);
  core.Run("iterations 200");
  core.Run("scene chain");
  core.Run("scene arm");
  EXPECT_EQ(core.state().settings.max_iterations, 200);
}

// Step 4: a scene whose Enter fails leaves the previous scene in place.
TEST(SceneInterface, AFailedEnterKeepsThePreviousScene) {
  class Refusing final : public Scene {
   public:
    std::string_view name() const override { return "refusing"; }
    bool Enter(AppState& state) override {
      SetMessage(state, "refusing: no", true);
      return false;
    }
    void Solve(AppState&) override {}
  };
  Core core;
  core.Run("scene arm");
  EXPECT_FALSE(EnterScene(core.state(), std::make_unique<Refusing>()));
  EXPECT_EQ(core.state().scene.name(), "arm");
  core.Frames(2);
  EXPECT_EQ(core.Json()["scene"], "arm");
}

}  // namespace
}  // namespace fabrik
