// Iteration counts claimed by T. Gartside's report "CSC 473 - Implementing Inverse Kinematics
// using FABRIK" (section 4.2.2) for a target moving smoothly and a
// warm-started chain:
//   * equal segments, 5, 10, 15 and 20 joints, tolerance 0.01: reached in <= 3 iterations,
//     most often in 1;
//   * 20 joints, tolerance 0.001: reached in <= 4 iterations;
//   * segments 1, 2, 3, 1: many more iterations (up to 18 were seen) - here every solve must
//     reach its target; the counts are measured by bench/bench_convergence.cpp.
//
// The set-up, chosen here because the report does not give it:
//   * segments of 1 world unit; the chain starts straight up (+Y) and is solved once onto
//     the start of the curve (that cold solve is not counted);
//   * the target follows one loop of a smooth closed 3D curve: around the vertical axis,
//     with its distance from the root swinging between 40% and 80% of the chain's reach
//     (r = 0.6 + 0.2 sin 3t) and its elevation between about -29 and +29 degrees
//     (phi = 0.5 sin 2t). It stays well inside the reach: targets near the rim are known to
//     need more iterations, and the report's claim is about ordinary motion;
//   * the target advances by one tolerance of arc length per solve (0.01 or 0.001 world units).
//     The report's demo ran at 2,500-8,750 frames per second following a spline, so its
//     target moved very little between solves; tying the step to the tolerance makes "close
//     to the last solution" mean the same thing for both tolerances. The counts depend
//     strongly on the step: StepSensitivity checks them for other steps (at 0.01 per solve,
//     20 joints at tolerance 0.001 need up to ~10 iterations; at 0.001 per solve, tolerance
//     0.01 is mostly met with 0 iterations).
//   * counting: our solver checks the tolerance before iterating and reports 0 iterations
//     when the effector is still within it (the report's loop always ran one iteration first).
//     With the step above that is rare, and the most common count is 1 as reported.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "chain_scenarios.h"

namespace fabrik {
namespace {

using testing::IterationStats;
using testing::TrackReportCurve;

TEST(FabrikReportClaims, EqualSegmentsToleranceOneHundredth) {
  for (int joints : {5, 10, 15, 20}) {
    const IterationStats s = TrackReportCurve(std::vector<float>(joints - 1, 1.0f), 0.01f, 0.01);
    const std::string label = std::to_string(joints) + " joints, tolerance 0.01";
    ASSERT_GT(s.solves, 1000) << label;
    EXPECT_EQ(s.missed, 0) << label;
    EXPECT_LE(s.max, 3) << label;
    EXPECT_EQ(s.Mode(), 1) << label;
  }
}

TEST(FabrikReportClaims, TwentyJointsToleranceOneThousandth) {
  const IterationStats s = TrackReportCurve(std::vector<float>(19, 1.0f), 0.001f, 0.001);
  ASSERT_GT(s.solves, 1000);
  EXPECT_EQ(s.missed, 0);
  EXPECT_LE(s.max, 4);
  // The report saw 2 most often; bench/bench_convergence.cpp measures the mode.
}

// The same claim held by the accelerated FABRIK (fabrik_accelerated.h), on the path above and
// with larger steps, where the textbook passes need many more.
TEST(FabrikReportClaims, TwentyJointsToleranceOneThousandthAccelerated) {
  const IterationStats s = TrackReportCurve(std::vector<float>(19, 1.0f), 0.001f, 0.001, true);
  ASSERT_GT(s.solves, 1000);
  EXPECT_EQ(s.missed, 0);
  EXPECT_LE(s.max, 4);
  for (double step : {0.01, 0.03}) {
    const IterationStats t = TrackReportCurve(std::vector<float>(19, 1.0f), 0.001f, step, true);
    const std::string label = "accelerated, 20 j, step " + std::to_string(step).substr(0, 4);
    EXPECT_EQ(t.missed, 0) << label;
    EXPECT_LE(t.max, 4) << label;
  }
}

// The report gives up to 18 iterations for segments 1, 2, 3, 1: tracking the curve at any of
// these steps, every solve still reaches its target within the cap of 100.
TEST(FabrikReportClaims, UnequalSegmentsReachEveryTarget) {
  const std::vector<float> lengths = {1.0f, 2.0f, 3.0f, 1.0f};
  for (double step : {0.001, 0.01, 0.1, 0.5}) {
    const IterationStats s = TrackReportCurve(lengths, 0.01f, step);
    const std::string label = "1,2,3,1 step " + std::to_string(step).substr(0, 5);
    ASSERT_GT(s.solves, 0) << label;
    EXPECT_EQ(s.missed, 0) << label;
  }
}

// How the counts grow with the step per solve: every solve still reaches its target, and a
// target that moves further between solves costs more iterations on average (the claims
// above hold for a step of one tolerance; bench/bench_convergence.cpp measures the others).
TEST(FabrikReportClaims, StepSensitivity) {
  struct Run {
    std::vector<float> lengths;
    float tolerance;
  };
  const Run runs[] = {{std::vector<float>(4, 1.0f), 0.01f},
                      {std::vector<float>(19, 1.0f), 0.01f},
                      {std::vector<float>(19, 1.0f), 0.001f}};
  for (const Run& run : runs) {
    double smallest_step_mean = 0.0;
    for (double step : {0.001, 0.003, 0.01, 0.03}) {
      const IterationStats s = TrackReportCurve(run.lengths, run.tolerance, step);
      const std::string label = std::to_string(run.lengths.size() + 1) + " j, tol " +
                                std::to_string(run.tolerance).substr(0, 5) + ", step " +
                                std::to_string(step).substr(0, 5);
      EXPECT_EQ(s.missed, 0) << label;
      if (step == 0.001) smallest_step_mean = s.mean;
      if (step == 0.03) {
        EXPECT_GT(s.mean, smallest_step_mean) << label;
      }
    }
  }
}

}  // namespace
}  // namespace fabrik
