// The app core promises no heap allocation per frame in steady state (drag, spline and
// script modes): a frame's commands, script, target and solve reuse their storage. The
// executable counts operator new calls (tests/support/alloc_counter.h); these tests warm a
// headless core up, then count over hundreds of frames in an AllocationWindow. The state
// line (--state-out, JSON text) is output built on request and is not part of the frame.

#include "core_test_util.h"
#include "support/alloc_counter.h"

namespace fabrik {
namespace {

long CountFrames(testing::Core& core, int frames, void (*each)(testing::Core&, int)) {
  testing::AllocationWindow window;
  for (int i = 0; i < frames; ++i) {
    if (each != nullptr) each(core, i);
    core.Frames(1);
  }
  return window.Close();
}

// The cursor sweeping across the scene: one drag move per frame.
void Sweep(testing::Core& core, int i) {
  const float x = -2.0f + 4.0f * static_cast<float>(i % 100) / 100.0f;
  core.Send(app::DragMove{Ray{{x, 2.0f, 10.0f}, {0.0f, 0.0f, -1.0f}}});
}

TEST(AppNoAlloc, DragModeFramesAllocateNothing) {
  testing::Core core;
  core.Send(app::DragStart{{Grab::Kind::kTarget, -1}, core.state().target(), {0, 0, -1}});
  for (int i = 0; i < 120; ++i) {
    Sweep(core, i);
    core.Frames(1);
  }
  ASSERT_TRUE(core.state().drag.dragging);
  EXPECT_EQ(CountFrames(core, 300, Sweep), 0);
}

TEST(AppNoAlloc, SplineModeFramesAllocateNothing) {
  testing::Core core;
  core.Run("spline load assets/splines/trefoil.txt");
  core.Frames(120);
  EXPECT_EQ(CountFrames(core, 300, nullptr), 0);
  EXPECT_EQ(core.state().mode, TargetMode::kSpline);
}

TEST(AppNoAlloc, OrientedSplineFramesWithRotationsAllocateNothing) {
  // The oriented solve, the rotations of every bone and the skin and axes switches
  // (docs/rotations.md: In the app), in the chain, the arm and the creature.
  for (const char* scene : {"chain", "arm", "creature"}) {
    testing::Core core;
    core.Run(std::string("scene ") + scene);
    core.Run("spline load assets/splines/trefoil.txt");
    core.Run("orient 30 100 0");
    core.Run("skin on");
    core.Run("axes on");
    core.Frames(120);
    EXPECT_EQ(CountFrames(core, 300, nullptr), 0) << scene;
    EXPECT_TRUE(core.Json()["rotations"].is_array()) << scene;
  }
}

TEST(AppNoAlloc, ScriptModeFramesBetweenLinesAllocateNothing) {
  // Glides a second long and three seconds apart: the frames counted are between lines.
  const std::string path = testing::WriteTempFile(
      "glides.txt", "at 0 target 1 2 0 over 1\nat 10 target -1 2 1 over 1\n");
  testing::Core core;
  core.Run("script run " + path);
  core.Frames(30);
  EXPECT_EQ(CountFrames(core, 300, nullptr), 0);  // frames 31 to 330: gliding, then holding
  EXPECT_TRUE(core.state().script.running);
}

TEST(AppNoAlloc, FieldFramesAllocateNothing) {
  // The field scene owns its batch, targets and pose buffer: a frame that moves the target
  // and solves 1,000 chains reuses them all.
  StartOptions options = testing::FixedStep();
  options.scene_options.SetNumber("--chains", 1000);
  testing::Core core(options);
  core.Run("scene field");
  core.Run("spline load assets/splines/trefoil.txt");
  core.Frames(60);
  EXPECT_EQ(CountFrames(core, 200, nullptr), 0);
  EXPECT_EQ(core.state().scene.name(), "field");
}

TEST(AppNoAlloc, TheCounterSeesAllocations) {
  // The test can fail: a frame that rebuilds the chain allocates, and is counted.
  testing::Core core;
  core.Frames(10);
  EXPECT_GT(CountFrames(core, 1, [](testing::Core& c, int) { c.Type("joints 12"); }), 0);
}

}  // namespace
}  // namespace fabrik
