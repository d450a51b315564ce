// bench_fabrik: SolveFabrik against a deliberately plain reference loop, and the textbook
// FABRIK against the accelerated one (fabrik_accelerated.h).
//
// For 5, 10, 20, 50, 100 and 1000 joints (segments of 1 world unit, root at the origin):
//   * cold: random targets uniform in the ball of the chain's reach; every solve starts from
//     the same pose (straight up, +Y), tolerance 1e-3, cap 100 iterations;
//   * warm: the target follows a smooth closed curve (distance from the root between 40% and
//     80% of the reach), advancing 0.5% of the reach per solve; every solve starts from the
//     last one's result (tracking), same tolerance and cap.
// Each case runs three times: "library" (SolveFabrik, textbook), "accelerated" (SolveFabrik
// with settings.accelerate) and "plain", the textbook loop of Aristidou
// & Lasenby's algorithm 1 on a float array: r = |p(i+1) - p(i)|, l = d(i) / r,
// p = (1 - l) a + l b, with no guards at all. Both see the same start poses and targets, so
// they do the same iterations (up to rounding; the iteration counters show it).
//
// Counters: solves/s; time per joint update (one reach; a FABRIK iteration makes 2 x (n - 1));
// iterations per solve; the share of solves that hit the cap. After the runs a summary
// table prints the library/plain time ratio for every case, then iteration statistics of
// the cold solves by target distance (share hitting the cap per band), for comparison with
// the figures quoted for plain FABRIK (10 equal joints, tolerance 1e-3, cap 100: about 21
// iterations on average, about 7% of solves hitting the cap, nearly all with targets beyond
// 90% of the reach). Last, the accelerated FABRIK's goal table (docs/accelerated-fabrik.md):
// textbook against accelerated on the same cold targets (mean iterations, share unreached,
// time per solve and its ratio), and warm tracking near full reach (20 joints, the target
// between 60% and 97% of the reach): the most iterations on any frame and the largest joint
// move as a multiple of the target's move in that frame.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <glm/geometric.hpp>
#include <glm/vec3.hpp>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "chain_scenarios.h"
#include "ik/chain.h"
#include "ik/fabrik.h"

namespace {

namespace t = fabrik::testing;

constexpr float kTolerance = 1e-3f;
constexpr int kCap = 100;
constexpr int kJointCounts[] = {5, 10, 20, 50, 100, 1000};
constexpr std::size_t kTargetCount = 4096;

// ---------------------------------------------------------------- the plain reference loop

// Joints as x, y, z triples; d[i] = |p(i+1) - p(i)|. Returns the iterations run.
int PlainFabrik(float* p, const float* d, int n, float total, const float t[3], float tol,
                int cap) {
  const float bx = p[0], by = p[1], bz = p[2];
  const float dist =
      std::sqrt((t[0] - bx) * (t[0] - bx) + (t[1] - by) * (t[1] - by) + (t[2] - bz) * (t[2] - bz));
  if (dist > total) {
    for (int i = 0; i < n - 1; ++i) {
      float* a = p + 3 * i;
      const float r = std::sqrt((t[0] - a[0]) * (t[0] - a[0]) + (t[1] - a[1]) * (t[1] - a[1]) +
                                (t[2] - a[2]) * (t[2] - a[2]));
      const float l = d[i] / r;
      a[3] = (1 - l) * a[0] + l * t[0];
      a[4] = (1 - l) * a[1] + l * t[1];
      a[5] = (1 - l) * a[2] + l * t[2];
    }
    return 1;
  }
  float* e = p + 3 * (n - 1);
  float dif = std::sqrt((e[0] - t[0]) * (e[0] - t[0]) + (e[1] - t[1]) * (e[1] - t[1]) +
                        (e[2] - t[2]) * (e[2] - t[2]));
  int iterations = 0;
  while (dif > tol && iterations < cap) {
    ++iterations;
    e[0] = t[0];
    e[1] = t[1];
    e[2] = t[2];
    for (int i = n - 2; i >= 0; --i) {
      float* a = p + 3 * i;
      float* b = a + 3;
      const float r = std::sqrt((b[0] - a[0]) * (b[0] - a[0]) + (b[1] - a[1]) * (b[1] - a[1]) +
                                (b[2] - a[2]) * (b[2] - a[2]));
      const float l = d[i] / r;
      a[0] = (1 - l) * b[0] + l * a[0];
      a[1] = (1 - l) * b[1] + l * a[1];
      a[2] = (1 - l) * b[2] + l * a[2];
    }
    p[0] = bx;
    p[1] = by;
    p[2] = bz;
    for (int i = 0; i < n - 1; ++i) {
      float* a = p + 3 * i;
      float* b = a + 3;
      const float r = std::sqrt((b[0] - a[0]) * (b[0] - a[0]) + (b[1] - a[1]) * (b[1] - a[1]) +
                                (b[2] - a[2]) * (b[2] - a[2]));
      const float l = d[i] / r;
      b[0] = (1 - l) * a[0] + l * b[0];
      b[1] = (1 - l) * a[1] + l * b[1];
      b[2] = (1 - l) * a[2] + l * b[2];
    }
    dif = std::sqrt((e[0] - t[0]) * (e[0] - t[0]) + (e[1] - t[1]) * (e[1] - t[1]) +
                    (e[2] - t[2]) * (e[2] - t[2]));
  }
  return iterations;
}

// ---------------------------------------------------------------- shared inputs

fabrik::Chain StartChain(int joints) {
  const std::vector<float> lengths(joints - 1, 1.0f);
  return std::move(fabrik::Chain::Straight(glm::vec3(0.0f), glm::vec3(0, 1, 0), lengths)).value();
}

std::vector<glm::vec3> ColdTargets(float reach) {
  std::mt19937 rng(2011);
  std::normal_distribution<float> g(0.0f, 1.0f);
  std::uniform_real_distribution<float> u(0.0f, 1.0f);
  std::vector<glm::vec3> targets;
  while (targets.size() < kTargetCount) {
    const glm::vec3 v(g(rng), g(rng), g(rng));
    const float l = glm::length(v);
    if (l < 1e-3f) continue;
    targets.push_back(v / l * reach * std::cbrt(u(rng)));  // uniform in the ball
  }
  return targets;
}

// A target tracking t::ReportCurve (40-80 % of the reach), 0.5 % of the reach per solve.
std::vector<glm::vec3> WarmTargets(float reach) {
  return t::TargetsAlong([reach](double u) { return glm::vec3(t::ReportCurve(u, reach)); },
                         0.005 * reach);
}

// Warm tracking near full reach: t::NearReachCurve (60-97 % of the reach), same step.
constexpr int kNearJoints = 20;

std::vector<glm::vec3> NearTargets(float reach) {
  return t::TargetsAlong([reach](double u) { return t::NearReachCurve(u, reach); }, 0.005 * reach);
}

struct Case {
  int joints;
  bool warm;
  bool accelerate = false;  // library runs only
};

// ---------------------------------------------------------------- benchmarks

void Report(benchmark::State& state, int joints, long long iterations, long long capped) {
  const double solves = static_cast<double>(state.iterations());
  const double updates = 2.0 * (joints - 1) * static_cast<double>(iterations);
  state.counters["solves/s"] = benchmark::Counter(solves, benchmark::Counter::kIsRate);
  // Inverted rate: seconds per update, printed with an SI prefix (e.g. "1.5ns").
  state.counters["per_update"] =
      benchmark::Counter(updates, benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
  state.counters["iter/solve"] = iterations / solves;
  state.counters["cap_hit"] = capped / solves;
}

void BM_Library(benchmark::State& state, Case c) {
  fabrik::Chain chain = StartChain(c.joints);
  const std::vector<glm::vec3> start(chain.joints().begin(), chain.joints().end());
  const std::vector<glm::vec3> targets =
      c.warm ? WarmTargets(chain.total_length()) : ColdTargets(chain.total_length());
  fabrik::SolveSettings settings;
  settings.tolerance = kTolerance;
  settings.max_iterations = kCap;
  settings.accelerate = c.accelerate;
  std::size_t next = 0;
  long long iterations = 0, capped = 0;
  for (auto _ : state) {
    // Cold: back to the start pose. Writing through pose_for_solver() is the same plain copy
    // the reference loop makes (SetPose would also re-measure every length).
    if (!c.warm) std::copy(start.begin(), start.end(), chain.pose_for_solver().begin());
    const fabrik::SolveResult r = fabrik::SolveFabrik(chain, targets[next], settings);
    benchmark::DoNotOptimize(r);
    benchmark::ClobberMemory();
    iterations += r.iterations;
    capped += !r.reached && r.iterations == kCap;
    if (++next == targets.size()) next = 0;
  }
  Report(state, c.joints, iterations, capped);
}

// Warm tracking near full reach, textbook or accelerated: the accelerated goal's case.
void BM_WarmNear(benchmark::State& state, bool accelerate) {
  fabrik::Chain chain = StartChain(kNearJoints);
  const std::vector<glm::vec3> targets = NearTargets(chain.total_length());
  fabrik::SolveSettings settings;
  settings.tolerance = kTolerance;
  settings.max_iterations = kCap;
  settings.accelerate = accelerate;
  (void)fabrik::SolveFabrik(chain, targets.back(), settings);
  std::size_t next = 0;
  long long iterations = 0, capped = 0;
  for (auto _ : state) {
    const fabrik::SolveResult r = fabrik::SolveFabrik(chain, targets[next], settings);
    benchmark::DoNotOptimize(r);
    benchmark::ClobberMemory();
    iterations += r.iterations;
    capped += !r.reached;
    if (++next == targets.size()) next = 0;
  }
  Report(state, kNearJoints, iterations, capped);
}

void BM_Plain(benchmark::State& state, Case c) {
  const fabrik::Chain chain = StartChain(c.joints);
  std::vector<float> start, lengths(chain.lengths().begin(), chain.lengths().end());
  for (const glm::vec3& p : chain.joints()) start.insert(start.end(), {p.x, p.y, p.z});
  std::vector<float> pose = start;
  const std::vector<glm::vec3> targets =
      c.warm ? WarmTargets(chain.total_length()) : ColdTargets(chain.total_length());
  std::size_t next = 0;
  long long iterations = 0, capped = 0;
  for (auto _ : state) {
    if (!c.warm) std::copy(start.begin(), start.end(), pose.begin());
    const float t[3] = {targets[next].x, targets[next].y, targets[next].z};
    const int it = PlainFabrik(pose.data(), lengths.data(), c.joints, chain.total_length(), t,
                               kTolerance, kCap);
    benchmark::DoNotOptimize(it);
    benchmark::ClobberMemory();
    iterations += it;
    const float* e = pose.data() + 3 * (c.joints - 1);
    const float dx = e[0] - t[0], dy = e[1] - t[1], dz = e[2] - t[2];
    capped += it == kCap && std::sqrt(dx * dx + dy * dy + dz * dz) > kTolerance;
    if (++next == targets.size()) next = 0;
  }
  Report(state, c.joints, iterations, capped);
}

std::string Name(const char* impl, const Case& c) {
  return std::string(c.warm ? "warm" : "cold") + "/" + impl + "/joints:" + std::to_string(c.joints);
}

// ---------------------------------------------------------------- summary

// Keeps every run's results for the summary, while printing as usual.
class Collector : public benchmark::ConsoleReporter {
 public:
  void ReportRuns(const std::vector<Run>& runs) override {
    for (const Run& run : runs) {
      if (run.run_type != Run::RT_Iteration && run.aggregate_name != "mean") continue;
      results_[run.benchmark_name()] = run;
    }
    ConsoleReporter::ReportRuns(runs);
  }
  // The run named `name`, or the mean of its repetitions when there were several.
  const Run* Find(const std::string& name) const {
    for (const std::string& key : {name + "_mean", name}) {
      const auto it = results_.find(key);
      if (it != results_.end()) return &it->second;
    }
    return nullptr;
  }

 private:
  std::map<std::string, Run> results_;
};

double Counter(const benchmark::BenchmarkReporter::Run& run, const char* name) {
  const auto it = run.counters.find(name);
  return it == run.counters.end() ? 0.0 : it->second.value;
}

void PrintRatios(const Collector& collector) {
  std::printf(
      "\nLibrary against the plain loop (time per solve; ratio > 1.10 would be a "
      "failure)\n");
  std::printf("%-6s %6s | %12s %12s | %10s %10s | %9s %9s | %6s\n", "mode", "joints",
              "lib solves/s", "plain sol/s", "lib ns/upd", "plain ns/u", "lib iter", "plain it",
              "ratio");
  for (bool warm : {false, true}) {
    for (int joints : kJointCounts) {
      const Case c{joints, warm};
      const auto* lib = collector.Find(Name("library", c));
      const auto* plain = collector.Find(Name("plain", c));
      if (lib == nullptr || plain == nullptr) continue;
      const double ratio = lib->GetAdjustedRealTime() / plain->GetAdjustedRealTime();
      std::printf("%-6s %6d | %12.0f %12.0f | %10.2f %10.2f | %9.2f %9.2f | %6.3f%s\n",
                  warm ? "warm" : "cold", joints, Counter(*lib, "solves/s"),
                  Counter(*plain, "solves/s"), Counter(*lib, "per_update") * 1e9,
                  Counter(*plain, "per_update") * 1e9, Counter(*lib, "iter/solve"),
                  Counter(*plain, "iter/solve"), ratio, ratio > 1.10 ? "  SLOWER" : "");
    }
  }
}

// Iterations and cap hits of cold solves, by how far the target is (fraction of the reach).
void PrintColdStatistics() {
  constexpr double kBands[] = {0.0, 0.5, 0.8, 0.9, 0.95, 0.99, 1.0};
  constexpr int kBandCount = 6;
  std::printf(
      "\nCold solves (start straight up, targets uniform in the reach ball, tolerance "
      "%g, cap %d)\n",
      kTolerance, kCap);
  std::printf(
      "%6s %7s | %9s %9s | %8s %8s | cap-hit share by target distance (%% of reach):"
      "\n",
      "joints", "targets", "lib mean", "plain", "lib cap", "plain");
  std::printf("%6s %7s | %9s %9s | %8s %8s |", "", "", "iter", "iter", "hit", "hit");
  for (int b = 0; b < kBandCount; ++b) {
    std::printf(" %3.0f-%-3.0f", 100 * kBands[b], 100 * kBands[b + 1]);
  }
  std::printf("  (library; share of targets in band)\n");
  for (int joints : kJointCounts) {
    fabrik::Chain chain = StartChain(joints);
    const std::vector<glm::vec3> start(chain.joints().begin(), chain.joints().end());
    std::vector<float> flat_start, lengths(chain.lengths().begin(), chain.lengths().end());
    for (const glm::vec3& p : start) flat_start.insert(flat_start.end(), {p.x, p.y, p.z});
    std::vector<float> flat = flat_start;
    const float reach = chain.total_length();
    const std::vector<glm::vec3> targets = ColdTargets(reach);
    const std::size_t count = joints >= 1000 ? 512 : targets.size();
    fabrik::SolveSettings settings;
    settings.tolerance = kTolerance;
    settings.max_iterations = kCap;
    long long lib_iterations = 0, plain_iterations = 0, lib_capped = 0, plain_capped = 0;
    int in_band[kBandCount] = {}, capped_in_band[kBandCount] = {};
    for (std::size_t i = 0; i < count; ++i) {
      std::copy(start.begin(), start.end(), chain.pose_for_solver().begin());
      const fabrik::SolveResult r = fabrik::SolveFabrik(chain, targets[i], settings);
      std::copy(flat_start.begin(), flat_start.end(), flat.begin());
      const float t[3] = {targets[i].x, targets[i].y, targets[i].z};
      const int it = PlainFabrik(flat.data(), lengths.data(), joints, reach, t, kTolerance, kCap);
      const float* e = flat.data() + 3 * (joints - 1);
      const float miss = std::sqrt((e[0] - t[0]) * (e[0] - t[0]) + (e[1] - t[1]) * (e[1] - t[1]) +
                                   (e[2] - t[2]) * (e[2] - t[2]));
      const bool lib_cap = !r.reached && r.iterations == kCap;
      lib_iterations += r.iterations;
      plain_iterations += it;
      lib_capped += lib_cap;
      plain_capped += it == kCap && miss > kTolerance;
      const double fraction = glm::length(targets[i]) / reach;
      int band = 0;
      while (band + 1 < kBandCount && fraction >= kBands[band + 1]) ++band;
      ++in_band[band];
      capped_in_band[band] += lib_cap;
    }
    const double n = static_cast<double>(count);
    std::printf("%6d %7zu | %9.2f %9.2f | %7.2f%% %7.2f%% |", joints, count, lib_iterations / n,
                plain_iterations / n, 100 * lib_capped / n, 100 * plain_capped / n);
    for (int b = 0; b < kBandCount; ++b) {
      if (in_band[b] == 0) {
        std::printf("     -  ");
      } else {
        std::printf(" %6.1f%%", 100.0 * capped_in_band[b] / in_band[b]);
      }
    }
    std::printf("  (");
    for (int b = 0; b < kBandCount; ++b) {
      std::printf("%s%.1f%%", b ? " " : "", 100.0 * in_band[b] / n);
    }
    std::printf(")\n");
    if (lib_capped > 0) {
      int beyond_90 = 0;
      for (int b = 3; b < kBandCount; ++b) beyond_90 += capped_in_band[b];
      std::printf(
          "%6s %7s   of the library's cap hits, %.0f%% had the target beyond 90%% of the "
          "reach\n",
          "", "", 100.0 * beyond_90 / lib_capped);
    }
  }
}

// ---------------------------------------------------------------- accelerated goals

struct ColdOutcome {
  double mean_iterations = 0.0;
  double unreached_percent = 0.0;
  int max_iterations = 0;
};

ColdOutcome ColdRun(int joints, bool accelerate) {
  fabrik::Chain chain = StartChain(joints);
  const std::vector<glm::vec3> start(chain.joints().begin(), chain.joints().end());
  const std::vector<glm::vec3> targets = ColdTargets(chain.total_length());
  const std::size_t count = joints >= 1000 ? 512 : targets.size();
  fabrik::SolveSettings settings;
  settings.tolerance = kTolerance;
  settings.max_iterations = kCap;
  settings.accelerate = accelerate;
  long long iterations = 0, unreached = 0;
  ColdOutcome out;
  for (std::size_t i = 0; i < count; ++i) {
    std::copy(start.begin(), start.end(), chain.pose_for_solver().begin());
    const fabrik::SolveResult r = fabrik::SolveFabrik(chain, targets[i], settings);
    iterations += r.iterations;
    unreached += !r.reached;
    out.max_iterations = std::max(out.max_iterations, r.iterations);
  }
  out.mean_iterations = static_cast<double>(iterations) / count;
  out.unreached_percent = 100.0 * static_cast<double>(unreached) / count;
  return out;
}

// Seconds per solve of a run, or 0 when it was filtered out.
double SecondsPerSolve(const Collector& collector, const std::string& name) {
  const auto* run = collector.Find(name);
  if (run == nullptr) return 0.0;
  const double rate = Counter(*run, "solves/s");
  return rate > 0.0 ? 1.0 / rate : 0.0;
}

void PrintAcceleratedGoals(const Collector& collector) {
  std::printf(
      "\nAccelerated FABRIK against the textbook (cold: targets uniform in the reach ball from "
      "a straight pose, tolerance %g, cap %d; unreached = not within tolerance at the end)\n",
      kTolerance, kCap);
  std::printf("%6s | %9s %9s %8s | %9s %9s %8s | %11s %11s %6s\n", "joints", "text mean",
              "unreached", "max it", "acc mean", "unreached", "max it", "text us/sol", "acc us/sol",
              "ratio");
  for (int joints : kJointCounts) {
    const ColdOutcome t = ColdRun(joints, false);
    const ColdOutcome a = ColdRun(joints, true);
    const double ts = SecondsPerSolve(collector, Name("library", Case{joints, false}));
    const double as = SecondsPerSolve(collector, Name("accelerated", Case{joints, false, true}));
    std::printf("%6d | %9.2f %8.2f%% %8d | %9.2f %8.2f%% %8d | %11.2f %11.2f %6.3f\n", joints,
                t.mean_iterations, t.unreached_percent, t.max_iterations, a.mean_iterations,
                a.unreached_percent, a.max_iterations, ts * 1e6, as * 1e6,
                ts > 0.0 && as > 0.0 ? as / ts : 0.0);
  }

  std::printf(
      "\nWarm tracking near full reach (%d joints, target between 60%% and 97%% of the reach, "
      "0.5%% of the reach per solve, tolerance %g)\n",
      kNearJoints, kTolerance);
  std::printf("%-12s | %6s %9s %8s %9s | %14s | %11s\n", "solver", "frames", "mean iter",
              "max iter", "unreached", "max joint move", "us/solve");
  for (bool accelerate : {false, true}) {
    fabrik::Chain chain = StartChain(kNearJoints);
    const std::vector<glm::vec3> targets = NearTargets(chain.total_length());
    fabrik::SolveSettings settings;
    settings.tolerance = kTolerance;
    settings.max_iterations = kCap;
    settings.accelerate = accelerate;
    (void)fabrik::SolveFabrik(chain, targets.back(), settings);
    std::vector<glm::vec3> before;
    glm::vec3 previous = targets.back();
    long long iterations = 0, unreached = 0;
    int worst = 0;
    double worst_move = 0.0;
    for (const glm::vec3& target : targets) {
      before.assign(chain.joints().begin(), chain.joints().end());
      const fabrik::SolveResult r = fabrik::SolveFabrik(chain, target, settings);
      const double moved = glm::length(glm::dvec3(target) - glm::dvec3(previous));
      for (std::size_t j = 0; j < before.size(); ++j) {
        const double d = glm::length(glm::dvec3(chain.joints()[j]) - glm::dvec3(before[j]));
        if (moved > 0.0) worst_move = std::max(worst_move, d / moved);
      }
      previous = target;
      iterations += r.iterations;
      unreached += !r.reached;
      worst = std::max(worst, r.iterations);
    }
    const char* impl = accelerate ? "accelerated" : "library";
    const double seconds =
        SecondsPerSolve(collector, std::string("warm_near/") + impl + "/joints:20");
    std::printf("%-12s | %6zu %9.2f %8d %8.2f%% | %12.2fx | %11.2f\n",
                accelerate ? "accelerated" : "textbook", targets.size(),
                static_cast<double>(iterations) / targets.size(), worst,
                100.0 * unreached / targets.size(), worst_move, seconds * 1e6);
  }
  std::printf(
      "(max joint move: the largest distance any joint moved in one frame, as a multiple "
      "of the distance the target moved)\n");
}

}  // namespace

int main(int argc, char** argv) {
  for (bool warm : {false, true}) {
    for (int joints : kJointCounts) {
      const Case c{joints, warm};
      benchmark::RegisterBenchmark(Name("library", c).c_str(), BM_Library, c);
      benchmark::RegisterBenchmark(Name("accelerated", c).c_str(), BM_Library,
                                   Case{joints, warm, true});
      benchmark::RegisterBenchmark(Name("plain", c).c_str(), BM_Plain, c);
    }
  }
  benchmark::RegisterBenchmark("warm_near/library/joints:20", BM_WarmNear, false);
  benchmark::RegisterBenchmark("warm_near/accelerated/joints:20", BM_WarmNear, true);
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  Collector collector;
  benchmark::RunSpecifiedBenchmarks(&collector);
  PrintRatios(collector);
  PrintColdStatistics();
  PrintAcceleratedGoals(collector);
  benchmark::Shutdown();
  return 0;
}
