// The target sources and the mixer, the target's one writer.
#include <limits>

#include "targets/target_sources.h"
#include "core_test_util.h"

namespace fabrik {
namespace {

TEST(TargetMixer, JumpPlacesAtOnceAndIgnoresNonFinite) {
  TargetMixer m;
  m.Jump({1, 2, 3});
  EXPECT_EQ(m.position(), glm::vec3(1, 2, 3));
  m.Jump({std::numeric_limits<float>::quiet_NaN(), 0, 0});
  EXPECT_EQ(m.position(), glm::vec3(1, 2, 3));
  m.Update(glm::vec3(std::numeric_limits<float>::infinity()), 0.1f, false);
  EXPECT_EQ(m.position(), glm::vec3(1, 2, 3));
}

TEST(TargetMixer, GlideEasesInAndOutOverItsDuration) {
  TargetMixer m;
  m.Jump({0, 0, 0});
  m.BeginGlide();
  const float dt = TargetMixer::kGlideSeconds / 10.0f;
  float last_step = 0.0f, largest = 0.0f;
  glm::vec3 last = m.position();
  for (int i = 0; i < 10; ++i) {
    m.Update(glm::vec3(10, 0, 0), dt, false);
    const float step = glm::length(m.position() - last);
    if (i == 0) {
      EXPECT_LT(step, 0.5f);  // starts slowly
    }
    largest = std::max(largest, step);
    last_step = step;
    last = m.position();
  }
  EXPECT_LT(last_step, 0.5f);  // ends slowly
  EXPECT_LT(largest, 2.0f);    // smoothstep's peak speed is 1.5x the mean
  EXPECT_EQ(m.position(), glm::vec3(10, 0, 0));
  EXPECT_FALSE(m.gliding());
}

TEST(TargetMixer, SettleEndsAGlideAtItsDestinationAndNoGlideTakesWishesAtOnce) {
  TargetMixer m;
  m.Jump({0, 0, 0});
  m.BeginGlide();
  m.Update(glm::vec3(4, 0, 0), 0.01f, false);
  EXPECT_TRUE(m.gliding());
  m.Settle();
  EXPECT_EQ(m.position(), glm::vec3(4, 0, 0));
  m.BeginGlide();
  m.Update(glm::vec3(0, 4, 0), 0.01f, true);
  EXPECT_EQ(m.position(), glm::vec3(0, 4, 0));
}

TEST(TargetSources, ConsoleAndDragForgetOldWishesOnActivation) {
  ConsoleTarget console;
  console.typed = glm::vec3(1, 1, 1);
  EXPECT_EQ(console.Wanted(0.1f), glm::vec3(1, 1, 1));
  console.Activate();
  EXPECT_FALSE(console.Wanted(0.1f));
  DragTarget drag;
  drag.hit = glm::vec3(2, 2, 2);
  drag.Activate();
  EXPECT_FALSE(drag.Wanted(0.1f));
}

TEST(TargetSources, SplineAdvancesByDtAndScriptReportsItsTarget) {
  testing::Core core;
  core.Run("spline load assets/splines/loop.txt");
  SplineTarget& spline = core.state().spline;
  const double d = spline.follower.distance();
  spline.Wanted(0.5f);
  EXPECT_NEAR(spline.follower.distance() - d, 0.5 * spline.follower.speed(), 1e-4);
  ScriptTarget script;
  EXPECT_FALSE(script.Wanted(0.1f));
  script.target = glm::vec3(0, 3, 0);
  EXPECT_EQ(script.Wanted(0.1f), glm::vec3(0, 3, 0));
}

TEST(TargetSources, ASceneStartHoldsTheTargetInConsoleMode) {
  testing::Core core;
  core.Run("target 1 1 1");
  core.Frames(60);
  core.Run("scene arm");
  const glm::vec3 start = core.state().target();
  core.Frames(30);
  EXPECT_EQ(core.state().target(), start);
  EXPECT_EQ(core.state().mode, TargetMode::kConsole);
}

}  // namespace
}  // namespace fabrik
