// Skinned characters (docs/characters.md): loading the packaged models, evaluating a pose
// from an animation, skinning the human on the CPU by linear blend and dual quaternions, and
// retargeting a CMU clip onto the human.
#include <benchmark/benchmark.h>

#include <cstdio>
#include <cstdlib>
#include <vector>

#include "character/cpu_skin.h"
#include "character/model.h"
#include "character/pose.h"
#include "character/retarget.h"
#include "mocap/clip.h"
#include "mocap/clip_sample.h"

namespace fabrik::character {
namespace {

const char* kHumanPath = "/usr/share/assimp/models/X/BCN_Epileptic.X";
const char* kQuadrupedPath = "/usr/share/assimp/models/X/Testwuson.X";

const Model& Loaded(const char* path) {
  static Model human, quadruped;
  Model& m = path == kHumanPath ? human : quadruped;
  if (m.vertices.empty()) {
    Result<Model> r = LoadModelFile(path);
    if (!r) {
      std::fprintf(stderr, "%s\n", r.error().c_str());
      std::exit(1);
    }
    m = std::move(r).value();
  }
  return m;
}

void BM_Load(benchmark::State& state, const char* path) {
  for (auto _ : state) {
    Result<Model> m = LoadModelFile(path);
    if (!m) state.SkipWithError(m.error().c_str());
    benchmark::DoNotOptimize(m);
  }
}
BENCHMARK_CAPTURE(BM_Load, human, kHumanPath)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_Load, quadruped, kQuadrupedPath)->Unit(benchmark::kMillisecond);

// Sampling the animation at a moving time and putting the pose into model space.
void BM_Pose(benchmark::State& state, const char* path) {
  const Model& m = Loaded(path);
  const Animation& a = m.animations[0];
  std::vector<BoneTransform> pose(m.skeleton.names.size());
  float t = 0.0f;
  for (auto _ : state) {
    SampleAnimation(m.skeleton, a, t, pose);
    LocalToModel(m.skeleton, pose, pose);
    benchmark::DoNotOptimize(pose.data());
    t += 1.0f / 60.0f;
    if (t > a.duration) t = 0.0f;
  }
  state.counters["bones"] = static_cast<double>(pose.size());
}
BENCHMARK_CAPTURE(BM_Pose, human, kHumanPath)->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_Pose, quadruped, kQuadrupedPath)->Unit(benchmark::kMicrosecond);

// One frame of CPU skinning of the human in the middle of its jump: the bones' transforms
// and every vertex.
void BM_Skin(benchmark::State& state, SkinMethod method) {
  const Model& m = Loaded(kHumanPath);
  const Animation& a = m.animations[0];
  std::vector<BoneTransform> pose(m.skeleton.names.size());
  SampleAnimation(m.skeleton, a, 0.5f * a.duration, pose);
  LocalToModel(m.skeleton, pose, pose);
  std::vector<DualQuat> bones(pose.size());
  std::vector<glm::vec3> positions(m.vertices.size()), normals(m.vertices.size());
  for (auto _ : state) {
    SkinningTransforms(m.skeleton, pose, bones);
    SkinVertices(m.vertices, bones, method, positions, normals);
    benchmark::DoNotOptimize(positions.data());
    benchmark::DoNotOptimize(normals.data());
  }
  state.counters["vertices"] = static_cast<double>(m.vertices.size());
}
BENCHMARK_CAPTURE(BM_Skin, human_linear, SkinMethod::kLinear)->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_Skin, human_dual_quat, SkinMethod::kDualQuat)->Unit(benchmark::kMicrosecond);

// One frame of a CMU clip played on the human: sampling the clip (mocap::SampleClip) and the
// retargeting (Retargeter::Apply, with its limb fits), the time moving 1/60 s a frame.
void BM_Retarget(benchmark::State& state) {
  const Model& m = Loaded(kHumanPath);
  Result<mocap::Clip> clip = mocap::LoadClipFile("/usr/share/assimp/models/BVH/01_01.bvh");
  if (!clip) {
    state.SkipWithError(clip.error().c_str());
    return;
  }
  Result<Retargeter> r = Retargeter::Create(m.skeleton, clip.value());
  if (!r) {
    state.SkipWithError(r.error().c_str());
    return;
  }
  mocap::Pose clip_pose;
  clip_pose.Resize(clip.value().joint_count());
  std::vector<BoneTransform> pose(m.skeleton.names.size());
  float t = 0.0f;
  for (auto _ : state) {
    mocap::SampleClip(clip.value(), t, clip_pose);
    r.value().Apply(clip_pose, pose);
    benchmark::DoNotOptimize(pose.data());
    t += 1.0f / 60.0f;
    if (t > clip.value().duration()) t = 0.0f;
  }
}
BENCHMARK(BM_Retarget)->Unit(benchmark::kMicrosecond);

}  // namespace
}  // namespace fabrik::character

BENCHMARK_MAIN();
