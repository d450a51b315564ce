// bench_tables.cpp - reproduces the published comparison tables with this library's solvers.
//
//   (a) Aristidou & Lasenby, "FABRIK: A fast, iterative solver for the Inverse Kinematics
//       problem", Graphical Models 73(5), 2011: FABRIK against CCD, Jacobian transpose and
//       damped least squares on one unconstrained 10-joint chain, random reachable and
//       unreachable targets.
//   (b) T. Gartside, "CSC 473 - Implementing Inverse Kinematics using FABRIK" (a report),
//       Table 1 and section 4.2.2: FABRIK following the word spline (assets/splines/word.txt)
//       with 5, 10, 15 and 20 equal segments and with lengths 1, 2, 3, 1; iterations per frame
//       at margins 0.01 and 0.001; the same run for the other solvers.
//
// Usage: bench_tables [--targets N] [--seed S] [--spline PATH] [--step D]
// Deterministic apart from the timings: targets come from a fixed-seed generator whose
// float conversion is written out here, so every platform draws the same targets.
// Timings are wall-clock (steady_clock), single thread: in (a) around each Solve call only
// (resetting the pose between solves is not timed), in (b) around a whole run of per-frame
// solves; each measurement is repeated and the fastest kept.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <map>
#include <iterator>
#include <random>
#include <string>
#include <vector>

#include <glm/geometric.hpp>
#include <glm/vec3.hpp>

#include "ik/chain.h"
#include "ik/solver.h"
#include "ik/catmull_rom.h"
#include "lang/spline_file.h"

namespace fabrik {
namespace {

using Clock = std::chrono::steady_clock;

struct Options {
  int targets = 1000;
  unsigned seed = 2011;
  std::string spline = std::string(FABRIK_SOURCE_DIR) + "/assets/splines/word.txt";
  float step = 0.02f;
};

// Uniform float in [0, 1) from the top 24 bits: the same sequence everywhere (the standard
// distributions are allowed to differ between library implementations).
float Uniform01(std::mt19937& rng) { return static_cast<float>(rng() >> 8) * 0x1.0p-24f; }

glm::vec3 UniformInUnitBall(std::mt19937& rng) {
  for (;;) {
    const glm::vec3 p(2.0f * Uniform01(rng) - 1.0f, 2.0f * Uniform01(rng) - 1.0f,
                      2.0f * Uniform01(rng) - 1.0f);
    if (glm::dot(p, p) <= 1.0f) return p;
  }
}

glm::vec3 UniformDirection(std::mt19937& rng) {
  for (;;) {
    const glm::vec3 p = UniformInUnitBall(rng);
    const float l = glm::length(p);
    if (l > 1e-3f) return p / l;
  }
}

std::string CpuName() {
  std::ifstream in("/proc/cpuinfo");
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("model name", 0) == 0) {
      const std::size_t colon = line.find(':');
      if (colon != std::string::npos) return line.substr(colon + 2);
    }
  }
  return "unknown CPU";
}

// The outcome of one solver over one target set.
struct Tally {
  std::vector<int> iterations;
  double total_us = 0.0;
  int reached = 0;
  double excess = 0.0;  // unreachable set: sum of (distance - (|t - root| - total length))

  double MeanIterations() const {
    double sum = 0.0;
    for (int i : iterations) sum += i;
    return iterations.empty() ? 0.0 : sum / static_cast<double>(iterations.size());
  }
  int Percentile(double q) const {
    if (iterations.empty()) return 0;
    std::vector<int> sorted = iterations;
    std::sort(sorted.begin(), sorted.end());
    const std::size_t k = static_cast<std::size_t>(q * static_cast<double>(sorted.size() - 1));
    return sorted[k];
  }
  double MeanMicroseconds() const {
    return iterations.empty() ? 0.0 : total_us / static_cast<double>(iterations.size());
  }
  double ReachedShare() const {
    return iterations.empty() ? 0.0 : static_cast<double>(reached) / iterations.size();
  }
};

// Solves every target from the same starting pose (a cold start each time, as in the paper's
// trials) and tallies iterations, time and success.
Tally RunSetOnce(SolverKind kind, const Chain& start, const std::vector<glm::vec3>& targets,
                 const SolveSettings& settings) {
  Tally tally;
  tally.iterations.reserve(targets.size());
  Chain chain = start;
  for (const glm::vec3& target : targets) {
    if (!chain.SetPose(start.joints()).ok()) std::abort();
    const Clock::time_point begin = Clock::now();
    const SolveResult r = Solve(kind, chain, target, settings);
    const Clock::time_point end = Clock::now();
    if (!r.ok) {
      std::fprintf(stderr, "%s rejected a target: %s\n", SolverName(kind), r.error);
      std::exit(1);
    }
    tally.total_us += std::chrono::duration<double, std::micro>(end - begin).count();
    tally.iterations.push_back(r.iterations);
    if (r.reached) ++tally.reached;
    if (!r.reachable) {
      const float best = glm::length(target - start.root()) - start.total_length();
      tally.excess += r.distance - best;
    }
  }
  return tally;
}

// The set is run kRepeats times (the solves are deterministic) and the fastest total kept, so
// a busy machine disturbs the times less.
constexpr int kRepeats = 5;

Tally RunSet(SolverKind kind, const Chain& start, const std::vector<glm::vec3>& targets,
             const SolveSettings& settings) {
  Tally best = RunSetOnce(kind, start, targets, settings);
  for (int r = 1; r < kRepeats; ++r) {
    const Tally again = RunSetOnce(kind, start, targets, settings);
    best.total_us = std::min(best.total_us, again.total_us);
  }
  return best;
}

// The paper's reachable-target figures (Aristidou & Lasenby 2011, Table 1; unoptimised MATLAB
// on a 2.2 GHz Pentium Dual Core): mean iterations and mean time per solve in milliseconds.
struct PaperRow {
  SolverKind kind;
  double iterations;
  double milliseconds;
};
constexpr PaperRow kPaper[] = {
    {SolverKind::kFabrik, 15.5, 13.3},
    {SolverKind::kCcd, 26.3, 123.6},
    {SolverKind::kJacobianTranspose, 1311.0, 12990.0},
    {SolverKind::kDls, 999.0, 10480.0},
};

void PrintRule(int width) {
  for (int i = 0; i < width; ++i) std::putchar('-');
  std::putchar('\n');
}

void PartA(const Options& options) {
  constexpr int kJoints = 10;  // root included, as everywhere in this project: 9 segments
  constexpr float kTotalLength = 10.0f;
  constexpr float kTolerance = 0.01f;
  constexpr int kCap = 10000;
  const std::vector<float> lengths(kJoints - 1, kTotalLength / (kJoints - 1));
  Result<Chain> made = Chain::Straight(glm::vec3(0.0f), glm::vec3(0.0f, 1.0f, 0.0f), lengths);
  if (!made.ok()) std::abort();
  const Chain start = std::move(made).value();
  const float reach = start.total_length();

  std::mt19937 rng(options.seed);
  std::vector<glm::vec3> reachable, unreachable;
  for (int i = 0; i < options.targets; ++i) reachable.push_back(reach * UniformInUnitBall(rng));
  for (int i = 0; i < options.targets; ++i) {
    const float radius = reach * (1.05f + 0.95f * Uniform01(rng));
    unreachable.push_back(radius * UniformDirection(rng));
  }

  SolveSettings settings;
  settings.tolerance = kTolerance;
  settings.max_iterations = kCap;

  std::printf(
      "(a) Aristidou & Lasenby 2011, Table 1: FABRIK vs CCD vs Jacobian transpose vs DLS\n");
  PrintRule(100);
  std::printf(
      "chain: %d joints (root included) = %d segments of %.4f, total length %.4f, "
      "root at the origin,\n       every solve starts from the chain straight along +Y\n",
      kJoints, kJoints - 1, lengths[0], reach);
  std::printf(
      "targets: %d reachable, uniform in the ball of radius %.4f about the root;\n"
      "         %d unreachable, uniform direction, distance uniform in [1.05, 2.0] x "
      "total length (seed %u)\n",
      options.targets, reach, options.targets, options.seed);
  std::printf(
      "tolerance: %.3g world units (%.2g%% of the chain's length); iteration cap: %d "
      "for every solver\n",
      kTolerance, 100.0 * kTolerance / reach, kCap);
  const SolverOptions defaults;
  std::printf(
      "solver options: CCD max joint angle %.3f rad; JT/DLS error clamp %.2f x length, "
      "max joint angle %.2f rad; DLS lambda %.2f x length = %.3f\n",
      defaults.ccd.max_joint_angle, defaults.jacobian.max_step, defaults.jacobian.max_joint_angle,
      defaults.jacobian.damping, defaults.jacobian.damping * reach);
  std::printf(
      "iteration: FABRIK one backward+forward pass, CCD one sweep of all joints, "
      "JT/DLS one Jacobian step\n");
  std::printf("machine: %s, single thread, %s build\n\n", CpuName().c_str(),
#ifdef NDEBUG
              "optimised"
#else
              "debug"
#endif
  );

  std::vector<Tally> reach_tallies, far_tallies;
  for (SolverKind kind : AllSolvers()) {
    reach_tallies.push_back(RunSet(kind, start, reachable, settings));
    far_tallies.push_back(RunSet(kind, start, unreachable, settings));
  }

  std::printf("Reachable targets (%d)\n", options.targets);
  std::printf("%-20s %10s %7s %7s %7s %11s %9s | %13s %14s\n", "solver", "mean iter", "median",
              "p95", "max", "mean us", "reached", "paper iter", "paper time");
  PrintRule(106);
  for (std::size_t s = 0; s < AllSolvers().size(); ++s) {
    const Tally& t = reach_tallies[s];
    const PaperRow& paper = kPaper[s];
    std::printf("%-20s %10.1f %7d %7d %7d %11.2f %8.1f%% | %13.1f %11.1f ms\n",
                SolverName(AllSolvers()[s]), t.MeanIterations(), t.Percentile(0.5),
                t.Percentile(0.95), t.Percentile(1.0), t.MeanMicroseconds(),
                100.0 * t.ReachedShare(), paper.iterations, paper.milliseconds);
  }
  std::printf("\nRatios to FABRIK (reachable targets)\n");
  std::printf("%-20s %16s %16s | %16s %16s\n", "solver", "paper iter x", "ours iter x",
              "paper time x", "ours time x");
  PrintRule(92);
  const Tally& fab = reach_tallies[0];
  for (std::size_t s = 0; s < AllSolvers().size(); ++s) {
    const Tally& t = reach_tallies[s];
    std::printf("%-20s %16.1f %16.1f | %16.1f %16.1f\n", SolverName(AllSolvers()[s]),
                kPaper[s].iterations / kPaper[0].iterations,
                t.MeanIterations() / fab.MeanIterations(),
                kPaper[s].milliseconds / kPaper[0].milliseconds,
                t.MeanMicroseconds() / fab.MeanMicroseconds());
  }

  // Where the iterations go: every solver slows down as the target nears full reach, where
  // the chain must end up almost straight (CCD and the transpose most of all).
  constexpr double kBands[] = {0.0, 0.5, 0.8, 0.9, 0.95, 1.0001};
  std::printf("\nMean iterations by target distance from the root (reachable set)\n");
  std::printf("%-20s", "|t - root| / length");
  for (std::size_t b = 0; b + 1 < std::size(kBands); ++b) {
    char label[32];
    std::snprintf(label, sizeof label, "%.2f-%.2f", kBands[b], std::min(kBands[b + 1], 1.0));
    std::printf(" %11s", label);
  }
  std::printf("\n%-20s", "targets");
  std::vector<int> band_of(reachable.size());
  for (std::size_t i = 0; i < reachable.size(); ++i) {
    const double f = glm::length(reachable[i]) / reach;
    band_of[i] = 0;
    while (band_of[i] + 2 < static_cast<int>(std::size(kBands)) && f >= kBands[band_of[i] + 1]) {
      ++band_of[i];
    }
  }
  for (std::size_t b = 0; b + 1 < std::size(kBands); ++b) {
    std::printf(" %11d", static_cast<int>(std::count(band_of.begin(), band_of.end(), b)));
  }
  std::printf("\n");
  PrintRule(20 + 12 * static_cast<int>(std::size(kBands) - 1));
  for (std::size_t s = 0; s < AllSolvers().size(); ++s) {
    std::printf("%-20s", SolverName(AllSolvers()[s]));
    for (std::size_t b = 0; b + 1 < std::size(kBands); ++b) {
      double sum = 0.0;
      int count = 0;
      for (std::size_t i = 0; i < reachable.size(); ++i) {
        if (band_of[i] != static_cast<int>(b)) continue;
        sum += reach_tallies[s].iterations[i];
        ++count;
      }
      std::printf(" %11.1f", count ? sum / count : 0.0);
    }
    std::printf("\n");
  }

  std::printf(
      "\nUnreachable targets (%d): every solver lays the chain straight towards the "
      "target in one pass (the library's contract)\n",
      options.targets);
  std::printf("%-20s %10s %11s %9s %26s\n", "solver", "mean iter", "mean us", "reached",
              "mean miss beyond optimum");
  PrintRule(80);
  for (std::size_t s = 0; s < AllSolvers().size(); ++s) {
    const Tally& t = far_tallies[s];
    std::printf("%-20s %10.1f %11.3f %8.1f%% %26.2e\n", SolverName(AllSolvers()[s]),
                t.MeanIterations(), t.MeanMicroseconds(), 100.0 * t.ReachedShare(),
                t.excess / static_cast<double>(t.iterations.size()));
  }
  std::printf("\n");
}

// ---------------------------------------------------------------------------------------------
// (b) Spline following, Gartside's report.

// How one solver did while following the spline, one solve per frame.
struct FollowStats {
  float scale = 0.0f;      // the word spline's scale about the root
  float curve_length = 0;  // of the scaled curve, world units
  int warm_up = 0;         // iterations to reach the curve's start from the straight chain
  std::vector<int> iterations;
  int reached = 0;
  double total_us = 0.0;

  int Max() const { return *std::max_element(iterations.begin(), iterations.end()); }
  int Min() const { return *std::min_element(iterations.begin(), iterations.end()); }
  double Mean() const {
    double sum = 0.0;
    for (int i : iterations) sum += i;
    return sum / static_cast<double>(iterations.size());
  }
  // The most common iteration count (the smaller one on a tie).
  int Mode() const {
    std::map<int, int> counts;
    for (int i : iterations) ++counts[i];
    int best = 0, best_count = -1;
    for (const auto& [value, count] : counts) {
      if (count > best_count) best = value, best_count = count;
    }
    return best;
  }
  double ShareAtMost(int n) const {
    return static_cast<double>(
               std::count_if(iterations.begin(), iterations.end(), [n](int i) { return i <= n; })) /
           static_cast<double>(iterations.size());
  }
  double MeanMicroseconds() const { return total_us / static_cast<double>(iterations.size()); }
};

// The fraction of a chain's reach the word's farthest point is scaled to.
constexpr float kFitToReach = 0.9f;

// The word spline scaled about the root (the origin) so its farthest point from the root is
// kFitToReach x `reach`.
Result<Spline> FitSpline(const Spline& word, float reach, float& scale_out) {
  float farthest = 0.0f;
  for (const glm::vec3& p : word.Tessellate(64)) farthest = std::max(farthest, glm::length(p));
  scale_out = kFitToReach * reach / farthest;
  std::vector<glm::vec3> points = word.points();
  for (glm::vec3& p : points) p *= scale_out;
  return Spline::Create(std::move(points), word.closed());
}

// Follows the (fitted) word once from start to end: the chain starts straight along +Y, is
// solved onto the curve's start (not counted), then the target advances `step` world units
// along the arc per frame and each frame is one warm-started solve. Iterations come from one
// run; the time per frame is the fastest of kRepeats whole runs divided by the frame count.
FollowStats Follow(SolverKind kind, const Spline& word, const std::vector<float>& lengths,
                   float tolerance, int cap, float step) {
  FollowStats stats;
  Result<Chain> made = Chain::Straight(glm::vec3(0.0f), glm::vec3(0.0f, 1.0f, 0.0f), lengths);
  if (!made.ok()) std::abort();
  Chain chain = std::move(made).value();
  Result<Spline> fitted = FitSpline(word, chain.total_length(), stats.scale);
  if (!fitted.ok()) {
    std::fprintf(stderr, "bench_tables: scaled spline rejected: %s\n", fitted.error().c_str());
    std::exit(1);
  }
  const Spline& curve = fitted.value();
  stats.curve_length = curve.length();
  SolveSettings settings;
  settings.tolerance = tolerance;
  settings.max_iterations = cap;
  stats.warm_up = Solve(kind, chain, curve.PointAtDistance(0.0), settings).iterations;
  const Chain on_curve = chain;

  const int frames = static_cast<int>(std::floor(curve.length() / step));
  std::vector<glm::vec3> targets;
  targets.reserve(frames);
  for (int frame = 1; frame <= frames; ++frame) {
    targets.push_back(curve.PointAtDistance(static_cast<double>(frame) * step));
  }
  stats.iterations.reserve(frames);
  for (const glm::vec3& target : targets) {
    const SolveResult r = Solve(kind, chain, target, settings);
    stats.iterations.push_back(r.iterations);
    if (r.reached) ++stats.reached;
  }
  stats.total_us = 1e300;
  for (int repeat = 0; repeat < kRepeats; ++repeat) {
    if (!chain.SetPose(on_curve.joints()).ok()) std::abort();
    int sink = 0;  // keeps the solves from being optimised away
    const Clock::time_point begin = Clock::now();
    for (const glm::vec3& target : targets) sink += Solve(kind, chain, target, settings).iterations;
    const Clock::time_point end = Clock::now();
    if (sink < 0) std::abort();
    stats.total_us =
        std::min(stats.total_us, std::chrono::duration<double, std::micro>(end - begin).count());
  }
  return stats;
}

struct ChainCase {
  const char* name;
  std::vector<float> lengths;
};

void PartB(const Options& options) {
  std::printf("(b) Gartside's report, Table 1 and section 4.2.2: FABRIK following the word spline\n");
  PrintRule(100);
  Result<Spline> loaded = LoadSplineFile(options.spline);
  if (!loaded.ok()) {
    std::printf("spline not available: %s\n(part (b) skipped)\n", loaded.error().c_str());
    return;
  }
  const Spline& word = loaded.value();
  constexpr int kCap = 1000;
  const std::vector<ChainCase> cases = {
      {"5 joints", std::vector<float>(4, 1.0f)},     {"10 joints", std::vector<float>(9, 1.0f)},
      {"15 joints", std::vector<float>(14, 1.0f)},   {"20 joints", std::vector<float>(19, 1.0f)},
      {"lengths 1,2,3,1", {1.0f, 2.0f, 3.0f, 1.0f}},
  };
  std::printf("spline: %s (%zu control points, %s, length %.3f)\n", options.spline.c_str(),
              word.points().size(), word.closed() ? "closed" : "open", word.length());
  std::printf(
      "chains: root at the origin, straight along +Y at the start; equal segments of "
      "length 1 (joints include the root)\n");
  std::printf(
      "the word is scaled about the root so its farthest point is %.0f%% of each "
      "chain's reach (scale printed per row)\n",
      100.0 * kFitToReach);
  std::printf(
      "the target moves %.3g world units along the arc per frame (constant speed); one "
      "warm-started solve per frame;\nthe first solve onto the curve's start is not "
      "counted; iteration cap %d\n\n",
      options.step, kCap);

  std::printf("%-16s %6s %7s %7s | %-7s %6s %5s %4s %4s %7s %7s %9s\n", "chain", "reach", "scale",
              "frames", "margin", "mean", "mode", "min", "max", "<=3 it", "<=4 it", "solves/s");
  PrintRule(100);
  std::vector<double> rates;
  for (const ChainCase& c : cases) {
    for (float margin : {0.01f, 0.001f}) {
      const FollowStats f =
          Follow(SolverKind::kFabrik, word, c.lengths, margin, kCap, options.step);
      float reach = 0.0f;
      for (float l : c.lengths) reach += l;
      std::printf("%-16s %6.1f %7.3f %7zu | %-7g %6.2f %5d %4d %4d %6.1f%% %6.1f%% %9.0f\n", c.name,
                  reach, f.scale, f.iterations.size(), margin, f.Mean(), f.Mode(), f.Min(), f.Max(),
                  100.0 * f.ShareAtMost(3), 100.0 * f.ShareAtMost(4), 1e6 / f.MeanMicroseconds());
      if (f.reached != static_cast<int>(f.iterations.size())) {
        std::printf("%16s %d of %zu frames missed the margin at the cap\n", "",
                    static_cast<int>(f.iterations.size()) - f.reached, f.iterations.size());
      }
      if (margin == 0.01f && &c - cases.data() < 4) rates.push_back(1e6 / f.MeanMicroseconds());
    }
  }
  std::printf(
      "0 iterations: the moved target was still within the margin, so no pass ran (the "
      "report's recursion always runs\none pass before it checks, so its 1 covers our 0 "
      "and 1)\n");
  std::printf("\nThe report's figures (its own spline, C++/OpenGL on a Ryzen 7 5800X):\n");
  std::printf("  margin 0.01, 5-20 equal joints: every move <= 3 iterations, most commonly 1\n");
  std::printf("  margin 0.001, 20 joints:        every move <= 4 iterations, most commonly 2\n");
  std::printf("  lengths 1,2,3,1 (5 joints):      max 18 iterations, min 1\n");
  std::printf("  FPS (whole frame incl. rendering) 5/10/15/20 joints: 8750 / 4600 / 3300 / 2500\n");
  if (rates.size() == 4) {
    std::printf(
        "  ours, FABRIK solves per second alone (no rendering), margin 0.01: "
        "%.0f / %.0f / %.0f / %.0f\n",
        rates[0], rates[1], rates[2], rates[3]);
  }

  std::printf("\nThe same spline run with every solver (margin 0.01, iteration cap %d):\n", 10000);
  std::printf("%-20s", "solver");
  for (const ChainCase& c : cases) std::printf(" %20s", c.name);
  std::printf("\n%-20s", "");
  for (std::size_t i = 0; i < cases.size(); ++i) std::printf(" %20s", "mean/mode/max  us");
  std::printf("\n");
  PrintRule(20 + 21 * static_cast<int>(cases.size()));
  for (SolverKind kind : AllSolvers()) {
    std::printf("%-20s", SolverName(kind));
    for (const ChainCase& c : cases) {
      const FollowStats f = Follow(kind, word, c.lengths, 0.01f, 10000, options.step);
      char cell[64];
      std::snprintf(cell, sizeof cell, "%.1f/%d/%d %5.1f", f.Mean(), f.Mode(), f.Max(),
                    f.MeanMicroseconds());
      std::printf(" %20s", cell);
    }
    std::printf("\n");
  }
  std::printf("\n");
}

bool ParseOptions(int argc, char** argv, Options& options) {
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    const bool has_value = i + 1 < argc;
    if (arg == "--help" || arg == "-h") {
      std::printf(
          "usage: bench_tables [--targets N] [--seed S] [--spline PATH] [--step D]\n"
          "  --targets N    random targets per set in table (a) (default 1000)\n"
          "  --seed S       seed of the target generator (default 2011)\n"
          "  --spline PATH  the spline for table (b) (default assets/splines/word.txt)\n"
          "  --step D       world units the target moves per frame in (b) "
          "(default 0.02)\n");
      std::exit(0);
    } else if (arg == "--targets" && has_value) {
      options.targets = std::atoi(argv[++i]);
      if (options.targets < 1 || options.targets > 1000000) {
        std::fprintf(stderr, "bench_tables: --targets must be in [1, 1000000]\n");
        return false;
      }
    } else if (arg == "--spline" && has_value) {
      options.spline = argv[++i];
    } else if (arg == "--step" && has_value) {
      options.step = std::strtof(argv[++i], nullptr);
      if (!(options.step >= 1e-4f && options.step <= 10.0f)) {
        std::fprintf(stderr, "bench_tables: --step must be in [0.0001, 10]\n");
        return false;
      }
    } else if (arg == "--seed" && has_value) {
      options.seed = static_cast<unsigned>(std::strtoul(argv[++i], nullptr, 10));
    } else {
      std::fprintf(stderr, "bench_tables: unknown or incomplete option '%s' (try --help)\n",
                   arg.c_str());
      return false;
    }
  }
  return true;
}

}  // namespace
}  // namespace fabrik

int main(int argc, char** argv) {
  fabrik::Options options;
  if (!fabrik::ParseOptions(argc, argv, options)) return 2;
  const auto begin = fabrik::Clock::now();
  fabrik::PartA(options);
  fabrik::PartB(options);
  const double seconds = std::chrono::duration<double>(fabrik::Clock::now() - begin).count();
  std::printf("total run time %.1f s\n", seconds);
  return 0;
}
