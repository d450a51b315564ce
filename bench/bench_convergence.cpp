// How many iterations the solvers take, and how often they reach, on the scenarios the solver
// library's tests check (tests/ik): the figures those tests assert bounds on, measured here
// and reported as counters, so the tests only assert and this program only measures. Each
// benchmark runs its scenario once (its time is that run's); the counters are exact and the
// same on every run (fixed seeds). `docs/performance.md` quotes them.
//
//   build/bin/bench_convergence                       every scenario
//   build/bin/bench_convergence --benchmark_filter=Report   the report's tracking claims
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <random>
#include <string>
#include <vector>

#include "chain_scenarios.h"
#include "ik/constrained_fabrik.h"
#include "ik/fabrik.h"
#include "ik/fabrik_accelerated.h"

namespace {

using fabrik::Chain;
using fabrik::SolveFabrik;
using fabrik::SolveResult;
using fabrik::SolveSettings;
namespace t = fabrik::testing;

SolveSettings Settings(float tolerance, int max_iterations, bool accelerate) {
  SolveSettings s;
  s.tolerance = tolerance;
  s.max_iterations = max_iterations;
  s.accelerate = accelerate;
  return s;
}

double Distance(const glm::vec3& a, const glm::vec3& b) {
  return glm::length(glm::dvec3(a) - glm::dvec3(b));
}

// The bend-scale step alone (FabrikAccelerated.BendScaleStepNeverRaisesTheError): on 3,000
// random chains of 2-80 joints and targets near the rim, anywhere inside and near the root,
// how many steps the safeguard applies and how many it leaves out.
void BM_BendScaleStepOutcomes(benchmark::State& state) {
  int applied = 0, rejected = 0;
  for (auto _ : state) {
    std::mt19937 rng(31);
    std::uniform_real_distribution<float> u(0.0f, 1.0f);
    std::uniform_int_distribution<std::size_t> joints(2, 80);
    applied = rejected = 0;
    for (int c = 0; c < 3000; ++c) {
      std::vector<float> lengths(joints(rng) - 1);
      for (float& l : lengths) l = 0.2f + 2.0f * u(rng);
      Chain chain = t::RandomChain(rng, glm::vec3(u(rng), u(rng), u(rng)), lengths);
      const float fraction = c % 3 == 0 ? 0.95f + 0.05f * u(rng) : c % 3 == 1 ? u(rng) : 0.1f;
      const glm::vec3 target = chain.root() + t::RandomUnit(rng) * chain.total_length() * fraction;
      if (fabrik::BendScaleStep(chain, target, 1e-4f)) {
        ++applied;
      } else {
        ++rejected;
      }
    }
  }
  state.counters["applied"] = applied;
  state.counters["rejected"] = rejected;
}

// Cold solves near full reach (FabrikAccelerated.ReachesNearFullReachInFewIterations): 40
// targets at 90-99.99 % of the reach of a straight chain of unit segments, tolerance 1e-3,
// cap 100; the worst iteration count of each FABRIK and the accelerated one's misses.
void BM_NearFullReach(benchmark::State& state) {
  const auto joints = static_cast<std::size_t>(state.range(0));
  int worst = 0, missed = 0, textbook_worst = 0;
  for (auto _ : state) {
    std::mt19937 rng(33);
    std::uniform_real_distribution<float> u(0.0f, 1.0f);
    const Chain start = t::StraightChain(joints, 1.0f, glm::vec3(0, 1, 0));
    worst = missed = textbook_worst = 0;
    for (int i = 0; i < 40; ++i) {
      const glm::vec3 target =
          t::RandomUnit(rng) * start.total_length() * (0.9f + 0.0999f * u(rng));
      Chain chain = start;
      const SolveResult r = SolveFabrik(chain, target, Settings(1e-3f, 100, true));
      worst = std::max(worst, r.iterations);
      missed += !r.reached;
      Chain plain = start;
      textbook_worst = std::max(textbook_worst,
                                SolveFabrik(plain, target, Settings(1e-3f, 100, false)).iterations);
    }
  }
  state.counters["accel_worst_iter"] = worst;
  state.counters["accel_unreached"] = missed;
  state.counters["textbook_worst_iter"] = textbook_worst;
}

// Warm tracking near full reach (t::TrackNearReach; FabrikAccelerated's
// WarmTrackingNearFullReachHasNoJumps for the accelerated FABRIK).
void BM_WarmTrackingNearFullReach(benchmark::State& state) {
  t::NearReachTracking run;
  for (auto _ : state) run = t::TrackNearReach(state.range(0) != 0);
  state.counters["frames"] = run.frames;
  state.counters["worst_iter"] = run.worst_iterations;
  state.counters["unreached"] = run.missed;
  state.counters["worst_move_ratio"] = run.worst_move_ratio;
}

// Constrained chains (FabrikAcceleratedConstrained.KeepsLimitsAndNeedsFewerIterations): a
// 10-joint chain with 0.6 rad cones, 300 cold targets at 60-99 % of the reach from the
// straight pose, tolerance 1e-3, cap 100; mean iterations and share reached.
void BM_ConstrainedCones(benchmark::State& state) {
  const bool accelerate = state.range(0) != 0;
  constexpr int kTargets = 300;
  long iterations = 0;
  int reached = 0;
  for (auto _ : state) {
    std::mt19937 rng(34);
    std::uniform_real_distribution<float> u(0.0f, 1.0f);
    fabrik::ChainConstraints cones;
    cones.joints.resize(9);
    for (std::size_t i = 1; i < 9; ++i) cones.joints[i] = fabrik::JointConstraint::Cone(0.6f);
    const Chain start = t::StraightChain(10, 1.0f, glm::vec3(0, 1, 0));
    iterations = 0;
    reached = 0;
    for (int i = 0; i < kTargets; ++i) {
      const glm::vec3 target = t::RandomUnit(rng) * start.total_length() * (0.6f + 0.39f * u(rng));
      Chain chain = start;
      const fabrik::ConstrainedSolveResult r =
          SolveFabrikConstrained(chain, cones, target, Settings(1e-3f, 100, accelerate));
      iterations += r.base.iterations;
      reached += r.base.reached;
    }
  }
  state.counters["mean_iter"] = double(iterations) / kTargets;
  state.counters["reached_share"] = double(reached) / kTargets;
}

// FabrikInvariants.RandomChainsAndTargets' generator: 1,500 random chains of 2-60 joints, 12
// targets each of every kind (inside, near the rim, outside, on a joint, far away, on the
// root), warm-started; how many were reached and out of reach, and the worst relative change
// of a segment's length.
void BM_RandomChainsAndTargets(benchmark::State& state) {
  const bool accelerate = state.range(0) != 0;
  int solves = 0, reached = 0, unreachable = 0;
  double worst_length_error = 0.0;
  for (auto _ : state) {
    std::mt19937 rng(424242);
    std::uniform_int_distribution<std::size_t> joint_count(2, 60);
    std::uniform_real_distribution<float> coord(-5.0f, 5.0f);
    std::uniform_int_distribution<int> kind(0, 5);
    std::uniform_int_distribution<int> cap(1, 60);
    const float tolerances[] = {1e-4f, 1e-3f, 1e-2f};
    solves = reached = unreachable = 0;
    worst_length_error = 0.0;
    for (int c = 0; c < 1500; ++c) {
      const std::vector<float> lengths = t::RandomLengths(rng, joint_count(rng) - 1, 0.5f, 2.0f);
      Chain chain = t::RandomChain(rng, glm::vec3(coord(rng), coord(rng), coord(rng)), lengths);
      for (int k = 0; k < 12; ++k) {
        const glm::vec3 target = t::RandomTarget(rng, chain, kind(rng));
        const SolveSettings s =
            Settings(tolerances[k % 3] * chain.total_length(), cap(rng), accelerate);
        const SolveResult r = SolveFabrik(chain, target, s);
        ++solves;
        reached += r.reached;
        unreachable += !r.reachable;
        for (std::size_t i = 0; i < chain.segment_count(); ++i) {
          const double l = Distance(chain.joints()[i + 1], chain.joints()[i]);
          worst_length_error =
              std::max(worst_length_error, std::fabs(l - chain.lengths()[i]) / chain.lengths()[i]);
        }
      }
    }
  }
  state.counters["solves"] = solves;
  state.counters["reached"] = reached;
  state.counters["out_of_reach"] = unreachable;
  state.counters["worst_rel_length_error"] = worst_length_error;
}

// FabrikInvariants.AttainableTargetsAreReached: 2,000 chains of 3-60 random joints, a target
// between the rim of the hole an unequal chain cannot fold into and 90 % of the reach,
// tolerance 1e-3 of the reach, cap 1,000; the share reached and the slowest reached solve.
void BM_AttainableTargets(benchmark::State& state) {
  const bool accelerate = state.range(0) != 0;
  int solves = 0, reached = 0, slowest = 0;
  for (auto _ : state) {
    std::mt19937 rng(777);
    std::uniform_int_distribution<std::size_t> joint_count(3, 60);
    std::uniform_real_distribution<float> u(0.0f, 1.0f);
    solves = reached = slowest = 0;
    for (int c = 0; c < 2000; ++c) {
      const std::size_t n = joint_count(rng);
      Chain chain = t::RandomChain(rng, glm::vec3(0.0f), t::RandomLengths(rng, n - 1, 0.5f, 2.0f));
      const float total = chain.total_length();
      const float hole = std::max(0.0f, 2.0f * chain.max_length() - total);
      const float lo = hole + 0.05f * total, hi = 0.9f * total;
      if (lo >= hi) continue;
      const glm::vec3 target = t::RandomUnit(rng) * (lo + (hi - lo) * u(rng));
      const SolveResult r = SolveFabrik(chain, target, Settings(1e-3f * total, 1000, accelerate));
      ++solves;
      reached += r.reached;
      if (r.reached) slowest = std::max(slowest, r.iterations);
    }
  }
  state.counters["solves"] = solves;
  state.counters["reached"] = reached;
  state.counters["slowest_iter"] = slowest;
}

// FabrikInvariants.LongChain: 10,000 random joints, four targets in turn (30 % and 90 % of the
// reach, 150 %, the root), tolerance 1e-3, cap 100, warm-started; per target the iterations,
// the distance left and the worst relative change of a segment's length.
void BM_LongChain(benchmark::State& state) {
  const bool accelerate = state.range(0) != 0;
  const char* const names[] = {"30%", "90%", "150%", "root"};
  SolveResult results[4];
  double length_errors[4] = {};
  for (auto _ : state) {
    std::mt19937 rng(10000);
    Chain chain =
        t::RandomChain(rng, glm::vec3(0.0f), t::RandomLengths(rng, 10000 - 1, 0.5f, 2.0f));
    const float total = chain.total_length();
    const glm::vec3 targets[] = {t::RandomUnit(rng) * total * 0.3f,
                                 t::RandomUnit(rng) * total * 0.9f,
                                 t::RandomUnit(rng) * total * 1.5f, glm::vec3(0.0f)};
    for (int k = 0; k < 4; ++k) {
      results[k] = SolveFabrik(chain, targets[k], Settings(1e-3f, 100, accelerate));
      length_errors[k] = 0.0;
      for (std::size_t i = 0; i < chain.segment_count(); ++i) {
        const double l = Distance(chain.joints()[i + 1], chain.joints()[i]);
        length_errors[k] =
            std::max(length_errors[k], std::fabs(l - chain.lengths()[i]) / chain.lengths()[i]);
      }
    }
  }
  for (int k = 0; k < 4; ++k) {
    const std::string name = names[k];
    state.counters["iter_" + name] = results[k].iterations;
    state.counters["distance_" + name] = results[k].distance;
    state.counters["rel_length_error_" + name] = length_errors[k];
  }
}

// The report's tracking claims (tests/ik/test_fabrik_report_claims.cpp): a warm-started chain
// following t::ReportCurve, one case per registered name.
struct TrackCase {
  const char* name;
  std::vector<float> lengths;
  float tolerance;
  double step;
  bool accelerate;
};

void BM_ReportTracking(benchmark::State& state, const TrackCase& c) {
  t::IterationStats s;
  for (auto _ : state) s = t::TrackReportCurve(c.lengths, c.tolerance, c.step, c.accelerate);
  state.counters["solves"] = s.solves;
  state.counters["max_iter"] = s.max;
  state.counters["mean_iter"] = s.mean;
  state.counters["mode_iter"] = s.solves ? s.Mode() : 0;
  state.counters["unreached"] = s.missed;
}

// Segments 1, 2, 3, 1, random jumps: 10,000 targets uniform in 99.9 % of the reach ball, each
// solved from the last pose, tolerance 0.01, cap 1,000.
void BM_ReportUnequalJumps(benchmark::State& state) {
  t::IterationStats s;
  for (auto _ : state) {
    const std::vector<float> lengths = {1.0f, 2.0f, 3.0f, 1.0f};
    Chain chain = std::move(Chain::Straight(glm::vec3(0.0f), glm::vec3(0, 1, 0), lengths)).value();
    std::mt19937 rng(1231);
    std::uniform_real_distribution<float> u(0.0f, 1.0f);
    s = t::IterationStats{};
    for (int i = 0; i < 10000; ++i) {
      const glm::vec3 target =
          t::RandomUnit(rng) * chain.total_length() * std::cbrt(u(rng)) * 0.999f;
      s.Add(SolveFabrik(chain, target, Settings(0.01f, 1000, false)));
    }
  }
  state.counters["solves"] = s.solves;
  state.counters["max_iter"] = s.max;
  state.counters["mean_iter"] = s.mean;
  state.counters["unreached"] = s.missed;
}

std::vector<TrackCase> TrackCases() {
  const std::vector<float> unequal = {1.0f, 2.0f, 3.0f, 1.0f};
  std::vector<TrackCase> cases;
  for (int joints : {5, 10, 15, 20}) {
    for (double step : {0.001, 0.003, 0.01, 0.03}) {
      cases.push_back({"equal", std::vector<float>(joints - 1, 1.0f), 0.01f, step, false});
    }
  }
  for (double step : {0.001, 0.003, 0.01, 0.03}) {
    cases.push_back({"equal", std::vector<float>(19, 1.0f), 0.001f, step, false});
    cases.push_back({"equal_accelerated", std::vector<float>(19, 1.0f), 0.001f, step, true});
  }
  for (double step : {0.001, 0.01, 0.1, 0.5}) {
    cases.push_back({"lengths_1_2_3_1", unequal, 0.01f, step, false});
  }
  return cases;
}

void RegisterAll() {
  const auto once = [](benchmark::internal::Benchmark* b) {
    b->Iterations(1)->Unit(benchmark::kMillisecond);
  };
  once(benchmark::RegisterBenchmark("BendScaleStepOutcomes", BM_BendScaleStepOutcomes));
  once(benchmark::RegisterBenchmark("NearFullReach", BM_NearFullReach)
           ->ArgName("joints")
           ->Arg(10)
           ->Arg(100)
           ->Arg(1000));
  once(benchmark::RegisterBenchmark("WarmTrackingNearFullReach", BM_WarmTrackingNearFullReach)
           ->ArgName("accelerate")
           ->Arg(0)
           ->Arg(1));
  once(benchmark::RegisterBenchmark("ConstrainedCones", BM_ConstrainedCones)
           ->ArgName("accelerate")
           ->Arg(0)
           ->Arg(1));
  once(benchmark::RegisterBenchmark("RandomChainsAndTargets", BM_RandomChainsAndTargets)
           ->ArgName("accelerate")
           ->Arg(0)
           ->Arg(1));
  once(benchmark::RegisterBenchmark("AttainableTargets", BM_AttainableTargets)
           ->ArgName("accelerate")
           ->Arg(0)
           ->Arg(1));
  once(benchmark::RegisterBenchmark("LongChain", BM_LongChain)
           ->ArgName("accelerate")
           ->Arg(0)
           ->Arg(1));
  for (const TrackCase& c : TrackCases()) {
    char name[128];
    std::snprintf(name, sizeof name, "ReportTracking/%s/joints:%zu/tol:%g/step:%g", c.name,
                  c.lengths.size() + 1, double(c.tolerance), c.step);
    once(benchmark::RegisterBenchmark(name, BM_ReportTracking, c));
  }
  once(benchmark::RegisterBenchmark("ReportUnequalJumps", BM_ReportUnequalJumps));
}

}  // namespace

int main(int argc, char** argv) {
  RegisterAll();
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
