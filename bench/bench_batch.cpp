// bench_batch: many independent chains - the scalar library (SolveFabrik, chain after
// chain) against the batched solver (SolveFabrikBatch) on one thread and on all cores
// (docs/field.md: The batched solver).
//
// Throughput cases, 10 and 50 joints, 4096 chains (unit segments, roots on a grid):
//   * cold: every chain starts straight up (+Y) and gets its own target, uniform in the ball
//     of its reach; tolerance 1e-3, cap 100 (as bench_fabrik's cold case);
//   * warm: every chain tracks its own target along a smooth closed curve (40-80% of the
//     reach, a phase per chain), advancing 0.5% of the reach per solve, from its last pose.
// All three variants see the same poses and targets and run the same iterations, so the time
// ratio is the throughput ratio; "ns per joint update" divides the wall time by the reaches
// done (2 x (joints - 1) per iteration per chain, as bench_fabrik counts them).
//
// The field cases: 10,000 chains of 10 joints on a 100 x 100 grid, each tracking a target
// that moves a little per frame (the warm curve, a phase per chain), tolerance 1e-3, cap 30:
// time per frame, and the share of chains with a reachable target that end the frame within
// tolerance. "field": the curve as is (40-80% of the reach); "field_edge": the curve scaled
// per chain by 1.0-1.4, so targets also sweep the outer tenth of the reach, where FABRIK
// converges slowly, and beyond it (about 8% of the chains out of reach at any time).
// The accelerated cases: cold 10-joint batches of 4,096 and 100,000 chains (the cold case
// above: straight up, targets uniform in the ball of the reach, tolerance 1e-3, cap 100),
// textbook against settings.accelerate (bend-scale steps, fabrik_accelerated.h), on one thread
// and on all, with targets uniform in the ball of the reach ("cold_textbook",
// "cold_accelerated") and uniform in distance from the root, in a uniformly random direction
// ("cold_textbook_distance", "cold_accelerated_distance": more targets near the root and fewer
// near full reach than in the ball): ns per chain, the share of chains left unreached (every
// target is reachable)
// and the mean iterations per chain; for the one-thread variants also the thread's CPU time per
// chain ("cpu ns"), which other processes on the machine disturb far less than wall time.
// Cold cases solve with BatchRegroup::kNever (each solve starts from the reset pose with
// unrelated targets); warm and field cases use the default, regrouping when lanes idle.
//
// Each benchmark iteration times the solves alone (manual time, steady clock): filling the
// next targets, resetting cold chains and tallying iterations happen outside the timed part,
// without pausing the benchmark's timers (whose own cost would be timed, in every variant).
// The gap between solves is still there, so a worker thread of the all-cores variant has
// gone to sleep and is woken by each solve, as in an application that solves once a frame.
//
// After the runs a table prints ns per joint update, the batched/scalar speed-ups, the gain
// of all cores over one, and the field figures. Use --benchmark_repetitions=N for medians.
#include <benchmark/benchmark.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <ctime>
#include <glm/geometric.hpp>
#include <glm/vec3.hpp>
#include <map>
#include <random>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "ik/batch_fabrik.h"
#include "ik/chain.h"
#include "ik/fabrik.h"

namespace {

using fabrik::BatchThreads;
using fabrik::Chain;
using fabrik::ChainBatch;

using Clock = std::chrono::steady_clock;
double Seconds(Clock::duration d) { return std::chrono::duration<double>(d).count(); }

// CPU time of the calling thread: unlike wall time, barely affected by other processes
// sharing the cores (for the one-thread variants).
double ThreadCpuSeconds() {
  timespec t{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return double(t.tv_sec) + 1e-9 * double(t.tv_nsec);
}

constexpr std::size_t kChains = 4096;
constexpr std::size_t kFieldChains = 10000;
constexpr int kFieldJoints = 10;
constexpr int kJointCounts[] = {10, 50};

fabrik::SolveSettings Settings(float tolerance, int cap) {
  fabrik::SolveSettings s;
  s.tolerance = tolerance;
  s.max_iterations = cap;
  return s;
}

std::vector<Chain> StartChains(std::size_t count, int joints, float spacing) {
  const std::vector<float> lengths(joints - 1, 1.0f);
  const std::size_t side = static_cast<std::size_t>(std::ceil(std::sqrt(double(count))));
  std::vector<Chain> chains;
  chains.reserve(count);
  for (std::size_t c = 0; c < count; ++c) {
    const glm::vec3 root(spacing * float(c % side), 0.0f, spacing * float(c / side));
    chains.push_back(std::move(Chain::Straight(root, glm::vec3(0, 1, 0), lengths)).value());
  }
  return chains;
}

// A closed curve around the root: distance 40-80% of `reach`, angle t.
glm::vec3 Curve(double t, double reach) {
  const double r = reach * (0.6 + 0.2 * std::sin(3.0 * t));
  const double phi = 0.5 * std::sin(2.0 * t);
  return glm::vec3(
      r * glm::dvec3(std::cos(t) * std::cos(phi), std::sin(phi), std::sin(t) * std::cos(phi)));
}

// Targets of one frame: chain c at curve angle phase[c] + frame x step, scaled by scale[c].
struct Tracks {
  std::vector<double> phase;
  std::vector<float> scale;
  double step = 0.0;  // radians per frame (0.5% of the reach at the mean radius)
  void Fill(const std::vector<Chain>& chains, long frame, std::vector<glm::vec3>& out) const {
    for (std::size_t c = 0; c < chains.size(); ++c) {
      const float reach = chains[c].total_length();
      out[c] = chains[c].root() + Curve(phase[c] + step * double(frame), reach) * scale[c];
    }
  }
};

Tracks MakeTracks(std::size_t count, float max_scale) {
  std::mt19937 rng(14);
  std::uniform_real_distribution<double> angle(0.0, 6.283185307179586);
  std::uniform_real_distribution<float> scale(1.0f, max_scale);
  Tracks t;
  t.step = 0.005 / 0.6;
  for (std::size_t c = 0; c < count; ++c) {
    t.phase.push_back(angle(rng));
    t.scale.push_back(max_scale > 1.0f ? scale(rng) : 1.0f);
  }
  return t;
}

// Targets uniform in the ball of each chain's reach, or (by_distance) at a distance from the
// root uniform in [0, reach).
std::vector<glm::vec3> ColdTargets(const std::vector<Chain>& chains, bool by_distance = false) {
  std::mt19937 rng(2011);
  std::normal_distribution<float> g(0.0f, 1.0f);
  std::uniform_real_distribution<float> u(0.0f, 1.0f);
  std::vector<glm::vec3> targets;
  while (targets.size() < chains.size()) {
    const glm::vec3 v(g(rng), g(rng), g(rng));
    const float l = glm::length(v);
    if (l < 1e-3f) continue;
    const Chain& chain = chains[targets.size()];
    const float r = by_distance ? u(rng) : std::cbrt(u(rng));
    targets.push_back(chain.root() + v / l * chain.total_length() * r);
  }
  return targets;
}

enum class Impl { kScalar, kBatchOne, kBatchAll };
const char* ImplName(Impl impl) {
  return impl == Impl::kScalar ? "scalar" : impl == Impl::kBatchOne ? "batch_1thread" : "batch_all";
}

// Runs one solve of every chain per benchmark iteration; counts iterations and reaches.
void BM_Chains(benchmark::State& state, int joints, bool warm, Impl impl) {
  const std::vector<Chain> start = StartChains(kChains, joints, 2.0f * float(joints));
  std::vector<Chain> chains = start;
  const ChainBatch batch_start = std::move(ChainBatch::FromChains(start)).value();
  ChainBatch batch = batch_start;
  const Tracks tracks = MakeTracks(kChains, 1.0f);
  std::vector<glm::vec3> targets = warm ? std::vector<glm::vec3>(kChains) : ColdTargets(start);
  const fabrik::SolveSettings settings = Settings(1e-3f, 100);
  long frame = 0;
  double iterations = 0.0;
  for (auto _ : state) {
    // Only the solves are timed (manual time): the next targets, the reset and the tally are
    // set up around them.
    if (warm) {
      tracks.Fill(start, frame++, targets);
    } else if (impl == Impl::kScalar) {
      chains = start;
    } else {
      batch = batch_start;
    }
    const Clock::time_point t0 = Clock::now();
    if (impl == Impl::kScalar) {
      for (std::size_t c = 0; c < kChains; ++c) {
        const fabrik::SolveResult r = fabrik::SolveFabrik(chains[c], targets[c], settings);
        iterations += r.iterations;
      }
    } else {
      const fabrik::BatchSolveResult r = fabrik::SolveFabrikBatch(
          batch, targets, settings,
          impl == Impl::kBatchAll ? BatchThreads::kAll : BatchThreads::kOne,
          warm ? fabrik::BatchRegroup::kWhenRagged : fabrik::BatchRegroup::kNever);
      benchmark::DoNotOptimize(r);
    }
    benchmark::ClobberMemory();
    state.SetIterationTime(Seconds(Clock::now() - t0));
    if (impl != Impl::kScalar) {
      for (std::size_t c = 0; c < kChains; ++c) iterations += batch.outcome(c).iterations;
    }
  }
  const double updates = iterations * 2.0 * (joints - 1);
  state.counters["per_update"] =
      benchmark::Counter(updates, benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
  state.counters["iter/chain"] = iterations / (double(state.iterations()) * kChains);
}

// The field: 10,000 chains tracking moving targets, one frame per benchmark iteration.
void BM_Field(benchmark::State& state, Impl impl, float max_scale) {
  const std::vector<Chain> start = StartChains(kFieldChains, kFieldJoints, 2.0f);
  ChainBatch batch = std::move(ChainBatch::FromChains(start)).value();
  std::vector<Chain> chains = start;
  const Tracks tracks = MakeTracks(kFieldChains, max_scale);
  std::vector<glm::vec3> targets(kFieldChains);
  const fabrik::SolveSettings settings = Settings(1e-3f, 30);
  long frame = 0;
  double reachable = 0.0, reached_reachable = 0.0, iterations = 0.0;
  for (auto _ : state) {
    tracks.Fill(start, frame++, targets);
    const Clock::time_point t0 = Clock::now();
    if (impl == Impl::kScalar) {
      for (std::size_t c = 0; c < kFieldChains; ++c) {
        const fabrik::SolveResult r = fabrik::SolveFabrik(chains[c], targets[c], settings);
        reachable += r.reachable;
        reached_reachable += r.reachable && r.reached;
        iterations += r.iterations;
      }
    } else {
      const fabrik::BatchSolveResult r = fabrik::SolveFabrikBatch(
          batch, targets, settings,
          impl == Impl::kBatchAll ? BatchThreads::kAll : BatchThreads::kOne);
      reachable += double(r.reachable_count);
      reached_reachable += double(r.reached_reachable_count);
    }
    benchmark::ClobberMemory();
    state.SetIterationTime(Seconds(Clock::now() - t0));
    if (impl != Impl::kScalar) {
      for (std::size_t c = 0; c < kFieldChains; ++c) iterations += batch.outcome(c).iterations;
    }
  }
  state.counters["reached%"] = 100.0 * reached_reachable / reachable;
  state.counters["reachable%"] = 100.0 * reachable / (double(state.iterations()) * kFieldChains);
  state.counters["iter/chain"] = iterations / (double(state.iterations()) * kFieldChains);
}

// Cold batches, textbook or accelerated: one solve of every chain from the reset pose per
// benchmark iteration.
// The modes of the cold-batch cases: textbook and accelerated, targets uniform in the ball or
// in distance (ColdTargets).
enum class Mode { kTextbook, kAccelerated, kTextbookDistance, kAcceleratedDistance };
constexpr Mode kModes[] = {Mode::kTextbook, Mode::kAccelerated, Mode::kTextbookDistance,
                           Mode::kAcceleratedDistance};
bool Accelerated(Mode m) { return m == Mode::kAccelerated || m == Mode::kAcceleratedDistance; }
bool ByDistance(Mode m) { return m == Mode::kTextbookDistance || m == Mode::kAcceleratedDistance; }
// The textbook mode a mode is compared with.
Mode Textbook(Mode m) { return ByDistance(m) ? Mode::kTextbookDistance : Mode::kTextbook; }

void BM_Accelerate(benchmark::State& state, std::size_t count, Mode mode, Impl impl) {
  const std::vector<Chain> start = StartChains(count, kFieldJoints, 2.0f * float(kFieldJoints));
  const ChainBatch batch_start = std::move(ChainBatch::FromChains(start)).value();
  ChainBatch batch = batch_start;
  std::vector<Chain> chains = start;
  const std::vector<glm::vec3> targets = ColdTargets(start, ByDistance(mode));
  fabrik::SolveSettings settings = Settings(1e-3f, 100);
  settings.accelerate = Accelerated(mode);
  double iterations = 0.0, unreached = 0.0, cpu = 0.0;
  for (auto _ : state) {
    if (impl == Impl::kScalar) {
      chains = start;
    } else {
      batch = batch_start;
    }
    const double cpu0 = ThreadCpuSeconds();
    const Clock::time_point t0 = Clock::now();
    if (impl == Impl::kScalar) {
      for (std::size_t c = 0; c < count; ++c) {
        const fabrik::SolveResult r = fabrik::SolveFabrik(chains[c], targets[c], settings);
        iterations += r.iterations;
        unreached += !r.reached;
      }
    } else {
      const fabrik::BatchSolveResult r = fabrik::SolveFabrikBatch(
          batch, targets, settings,
          impl == Impl::kBatchAll ? BatchThreads::kAll : BatchThreads::kOne,
          fabrik::BatchRegroup::kNever);
      unreached += double(count - r.reached_count);
    }
    benchmark::ClobberMemory();
    state.SetIterationTime(Seconds(Clock::now() - t0));
    cpu += ThreadCpuSeconds() - cpu0;
    if (impl != Impl::kScalar) {
      for (std::size_t c = 0; c < count; ++c) iterations += batch.outcome(c).iterations;
    }
  }
  const double solves = double(state.iterations()) * double(count);
  state.counters["per_chain"] =
      benchmark::Counter(solves, benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
  state.counters["unreached%"] = 100.0 * unreached / solves;
  state.counters["iter/chain"] = iterations / solves;
  // The calling thread's CPU time per chain, ns (all of it for the one-thread variants).
  if (impl != Impl::kBatchAll) state.counters["cpu_ns/chain"] = 1e9 * cpu / solves;
}

std::string AccelerateName(std::size_t count, Mode mode, Impl impl) {
  const char* name = mode == Mode::kTextbook           ? "textbook"
                     : mode == Mode::kAccelerated      ? "accelerated"
                     : mode == Mode::kTextbookDistance ? "textbook_distance"
                                                       : "accelerated_distance";
  return std::string("cold_") + name + "/" + ImplName(impl) + "/chains:" + std::to_string(count);
}
constexpr std::size_t kAccelerateCounts[] = {4096, 100000};

std::string Name(int joints, bool warm, Impl impl) {
  return std::string(warm ? "warm" : "cold") + "/" + ImplName(impl) +
         "/joints:" + std::to_string(joints);
}

// Keeps the median of each benchmark when repeated, else its single run.
class Collector : public benchmark::ConsoleReporter {
 public:
  void ReportRuns(const std::vector<Run>& runs) override {
    for (const Run& run : runs) {
      if (run.run_type == Run::RT_Iteration || run.aggregate_name == "median") {
        results_[run.run_name.function_name] = run;
      }
    }
    ConsoleReporter::ReportRuns(runs);
  }
  const Run* Find(const std::string& name) const {
    const auto it = results_.find(name);
    return it == results_.end() ? nullptr : &it->second;
  }

 private:
  std::map<std::string, Run> results_;
};

double Counter(const benchmark::BenchmarkReporter::Run& run, const char* name) {
  const auto it = run.counters.find(name);
  return it == run.counters.end() ? 0.0 : it->second.value;
}

void PrintSummary(const Collector& collector) {
  std::printf("\nBatched solver, SIMD target %s, %u hardware threads, %zu chains per case\n",
              fabrik::BatchSimdTarget(), std::thread::hardware_concurrency(), kChains);
  std::printf("%-5s %6s | %9s %9s %9s | %8s %8s %8s | %6s\n", "mode", "joints", "scalar",
              "batch 1t", "batch all", "1t/scal", "all/scal", "all/1t", "iter");
  std::printf("%-5s %6s | %9s %9s %9s | %8s %8s %8s | %6s\n", "", "", "ns/upd", "ns/upd", "ns/upd",
              "speedup", "speedup", "gain", "/chain");
  for (bool warm : {false, true}) {
    for (int joints : kJointCounts) {
      const auto* s = collector.Find(Name(joints, warm, Impl::kScalar));
      const auto* one = collector.Find(Name(joints, warm, Impl::kBatchOne));
      const auto* all = collector.Find(Name(joints, warm, Impl::kBatchAll));
      if (!s || !one || !all) continue;
      const double ts = Counter(*s, "per_update") * 1e9, t1 = Counter(*one, "per_update") * 1e9,
                   ta = Counter(*all, "per_update") * 1e9;
      std::printf("%-5s %6d | %9.3f %9.3f %9.3f | %7.1fx %7.1fx %7.2fx | %6.2f\n",
                  warm ? "warm" : "cold", joints, ts, t1, ta, ts / t1, ts / ta, t1 / ta,
                  Counter(*one, "iter/chain"));
    }
  }
  std::printf("\nCold batches of %d joints, tolerance 1e-3, cap 100: textbook vs accelerated\n",
              kFieldJoints);
  std::printf("%-45s | %10s | %10s | %10s | %10s | %12s\n", "case", "ns/chain", "unreached",
              "iter/chain", "cpu ns", "vs textbook");
  for (std::size_t count : kAccelerateCounts) {
    for (Impl impl : {Impl::kScalar, Impl::kBatchOne, Impl::kBatchAll}) {
      for (Mode mode : kModes) {
        const auto* slow = collector.Find(AccelerateName(count, Textbook(mode), impl));
        const auto* run = collector.Find(AccelerateName(count, mode, impl));
        if (!run) continue;
        const double ns = Counter(*run, "per_chain") * 1e9;
        const double speedup = slow ? Counter(*slow, "per_chain") * 1e9 / ns : 0.0;
        const double cpu = Counter(*run, "cpu_ns/chain");
        std::printf("%-45s | %10.1f | %9.3f%% | %10.2f | %10.1f | %11.2fx\n",
                    AccelerateName(count, mode, impl).c_str(), ns, Counter(*run, "unreached%"),
                    Counter(*run, "iter/chain"), cpu, speedup);
      }
    }
  }
  std::printf("\nField: %zu chains of %d joints tracking moving targets (tolerance 1e-3, cap 30)\n",
              kFieldChains, kFieldJoints);
  std::printf("%-25s | %10s | %16s | %11s | %10s\n", "case", "ms/frame", "reached/reachable",
              "reachable", "iter/chain");
  for (const char* field : {"field", "field_edge"}) {
    for (Impl impl : {Impl::kScalar, Impl::kBatchOne, Impl::kBatchAll}) {
      const std::string name = std::string(field) + "/" + ImplName(impl);
      const auto* run = collector.Find(name);
      if (!run) continue;
      std::printf("%-25s | %10.3f | %15.2f%% | %10.1f%% | %10.2f\n", name.c_str(),
                  run->GetAdjustedRealTime(), Counter(*run, "reached%"),
                  Counter(*run, "reachable%"), Counter(*run, "iter/chain"));
    }
  }
}

}  // namespace

int main(int argc, char** argv) {
  for (bool warm : {false, true}) {
    for (int joints : kJointCounts) {
      for (Impl impl : {Impl::kScalar, Impl::kBatchOne, Impl::kBatchAll}) {
        benchmark::RegisterBenchmark(Name(joints, warm, impl).c_str(), BM_Chains, joints, warm,
                                     impl)
            ->Unit(benchmark::kMillisecond)
            ->UseManualTime();
      }
    }
  }
  for (std::size_t count : kAccelerateCounts) {
    // The scalar reference only for the smaller batch (100,000 textbook solves take ~0.2 s).
    for (Impl impl : {Impl::kScalar, Impl::kBatchOne, Impl::kBatchAll}) {
      if (impl == Impl::kScalar && count > kChains) continue;
      for (Mode mode : kModes) {
        benchmark::RegisterBenchmark(AccelerateName(count, mode, impl).c_str(), BM_Accelerate,
                                     count, mode, impl)
            ->Unit(benchmark::kMillisecond)
            ->UseManualTime();
      }
    }
  }
  for (const auto& [field, scale] : {std::pair{"field", 1.0f}, std::pair{"field_edge", 1.4f}}) {
    for (Impl impl : {Impl::kScalar, Impl::kBatchOne, Impl::kBatchAll}) {
      benchmark::RegisterBenchmark((std::string(field) + "/" + ImplName(impl)).c_str(), BM_Field,
                                   impl, scale)
          ->Unit(benchmark::kMillisecond)
          ->UseManualTime();
    }
  }
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  Collector collector;
  benchmark::RunSpecifiedBenchmarks(&collector);
  PrintSummary(collector);
  benchmark::Shutdown();
  return 0;
}
