// bench_rotations: the per-frame cost of turning a solved pose into bone rotations
// (rotations.h, with the previous frame's rotations, as the app does), of building the
// skinning dual quaternions (skinning.h) and of the CPU reference skinning of the whole tube
// (what the GPU does in shaders/skin.vert), for 5, 200 and 10,000 joints; plus one oriented
// solve (orientation_target.h) on a 10-joint chain towards random reachable requests.
// The poses move smoothly from one call to the next (a travelling wave along the chain).
#include <benchmark/benchmark.h>

#include <cmath>
#include <random>
#include <vector>

#include <glm/geometric.hpp>
#include <glm/gtc/quaternion.hpp>

#include "ik/chain.h"
#include "ik/orientation_target.h"
#include "ik/rotations.h"
#include "skin/skinning.h"
#include "skin/tube_mesh.h"

namespace {

using namespace fabrik;

// A smooth pose: segment i bends by a wave travelling with time t.
void WavePose(std::vector<glm::vec3>& p, float length, float t) {
  p[0] = glm::vec3(0.0f);
  const float n = static_cast<float>(p.size());
  for (std::size_t i = 1; i < p.size(); ++i) {
    const float s = static_cast<float>(i) / n;
    const glm::vec3 d =
        glm::normalize(glm::vec3(std::sin(6.0f * s + t), 1.5f, std::cos(4.0f * s + 0.7f * t)));
    p[i] = p[i - 1] + d * length;
  }
}

void BM_ChainRotations(benchmark::State& state) {
  const auto n = static_cast<std::size_t>(state.range(0));
  std::vector<glm::vec3> p(n);
  RotationTracker tracker;
  float t = 0.0f;
  for (auto _ : state) {
    state.PauseTiming();
    WavePose(p, 6.0f / static_cast<float>(n), t += 0.016f);
    state.ResumeTiming();
    benchmark::DoNotOptimize(tracker.Update(p).data());
  }
  state.counters["ns_per_bone"] =
      benchmark::Counter(static_cast<double>(n - 1), benchmark::Counter::kIsIterationInvariantRate |
                                                         benchmark::Counter::kInvert);
}
BENCHMARK(BM_ChainRotations)->Arg(5)->Arg(200)->Arg(10000)->Unit(benchmark::kMicrosecond);

void BM_SkinBonesAndCpuSkinning(benchmark::State& state) {
  const auto n = static_cast<std::size_t>(state.range(0));
  const bool whole_mesh = state.range(1) != 0;
  std::vector<float> lengths(n - 1, 6.0f / static_cast<float>(n));
  const SkinMesh mesh = BuildTube(lengths).value();
  std::vector<glm::vec3> p(n);
  WavePose(p, lengths[0], 1.0f);
  std::vector<glm::quat> q(n - 1);
  ChainRotations(p, {}, q);
  std::vector<DualQuat> bones(n - 1);
  for (auto _ : state) {
    SkinBones(mesh, q, p, bones);
    if (whole_mesh) {
      glm::vec3 sum(0.0f);
      for (const SkinVertex& v : mesh.vertices) sum += SkinDualQuat(v, bones).position;
      benchmark::DoNotOptimize(sum);
    }
    benchmark::DoNotOptimize(bones.data());
  }
  state.counters["vertices"] = static_cast<double>(mesh.vertices.size());
}
BENCHMARK(BM_SkinBonesAndCpuSkinning)
    ->Args({5, 0})
    ->Args({200, 0})
    ->Args({10000, 0})
    ->Args({5, 1})
    ->Args({200, 1})
    ->Unit(benchmark::kMicrosecond);

void BM_BuildTube(benchmark::State& state) {
  std::vector<float> lengths(static_cast<std::size_t>(state.range(0)) - 1, 0.03f);
  for (auto _ : state) benchmark::DoNotOptimize(BuildTube(lengths).value().vertices.data());
}
BENCHMARK(BM_BuildTube)->Arg(5)->Arg(200)->Unit(benchmark::kMicrosecond);

void BM_OrientedSolve(benchmark::State& state) {
  std::mt19937 rng(1);
  std::vector<float> lengths(9, 1.0f);
  Chain chain = Chain::Straight(glm::vec3(0.0f), {0, 1, 0}, lengths).value();
  OrientedSolver solver;
  std::normal_distribution<float> g(0.0f, 1.0f);
  int met = 0, solves = 0;
  for (auto _ : state) {
    state.PauseTiming();
    // A reachable request: a random pose's effector with its last bone's direction.
    std::vector<glm::vec3> pose{glm::vec3(0.0f)};
    for (float l : lengths) {
      pose.push_back(pose.back() + glm::normalize(glm::vec3(g(rng), g(rng), g(rng))) * l);
    }
    const glm::vec3 d = glm::normalize(pose.back() - pose[pose.size() - 2]);
    const OrientedTarget target{pose.back(),
                                EffectorTwist(glm::angleAxis(g(rng), glm::vec3(0, 1, 0)), d)};
    state.ResumeTiming();
    const OrientedSolveResult r = solver.Solve(chain, target, {1e-3f, 100});
    met += r.orientation_met;
    ++solves;
  }
  state.counters["met_share"] = static_cast<double>(met) / std::max(solves, 1);
}
BENCHMARK(BM_OrientedSolve)->Unit(benchmark::kMicrosecond);

}  // namespace

BENCHMARK_MAIN();
