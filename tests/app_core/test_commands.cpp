// Every command of the console language, applied through the queue on a headless core.
#include <algorithm>

#include "core/command_table.h"
#include "core/execute.h"
#include "core_test_util.h"
#include "ik/solver.h"

namespace fabrik {
namespace {

using testing::Core;

TEST(AppCommands, TargetSwitchesToConsoleModeAndGlidesThere) {
  Core core;
  const glm::vec3 before = core.state().target();
  core.Run("target 1 2 0.5");
  EXPECT_EQ(core.state().mode, TargetMode::kConsole);
  EXPECT_EQ(core.LastLine(), "target 1 2 0.5");
  // One frame in, the glide has started but not arrived: no jump.
  EXPECT_GT(glm::length(core.state().target() - before), 0.0f);
  EXPECT_GT(glm::length(core.state().target() - glm::vec3(1, 2, 0.5f)), 0.1f);
  core.Frames(60);
  EXPECT_EQ(core.state().target(), glm::vec3(1, 2, 0.5f));
}

TEST(AppCommands, ModeSwitchesTheSource) {
  Core core;
  core.Run("mode console");
  EXPECT_EQ(core.state().mode, TargetMode::kConsole);
  EXPECT_EQ(core.LastLine(), "mode console");
  core.Run("mode drag");
  EXPECT_EQ(core.state().mode, TargetMode::kDrag);
}

TEST(AppCommands, JointsRebuildsTheChainAtTheApplyStep) {
  Core core;
  core.Type("joints 5");
  EXPECT_EQ(core.state().chain.joint_count(), 8u);  // queued, not applied yet
  core.Frames(1);
  EXPECT_EQ(core.state().chain.joint_count(), 5u);
  EXPECT_EQ(core.state().lengths.size(), 4u);
  EXPECT_EQ(core.LastLine(), "joints 5");
}

TEST(AppCommands, LengthSetsEverySegment) {
  Core core;
  core.Run("length 0.5");
  ASSERT_EQ(core.state().lengths.size(), 7u);
  for (float l : core.state().chain.lengths()) EXPECT_FLOAT_EQ(l, 0.5f);
  EXPECT_FLOAT_EQ(core.state().uniform_length, 0.5f);
}

TEST(AppCommands, LengthsSetsPerSegmentLengths) {
  Core core;
  core.Run("lengths 1 2 3");
  EXPECT_EQ(core.state().chain.joint_count(), 4u);
  EXPECT_FLOAT_EQ(core.state().chain.total_length(), 6.0f);
  EXPECT_EQ(core.LastLine(), "lengths set: 4 joints");
}

TEST(AppCommands, MoeAndIterationsSetTheSolveSettings) {
  Core core;
  core.Run("moe 0.25");
  core.Run("iterations 77");
  EXPECT_FLOAT_EQ(core.state().settings.tolerance, 0.25f);
  EXPECT_EQ(core.state().settings.max_iterations, 77);
  EXPECT_EQ(core.LastLine(), "iteration cap 77");
}

TEST(AppCommands, SplineLoadSwitchesToSplineModeAndTheTargetFollows) {
  Core core;
  core.Run("spline load assets/splines/loop.txt");
  ASSERT_TRUE(core.state().spline.follower.has_spline());
  EXPECT_EQ(core.state().mode, TargetMode::kSpline);
  EXPECT_EQ(core.state().spline.path, "assets/splines/loop.txt");
  const double d0 = core.state().spline.follower.distance();
  core.Frames(30);
  EXPECT_GT(core.state().spline.follower.distance(), d0);
  core.Frames(60);  // the glide is over: the target is on the curve
  EXPECT_LT(glm::length(core.state().target() - core.state().spline.follower.position()), 1e-5f);
}

TEST(AppCommands, ALongSplineIsDrawnWithABoundedNumberOfPoints) {
  // 10,000 control points (the most a spline file may hold): drawn with every span's 24
  // points, the curve would be 240,000 points, 480,000 line vertices a frame.
  const std::string path = ::testing::TempDir() + "/long_spline.txt";
  {
    std::ofstream out(path);
    for (int i = 0; i < 10000; ++i) out << (i % 97) << ' ' << (i / 97) << " 0\n";
  }
  Core core;
  core.Run("spline load " + path);
  ASSERT_TRUE(core.state().spline.follower.has_spline()) << core.LastLine();
  EXPECT_LE(core.state().spline.polyline.size(), kMaxSplineDrawPoints + 1);
  EXPECT_GE(core.state().spline.polyline.size(), 10000u);  // still through every point
  // A short spline keeps its smooth 24 points a span.
  core.Run("spline load assets/splines/loop.txt");
  const int spans = core.state().spline.follower.spline().segment_count();
  EXPECT_EQ(core.state().spline.polyline.size(), static_cast<std::size_t>(spans) * 24 + 1);
}

TEST(AppCommands, SplinePlaybackSpeedAndEnd) {
  Core core;
  core.Run("spline load assets/splines/word.txt");
  core.Run("spline speed 3.5");
  EXPECT_FLOAT_EQ(core.state().spline.follower.speed(), 3.5f);
  core.Run("spline pause");
  EXPECT_FALSE(core.state().spline.follower.playing());
  const double held = core.state().spline.follower.distance();
  core.Frames(10);
  EXPECT_EQ(core.state().spline.follower.distance(), held);
  core.Run("spline play");
  EXPECT_TRUE(core.state().spline.follower.playing());
  core.Run("spline pingpong");
  EXPECT_EQ(core.state().spline.follower.end_behavior(), EndBehavior::kPingPong);
  core.Run("spline loop");
  EXPECT_EQ(core.state().spline.follower.end_behavior(), EndBehavior::kLoop);
  core.Run("spline restart");
  EXPECT_LT(core.state().spline.follower.distance(), held);
}

TEST(AppCommands, ScriptRunStartsTheScriptInScriptMode) {
  Core core;
  core.Run("script run assets/scripts/tour.txt");
  EXPECT_TRUE(core.state().script.running);
  EXPECT_EQ(core.state().mode, TargetMode::kScript);
  EXPECT_EQ(core.state().script.path, "assets/scripts/tour.txt");
}

TEST(AppCommands, ScriptPlaybackPausesStopsAndRestarts) {
  Core core;
  core.Run("script run assets/scripts/tour.txt");
  core.Frames(30);
  core.Run("script pause");
  const double t = core.state().script.player.time();
  core.Frames(20);
  EXPECT_EQ(core.state().script.player.time(), t);
  core.Run("script play");
  core.Frames(5);
  EXPECT_GT(core.state().script.player.time(), t);
  core.Run("script stop");
  EXPECT_FALSE(core.state().script.running);
  core.Run("script restart");
  EXPECT_TRUE(core.state().script.running);
  EXPECT_LT(core.state().script.player.time(), t);
}

TEST(AppCommands, CameraResetGoesBackHome) {
  Core core;
  const float yaw = core.state().view.camera.yaw();
  core.Send(app::CameraOrbit{{200.0f, 50.0f}});
  core.Frames(1);
  EXPECT_NE(core.state().view.camera.yaw(), yaw);
  core.Run("camera reset");
  EXPECT_FLOAT_EQ(core.state().view.camera.yaw(), yaw);
}

TEST(AppCommands, StatePrintsTheStateLine) {
  Core core;
  core.Frames(3);
  core.Run("state");
  const auto j = nlohmann::json::parse(core.LastLine());
  EXPECT_EQ(j["mode"], "drag");
  EXPECT_EQ(j["joints"].size(), 8u);
  EXPECT_EQ(j["scene"], "chain");
}

TEST(AppCommands, HelpListsEveryCommandAndExplainsOne) {
  Core core;
  const std::size_t before = core.state().console.log.size();
  core.Run("help");
  // The echo, the heading and one line per command of the registry.
  EXPECT_EQ(core.state().console.log.size() - before, CommandRegistry().size() + 2);
  core.Run("help joints");
  EXPECT_NE(core.state().console.log[core.state().console.log.size() - 2].text.find("joints N"),
            std::string::npos);
}

TEST(AppCommands, SolverChoosesTheSolver) {
  Core core;
  core.Run("solver ccd");
  EXPECT_EQ(core.state().solver, SolverKind::kCcd);
  EXPECT_EQ(core.LastLine(), "solver ccd");
}

TEST(AppCommands, ClearEmptiesTheConsole) {
  Core core;
  core.Run("help");
  core.Run("clear");
  EXPECT_TRUE(core.state().console.log.empty());
}

TEST(AppCommands, QuitAsksTheShellToClose) {
  Core core;
  EXPECT_FALSE(core.state().quit_requested);
  core.Run("quit");
  EXPECT_TRUE(core.state().quit_requested);
}

TEST(AppCommands, QuietCommandsFromKeysAndPanelPrintNothing) {
  Core core;
  const std::size_t before = core.state().console.log.size();
  core.Send(Command(cmd::Moe{0.5f}));
  core.Send(Command(cmd::Mode{TargetMode::kConsole}));
  core.Send(Command(cmd::Joints{4}));
  core.Frames(1);
  EXPECT_EQ(core.state().console.log.size(), before);
  EXPECT_FLOAT_EQ(core.state().settings.tolerance, 0.5f);
  EXPECT_EQ(core.state().mode, TargetMode::kConsole);
  EXPECT_EQ(core.state().chain.joint_count(), 4u);
}

TEST(AppCommands, QueuedCommandsApplyInOrderInOneFrame) {
  Core core;
  core.Type("joints 3");
  core.Type("length 0.5");
  core.Type("joints 5");
  core.Frames(1);
  // joints 5 grows the chain with the uniform length set just before.
  EXPECT_EQ(core.state().lengths, (std::vector<float>{0.5f, 0.5f, 0.5f, 0.5f}));
}

}  // namespace
}  // namespace fabrik

namespace fabrik {
namespace {

TEST(AppCommands, AccelerateSwitchesFabriksSteps) {
  testing::Core core;
  EXPECT_FALSE(core.state().settings.accelerate);  // off by default, as the library
  EXPECT_EQ(core.state().settings.accelerate, kAccelerateByDefault);
  EXPECT_EQ(core.Json()["accelerate"], false);
  core.Run("accelerate on");
  EXPECT_TRUE(core.state().settings.accelerate);
  EXPECT_EQ(core.LastLine(), "accelerate on: FABRIK with bend-scale steps");
  core.Run("accelerate off");
  EXPECT_FALSE(core.state().settings.accelerate);
  EXPECT_EQ(core.LastLine(), "accelerate off: textbook FABRIK");
  EXPECT_EQ(core.Json()["accelerate"], false);
  core.Send(Command(cmd::Extension{"accelerate", {"on"}}));  // the panel's checkbox
  core.Frames(1);
  EXPECT_TRUE(core.state().settings.accelerate);
}

}  // namespace
}  // namespace fabrik
