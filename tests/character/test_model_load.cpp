// Loading skinned models (model.h): the packaged human and quadruped, and small .x files the
// tests write: skeleton order, weights kept and renormalised, units, animations.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <glm/geometric.hpp>
#include <set>
#include <string>

#include "character/model.h"
#include "character/pose.h"
#include "character_test_util.h"
#include "x_writer.h"

namespace fabrik::character {
namespace {

using namespace testing;

// The angle of a rotation, in [0, pi] (q and -q alike).
float RotationAngle(const glm::quat& q) { return 2.0f * std::acos(std::min(1.0f, std::abs(q.w))); }

int SkinnedBones(const Model& m) {
  return static_cast<int>(std::count(m.skeleton.skinned.begin(), m.skeleton.skinned.end(), 1));
}

// Invariants every loaded model keeps (model.h).
void ExpectWellFormed(const Model& m) {
  const Skeleton& sk = m.skeleton;
  ASSERT_GT(sk.bone_count(), 0);
  EXPECT_EQ(sk.parents[0], -1);
  std::set<std::string> names(sk.names.begin(), sk.names.end());
  EXPECT_EQ(names.size(), sk.names.size());
  for (int b = 1; b < sk.bone_count(); ++b) {
    EXPECT_GE(sk.parents[b], 0);
    EXPECT_LT(sk.parents[b], b);
  }
  for (const Vertex& v : m.vertices) {
    EXPECT_NEAR(v.weights.x + v.weights.y + v.weights.z + v.weights.w, 1.0f, 1e-5f);
    EXPECT_GE(v.weights.x, v.weights.y);
    EXPECT_GE(v.weights.y, v.weights.z);
    EXPECT_GE(v.weights.z, v.weights.w);
    EXPECT_NEAR(glm::length(v.normal), 1.0f, 1e-4f);
    for (int i = 0; i < kMaxInfluences; ++i) {
      ASSERT_GE(v.bones[i], 0);
      ASSERT_LT(v.bones[i], sk.bone_count());
    }
  }
  ASSERT_EQ(m.indices.size() % 3, 0u);
  for (std::uint32_t i : m.indices) ASSERT_LT(i, m.vertices.size());
  std::size_t vertices = 0, indices = 0;
  for (const MeshPart& p : m.parts) {
    EXPECT_EQ(p.first_vertex, vertices);
    EXPECT_EQ(p.first_index, indices);
    vertices += p.vertex_count;
    indices += p.index_count;
  }
  EXPECT_EQ(vertices, m.vertices.size());
  EXPECT_EQ(indices, m.indices.size());
}

TEST(CharacterModel, PackagedHumanHasItsMeshesBonesAndJump) {
  const Model m = LoadOrFail(kHuman);
  ExpectWellFormed(m);
  EXPECT_EQ(m.parts.size(), 3u);
  EXPECT_EQ(SkinnedBones(m), 54);
  // The file repeats a vertex for every face corner; identical ones are joined.
  EXPECT_GT(m.file_vertices, 15000u);
  EXPECT_LT(m.vertices.size(), m.file_vertices);
  ASSERT_EQ(m.animations.size(), 1u);
  EXPECT_GT(m.animations[0].duration, 1.0f);
  EXPECT_EQ(m.animations[0].ticks_per_second, 4800.0f);
  // The channels of the three meshes' own nodes are left out without a warning.
  EXPECT_TRUE(m.warnings.empty());
  // Metres, +Y up, facing +Z with the left at +X (docs/characters.md).
  float low = 1e9f, high = -1e9f;
  for (const Vertex& v : m.vertices) {
    low = std::min(low, v.position.y);
    high = std::max(high, v.position.y);
  }
  EXPECT_GT(high - low, 1.6f);
  EXPECT_LT(high - low, 2.0f);
  std::vector<BoneTransform> rest(m.skeleton.names.size());
  ASSERT_TRUE(RestPose(m.skeleton, rest));
  const int toe = m.skeleton.Find("B_Toe_Left"), ankle = m.skeleton.Find("B_Ankle_Left");
  const int head = m.skeleton.Find("B_Neck");
  ASSERT_GE(toe, 0);
  ASSERT_GE(ankle, 0);
  ASSERT_GE(head, 0);
  EXPECT_GT(rest[toe].translation.x, 0.05f);
  EXPECT_GT(rest[toe].translation.z, rest[ankle].translation.z + 0.05f);
  EXPECT_GT(rest[head].translation.y, rest[ankle].translation.y + 1.3f);
}

TEST(CharacterModel, PackagedQuadrupedHasItsWalkAndRun) {
  const Model m = LoadOrFail(kQuadruped);
  ExpectWellFormed(m);
  EXPECT_EQ(m.parts.size(), 1u);
  EXPECT_EQ(SkinnedBones(m), 37);
  const Animation* walk = nullptr;
  const Animation* run = nullptr;
  for (const Animation& a : m.animations) {
    if (a.name == "Wuson_Walk") walk = &a;
    if (a.name == "Wuson_Run") run = &a;
  }
  ASSERT_NE(walk, nullptr);
  ASSERT_NE(run, nullptr);
  EXPECT_NEAR(walk->duration, 3.6f, 1e-3f);
  EXPECT_NEAR(run->duration, 4640.0f / 4800.0f, 1e-3f);
}

TEST(CharacterModel, SmallFileGivesItsSkeletonAndMesh) {
  const Model m = LoadTextOrFail(XFile({StripSkeleton()}, {StripMesh()}));
  ExpectWellFormed(m);
  ASSERT_EQ(m.skeleton.bone_count(), 2);
  EXPECT_EQ(m.skeleton.names[0], "Root");
  EXPECT_EQ(m.skeleton.names[1], "Upper");
  EXPECT_EQ(SkinnedBones(m), 2);
  EXPECT_EQ(m.vertices.size(), 6u);
  EXPECT_EQ(m.indices.size(), 12u);
  EXPECT_NEAR(glm::length(m.skeleton.rest_local[1].translation - glm::vec3(0, 1, 0)), 0.0f, 1e-6f);
  // The middle row is half Root, half Upper; the others follow one bone.
  int shared = 0;
  for (const Vertex& v : m.vertices) {
    if (std::abs(v.position.y - 1.0f) < 1e-6f) {
      ++shared;
      EXPECT_NEAR(v.weights.x, 0.5f, 1e-6f);
      EXPECT_NEAR(v.weights.y, 0.5f, 1e-6f);
    } else {
      EXPECT_NEAR(v.weights.x, 1.0f, 1e-6f);
      EXPECT_EQ(v.bones[0], v.position.y > 1.0f ? 1 : 0);
    }
  }
  EXPECT_EQ(shared, 2);
  EXPECT_TRUE(m.warnings.empty());
}

TEST(CharacterModel, WeightsAreRenormalisedAndTheFourLargestKept) {
  XFrame root{"Root", glm::vec3(0.0f), {}};
  const char* names[] = {"A", "B", "C", "D", "E"};
  for (int i = 0; i < 5; ++i) root.children.push_back(XFrame{names[i], glm::vec3(i, 1, 0), {}});
  XMesh mesh = StripMesh();
  // Vertex 0 on five bones (sum 1); vertex 1 on Root at 0.6 only; every other vertex at 0.3
  // on Root and 0.3 on A (sum 0.6).
  const float five[] = {0.1f, 0.2f, 0.3f, 0.25f, 0.15f};
  mesh.skin.clear();
  mesh.skin.push_back(XWeights{"Root", {1, 2, 3, 4, 5}, {0.6f, 0.3f, 0.3f, 0.3f, 0.3f}, {}});
  for (int i = 0; i < 5; ++i) {
    XWeights w{names[i], {0}, {five[i]}, glm::vec3(i, 1, 0)};
    if (i == 0) {
      w.vertices = {0, 2, 3, 4, 5};
      w.weights = {five[0], 0.3f, 0.3f, 0.3f, 0.3f};
    }
    mesh.skin.push_back(w);
  }
  const Model m = LoadTextOrFail(XFile({root}, {mesh}));
  ExpectWellFormed(m);
  const Skeleton& sk = m.skeleton;
  for (const Vertex& v : m.vertices) {
    if (v.position == glm::vec3(0.0f)) {
      // The four largest of 0.1, 0.2, 0.3, 0.25, 0.15: C, D, B, E, over their sum 0.9.
      EXPECT_EQ(sk.names[v.bones[0]], "C");
      EXPECT_EQ(sk.names[v.bones[1]], "D");
      EXPECT_EQ(sk.names[v.bones[2]], "B");
      EXPECT_EQ(sk.names[v.bones[3]], "E");
      EXPECT_NEAR(v.weights.x, 0.3f / 0.9f, 1e-6f);
      EXPECT_NEAR(v.weights.w, 0.15f / 0.9f, 1e-6f);
    } else if (v.position == glm::vec3(1, 0, 0)) {
      EXPECT_NEAR(v.weights.x, 1.0f, 1e-6f);
      EXPECT_EQ(v.weights.y, 0.0f);
    } else {
      EXPECT_NEAR(v.weights.x, 0.5f, 1e-6f);
      EXPECT_NEAR(v.weights.y, 0.5f, 1e-6f);
    }
  }
}

TEST(CharacterModel, MetresPerUnitScalesEveryLength) {
  LoadOptions cm;
  cm.metres_per_unit = 0.01f;
  const Model m = LoadTextOrFail(XFile({StripSkeleton()}, {StripMesh()}), cm);
  ASSERT_EQ(m.skeleton.bone_count(), 2);
  EXPECT_NEAR(m.skeleton.rest_local[1].translation.y, 0.01f, 1e-8f);
  EXPECT_NEAR(m.skeleton.inverse_bind[1].translation.y, -0.01f, 1e-8f);
  float high = 0.0f;
  for (const Vertex& v : m.vertices) high = std::max(high, v.position.y);
  EXPECT_NEAR(high, 0.02f, 1e-8f);
}

TEST(CharacterModel, AnimationKeysBecomeSeconds) {
  const std::string anim = XAnimationText(
      "Bend", 10,
      {{"Upper", {{0, glm::vec4(1, 0, 0, 0)}, {20, glm::vec4(0.7071068f, 0, 0, 0.7071068f)}}}});
  const Model m = LoadTextOrFail(XFile({StripSkeleton()}, {StripMesh()}, anim));
  ASSERT_EQ(m.animations.size(), 1u);
  const Animation& a = m.animations[0];
  EXPECT_EQ(a.name, "Bend");
  EXPECT_NEAR(a.duration, 2.0f, 1e-6f);
  ASSERT_EQ(a.channels.size(), 1u);
  EXPECT_EQ(a.channels[0].bone, 1);
  // Half way: 45 degrees about Z, between the two keys.
  std::vector<BoneTransform> local(2);
  ASSERT_TRUE(SampleAnimation(m.skeleton, a, 1.0f, local));
  EXPECT_NEAR(RotationAngle(local[1].rotation), glm::radians(45.0f), 1e-4f);
  // Clamped beyond the end, and a NaN time samples 0.
  ASSERT_TRUE(SampleAnimation(m.skeleton, a, 99.0f, local));
  EXPECT_NEAR(RotationAngle(local[1].rotation), glm::radians(90.0f), 1e-4f);
  ASSERT_TRUE(SampleAnimation(m.skeleton, a, NAN, local));
  EXPECT_NEAR(RotationAngle(local[1].rotation), 0.0f, 1e-3f);
  // A span of the wrong size is refused.
  std::vector<BoneTransform> small(1);
  EXPECT_FALSE(SampleAnimation(m.skeleton, a, 0.0f, small));
}

}  // namespace
}  // namespace fabrik::character
