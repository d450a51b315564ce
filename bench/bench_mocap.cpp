// bench_mocap: full-body IK on motion-capture clips (docs/mocap.md: Figures).
//
//   * character/frame: one character playing CMU 01_03 on the hills (40 m, 3 m) with a hand
//     reach and a look target, one Character::Update per iteration at 120 Hz clip time:
//     the whole frame (sampling the clip included); counter ik_us is the IK part alone
//     (Character::last_ik_seconds).
//   * crowd/N: N characters (half 01_01, half 01_03, random places within 30 m x 30 m of the
//     hills, random headings and clip offsets), one Crowd::Update(1/60 s) per iteration on all
//     cores. The time is the crowd's IK (CrowdTiming::ik_seconds: pins, pelvis, the batched
//     leg solve, write-back); counters: solve_ms the batched solve alone (SolveFabrikBatch
//     over 2N legs), sample_ms the clip sampling before it, frame_ms the whole Update.
//     crowd_one_thread/N: the same on the calling thread only, with counter frame_cpu_ms, the
//     thread's CPU time for the whole Update (not inflated by other processes, as wall time
//     is on a busy machine).
//   * bake/step32: the export's work in one demo frame (docs/mocap.md: Exporting from the
//     demo): Baker::Step(32) on CMU 01_03 on the hills with a reach and a look target.
//   * bake/format: the export's last frame: the whole baked 01_01 (2,752 frames) formatted
//     as BVH text (Baker::Format; Write adds the file's write and rename).
// Run: build/bin/bench_mocap --benchmark_repetitions=5 --benchmark_report_aggregates_only=true
#include <benchmark/benchmark.h>

#include <chrono>
#include <cstdio>
#include <ctime>
#include <random>
#include <string>

#include "mocap/bake.h"
#include "mocap/crowd.h"
#include "terrain/heightmap_png.h"

namespace {

using namespace fabrik::mocap;

const fabrik::Heightmap& Hills() {
  static const fabrik::Heightmap map = [] {
    auto m = fabrik::LoadHeightmapPng(std::string(FABRIK_SOURCE_DIR) + "/assets/terrain/hills.png",
                                      40.0f, 3.0f);
    if (!m) {
      std::fprintf(stderr, "bench_mocap: %s\n", m.error().c_str());
      std::exit(1);
    }
    return std::move(m.value());
  }();
  return map;
}

std::shared_ptr<const Rig> LoadRig(const char* name) {
  auto clip = LoadClipFile(std::string("/usr/share/assimp/models/BVH/") + name);
  if (!clip) {
    std::fprintf(stderr, "bench_mocap: %s\n", clip.error().c_str());
    std::exit(1);
  }
  auto rig = MakeRig(std::move(clip.value()));
  if (!rig) {
    std::fprintf(stderr, "bench_mocap: %s\n", rig.error().c_str());
    std::exit(1);
  }
  return rig.value();
}

const std::shared_ptr<const Rig>& Rig0101() {
  static const auto rig = LoadRig("01_01.bvh");
  return rig;
}
const std::shared_ptr<const Rig>& Rig0103() {
  static const auto rig = LoadRig("01_03.bvh");
  return rig;
}

void BM_CharacterFrame(benchmark::State& state) {
  auto made = Character::Create(Rig0103());
  Character& c = made.value();
  c.SetTerrain(&Hills());
  c.SetPlacement(Placement{12.0f, -12.0f, 0.7f});
  (void)c.SetReachTarget(kRight, {12.3f, 1.5f, -11.5f});
  (void)c.SetLookTarget({13.0f, 1.7f, -10.0f});
  const float dt = c.rig().clip.frame_time();
  int frame = 0;
  double ik = 0.0;
  for (auto _ : state) {
    c.Update(WrapClipTime(c.rig().clip, frame * dt), dt);
    ++frame;
    ik += c.last_ik_seconds();
    benchmark::DoNotOptimize(c.pose().positions.data());
  }
  state.counters["ik_us"] = benchmark::Counter(1e6 * ik / frame);
}
BENCHMARK(BM_CharacterFrame)->Name("character/frame");

Baker MakeBaker(const std::shared_ptr<const Rig>& rig, const fabrik::Heightmap* ground) {
  BakeOptions options;
  options.terrain = ground;
  options.placement = Placement{12.0f, -12.0f, 0.7f};
  options.events = {{0.0f, BakeEvent::Kind::kReach, kRight, {12.3f, 1.5f, -11.5f}},
                    {0.0f, BakeEvent::Kind::kLook, kRight, {13.0f, 1.7f, -10.0f}}};
  auto made = Baker::Create(rig, options);
  if (!made) {
    std::fprintf(stderr, "bench_mocap: %s\n", made.error().c_str());
    std::exit(1);
  }
  return std::move(made.value());
}

void BM_BakeStep32(benchmark::State& state) {
  Baker baker = MakeBaker(Rig0103(), &Hills());
  for (auto _ : state) {
    if (baker.done()) {
      state.PauseTiming();
      baker = MakeBaker(Rig0103(), &Hills());
      state.ResumeTiming();
    }
    benchmark::DoNotOptimize(baker.Step(32));
  }
}
BENCHMARK(BM_BakeStep32)->Name("bake/step32")->Unit(benchmark::kMillisecond);

void BM_BakeFormat(benchmark::State& state) {
  Baker baker = MakeBaker(Rig0101(), nullptr);
  baker.Step(baker.frame_count());
  for (auto _ : state) {
    auto text = baker.Format();
    benchmark::DoNotOptimize(text.value().data());
  }
}
BENCHMARK(BM_BakeFormat)->Name("bake/format")->Unit(benchmark::kMillisecond);

void RunCrowd(benchmark::State& state, fabrik::BatchThreads threads) {
  const int n = static_cast<int>(state.range(0));
  std::mt19937 rng(7);
  std::uniform_real_distribution<float> place(-15.0f, 15.0f), turn(0.0f, 6.2831853f),
      offset(0.0f, 30.0f);
  std::vector<CrowdMember> members;
  for (int i = 0; i < n; ++i) {
    members.push_back(
        {i % 2 ? Rig0103() : Rig0101(), Placement{place(rng), place(rng), turn(rng)}, offset(rng)});
  }
  auto made = Crowd::Create(members, &Hills(), {}, threads);
  if (!made) {
    state.SkipWithError(made.error().c_str());
    return;
  }
  Crowd& crowd = made.value();
  for (int i = 0; i < 10; ++i) crowd.Update(1.0f / 60.0f);
  double solve = 0.0, sample = 0.0, frame = 0.0, cpu = 0.0;
  long frames = 0;
  const auto thread_cpu = [] {
    timespec t{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return static_cast<double>(t.tv_sec) + 1e-9 * static_cast<double>(t.tv_nsec);
  };
  for (auto _ : state) {
    const double cpu_start = thread_cpu();
    crowd.Update(1.0f / 60.0f);
    cpu += thread_cpu() - cpu_start;
    state.SetIterationTime(crowd.last_timing().ik_seconds);
    solve += crowd.last_timing().solve_seconds;
    sample += crowd.last_timing().sample_seconds;
    frame += crowd.last_timing().frame_seconds;
    ++frames;
  }
  state.counters["solve_ms"] = benchmark::Counter(1e3 * solve / frames);
  state.counters["sample_ms"] = benchmark::Counter(1e3 * sample / frames);
  state.counters["frame_ms"] = benchmark::Counter(1e3 * frame / frames);
  // On one thread: the calling thread's CPU time for the whole Update, which other processes
  // on the machine do not inflate (wall times do).
  if (threads == fabrik::BatchThreads::kOne) {
    state.counters["frame_cpu_ms"] = benchmark::Counter(1e3 * cpu / frames);
  }
  state.counters["legs"] = benchmark::Counter(2.0 * n);
}

void BM_Crowd(benchmark::State& state) { RunCrowd(state, fabrik::BatchThreads::kAll); }
void BM_CrowdOneThread(benchmark::State& state) { RunCrowd(state, fabrik::BatchThreads::kOne); }
BENCHMARK(BM_Crowd)->Name("crowd")->Arg(100)->Arg(1000)->Arg(5000)->UseManualTime()->Unit(
    benchmark::kMillisecond);
BENCHMARK(BM_CrowdOneThread)
    ->Name("crowd_one_thread")
    ->Arg(100)
    ->Arg(1000)
    ->Arg(5000)
    ->UseManualTime()
    ->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
