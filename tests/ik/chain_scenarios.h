// chain_scenarios.h - random chains, targets and a tracked curve, shared by the solver
// library's tests (tests/ik) and the convergence figures they no longer print
// (bench/bench_convergence.cpp). No GoogleTest here: the benchmarks include it too.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <glm/geometric.hpp>
#include <glm/vec3.hpp>
#include <map>
#include <numbers>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "ik/chain.h"
#include "ik/fabrik.h"
#include "ik/solve_types.h"

namespace fabrik::testing {

// A direction uniform on the unit sphere.
inline glm::vec3 RandomUnit(std::mt19937& rng) {
  std::normal_distribution<float> g(0.0f, 1.0f);
  for (;;) {
    const glm::vec3 v(g(rng), g(rng), g(rng));
    const float l = glm::length(v);
    if (l > 1e-3f) return v / l;
  }
}

// A chain from `root` whose segments have the given lengths and point in random directions.
inline Chain RandomChain(std::mt19937& rng, const glm::vec3& root,
                         const std::vector<float>& lengths) {
  std::vector<glm::vec3> joints{root};
  for (float l : lengths) joints.push_back(joints.back() + RandomUnit(rng) * l);
  Result<Chain> chain = Chain::FromJoints(std::move(joints));
  if (!chain.ok()) std::abort();  // random unit directions never give a zero-length segment
  return std::move(chain).value();
}

inline Chain StraightChain(std::size_t joints, float length,
                           glm::vec3 direction = glm::vec3(1, 0, 0),
                           glm::vec3 root = glm::vec3(0.0f)) {
  std::vector<float> lengths(joints - 1, length);
  Result<Chain> chain = Chain::Straight(root, direction, lengths);
  if (!chain.ok()) std::abort();
  return std::move(chain).value();
}

// `segments` lengths uniform in [lo, hi].
inline std::vector<float> RandomLengths(std::mt19937& rng, std::size_t segments, float lo,
                                        float hi) {
  std::uniform_real_distribution<float> u(lo, hi);
  std::vector<float> lengths(segments);
  for (float& l : lengths) l = u(rng);
  return lengths;
}

// A target of one of several kinds relative to the chain: inside the reach sphere, near its
// boundary, just or far outside it, on a joint, on the root, or very far away.
inline glm::vec3 RandomTarget(std::mt19937& rng, const Chain& chain, int kind) {
  std::uniform_real_distribution<float> u(0.0f, 1.0f);
  const float total = chain.total_length();
  const glm::vec3 root = chain.root();
  switch (kind) {
    case 0:
      return root + RandomUnit(rng) * total * std::cbrt(u(rng));  // inside, uniform
    case 1:
      return root + RandomUnit(rng) * total * (0.95f + 0.05f * u(rng));  // near the rim
    case 2:
      return root + RandomUnit(rng) * total * (1.0001f + 2.0f * u(rng));  // outside
    case 3: {                                                             // on a current joint
      std::uniform_int_distribution<std::size_t> j(0, chain.joint_count() - 1);
      return chain.joints()[j(rng)];
    }
    case 4:
      return root + RandomUnit(rng) * total * (1e3f + 1e6f * u(rng));  // far outside
    default:
      return root;
  }
}

// The curve of the report-claims tests (tests/ik/test_fabrik_report_claims.cpp, which says
// why): around the vertical axis, 40-80 % of `reach` from the root, elevation within about
// +-29 degrees.
inline glm::dvec3 ReportCurve(double t, double reach) {
  const double r = reach * (0.6 + 0.2 * std::sin(3.0 * t));
  const double phi = 0.5 * std::sin(2.0 * t);
  return r * glm::dvec3(std::cos(t) * std::cos(phi), std::sin(phi), std::sin(t) * std::cos(phi));
}

// Points along one loop of a closed curve (curve(t) for t in [0, 2 pi), a glm::vec3 or
// glm::dvec3), `step` apart in arc length (to within the sampling, 1e-5 in the parameter).
template <class Curve>
std::vector<glm::vec3> TargetsAlong(Curve&& curve, double step) {
  std::vector<glm::vec3> targets;
  const double dt = 1e-5;
  glm::dvec3 previous(curve(0.0));
  double travelled = 0.0;
  for (double t = dt; t < 2.0 * std::numbers::pi; t += dt) {
    const glm::dvec3 p(curve(t));
    travelled += glm::length(p - previous);
    previous = p;
    if (travelled >= step) {
      targets.emplace_back(p);
      travelled = 0.0;
    }
  }
  return targets;
}

// One loop of ReportCurve, `step` apart.
inline std::vector<glm::vec3> ReportCurveTargets(double reach, double step) {
  return TargetsAlong([reach](double t) { return ReportCurve(t, reach); }, step);
}

// Iteration counts of a run of solves.
struct IterationStats {
  std::map<int, int> histogram;  // iterations -> solves
  int max = 0;
  double mean = 0.0;
  int solves = 0;
  int missed = 0;  // solves that ended outside the tolerance

  void Add(const SolveResult& r) {
    ++histogram[r.iterations];
    max = std::max(max, r.iterations);
    missed += !r.reached;
    mean += (r.iterations - mean) / ++solves;
  }
  int Mode() const {
    return std::max_element(histogram.begin(), histogram.end(),
                            [](const auto& a, const auto& b) { return a.second < b.second; })
        ->first;
  }
};

// A chain of `lengths` starting straight up (+Y), solved once onto the start of ReportCurve
// (not counted), then following the curve `step` apart, warm-started, cap 100.
inline IterationStats TrackReportCurve(const std::vector<float>& lengths, float tolerance,
                                       double step, bool accelerate = false) {
  Result<Chain> made = Chain::Straight(glm::vec3(0.0f), glm::vec3(0, 1, 0), lengths);
  if (!made.ok()) std::abort();
  Chain chain = std::move(made).value();
  SolveSettings settings;
  settings.tolerance = tolerance;
  settings.max_iterations = 100;
  settings.accelerate = accelerate;
  (void)SolveFabrik(chain, glm::vec3(ReportCurve(0.0, chain.total_length())), settings);
  IterationStats stats;
  for (const glm::vec3& target : ReportCurveTargets(chain.total_length(), step)) {
    stats.Add(SolveFabrik(chain, target, settings));
  }
  return stats;
}

// Warm tracking near full reach: a chain of 20 unit segments, straight up, follows a curve
// whose distance from the root swings between 60 % and 97 % of the reach (elevation within
// about +-29 degrees), the target moving about 0.5 % of the reach per solve, tolerance 1e-3,
// cap 100. What the accelerated FABRIK's tests and bench/bench_convergence.cpp read from it.
struct NearReachTracking {
  int frames = 0;
  int worst_iterations = 0;
  int missed = 0;                 // frames that ended outside the tolerance
  double worst_move_ratio = 0.0;  // largest joint move / the target's move, over every frame
};

inline glm::vec3 NearReachCurve(double t, double reach) {
  const double r = reach * (0.785 + 0.185 * std::sin(3.0 * t));
  const double phi = 0.5 * std::sin(2.0 * t);
  return glm::vec3(
      r * glm::dvec3(std::cos(t) * std::cos(phi), std::sin(phi), std::sin(t) * std::cos(phi)));
}

inline NearReachTracking TrackNearReach(bool accelerate) {
  Chain chain = StraightChain(20, 1.0f, glm::vec3(0, 1, 0));
  const double reach = chain.total_length();
  SolveSettings settings;
  settings.tolerance = 1e-3f;
  settings.max_iterations = 100;
  settings.accelerate = accelerate;
  (void)SolveFabrik(chain, NearReachCurve(0.0, reach), settings);
  glm::vec3 previous = NearReachCurve(0.0, reach);
  std::vector<glm::vec3> before;
  NearReachTracking out;
  for (double t = 0.0; t < 2.0 * std::numbers::pi; t += 0.005 / 0.8) {
    const glm::vec3 target = NearReachCurve(t, reach);
    const double moved = glm::length(glm::dvec3(target) - glm::dvec3(previous));
    if (moved <= 0.0) continue;
    before.assign(chain.joints().begin(), chain.joints().end());
    const SolveResult r = SolveFabrik(chain, target, settings);
    out.missed += !r.reached;
    out.worst_iterations = std::max(out.worst_iterations, r.iterations);
    for (std::size_t j = 0; j < before.size(); ++j) {
      const double move = glm::length(glm::dvec3(chain.joints()[j]) - glm::dvec3(before[j]));
      out.worst_move_ratio = std::max(out.worst_move_ratio, move / moved);
    }
    previous = target;
    ++out.frames;
  }
  return out;
}

}  // namespace fabrik::testing
