// Rotations, the orientation target, the skin and the joint axes in the app core
// (docs/rotations.md: In the app): the commands, their bad lines, the oriented
// solve and the state line's rotation fields.
#include <glm/gtc/quaternion.hpp>
#include <random>

#include "core/command_table.h"
#include "core_test_util.h"
#include "ik/orientation_target.h"

namespace fabrik {
namespace {

using testing::Core;

glm::quat Q(const nlohmann::json& a) {
  return glm::quat(a[0].get<float>(), a[1].get<float>(), a[2].get<float>(), a[3].get<float>());
}
glm::vec3 V(const nlohmann::json& a) {
  return glm::vec3(a[0].get<float>(), a[1].get<float>(), a[2].get<float>());
}

// Every rotation is unit and turns +Y onto its segment; `parents` maps bone k to its start
// joint (k for a chain, the parent of node k + 1 for a tree).
void ExpectRotationsMatchPose(const nlohmann::json& j, const std::vector<int>& starts) {
  ASSERT_TRUE(j["rotations"].is_array());
  const auto& joints = j["joints"];
  ASSERT_EQ(j["rotations"].size() + 1, joints.size());
  for (std::size_t k = 0; k < j["rotations"].size(); ++k) {
    const glm::quat q = Q(j["rotations"][k]);
    EXPECT_NEAR(glm::length(q), 1.0f, 1e-5f);
    const glm::vec3 seg = V(joints[k + 1]) - V(joints[static_cast<std::size_t>(starts[k])]);
    const glm::vec3 y = q * glm::vec3(0, 1, 0);
    EXPECT_NEAR(glm::distance(y, glm::normalize(seg)), 0.0f, 1e-4f) << "bone " << k;
  }
}

std::vector<int> ChainStarts(std::size_t bones) {
  std::vector<int> s(bones);
  for (std::size_t k = 0; k < bones; ++k) s[k] = static_cast<int>(k);
  return s;
}

void ExpectUnchangedBy(Core& core, const std::string& line, const std::string& error) {
  core.Frames(2);
  const std::string before = core.Fingerprint();
  core.Type(line);
  ApplyCommands(core.state(), core.queue());
  EXPECT_EQ(core.LastKind(), ConsoleLine::Kind::kError) << line;
  EXPECT_EQ(core.LastLine(), error) << line;
  EXPECT_EQ(core.Fingerprint(), before) << line;
}

TEST(Orient, SkinAndAxesTurnOnAndOffAndShowInTheStateLine) {
  Core core;
  core.Frames(1);
  EXPECT_EQ(core.Json()["skin"], false);
  EXPECT_EQ(core.Json()["axes"], false);
  core.Run("skin on");
  EXPECT_EQ(core.LastLine(), "skin on");
  EXPECT_EQ(core.Json()["skin"], true);
  core.Run("axes ON");
  EXPECT_EQ(core.Json()["axes"], true);
  core.Run("skin off");
  EXPECT_EQ(core.Json()["skin"], false);
  EXPECT_EQ(core.Json()["axes"], true);
}

TEST(Orient, BadLinesChangeNothing) {
  Core core;
  core.Run("orient 10 20 30");
  ExpectUnchangedBy(core, "skin maybe",
                    "skin: expected on or off, got 'maybe' (usage: skin on|off)");
  ExpectUnchangedBy(core, "axes", "axes: expected on or off, got 0 arguments (usage: axes on|off)");
  ExpectUnchangedBy(core, "orient 1 2",
                    "orient: expected off or three angles in degrees, got 2 arguments (usage: "
                    "orient off | orient YAW PITCH ROLL)");
  ExpectUnchangedBy(core, "orient 1 nan 3",
                    "orient PITCH: expected an angle in degrees from -3600 to 3600, got 'nan'");
  // One number grammar (docs/language.md: Numbers): no leading '+', here as in the options.
  ExpectUnchangedBy(core, "orient +5 0 0",
                    "orient YAW: expected an angle in degrees from -3600 to 3600, got '+5'");
  ExpectUnchangedBy(core, "target 1 2 3 4 5 1e9",
                    "target ROLL: expected an angle in degrees from -3600 to 3600, got '1e9' "
                    "(out of range)");
  ExpectUnchangedBy(core, "target 1 2 3 4",
                    "target: expected 3 or 6 arguments (usage: target X Y Z [YAW PITCH ROLL]), "
                    "got 4");
  EXPECT_EQ(V(core.Json()["target_euler_deg"]), glm::vec3(10, 20, 30));
}

TEST(Orient, TargetAnglesSetTheOrientationAndPlainTargetKeepsIt) {
  Core core;
  core.Frames(1);
  EXPECT_TRUE(core.Json()["target_rotation"].is_null());
  EXPECT_TRUE(core.Json()["orient_error_deg"].is_null());
  core.Run("target 2 3 1 30 -40 20");
  nlohmann::json j = core.Json();
  EXPECT_EQ(j["mode"], "console");
  const glm::quat want = EulerDegreesToQuat(30, -40, 20);
  EXPECT_NEAR(RotationAngle(Q(j["target_rotation"]), want), 0.0f, 1e-5f);
  core.Run("target 1 4 1");
  j = core.Json();
  EXPECT_NEAR(RotationAngle(Q(j["target_rotation"]), want), 0.0f, 1e-5f);
  core.Run("orient off");
  j = core.Json();
  EXPECT_TRUE(j["target_rotation"].is_null());
  EXPECT_TRUE(j["target_euler_deg"].is_null());
  EXPECT_TRUE(j["orient_error_deg"].is_null());
}

TEST(Orient, ScriptTargetLinesSetTheOrientationWhenTheyFire) {
  const std::string path = testing::WriteTempFile(
      "oriented.txt", "at 0 target 1 3 0 30 -40 20 over 0.5\nat 0.5 target 2 3 0\n");
  Core core;
  core.Run("script run " + path);
  core.Frames(2);
  nlohmann::json j = core.Json();
  const glm::quat want = EulerDegreesToQuat(30, -40, 20);
  ASSERT_FALSE(j["target_rotation"].is_null()) << j.dump();
  EXPECT_NEAR(RotationAngle(Q(j["target_rotation"]), want), 0.0f, 1e-5f);
  core.Frames(60);  // past the plain target line: the rotation stays
  j = core.Json();
  EXPECT_NEAR(RotationAngle(Q(j["target_rotation"]), want), 0.0f, 1e-5f);
  EXPECT_LT(glm::distance(V(j["target"]), glm::vec3(2, 3, 0)), 1e-5f);
}

// The chain (8 joints of 1) reaches random positions well inside its reach with random
// orientations: within 2 degrees once the glide to the typed target has settled.
TEST(Orient, TheChainReachesTheOrientationWithinTwoDegrees) {
  Core core;
  core.Run("iterations 200");
  std::mt19937 rng(12);
  std::uniform_real_distribution<float> coord(-3.0f, 3.0f), angle(-170.0f, 170.0f);
  std::uniform_real_distribution<float> pitch(-80.0f, 80.0f);
  for (int trial = 0; trial < 12; ++trial) {
    const glm::vec3 p(coord(rng), 2.0f + coord(rng) * 0.5f, coord(rng));
    const glm::vec3 a(angle(rng), pitch(rng), angle(rng));
    char line[160];
    std::snprintf(line, sizeof(line), "target %.3f %.3f %.3f %.2f %.2f %.2f", p.x, p.y, p.z, a.x,
                  a.y, a.z);
    core.Run(line);
    for (int f = 0; f < 240 && glm::distance(core.state().target(), p) > 1e-5f; ++f) {
      core.Frames(1);
    }
    core.Frames(2);
    const nlohmann::json j = core.Json();
    ASSERT_TRUE(j["reached"].get<bool>()) << line;
    ASSERT_TRUE(j["orient_error_deg"].is_number()) << line;
    EXPECT_LE(j["orient_error_deg"].get<float>(), 2.0f) << line;
    EXPECT_LE(RotationAngle(Q(j["effector_rotation"]), EulerDegreesToQuat(a.x, a.y, a.z)),
              glm::radians(2.0f))
        << line;
    ExpectRotationsMatchPose(j, ChainStarts(j["rotations"].size()));
  }
}

TEST(Orient, RotationsAreWrittenInEveryChainScene) {
  Core core;
  core.Frames(3);
  ExpectRotationsMatchPose(core.Json(), ChainStarts(7));
  core.Run("scene arm");
  core.Frames(3);
  nlohmann::json j = core.Json();
  ExpectRotationsMatchPose(j, ChainStarts(4));
  core.Run("scene creature");
  core.Frames(3);
  j = core.Json();
  std::vector<int> starts;
  for (std::size_t k = 1; k < j["parents"].size(); ++k) starts.push_back(j["parents"][k]);
  ExpectRotationsMatchPose(j, starts);
  EXPECT_TRUE(j["effector_rotation"].is_array());
  core.Run("scene walker");
  core.Frames(2);
  EXPECT_TRUE(core.Json()["rotations"].is_null());
}

// The arm's hinges pitch in the plane through the target: an orientation whose +Y lies in
// that plane and that the wrist's range allows is met; the hinges keep their limits.
TEST(Orient, TheArmMeetsAnOrientationInItsPlane) {
  Core core;
  core.Run("scene arm");
  // The arm's plane through x = z: pointing down and outwards along it.
  core.Run("target 2 1.5 2 45 120 0");
  for (int f = 0; f < 240 && glm::distance(core.state().target(), glm::vec3(2, 1.5f, 2)) > 1e-5f;
       ++f) {
    core.Frames(1);
  }
  core.Frames(5);
  const nlohmann::json j = core.Json();
  EXPECT_TRUE(j["reached"].get<bool>());
  EXPECT_LE(j["max_violation"].get<float>(), 1e-3f);
  ASSERT_TRUE(j["orient_error_deg"].is_number());
  EXPECT_LE(j["orient_error_deg"].get<float>(), 2.0f);
}

}  // namespace
}  // namespace fabrik

namespace fabrik {
namespace {

// Requests the arm can meet by construction: a random pose within (slightly inside) its hinge
// ranges, in a random heading, with the effector in front of the turntable; the request is
// that pose's effector position and last bone's rotation (yaw = heading, pitch = the last
// bone's angle from vertical, roll 0: X along the hinge axis). docs/rotations.md: Rotations,
// orientation target and skinning states the share met.
TEST(Orient, TheArmMeetsRequestsWithinItsRangesInItsPlane) {
  Core core;
  core.Run("scene arm");
  core.Run("iterations 200");
  std::mt19937 rng(7);
  std::uniform_real_distribution<float> shoulder(-1.1f, 1.1f), elbow(-2.4f, 2.4f),
      wrist(-1.5f, 1.5f), heading(-3.0f, 3.0f);
  const float lengths[] = {2.0f, 1.8f, 0.5f};
  int asked = 0, met = 0;
  while (asked < 100) {
    const float angles[] = {shoulder(rng), elbow(rng), wrist(rng)};
    float theta = 0.0f, u = 0.0f, v = 0.8f;  // in the arm's plane: u forward, v up
    for (int k = 0; k < 3; ++k) {
      theta += angles[k];
      u += std::sin(theta) * lengths[k];
      v += std::cos(theta) * lengths[k];
    }
    if (u < 0.5f) continue;  // behind or above the turntable: it would turn round
    const float yaw = heading(rng);
    const glm::vec3 p(u * std::sin(yaw), v, u * std::cos(yaw));
    char line[160];
    std::snprintf(line, sizeof(line), "target %.4f %.4f %.4f %.3f %.3f 0", p.x, p.y, p.z,
                  glm::degrees(yaw), glm::degrees(theta));
    core.Run(line);
    for (int f = 0; f < 240 && glm::distance(core.state().target(), p) > 1e-5f; ++f) {
      core.Frames(1);
    }
    core.Frames(3);
    const nlohmann::json j = core.Json();
    ++asked;
    EXPECT_LE(j["max_violation"].get<float>(), 1e-3f) << line;
    const bool ok = j["reached"].get<bool>() && j["orient_error_deg"].get<float>() <= 2.0f;
    met += ok;
    EXPECT_TRUE(ok) << line << ": off by " << j["orient_error_deg"] << " degrees";
  }
  EXPECT_EQ(met, asked);
}

}  // namespace
}  // namespace fabrik
