// CPU skinning of loaded characters (cpu_skin.h) and their poses (pose.h): the bind pose gives
// back the mesh, a skinned vertex equals an independent reference computed here from the
// weights (matrices for linear blending, GLM's dual quaternions for DQS), and animations keep
// every bone's length.
#define GLM_ENABLE_EXPERIMENTAL
#include <gtest/gtest.h>

#include <cmath>
#include <glm/geometric.hpp>
#include <glm/gtc/matrix_transform.hpp>
#include <glm/gtx/dual_quaternion.hpp>
#include <glm/mat4x4.hpp>
#include <string>
#include <vector>

#include "character/cpu_skin.h"
#include "character/model.h"
#include "character/pose.h"
#include "character_test_util.h"

namespace fabrik::character {
namespace {

using namespace testing;

struct Skinned {
  std::vector<glm::vec3> positions, normals;
};

Skinned Skin(const Model& m, const std::vector<BoneTransform>& pose, SkinMethod method) {
  std::vector<DualQuat> transforms(pose.size());
  EXPECT_TRUE(SkinningTransforms(m.skeleton, pose, transforms));
  Skinned s{std::vector<glm::vec3>(m.vertices.size()), std::vector<glm::vec3>(m.vertices.size())};
  EXPECT_TRUE(SkinVertices(m.vertices, transforms, method, s.positions, s.normals));
  return s;
}

glm::mat4 Matrix(const BoneTransform& t) {
  return glm::translate(glm::mat4(1.0f), t.translation) * glm::mat4_cast(t.rotation);
}

class PackagedModels : public ::testing::TestWithParam<const char*> {};

TEST_P(PackagedModels, BindPoseGivesBackTheMeshForBothMethods) {
  const Model m = LoadOrFail(GetParam());
  ASSERT_FALSE(m.vertices.empty());
  for (SkinMethod method : {SkinMethod::kLinear, SkinMethod::kDualQuat}) {
    const Skinned s = Skin(m, Bind(m), method);
    float worst_p = 0.0f, worst_n = 0.0f;
    for (std::size_t i = 0; i < m.vertices.size(); ++i) {
      worst_p = std::max(worst_p, glm::length(s.positions[i] - m.vertices[i].position));
      worst_n = std::max(worst_n, glm::length(s.normals[i] - m.vertices[i].normal));
    }
    // Float rounding of a few products of unit quaternions with lengths under 2 m.
    EXPECT_LT(worst_p, 2e-6f) << GetParam();
    EXPECT_LT(worst_n, 2e-6f) << GetParam();
  }
}

TEST_P(PackagedModels, SkinnedVerticesEqualAReferenceComputedFromTheWeights) {
  const Model m = LoadOrFail(GetParam());
  ASSERT_FALSE(m.animations.empty());
  const Animation& a = m.animations[0];
  const std::vector<BoneTransform> pose = Animated(m, a, 0.5f * a.duration);
  const Skinned lbs = Skin(m, pose, SkinMethod::kLinear);
  const Skinned dqs = Skin(m, pose, SkinMethod::kDualQuat);
  float moved = 0.0f;
  for (std::size_t i = 0; i < m.vertices.size(); i += 7) {
    const Vertex& v = m.vertices[i];
    glm::vec3 linear(0.0f);
    glm::dualquat sum(glm::quat(0, 0, 0, 0), glm::quat(0, 0, 0, 0));
    glm::quat first(1.0f, 0.0f, 0.0f, 0.0f);
    for (int k = 0; k < kMaxInfluences; ++k) {
      const int b = v.bones[k];
      const BoneTransform skin = pose[b] * m.skeleton.inverse_bind[b];
      linear += v.weights[k] * glm::vec3(Matrix(pose[b]) * Matrix(m.skeleton.inverse_bind[b]) *
                                         glm::vec4(v.position, 1.0f));
      glm::dualquat d(skin.rotation, skin.translation);
      if (k == 0) first = d.real;
      const float sign = glm::dot(d.real, first) < 0.0f ? -1.0f : 1.0f;
      sum.real = sum.real + d.real * (v.weights[k] * sign);
      sum.dual = sum.dual + d.dual * (v.weights[k] * sign);
    }
    const glm::vec3 blended = glm::normalize(sum) * v.position;
    EXPECT_LT(glm::length(lbs.positions[i] - linear), 1e-5f) << "vertex " << i;
    EXPECT_LT(glm::length(dqs.positions[i] - blended), 1e-5f) << "vertex " << i;
    moved = std::max(moved, glm::length(linear - v.position));
  }
  // The pose does move the mesh (so the comparison above is not of the bind pose).
  EXPECT_GT(moved, 0.01f);
}

TEST_P(PackagedModels, AnimationsAreFiniteAndKeepBoneLengths) {
  const Model m = LoadOrFail(GetParam());
  std::vector<BoneTransform> rest(m.skeleton.names.size());
  ASSERT_TRUE(RestPose(m.skeleton, rest));
  for (const Animation& a : m.animations) {
    for (float t : {0.0f, 0.5f * a.duration, a.duration}) {
      const std::vector<BoneTransform> pose = Animated(m, a, t);
      for (int b = 1; b < m.skeleton.bone_count(); ++b) {
        const int p = m.skeleton.parents[b];
        const glm::vec3 pos = pose[b].translation;
        ASSERT_TRUE(std::isfinite(pos.x) && std::isfinite(pos.y) && std::isfinite(pos.z));
        const float length = glm::length(pos - pose[p].translation);
        const float rest_length = glm::length(rest[b].translation - rest[p].translation);
        EXPECT_NEAR(length, rest_length, 1e-4f + 1e-3f * rest_length)
            << a.name << " t " << t << " bone " << m.skeleton.names[b];
      }
      const Skinned s = Skin(m, pose, SkinMethod::kDualQuat);
      for (const glm::vec3& p : s.positions) {
        ASSERT_TRUE(std::isfinite(p.x) && std::isfinite(p.y) && std::isfinite(p.z));
      }
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Files, PackagedModels, ::testing::Values(kHuman, kQuadruped));

TEST(CharacterSkin, SizesThatDoNotMatchAreRefused) {
  const Model m = LoadOrFail(kQuadruped);
  std::vector<BoneTransform> pose = Bind(m);
  std::vector<DualQuat> transforms(pose.size());
  std::vector<DualQuat> short_transforms(pose.size() - 1);
  EXPECT_FALSE(SkinningTransforms(m.skeleton, pose, short_transforms));
  ASSERT_TRUE(SkinningTransforms(m.skeleton, pose, transforms));
  std::vector<glm::vec3> p(m.vertices.size()), n(m.vertices.size()), few(3);
  EXPECT_FALSE(SkinVertices(m.vertices, transforms, SkinMethod::kLinear, few, n));
  EXPECT_FALSE(SkinVertices(m.vertices, std::span<const DualQuat>(), SkinMethod::kLinear, p, n));
  pose.pop_back();
  EXPECT_FALSE(LocalToModel(m.skeleton, pose, pose));
}

}  // namespace
}  // namespace fabrik::character
