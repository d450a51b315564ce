// The frame as a whole: mode switches without jumps, scripts at their times, drags, start-up.
#include <algorithm>

#include "core_test_util.h"
#include "scenes/arm/arm_panel_commands.h"
#include "scenes/creature/creature_panel_commands.h"

namespace fabrik {
namespace {

using testing::Core;
using testing::FixedStep;

// The largest distance the target moves in one frame over `frames` frames.
float LargestTargetStep(Core& core, int frames) {
  float largest = 0.0f;
  glm::vec3 last = core.state().target();
  for (int i = 0; i < frames; ++i) {
    core.Frames(1);
    largest = std::max(largest, glm::length(core.state().target() - last));
    last = core.state().target();
  }
  return largest;
}

TEST(AppFrame, EveryModeSwitchBlendsWithoutAJump) {
  Core core;
  core.Run("spline load assets/splines/helix.txt");
  core.Run("script run assets/scripts/reach.txt");
  core.Run("target -3 1 2");
  core.Frames(60);
  const TargetMode modes[] = {TargetMode::kSpline,  TargetMode::kDrag,   TargetMode::kScript,
                              TargetMode::kConsole, TargetMode::kSpline, TargetMode::kScript};
  for (TargetMode mode : modes) {
    const glm::vec3 before = core.state().target();
    core.Send(Command(cmd::Mode{mode}));
    core.Frames(1);
    EXPECT_EQ(core.state().mode, mode);
    // The first frame after the switch is close to where the target was.
    EXPECT_LT(glm::length(core.state().target() - before), 0.3f) << ModeName(mode);
    EXPECT_LT(LargestTargetStep(core, 45), 0.5f) << ModeName(mode);
  }
}

TEST(AppFrame, ScriptLinesFireAtTheirTimes) {
  const std::string path = testing::WriteTempFile(
      "timed.txt", "at 0.5 joints 4\nat 1 moe 0.5\nat 1.5 target 1 1 1 over 0.5\n");
  Core core;
  core.Run("script run " + path);  // frame 1: script time 1/60
  core.Frames(27);                 // time 28/60 < 0.5
  EXPECT_EQ(core.state().chain.joint_count(), 8u);
  core.Frames(3);  // 31/60 > 0.5
  EXPECT_EQ(core.state().chain.joint_count(), 4u);
  EXPECT_NE(core.state().settings.tolerance, 0.5f);
  core.Frames(30);  // 61/60 > 1
  EXPECT_FLOAT_EQ(core.state().settings.tolerance, 0.5f);
  core.Frames(60);  // 2.0 s: the glide has ended
  EXPECT_LT(glm::length(core.state().target() - glm::vec3(1.0f)), 1e-5f);
  core.Frames(10);
  EXPECT_FALSE(core.state().script.running);
}

// A line that rebuilds or re-reads something large takes a whole frame of the script's budget
// (docs/limits.md: Bounds), so the line due with it waits for the next frame; other lines,
// other subcommands of the same command included, cost one unit and run together. The cost is
// the line's, whether or not it succeeds (here most fail: no such file, another scene).
TEST(AppFrame, LinesThatRebuildOrRereadTakeAWholeFrameOfTheScript) {
  struct Case {
    std::string line;
    bool whole_frame;
  };
  const Case cases[] = {{"chains 3 4", true},
                        {"terrain load no-such-terrain.png", true},
                        {"characters 2", true},
                        {"mocap load no-such-clip.bvh", true},
                        {"mocap scale 1", true},
                        {"screenshot", true},
                        {"scene chain", true},
                        {"mocap pause", false},
                        {"mocap speed 2", false},
                        {"moe 0.5", false},
                        {"echo cheap", false}};
  for (const Case& c : cases) {
    const std::string path =
        testing::WriteTempFile("cost.txt", "at 0 " + c.line + "\nat 0 echo second\n");
    Core core;
    core.Run("script run " + path);  // the script's first frame
    const nlohmann::json script = core.Json()["script"];
    // 1-based: the second line waits, or both ran (and the script has finished).
    if (c.whole_frame) {
      EXPECT_EQ(script["next_line"], 2) << c.line;
      EXPECT_EQ(script["due"], 1) << c.line;
      core.Frames(1);
      EXPECT_EQ(core.state().console.log.back().text, "second") << c.line;
    } else {
      EXPECT_EQ(script["due"], 0) << c.line;
      EXPECT_EQ(core.state().console.log.back().text, "second") << c.line;
    }
  }
}

TEST(AppFrame, ScriptCommandsApplyBeforeTheSolve) {
  // A script's "joints" line changes the chain at the apply step, so the same frame's solve
  // and state line see the new chain.
  const std::string path = testing::WriteTempFile("joints.txt", "at 0 joints 3\n");
  Core core;
  core.Run("script run " + path);
  EXPECT_EQ(core.state().chain.joint_count(), 3u);
  EXPECT_EQ(core.Json()["joints"].size(), 3u);
}

TEST(AppFrame, ScriptKeepsRunningInAnotherModeButDrivesOnlyInScriptMode) {
  const std::string path = testing::WriteTempFile("drive.txt", "at 0 target 2 2 0\n");
  Core core;
  core.Run("script run " + path);
  core.Frames(60);
  EXPECT_LT(glm::length(core.state().target() - glm::vec3(2, 2, 0)), 1e-5f);
  core.Run("target -2 1 0");
  core.Frames(60);
  EXPECT_LT(glm::length(core.state().target() - glm::vec3(-2, 1, 0)), 1e-5f);
}

TEST(AppFrame, DragPutsTheTargetOnTheCursorRay) {
  Core core;
  core.Frames(1);
  const glm::vec3 grabbed = core.state().target();
  core.Send(app::DragStart{{Grab::Kind::kTarget, -1}, grabbed, {0.0f, 0.0f, -1.0f}});
  core.Send(app::DragMove{Ray{{1.0f, 2.0f, 10.0f}, {0.0f, 0.0f, -1.0f}}});
  core.Frames(1);
  EXPECT_TRUE(core.state().drag.dragging);
  EXPECT_LT(glm::length(core.state().target() - glm::vec3(1.0f, 2.0f, grabbed.z)), 1e-4f);
  core.Send(app::DragEnd{});
  core.Frames(1);
  EXPECT_FALSE(core.state().drag.dragging);
  EXPECT_EQ(core.Json()["grab"], "none");
}

TEST(AppFrame, DragIsRefusedOutsideDragMode) {
  Core core;
  core.Run("mode console");
  core.Send(app::DragStart{{Grab::Kind::kTarget, -1}, core.state().target(), {0, 0, -1}});
  core.Frames(1);
  EXPECT_FALSE(core.state().drag.dragging);
}

TEST(AppFrame, NonFiniteInputIsRefused) {
  Core core;
  core.Frames(1);
  const std::string before = core.Fingerprint();
  const float nan = std::numeric_limits<float>::quiet_NaN();
  core.Send(app::DragStart{{Grab::Kind::kTarget, -1}, {nan, 0, 0}, {0, 0, -1}});
  core.Send(app::StepRate{nan});
  core.Send(app::ArmOptions{true, true, {nan, 1, 1}});
  core.Send(app::EffectorWeight{0, nan});
  core.Send(app::CreaturePrimary{99});
  core.Send(app::ArmConstraint{-1, JointConstraint{}});
  ApplyCommands(core.state(), core.queue());
  EXPECT_EQ(core.Fingerprint(), before);
}

TEST(AppFrame, FixedTimeStepAdvancesTimeExactly) {
  Core core;
  core.Frames(120);
  EXPECT_EQ(core.state().timing.frame, 120);
  EXPECT_NEAR(core.state().timing.time, 120.0 * testing::kDt, 1e-9);
  EXPECT_FLOAT_EQ(core.state().timing.dt, testing::kDt);
}

// A shell that records what it saw: its first input step enqueues a target, and its present
// steps must see that target applied and solved, in the frame not yet counted.
class RecordingShell : public FrameShell {
 public:
  void Input(const AppState& state, CommandQueue& queue) override {
    if (input_frames.empty()) {
      queue.Push(Command(cmd::Target{glm::vec3(1.0f, 2.0f, 0.5f), std::nullopt}));
    }
    input_frames.push_back(state.timing.frame);
  }
  void Present(const AppState& state, CommandQueue&) override {
    present_frames.push_back(state.timing.frame);
    seen_target = state.target();
    seen_distance = glm::length(state.chain.effector() - state.target());
  }
  std::vector<long> input_frames;
  std::vector<long> present_frames;
  glm::vec3 seen_target{0.0f};
  float seen_distance = -1.0f;
};

TEST(AppFrame, TheShellReadsBeforeTheApplyAndPresentsTheSolvedFrame) {
  Core core;
  core.Frames(1);  // the viewport
  RecordingShell shell;
  for (int i = 0; i < 60; ++i) SimulateFrame(core.state(), core.queue(), testing::kDt, &shell);
  ASSERT_EQ(shell.input_frames.size(), 60u);
  EXPECT_EQ(shell.input_frames, shell.present_frames);
  EXPECT_EQ(shell.input_frames.front(), 1);
  EXPECT_EQ(core.state().timing.frame, 61);
  EXPECT_EQ(core.state().mode, TargetMode::kConsole);
  EXPECT_LT(glm::length(shell.seen_target - glm::vec3(1.0f, 2.0f, 0.5f)), 1e-4f);
  EXPECT_LT(shell.seen_distance, 0.011f);  // Present saw this frame's solve
}

// The camera follows a new joint count or new lengths while the user has not moved it; once
// moved, it stays where the user put it.
TEST(AppFrame, ChangingTheChainReframesAnUntouchedCamera) {
  Core core;
  core.Frames(1);
  const OrbitCamera& camera = core.state().view.camera;
  const float start = camera.distance();
  core.Run("joints 30");
  const float long_chain = camera.distance();
  EXPECT_GT(long_chain, start * 2.0f);
  EXPECT_TRUE(camera.AtHome());
  core.Run("length 0.5");
  EXPECT_LT(camera.distance(), long_chain * 0.75f);
  EXPECT_TRUE(camera.AtHome());
  core.Send(app::CameraZoom{2.0f});
  core.Frames(1);
  const float placed = camera.distance();
  EXPECT_FALSE(camera.AtHome());
  core.Run("joints 5");
  EXPECT_EQ(camera.distance(), placed);
  core.Run("camera reset");  // the home is the new chain's
  EXPECT_LT(camera.distance(), placed);
  EXPECT_TRUE(camera.AtHome());
}

TEST(AppFrame, TheSolveReachesAReachableTarget) {
  Core core;
  core.Run("target 2 3 1");
  core.Frames(90);
  EXPECT_TRUE(core.state().last.reached);
  EXPECT_LT(glm::length(core.state().chain.effector() - glm::vec3(2, 3, 1)), 0.011f);
}

TEST(AppStartup, OptionsBuildTheStartingState) {
  StartOptions o = FixedStep();
  o.joints = 5;
  o.length = 0.5f;
  o.moe = 0.02f;
  o.max_iterations = 33;
  o.solver = "dls";
  o.mode = TargetMode::kSpline;
  o.spline_path = "assets/splines/loop.txt";
  Core core(o);
  EXPECT_EQ(core.state().chain.joint_count(), 5u);
  EXPECT_FLOAT_EQ(core.state().settings.tolerance, 0.02f);
  EXPECT_EQ(core.state().settings.max_iterations, 33);
  EXPECT_EQ(core.state().solver, SolverKind::kDls);
  // Spline mode starts on the curve: no glide from the default target.
  EXPECT_EQ(core.state().target(), core.state().spline.follower.position());
}

TEST(AppStartup, ExecLinesRunInOrderAndTheFirstErrorFails) {
  StartOptions o = FixedStep();
  o.exec = {"joints 4", "moe 0.3"};
  Core core(o);
  EXPECT_EQ(core.state().chain.joint_count(), 4u);
  EXPECT_FLOAT_EQ(core.state().settings.tolerance, 0.3f);
  o.exec = {"joints 4", "jionts 5"};
  auto failed = StartApp(o, FABRIK_SOURCE_DIR);
  ASSERT_FALSE(failed);
  EXPECT_EQ(failed.error(),
            "--exec 'jionts 5': unknown command 'jionts' (type 'help' for the list)");
}

TEST(AppStartup, BadSolverSceneAndFilesFailWithOneLine) {
  StartOptions o = FixedStep();
  o.solver = "nope";
  EXPECT_NE(StartApp(o, FABRIK_SOURCE_DIR).error().find("--solver"), std::string::npos);
  o = FixedStep();
  o.spline_path = "no/such.txt";
  EXPECT_NE(StartApp(o, FABRIK_SOURCE_DIR).error().find("no/such.txt"), std::string::npos);
  o = FixedStep();
  o.script_path = "no/such_script.txt";
  EXPECT_NE(StartApp(o, FABRIK_SOURCE_DIR).error().find("no/such_script.txt"), std::string::npos);
}

}  // namespace
}  // namespace fabrik
