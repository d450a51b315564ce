// bench_batch_python: the C++ side of bench/bench_python.py - the workload fabrik.solve_batch
// is measured on, solved from C++ (docs/library.md, "Performance").
//
// 100,000 chains of 10 joints (unit segments straight up, roots on a line 3 units apart),
// each with its own cold target uniform in the ball of its reach, tolerance 1e-3, cap 100,
// the textbook batch (accelerate off), all cores, no regrouping:
//   * BM_SolveOnly: SolveFabrikBatch on a prepared ChainBatch (the batch reset outside the
//     timed part), as bench_batch measures it;
//   * BM_AsTheModule: what solve_batch does per call - the thread's kept batch refilled
//     straight from the packed joints (ChainBatch::AssignPoses), SolveFabrikBatch,
//     CopyAllPoses back (both over all cores) and the outcomes read out;
//   * BM_ViaChains: the same through a Chain per chain and a new ChainBatch::FromChains each
//     call, the way solve_batch built its batch up to 0.1.0 (for comparison).
// Manual time, steady clock; per-chain ns are reported as counters.
#include <benchmark/benchmark.h>

#include <chrono>
#include <cmath>
#include <random>
#include <vector>

#include "ik/batch_fabrik.h"
#include "ik/chain.h"

namespace {

using Clock = std::chrono::steady_clock;
constexpr std::size_t kChains = 100'000;
constexpr std::size_t kJoints = 10;

struct Workload {
  std::vector<glm::vec3> poses;  // chain after chain
  std::vector<glm::vec3> targets;
  fabrik::SolveSettings settings;
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
    out.settings.tolerance = 1e-3f;
    out.settings.max_iterations = 100;
    out.settings.accelerate = false;
    return out;
  }();
  return w;
}

fabrik::ChainBatch BuildBatch(const std::vector<glm::vec3>& poses) {
  std::vector<fabrik::Chain> chains;
  chains.reserve(kChains);
  for (std::size_t c = 0; c < kChains; ++c) {
    const glm::vec3* p = poses.data() + c * kJoints;
    chains.push_back(fabrik::Chain::FromJoints({p, p + kJoints}).value());
  }
  return std::move(fabrik::ChainBatch::FromChains(chains)).value();
}

void BM_SolveOnly(benchmark::State& state) {
  const Workload& w = TheWorkload();
  const fabrik::ChainBatch start = BuildBatch(w.poses);
  fabrik::ChainBatch batch = start;
  for (auto _ : state) {
    batch = start;  // storage reused: no allocation
    const auto t0 = Clock::now();
    const auto r = fabrik::SolveFabrikBatch(
        batch, w.targets, w.settings, fabrik::BatchThreads::kAll, fabrik::BatchRegroup::kNever);
    state.SetIterationTime(std::chrono::duration<double>(Clock::now() - t0).count());
    benchmark::DoNotOptimize(r.reached_count);
  }
  state.counters["ns_per_chain"] =
      benchmark::Counter(static_cast<double>(kChains) * state.iterations(),
                         benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
}

// What solve_batch does per call after reading its arguments; `via_chains` builds the batch
// through a Chain per chain instead of FromPoses.
void AsTheModule(benchmark::State& state, bool via_chains) {
  const Workload& w = TheWorkload();
  std::vector<glm::vec3> poses(w.poses.size());
  std::vector<int> iterations(kChains);
  const auto threads = via_chains ? fabrik::BatchThreads::kOne : fabrik::BatchThreads::kAll;
  // The module keeps each thread's batch between calls and refills it in place.
  fabrik::Result<fabrik::ChainBatch> kept = fabrik::MakeError("not made yet");
  for (auto _ : state) {
    poses = w.poses;
    const auto t0 = Clock::now();
    if (via_chains) {
      kept = BuildBatch(poses);
    } else if (!kept.ok() || !kept.value().AssignPoses(poses, kJoints).ok()) {
      kept = fabrik::ChainBatch::FromPoses(poses, kJoints);
    }
    fabrik::ChainBatch& batch = kept.value();
    const auto r = fabrik::SolveFabrikBatch(
        batch, w.targets, w.settings, fabrik::BatchThreads::kAll, fabrik::BatchRegroup::kNever);
    batch.CopyAllPoses(poses, threads);
    for (std::size_t c = 0; c < kChains; ++c) iterations[c] = batch.outcome(c).iterations;
    state.SetIterationTime(std::chrono::duration<double>(Clock::now() - t0).count());
    benchmark::DoNotOptimize(r.reached_count);
  }
  state.counters["ns_per_chain"] =
      benchmark::Counter(static_cast<double>(kChains) * state.iterations(),
                         benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
}

void BM_AsTheModule(benchmark::State& state) { AsTheModule(state, false); }
void BM_ViaChains(benchmark::State& state) { AsTheModule(state, true); }

}  // namespace

BENCHMARK(BM_SolveOnly)->UseManualTime()->Unit(benchmark::kMillisecond);
BENCHMARK(BM_AsTheModule)->UseManualTime()->Unit(benchmark::kMillisecond);
BENCHMARK(BM_ViaChains)->UseManualTime()->Unit(benchmark::kMillisecond);
BENCHMARK_MAIN();
