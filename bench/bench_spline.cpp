// bench_spline: what loading a spline costs (Spline::Create builds the arc-length table,
// catmull_rom.h) for 100, 1,000 and 10,000 (the most a spline may have) control points on an uneven
// 3D curve, and what following it costs per frame (PointAtDistance: table lookup plus Newton
// refinement).
#include <benchmark/benchmark.h>

#include <cmath>
#include <random>
#include <vector>

#include "ik/catmull_rom.h"

namespace {

using namespace fabrik;

// A wandering curve with uneven spacing (every third step is short), as drawn by hand.
std::vector<glm::vec3> Points(std::size_t n) {
  std::mt19937 rng(7);
  std::uniform_real_distribution<float> jitter(-0.3f, 0.3f);
  std::vector<glm::vec3> p(n);
  for (std::size_t i = 0; i < n; ++i) {
    const float t = static_cast<float>(i) * 0.05f;
    const float r = 3.0f + std::sin(0.37f * t);
    p[i] =
        glm::vec3(r * std::cos(t), 0.2f * t - 0.01f * static_cast<float>(i % 3), r * std::sin(t)) +
        glm::vec3(jitter(rng), jitter(rng), jitter(rng)) * (i % 3 == 0 ? 0.1f : 1.0f);
  }
  return p;
}

void BM_SplineCreate(benchmark::State& state) {
  const std::vector<glm::vec3> points = Points(static_cast<std::size_t>(state.range(0)));
  for (auto _ : state) {
    Result<Spline> s = Spline::Create(points, false);
    benchmark::DoNotOptimize(s);
  }
  state.SetItemsProcessed(state.iterations() * state.range(0));
  state.SetLabel("items = control points");
}
BENCHMARK(BM_SplineCreate)
    ->Arg(100)
    ->Arg(1000)
    ->Arg(Spline::kMaxPoints)
    ->Unit(benchmark::kMicrosecond);

void BM_SplinePointAtDistance(benchmark::State& state) {
  const Spline s = Spline::Create(Points(static_cast<std::size_t>(state.range(0))), true).value();
  const double step = s.length() / 997.0;
  double d = 0.0;
  for (auto _ : state) {
    benchmark::DoNotOptimize(s.PointAtDistance(d));
    d += step;
  }
}
BENCHMARK(BM_SplinePointAtDistance)->Arg(100)->Arg(Spline::kMaxPoints);

}  // namespace

BENCHMARK_MAIN();
