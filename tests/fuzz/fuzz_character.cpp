// libFuzzer target: arbitrary bytes through the character loader as a DirectX .x file
// (character/model.h: Assimp's X reader, then the loader's checks). Checks: no crash; an
// accepted model keeps the documented limits, its parents come before their children, every
// vertex's weights sum to 1 over valid bones, every index names a vertex, and the bind pose
// and an animation sample skin to finite points.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string_view>
#include <vector>

#include "character/cpu_skin.h"
#include "character/model.h"
#include "character/pose.h"

namespace {

void Check(bool condition, const char* what) {
  if (!condition) {
    std::fprintf(stderr, "fuzz_character: broken promise: %s\n", what);
    std::abort();
  }
}

bool Finite(const glm::vec3& v) {
  return std::isfinite(v.x) && std::isfinite(v.y) && std::isfinite(v.z);
}

void CheckSkinned(const fabrik::character::Model& m,
                  const std::vector<fabrik::character::BoneTransform>& pose) {
  using namespace fabrik::character;
  std::vector<fabrik::DualQuat> bones(pose.size());
  Check(SkinningTransforms(m.skeleton, pose, bones), "skinning transforms refused");
  std::vector<glm::vec3> p(m.vertices.size()), n(m.vertices.size());
  Check(SkinVertices(m.vertices, bones, SkinMethod::kDualQuat, p, n), "skinning refused");
  for (const glm::vec3& q : p) Check(Finite(q), "a skinned point is not finite");
}

void CheckModel(const fabrik::character::Model& m) {
  using namespace fabrik::character;
  const Skeleton& sk = m.skeleton;
  const int bones = sk.bone_count();
  Check(bones >= 1 && bones <= kMaxBones, "bone count out of limits");
  Check(sk.parents[0] == -1, "bone 0 is not the root");
  for (int b = 1; b < bones; ++b) Check(sk.parents[b] >= 0 && sk.parents[b] < b, "parent order");
  Check(m.vertices.size() <= kMaxVertices, "too many vertices");
  for (const Vertex& v : m.vertices) {
    Check(std::abs(v.weights.x + v.weights.y + v.weights.z + v.weights.w - 1.0f) < 1e-4f,
          "weights do not sum to 1");
    for (int i = 0; i < kMaxInfluences; ++i) Check(v.bones[i] >= 0 && v.bones[i] < bones, "bone");
  }
  for (std::uint32_t i : m.indices) Check(i < m.vertices.size(), "an index names no vertex");
  std::vector<BoneTransform> pose(static_cast<std::size_t>(bones));
  Check(BindPose(sk, pose), "bind pose refused");
  CheckSkinned(m, pose);
  for (const Animation& a : m.animations) {
    Check(SampleAnimation(sk, a, 0.5f * a.duration, pose), "sample refused");
    Check(LocalToModel(sk, pose, pose), "local to model refused");
    CheckSkinned(m, pose);
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view bytes(reinterpret_cast<const char*>(data), size);
  const auto model = fabrik::character::LoadModelFromMemory(bytes, "x", "fuzz.x");
  if (model.ok()) CheckModel(model.value());
  return 0;
}
