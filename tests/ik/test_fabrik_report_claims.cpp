// Iteration counts claimed by T. Gartside's report "CSC 473 - Implementing Inverse Kinematics
// using FABRIK" (section 4.2.2) for a target moving smoothly and a
// warm-started chain:
//   * equal segments, 5, 10, 15 and 20 joints, tolerance 0.01: reached in <= 3 iterations,
//     most often in 1;
//   * 20 joints, tolerance 0.001: reached in <= 4 iterations;
//   * segments 1, 2, 3, 1: many more iterations (up to 18 were seen) - measured and printed
//     here, not asserted.
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
//     strongly on the step: StepSensitivity measures them for other steps (at 0.01 per solve,
//     20 joints at tolerance 0.001 need up to ~10 iterations; at 0.001 per solve, tolerance
//     0.01 is mostly met with 0 iterations).
//   * counting: our solver checks the tolerance before iterating and reports 0 iterations
//     when the effector is still within it (the report's loop always ran one iteration first).
//     With the step above that is rare, and the most common count is 1 as reported.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <glm/geometric.hpp>
#include <map>
#include <numbers>
#include <random>
#include <string>
#include <vector>

#include "fabrik_test_util.h"
#include "ik/fabrik.h"

namespace fabrik {
namespace {

// The curve described above, for a chain of total length `reach` rooted at the origin.
glm::dvec3 Curve(double t, double reach) {
  const double r = reach * (0.6 + 0.2 * std::sin(3.0 * t));
  const double phi = 0.5 * std::sin(2.0 * t);
  return r * glm::dvec3(std::cos(t) * std::cos(phi), std::sin(phi), std::sin(t) * std::cos(phi));
}

// Points one loop of the curve, `step` apart in arc length (to within the sampling, 1e-5 in
// the parameter).
std::vector<glm::vec3> CurveTargets(double reach, double step) {
  std::vector<glm::vec3> targets;
  const double dt = 1e-5;
  glm::dvec3 previous = Curve(0.0, reach);
  double travelled = 0.0;
  for (double t = dt; t <= 2.0 * std::numbers::pi; t += dt) {
    const glm::dvec3 p = Curve(t, reach);
    travelled += glm::length(p - previous);
    previous = p;
    if (travelled >= step) {
      targets.emplace_back(p);
      travelled = 0.0;
    }
  }
  return targets;
}

struct IterationStats {
  std::map<int, int> histogram;  // iterations -> solves
  int max = 0;
  double mean = 0.0;
  int solves = 0;
  int missed = 0;  // solves that ended outside the tolerance

  int Mode() const {
    return std::max_element(histogram.begin(), histogram.end(),
                            [](const auto& a, const auto& b) { return a.second < b.second; })
        ->first;
  }
  std::string Histogram() const {
    std::string s;
    for (const auto& [iterations, count] : histogram) {
      char item[32];
      std::snprintf(item, sizeof item, " %d:%d", iterations, count);
      s += item;
    }
    return s;
  }
};

IterationStats Track(const std::vector<float>& lengths, float tolerance, double step,
                     bool accelerate = false) {
  Result<Chain> made = Chain::Straight(glm::vec3(0.0f), glm::vec3(0, 1, 0), lengths);
  EXPECT_TRUE(made.ok());
  Chain chain = std::move(made).value();
  SolveSettings settings;
  settings.tolerance = tolerance;
  settings.max_iterations = 100;
  settings.accelerate = accelerate;
  (void)SolveFabrik(chain, glm::vec3(Curve(0.0, chain.total_length())), settings);  // cold

  IterationStats stats;
  double sum = 0.0;
  for (const glm::vec3& target : CurveTargets(chain.total_length(), step)) {
    const SolveResult r = SolveFabrik(chain, target, settings);
    ++stats.histogram[r.iterations];
    stats.max = std::max(stats.max, r.iterations);
    stats.missed += !r.reached;
    sum += r.iterations;
    ++stats.solves;
  }
  stats.mean = stats.solves ? sum / stats.solves : 0.0;
  return stats;
}

void Print(const char* label, const IterationStats& s) {
  std::printf("[ stats    ] %-30s %6d solves, max %2d, mean %.2f; iterations:solves%s\n", label,
              s.solves, s.max, s.mean, s.Histogram().c_str());
}

TEST(FabrikReportClaims, EqualSegmentsToleranceOneHundredth) {
  for (int joints : {5, 10, 15, 20}) {
    const IterationStats s = Track(std::vector<float>(joints - 1, 1.0f), 0.01f, 0.01);
    const std::string label = std::to_string(joints) + " joints, tolerance 0.01";
    Print(label.c_str(), s);
    ASSERT_GT(s.solves, 1000) << label;
    EXPECT_EQ(s.missed, 0) << label;
    EXPECT_LE(s.max, 3) << label;
    EXPECT_EQ(s.Mode(), 1) << label;
  }
}

TEST(FabrikReportClaims, TwentyJointsToleranceOneThousandth) {
  const IterationStats s = Track(std::vector<float>(19, 1.0f), 0.001f, 0.001);
  Print("20 joints, tolerance 0.001", s);
  ASSERT_GT(s.solves, 1000);
  EXPECT_EQ(s.missed, 0);
  EXPECT_LE(s.max, 4);
  // The report saw 2 most often; printed above, not asserted.
}

// The same claim held by the accelerated FABRIK (fabrik_accelerated.h), on the path above and
// on one that swings out to 97% of the reach, where the textbook passes need many more.
TEST(FabrikReportClaims, TwentyJointsToleranceOneThousandthAccelerated) {
  const IterationStats s = Track(std::vector<float>(19, 1.0f), 0.001f, 0.001, true);
  Print("accelerated, 20 j, tol 0.001", s);
  ASSERT_GT(s.solves, 1000);
  EXPECT_EQ(s.missed, 0);
  EXPECT_LE(s.max, 4);
  for (double step : {0.01, 0.03}) {
    const IterationStats t = Track(std::vector<float>(19, 1.0f), 0.001f, step, true);
    const std::string label = "accelerated, 20 j, step " + std::to_string(step).substr(0, 4);
    Print(label.c_str(), t);
    EXPECT_EQ(t.missed, 0) << label;
    EXPECT_LE(t.max, 4) << label;
  }
}

// Measured and printed only: the report gives up to 18 iterations for segments 1, 2, 3, 1.
TEST(FabrikReportClaims, UnequalSegmentsMeasured) {
  const std::vector<float> lengths = {1.0f, 2.0f, 3.0f, 1.0f};
  for (double step : {0.001, 0.01, 0.1, 0.5}) {
    const IterationStats s = Track(lengths, 0.01f, step);
    const std::string label = "1,2,3,1 step " + std::to_string(step).substr(0, 5);
    Print(label.c_str(), s);
    EXPECT_EQ(s.missed, 0) << label;
  }
  // Cold jumps: random targets anywhere inside the reach, each solved from the last pose.
  Chain chain = std::move(Chain::Straight(glm::vec3(0.0f), glm::vec3(0, 1, 0), lengths)).value();
  std::mt19937 rng(1231);
  std::uniform_real_distribution<float> u(0.0f, 1.0f);
  IterationStats s;
  double sum = 0.0;
  SolveSettings settings;
  settings.tolerance = 0.01f;
  settings.max_iterations = 1000;
  for (int i = 0; i < 10000; ++i) {
    const glm::vec3 target =
        testing::RandomUnit(rng) * chain.total_length() * std::cbrt(u(rng)) * 0.999f;
    const SolveResult r = SolveFabrik(chain, target, settings);
    ++s.histogram[std::min(r.iterations, 50)];
    s.max = std::max(s.max, r.iterations);
    sum += r.iterations;
    ++s.solves;
  }
  s.mean = sum / s.solves;
  std::printf(
      "[ stats    ] 1,2,3,1 random jumps inside the reach: %d solves, max %d, mean %.2f;"
      " histogram (50 = 50 or more):%s\n",
      s.solves, s.max, s.mean, s.Histogram().c_str());
}

// How the counts grow with the step per solve: every solve still reaches its target, and a
// target that moves further between solves costs more iterations (the claims above hold for
// a step of one tolerance; the counts are printed for the others).
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
      const IterationStats s = Track(run.lengths, run.tolerance, step);
      const std::string label = std::to_string(run.lengths.size() + 1) + " j, tol " +
                                std::to_string(run.tolerance).substr(0, 5) + ", step " +
                                std::to_string(step).substr(0, 5);
      Print(label.c_str(), s);
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
