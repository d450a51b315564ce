// bench_walker: the cost of the walker and of its terrain (docs/walker.md: The walker, Measured).
//
//   * BM_WalkerStep/legs: one fixed step of Walker::Update (locomotion, gait, body, every leg's
//     FABRIK solve) for a 4- or 6-legged spider walking on the shipped terrain
//     (assets/terrain/hills.png, 40 x 40 units, 3 high) back and forth between goals 20 units
//     apart. Counters: steps per second, leg solves per second, FABRIK iterations per leg
//     solve, foot steps (lift-offs) per simulated second, and simulated seconds per trip.
//   * BM_HeightAt: one bilinear ground query at random points.
//   * BM_LoadHillsPng: reading and decoding the 256 x 256 16-bit PNG.
#include <benchmark/benchmark.h>

#include <memory>
#include <random>
#include <string>

#include "terrain/heightmap_png.h"
#include "walker/walker.h"

namespace {

const std::string kHills = std::string(FABRIK_SOURCE_DIR) + "/assets/terrain/hills.png";

std::shared_ptr<const fabrik::Heightmap> Hills() {
  static const std::shared_ptr<const fabrik::Heightmap> map = [] {
    fabrik::Result<fabrik::Heightmap> m = fabrik::LoadHeightmapPng(kHills, 40.0f, 3.0f);
    return m.ok() ? std::make_shared<const fabrik::Heightmap>(std::move(m.value())) : nullptr;
  }();
  return map;
}

void BM_WalkerStep(benchmark::State& state) {
  const int legs = int(state.range(0));
  if (!Hills()) {
    state.SkipWithError("cannot load assets/terrain/hills.png");
    return;
  }
  fabrik::Result<fabrik::Walker> made =
      fabrik::Walker::Create(Hills(), fabrik::WalkerSettings::Spider(legs), {-10.0f, -10.0f});
  if (!made.ok()) {
    state.SkipWithError(made.error().c_str());
    return;
  }
  fabrik::Walker& w = made.value();
  const glm::vec3 goals[2] = {{10.0f, 0.0f, 8.0f}, {-10.0f, 0.0f, -10.0f}};
  int goal = 0;
  long iterations = 0, solves = 0, trips = 0;
  const float dt = w.settings().fixed_step;
  for (auto _ : state) {
    const fabrik::Result<int> r = w.Update(dt, goals[goal]);
    benchmark::DoNotOptimize(r.ok());
    for (const fabrik::WalkerLegState& leg : w.legs()) iterations += leg.last_solve.base.iterations;
    solves += long(w.legs().size());
    if (w.arrived()) {
      goal = 1 - goal;
      ++trips;
    }
  }
  const double simulated = w.time();
  state.counters["steps/s"] =
      benchmark::Counter(double(state.iterations()), benchmark::Counter::kIsRate);
  state.counters["leg_solves/s"] = benchmark::Counter(double(solves), benchmark::Counter::kIsRate);
  state.counters["iter/solve"] = solves ? double(iterations) / double(solves) : 0.0;
  state.counters["foot_steps/sim_s"] = simulated > 0 ? double(w.foot_steps()) / simulated : 0.0;
  state.counters["sim_s/trip"] = trips ? simulated / double(trips) : 0.0;
}
BENCHMARK(BM_WalkerStep)->Arg(4)->Arg(6)->MinTime(2.0);

void BM_HeightAt(benchmark::State& state) {
  if (!Hills()) {
    state.SkipWithError("cannot load assets/terrain/hills.png");
    return;
  }
  std::mt19937 rng(7);
  std::uniform_real_distribution<float> u(-22.0f, 22.0f);
  float xs[1024], zs[1024];
  for (int k = 0; k < 1024; ++k) xs[k] = u(rng), zs[k] = u(rng);
  int k = 0;
  for (auto _ : state) {
    benchmark::DoNotOptimize(Hills()->HeightAt(xs[k], zs[k]));
    k = (k + 1) & 1023;
  }
}
BENCHMARK(BM_HeightAt);

void BM_LoadHillsPng(benchmark::State& state) {
  for (auto _ : state) {
    fabrik::Result<fabrik::Heightmap> m = fabrik::LoadHeightmapPng(kHills, 40.0f, 3.0f);
    benchmark::DoNotOptimize(m.ok());
  }
}
BENCHMARK(BM_LoadHillsPng)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
