// The field scene (docs/field.md "The field scene"): many chains solved by the batched solver, each
// towards its own target derived from the shared one.
#include <glm/geometric.hpp>
#include <nlohmann/json.hpp>

#include "core/scene_registry.h"
#include "core_test_util.h"
#include "scenes/field/field_scene.h"

namespace fabrik {
namespace {

using testing::Core;

StartOptions Field(int chains, int joints = kFieldDefaultJoints) {
  StartOptions options = testing::FixedStep();
  options.scene = "field";
  options.scene_options.SetNumber("--chains", chains);
  options.joints = joints;  // the field's chains take --joints, as the chain does
  options.given = {"--joints"};
  return options;
}

const FieldScene& TheField(const Core& core) {
  const FieldScene* field = core.state().scene.As<FieldScene>();
  EXPECT_NE(field, nullptr);
  return *field;
}

TEST(FieldScene, DefaultsToTenThousandChainsOfTenJoints) {
  StartOptions options = testing::FixedStep();
  options.scene = "field";
  Core core(options);
  core.Frames(1);
  const auto j = core.Json();
  EXPECT_EQ(j["scene"], "field");
  EXPECT_EQ(j["chains"], 10000);
  EXPECT_EQ(j["field_joints"], 10);
  ASSERT_EQ(j["samples"].size(), 2u);
  EXPECT_EQ(j["samples"][0]["joints"].size(), 10u);
  EXPECT_EQ(j["joints"].size(), 10u);
  EXPECT_GT(j["solve_us"].get<double>(), 0.0);
}

TEST(FieldScene, SwitchingInAndOutKeepsTheChain) {
  Core core(testing::FixedStep());
  core.state().scene.configs.Get<FieldConfig>() = {300, 6};
  core.Run("scene field");
  EXPECT_EQ(core.state().scene.name(), "field");
  EXPECT_EQ(TheField(core).chain_count(), 300u);
  EXPECT_EQ(TheField(core).joint_count(), 6u);
  // A 18 x 17 grid centred on the origin.
  EXPECT_EQ(TheField(core).columns(), 18);
  EXPECT_EQ(TheField(core).rows(), 17);
  core.Run("scene chain");
  EXPECT_EQ(core.state().scene.name(), "chain");
  EXPECT_EQ(core.state().chain.joint_count(), 8u);
}

TEST(FieldScene, OutOfBoundsShapesAreRefusedAndTheSceneStays) {
  Core core(testing::FixedStep());
  for (FieldConfig bad : {FieldConfig{0, 10}, FieldConfig{100001, 10}, FieldConfig{100, 1},
                          FieldConfig{100000, 21}}) {
    core.state().scene.configs.Get<FieldConfig>() = bad;
    core.Run("scene field");
    EXPECT_EQ(core.state().scene.name(), "chain");
    EXPECT_EQ(core.LastKind(), ConsoleLine::Kind::kError);
    EXPECT_NE(core.LastLine().find("field:"), std::string::npos) << core.LastLine();
  }
  // And StartApp reports it as a bad option.
  auto started = StartApp(Field(0), FABRIK_SOURCE_DIR);
  ASSERT_FALSE(started);
  EXPECT_NE(started.error().find("chains must be from 1 to 100000"), std::string::npos);
}

TEST(FieldTargetRule, ReachesTheTargetWhenCloseAndLeansTowardsItWhenFar) {
  const glm::vec3 root(2.0f, 0.0f, -1.0f);
  const float reach = 2.0f;
  // Close: the target itself.
  const glm::vec3 close = root + glm::vec3(0.5f, 1.0f, 0.2f);
  EXPECT_EQ(FieldTarget(root, reach, close), close);
  // Far: kFieldLean of the reach out, tilted towards the target (positive x), above the root.
  const glm::vec3 far = root + glm::vec3(20.0f, 1.0f, 0.0f);
  const glm::vec3 t = FieldTarget(root, reach, far);
  EXPECT_NEAR(glm::length(t - root), kFieldLean * reach, 1e-5f);
  EXPECT_GT(t.x, root.x);
  EXPECT_GT(t.y, root.y);
  // Nearer chains lean further over.
  const glm::vec3 mid = FieldTarget(root, reach, root + glm::vec3(4.0f, 1.0f, 0.0f));
  EXPECT_GT(mid.x, t.x);
  // Continuous where the two rules meet.
  const glm::vec3 edge = root + glm::normalize(glm::vec3(1.0f, 0.5f, 0.3f)) * (kFieldLean * reach);
  const glm::vec3 just_out = edge + (edge - root) * 1e-4f;
  EXPECT_LT(glm::length(FieldTarget(root, reach, just_out) - edge), 1e-3f);
  // Straight below with the weight at one half: upright, never NaN.
  const glm::vec3 below = root - glm::vec3(0.0f, 4.0f * kFieldLean * reach, 0.0f);
  const glm::vec3 b = FieldTarget(root, reach, below);
  EXPECT_TRUE(std::isfinite(b.x) && std::isfinite(b.y) && std::isfinite(b.z));
  EXPECT_LE(glm::length(b - root), reach);
}

TEST(FieldScene, ChainsTrackATypedTargetAndReportTheReachedShare) {
  Core core(Field(900));
  core.Run("target 1.2 1.0 -0.8");
  core.Frames(90);  // the glide ends, the field settles
  const FieldScene& field = TheField(core);
  const auto j = core.Json();
  EXPECT_EQ(j["chains"], 900);
  EXPECT_GE(j["reached_share"].get<double>(), 0.99);
  EXPECT_EQ(field.last().reachable_count, 900u);  // every own target is within reach
  // The lead chain (rooted under the target) touches it.
  EXPECT_TRUE(j["reached"].get<bool>());
  EXPECT_LE(j["distance"].get<double>(), core.state().settings.tolerance);
  const glm::vec3 target(1.2f, 1.0f, -0.8f);
  const std::size_t lead = field.lead();
  EXPECT_LT(glm::length(field.roots()[lead] - glm::vec3(1.2f, 0.0f, -0.8f)), kFieldSpacing);
  // Every chain whose lean radius covers the target has its tip on it.
  std::size_t touching = 0;
  const std::size_t jc = field.joint_count();
  for (std::size_t c = 0; c < field.chain_count(); ++c) {
    const float d = glm::length(target - field.roots()[c]);
    if (d < kFieldLean * field.batch().total_length(c) * 0.95f) {
      ++touching;
      EXPECT_LE(glm::length(field.poses()[c * jc + jc - 1] - target),
                core.state().settings.tolerance);
    }
  }
  EXPECT_GE(touching, 5u);
  // Move the target: the chains follow.
  const glm::vec3 before = field.poses()[lead * jc + jc - 1];
  core.Run("target -3 1 3");
  core.Frames(90);
  EXPECT_GT(glm::length(field.poses()[lead * jc + jc - 1] - before), 0.5f);
  EXPECT_GE(core.Json()["reached_share"].get<double>(), 0.99);
}

TEST(FieldScene, SamplesAreTheBatchsJointsOfTwoFixedChains) {
  Core core(Field(400, 7));
  core.Run("spline load assets/splines/trefoil.txt");
  core.Frames(30);
  const FieldScene& field = TheField(core);
  const auto samples = core.Json()["samples"];
  ASSERT_EQ(samples.size(), 2u);
  EXPECT_EQ(samples[0]["chain"], 0);
  EXPECT_EQ(samples[1]["chain"], field.NearestChain(0.0f, 0.0f));
  for (int k = 0; k < 2; ++k) {
    const std::size_t c = samples[k]["chain"];
    ASSERT_EQ(samples[k]["joints"].size(), 7u);
    for (std::size_t i = 0; i < 7; ++i) {
      const glm::vec3 p = field.batch().joint(c, i);
      for (int a = 0; a < 3; ++a) {
        EXPECT_NEAR(samples[k]["joints"][i][a].get<double>(), p[a], 1e-5);
      }
    }
    // A root stays on its grid point on the ground.
    EXPECT_EQ(samples[k]["joints"][0][1], 0.0);
  }
}

TEST(FieldScene, TheChainsCommandReshapesTheField) {
  Core core(testing::FixedStep());
  core.Run("chains 200");
  EXPECT_EQ(core.state().scene.name(), "chain");  // only remembered outside the field
  core.Run("scene field");
  EXPECT_EQ(TheField(core).chain_count(), 200u);
  EXPECT_EQ(TheField(core).joint_count(), 10u);
  core.Run("chains 300 6");  // in the field: rebuilt at once
  EXPECT_EQ(TheField(core).chain_count(), 300u);
  EXPECT_EQ(TheField(core).joint_count(), 6u);
  EXPECT_EQ(core.LastLine(), "field: 300 chains x 6 joints");
  for (const char* bad : {"chains", "chains 0", "chains 100001", "chains 12x", "chains 10 1",
                          "chains 100000 50", "chains 1 2 3"}) {
    core.Run(bad);
    EXPECT_EQ(core.LastKind(), ConsoleLine::Kind::kError) << bad;
    EXPECT_EQ(core.LastLine().rfind("chains", 0), 0u) << core.LastLine();
    EXPECT_EQ(TheField(core).chain_count(), 300u) << bad;
  }
  core.Frames(1);
  EXPECT_EQ(core.state().scene.configs.Get<FieldConfig>().chains, 300);
  EXPECT_EQ(core.state().scene.configs.Get<FieldConfig>().joints, 6);
}

TEST(FieldScene, CameraResetFramesTheField) {
  Core core(Field(2500));
  core.Send(app::CameraOrbit{{300.0f, 0.0f}});
  core.Run("camera reset");
  const OrbitCamera home(TheField(core).CameraHome(core.state()));
  EXPECT_FLOAT_EQ(core.state().view.camera.distance(), home.distance());
  EXPECT_GT(home.distance(), 50 * kFieldSpacing);
}

}  // namespace
}  // namespace fabrik
