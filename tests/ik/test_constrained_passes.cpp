// The pieces constrained chains (constrained_fabrik.cpp) and trees (tree.cpp) share
// (constrained_passes.h): the per-segment limit steps and the stall-then-retry.
#include <gtest/gtest.h>

#include <vector>

#include "fabrik_test_util.h"
#include "ik/constrained_passes.h"
#include "ik/constraints.h"

namespace fabrik {
namespace {

using testing::BitwiseEqual;

// A fake solve for IterateWithRestart: iterate(first) writes `pose_after` into the pose, runs
// `runs` iterations and reports whether it stalled; miss() reads the pose's first x.
struct FakeSolve {
  std::vector<glm::vec3> pose{glm::vec3(5.0f), glm::vec3(6.0f)};
  std::vector<glm::vec3> kept = std::vector<glm::vec3>(2);
  int iterations = 0;
  int calls = 0;
  int restarts = 0;

  PassAttempt Run(float first_x, bool first_stalls, float second_x) {
    return IterateWithRestart(
        pose, kept, true, iterations, 10,
        [&](int first) {
          EXPECT_EQ(first, iterations + 1) << "iterations continue where the first run stopped";
          ++calls;
          pose[0].x = calls == 1 ? first_x : second_x;
          iterations = first + 2;
          PassAttempt a;
          a.stalled = calls == 1 ? first_stalls : false;
          a.active = calls;
          return a;
        },
        [&] { return double(pose[0].x); }, [&] { ++restarts; });
  }
};

TEST(ConstrainedPasses, RetryKeepsTheCloserPose) {
  FakeSolve closer;
  EXPECT_EQ(closer.Run(3.0f, true, 1.0f).active, 2) << "the second run is kept";
  EXPECT_EQ(closer.restarts, 1);
  EXPECT_EQ(closer.pose[0].x, 1.0f);
  EXPECT_EQ(closer.iterations, 6);

  FakeSolve farther;
  EXPECT_EQ(farther.Run(3.0f, true, 4.0f).active, 1) << "the first run is kept";
  EXPECT_EQ(farther.pose[0].x, 3.0f) << "and its pose restored";
  EXPECT_TRUE(BitwiseEqual(farther.pose[1], glm::vec3(6.0f)));
}

TEST(ConstrainedPasses, NoRetryUnlessStalledAllowedAndIterationsLeft) {
  FakeSolve not_stalled;
  not_stalled.Run(3.0f, false, 1.0f);
  EXPECT_EQ(not_stalled.calls, 1);
  EXPECT_EQ(not_stalled.restarts, 0);

  FakeSolve forbidden;
  const PassAttempt a = IterateWithRestart(
      forbidden.pose, forbidden.kept, false, forbidden.iterations, 10,
      [&](int) {
        ++forbidden.calls;
        PassAttempt stalled;
        stalled.stalled = true;
        return stalled;
      },
      [] { return 0.0; }, [&] { ++forbidden.restarts; });
  EXPECT_TRUE(a.stalled);
  EXPECT_EQ(forbidden.calls, 1);

  FakeSolve at_cap;
  at_cap.iterations = 10;  // the first run used every iteration
  IterateWithRestart(
      at_cap.pose, at_cap.kept, true, at_cap.iterations, 10,
      [&](int) {
        ++at_cap.calls;
        PassAttempt stalled;
        stalled.stalled = true;
        return stalled;
      },
      [] { return 0.0; }, [&] { ++at_cap.restarts; });
  EXPECT_EQ(at_cap.calls, 1);
  EXPECT_EQ(at_cap.restarts, 0);
}

TEST(ConstrainedPasses, NoProgressBelowAThousandthOrNoise) {
  EXPECT_TRUE(NoProgress(0.0009f, 1.0f, 1e-7f));
  EXPECT_FALSE(NoProgress(0.0011f, 1.0f, 1e-7f));
  EXPECT_TRUE(NoProgress(1e-8f, 0.0f, 1e-7f)) << "float noise counts as no move";
  EXPECT_FALSE(NoProgress(2e-7f, 0.0f, 1e-7f));
}

// The segment steps: ForwardLimit counts only directions it had to move, MirroredLimit leaves
// a fixed (root or world) limit to the child's own step, RestDirection is inside the limit.
TEST(ConstrainedPasses, SegmentStepsKeepLimits) {
  const Frame base = MakeFrame(BaseFrame{});
  const JointConstraint cone = JointConstraint::Cone(0.3f);
  int active = 0;
  const glm::vec3 inside = ForwardLimit(cone, base, base.forward, active);
  EXPECT_TRUE(BitwiseEqual(inside, base.forward));
  EXPECT_EQ(active, 0);
  const glm::vec3 wide = glm::normalize(base.forward + base.up);
  const glm::vec3 limited = ForwardLimit(cone, base, wide, active);
  EXPECT_EQ(active, 1);
  EXPECT_LE(ViolationAngle(cone, base, limited), 1e-5f);
  EXPECT_LE(ViolationAngle(cone, base, RestDirection(cone, base)), 1e-5f);

  // From the root (start 0) a child's limit is fixed: left alone by the backward step.
  EXPECT_TRUE(BitwiseEqual(MirroredLimit(cone, 0, base, wide), wide));
  EXPECT_FALSE(BitwiseEqual(MirroredLimit(cone, 1, base, wide), wide));
  EXPECT_TRUE(BitwiseEqual(FixedLimit(cone, 1, base, wide), wide)) << "relative: not fixed";
  EXPECT_LE(ViolationAngle(cone, base, FixedLimit(cone, 0, base, wide)), 1e-5f);
}

}  // namespace
}  // namespace fabrik
