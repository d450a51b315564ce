// bench_batch_python: the C++ side of bench/bench_python.py - the workload fabrik.solve_batch
// is measured on, solved from C++ (docs/library.md, "Performance").
//
// 100,000 chains of 10 joints (unit segments straight up, roots on a line 3 units apart),
// each with its own cold target uniform in the ball of its reach, no regrouping, in four
// cases (the first argument): 0 textbook (tolerance 1e-3, cap 100), 1 accelerated (the same
// with accelerate), 2 the defaults, the Python module's too (SolveSettings{}:
// textbook, tolerance 0.01, cap 10), 3 a
// cap of 1 (textbook: what is left besides solving). The second argument: 1 thread (CPU time
// of the calling thread, which does all the work) or 0, all cores (wall time).
//   * BM_Packed: SolveFabrikPacked on the packed (N, 10, 3) poses with the outcomes written to
//     four arrays - the same work as solve_batch after it has read its arguments, moving the
//     chains in and out included;
//   * BM_SolveOnly: SolveFabrikBatch alone on a prepared ChainBatch (as bench_batch measures
//     it): no chain moved in or out;
//   * BM_ViaChainBatch: ChainBatch::AssignPoses into a kept batch, SolveFabrikBatch,
//     CopyAllPoses and the outcomes read back - the way solve_batch worked before
//     SolveFabrikPacked.
// Each iteration resets the poses to the straight start outside the timed part; per-chain ns
// are reported as the counter ns_per_chain.
#include <benchmark/benchmark.h>

#include <cmath>
#include <cstdint>
#include <memory>
#include <random>
#include <vector>

#include "ik/batch_fabrik.h"

namespace {

constexpr std::size_t kChains = 100'000;
constexpr std::size_t kJoints = 10;

struct Workload {
  std::vector<glm::vec3> poses;  // chain after chain
  std::vector<glm::vec3> targets;
};

const Workload& TheWorkload() {
  static const Workload w = [] {
    Workload out;
    std::mt19937 rng(1);
    std::normal_distribution<float> normal;
    std::uniform_real_distribution<float> uniform(0.0f, 1.0f);
    for (std::size_t c = 0; c < kChains; ++c) {
      const glm::vec3 root(3.0f * static_cast<float>(c), 0.0f, 0.0f);
      for (std::size_t j = 0; j < kJoints; ++j) {
        out.poses.push_back(root + glm::vec3(0.0f, static_cast<float>(j), 0.0f));
      }
      glm::vec3 d(normal(rng), normal(rng), normal(rng));
      d /= std::sqrt(d.x * d.x + d.y * d.y + d.z * d.z);
      out.targets.push_back(root + d * (kJoints - 1.0f) * std::cbrt(uniform(rng)));
    }
    return out;
  }();
  return w;
}

fabrik::SolveSettings CaseSettings(std::int64_t which) {
  fabrik::SolveSettings s;  // case 2: the defaults, the Python module's too
  if (which == 2) return s;
  s.tolerance = 1e-3f;
  s.max_iterations = which == 3 ? 1 : 100;
  s.accelerate = which == 1;
  return s;
}

fabrik::BatchThreads CaseThreads(const benchmark::State& state) {
  return state.range(1) == 1 ? fabrik::BatchThreads::kOne : fabrik::BatchThreads::kAll;
}

void PerChain(benchmark::State& state) {
  state.counters["ns_per_chain"] =
      benchmark::Counter(static_cast<double>(kChains) * state.iterations(),
                         benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
}

// The outcome arrays solve_batch returns.
struct Outcomes {
  std::vector<std::int32_t> iterations = std::vector<std::int32_t>(kChains);
  std::vector<float> distance = std::vector<float>(kChains);
  std::unique_ptr<bool[]> reached = std::make_unique<bool[]>(kChains);
  std::unique_ptr<bool[]> reachable = std::make_unique<bool[]>(kChains);
};

void BM_Packed(benchmark::State& state) {
  const Workload& w = TheWorkload();
  const fabrik::SolveSettings settings = CaseSettings(state.range(0));
  std::vector<glm::vec3> poses = w.poses;
  Outcomes o;
  const fabrik::PackedOutcomes out{
      o.iterations, o.distance, {o.reached.get(), kChains}, {o.reachable.get(), kChains}};
  for (auto _ : state) {
    state.PauseTiming();
    poses = w.poses;
    state.ResumeTiming();
    const auto r =
        fabrik::SolveFabrikPacked(poses, kJoints, w.targets, settings, out, CaseThreads(state));
    benchmark::DoNotOptimize(r.ok());
  }
  PerChain(state);
}

void BM_SolveOnly(benchmark::State& state) {
  const Workload& w = TheWorkload();
  const fabrik::SolveSettings settings = CaseSettings(state.range(0));
  const fabrik::ChainBatch start = fabrik::ChainBatch::FromPoses(w.poses, kJoints).value();
  fabrik::ChainBatch batch = start;
  for (auto _ : state) {
    state.PauseTiming();
    batch = start;  // storage reused: no allocation
    state.ResumeTiming();
    const auto r = fabrik::SolveFabrikBatch(batch, w.targets, settings, CaseThreads(state),
                                            fabrik::BatchRegroup::kNever);
    benchmark::DoNotOptimize(r.reached_count);
  }
  PerChain(state);
}

void BM_ViaChainBatch(benchmark::State& state) {
  const Workload& w = TheWorkload();
  const fabrik::SolveSettings settings = CaseSettings(state.range(0));
  const fabrik::BatchThreads threads = CaseThreads(state);
  std::vector<glm::vec3> poses = w.poses;
  Outcomes o;
  fabrik::ChainBatch batch = fabrik::ChainBatch::FromPoses(poses, kJoints).value();
  for (auto _ : state) {
    state.PauseTiming();
    poses = w.poses;
    state.ResumeTiming();
    if (!batch.AssignPoses(poses, kJoints, threads).ok()) state.SkipWithError("refused");
    const auto r =
        fabrik::SolveFabrikBatch(batch, w.targets, settings, threads, fabrik::BatchRegroup::kNever);
    batch.CopyAllPoses(poses, threads);
    for (std::size_t c = 0; c < kChains; ++c) {
      const fabrik::ChainOutcome oc = batch.outcome(c);
      o.iterations[c] = oc.iterations;
      o.distance[c] = oc.distance;
      o.reached[c] = oc.reached;
      o.reachable[c] = oc.reachable;
    }
    benchmark::DoNotOptimize(r.reached_count);
  }
  PerChain(state);
}

// Cases 0-3, one thread (CPU time) then all cores (wall time).
void Cases(benchmark::internal::Benchmark* b) {
  b->ArgNames({"case", "threads"})->Unit(benchmark::kMillisecond);
  for (std::int64_t which = 0; which < 4; ++which) b->Args({which, 1});
}
void CasesAllCores(benchmark::internal::Benchmark* b) {
  b->ArgNames({"case", "threads"})->Unit(benchmark::kMillisecond)->UseRealTime();
  for (std::int64_t which = 0; which < 4; ++which) b->Args({which, 0});
}

}  // namespace

BENCHMARK(BM_Packed)->Apply(Cases);
BENCHMARK(BM_SolveOnly)->Apply(Cases);
BENCHMARK(BM_ViaChainBatch)->Apply(Cases);
BENCHMARK(BM_Packed)->Apply(CasesAllCores);
BENCHMARK(BM_SolveOnly)->Apply(CasesAllCores);
BENCHMARK(BM_ViaChainBatch)->Apply(CasesAllCores);
BENCHMARK_MAIN();
