// Tests of the skinned tube (tube_mesh.h) and dual quaternion skinning (dual_quat.h,
// skinning.h): the mesh is closed, bound and outward-facing; skinned vertices follow the bones;
// a half-turn twist does not collapse the tube as linear blending does.
#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <random>
#include <tuple>
#include <utility>
#include <vector>

#include <glm/geometric.hpp>
#include <glm/gtc/quaternion.hpp>

#include "ik/rotations.h"
#include "skin/dual_quat.h"
#include "skin/skinning.h"
#include "skin/tube_mesh.h"

namespace fabrik {
namespace {

const glm::vec3 kY(0.0f, 1.0f, 0.0f);

glm::vec3 RandomUnit(std::mt19937& rng) {
  std::normal_distribution<float> g(0.0f, 1.0f);
  for (;;) {
    const glm::vec3 v(g(rng), g(rng), g(rng));
    if (glm::length(v) > 1e-3f) return glm::normalize(v);
  }
}

SkinMesh Tube(const std::vector<float>& lengths, const TubeSpec& spec = {}) {
  Result<SkinMesh> m = BuildTube(lengths, spec);
  EXPECT_TRUE(m.ok()) << m.error();
  return std::move(m).value();
}

std::vector<glm::vec3> RestJoints(const SkinMesh& m) {
  std::vector<glm::vec3> j = m.rest_origins;
  j.push_back(j.back() + glm::vec3(0.0f, m.lengths.back(), 0.0f));
  return j;
}

TEST(TubeMesh, RejectsBadInput) {
  EXPECT_FALSE(BuildTube(std::vector<float>{}).ok());
  EXPECT_FALSE(BuildTube(std::vector<float>{1.0f, 0.0f}).ok());
  EXPECT_FALSE(BuildTube(std::vector<float>{1.0f, NAN}).ok());
  TubeSpec s;
  s.tip_radius = 0.5f;  // above base_radius
  EXPECT_FALSE(BuildTube(std::vector<float>{1.0f}, s).ok());
  s = {};
  s.sectors = 2;
  EXPECT_FALSE(BuildTube(std::vector<float>{1.0f}, s).ok());
  s = {};
  s.base_radius = INFINITY;
  EXPECT_FALSE(BuildTube(std::vector<float>{1.0f}, s).ok());
  Result<SkinMesh> bad = BuildTube(std::vector<float>{1.0f, -2.0f});
  EXPECT_NE(bad.error().find("bone 1"), std::string::npos) << bad.error();
}

// Closed, every vertex bound to valid bones with weights summing to 1, unit normals, and every
// triangle facing outwards (its winding normal agrees with its vertices' normals).
TEST(TubeMesh, ClosedBoundAndFacingOutwards) {
  for (const std::vector<float>& lengths :
       {std::vector<float>{1.0f}, std::vector<float>{1.0f, 0.5f, 2.0f, 0.7f},
        std::vector<float>(199, 0.05f)}) {
    const SkinMesh m = Tube(lengths);
    ASSERT_EQ(m.bone_count(), lengths.size());
    for (const SkinVertex& v : m.vertices) {
      for (int b : v.bones) ASSERT_TRUE(b >= 0 && b < static_cast<int>(lengths.size()));
      ASSERT_NEAR(v.weights.x + v.weights.y, 1.0f, 1e-6f);
      ASSERT_GE(v.weights.y, 0.0f);
      ASSERT_NEAR(glm::length(v.normal), 1.0f, 1e-5f);
    }
    ASSERT_EQ(m.indices.size() % 3, 0u);
    // Vertices at the same place (the flat cap's rim repeats the first ring with another normal)
    // count as one for the closedness check.
    std::map<std::tuple<float, float, float>, std::uint32_t> weld;
    std::vector<std::uint32_t> id(m.vertices.size());
    for (std::size_t i = 0; i < m.vertices.size(); ++i) {
      const glm::vec3& p = m.vertices[i].position;
      id[i] = weld.emplace(std::tuple{p.x, p.y, p.z}, static_cast<std::uint32_t>(i)).first->second;
    }
    std::map<std::pair<std::uint32_t, std::uint32_t>, int> edges;
    for (std::size_t t = 0; t < m.indices.size(); t += 3) {
      const std::uint32_t a = m.indices[t], b = m.indices[t + 1], c = m.indices[t + 2];
      ASSERT_LT(std::max({a, b, c}), m.vertices.size());
      const glm::vec3 n = glm::cross(m.vertices[b].position - m.vertices[a].position,
                                     m.vertices[c].position - m.vertices[a].position);
      const glm::vec3 vn = m.vertices[a].normal + m.vertices[b].normal + m.vertices[c].normal;
      ASSERT_GT(glm::dot(n, vn), 0.0f) << "triangle " << t / 3;
      for (auto [p, q] : {std::pair{a, b}, std::pair{b, c}, std::pair{c, a}})
        ++edges[{id[p], id[q]}];
    }
    // Watertight and consistently wound: each directed edge once, its reverse once.
    for (const auto& [e, count] : edges) {
      ASSERT_EQ(count, 1);
      ASSERT_EQ(edges.count({e.second, e.first}), 1u);
    }
  }
}

TEST(TubeMesh, TapersFromBaseToTipAndBlendsAtJoints) {
  TubeSpec spec;
  const SkinMesh m = Tube({1.0f, 1.0f, 1.0f}, spec);
  float at_base = 0.0f, at_tip = 1e9f;
  int at_joint = 0;
  for (const SkinVertex& v : m.vertices) {
    const float r = glm::length(glm::vec2(v.position.x, v.position.z));
    if (std::fabs(v.position.y) < 1e-6f) at_base = std::max(at_base, r);
    if (std::fabs(v.position.y - 3.0f) < 1e-5f) at_tip = std::min(at_tip, r);
    // At a joint, 50/50 between the bones on either side; mid-bone, one bone.
    if (std::fabs(v.position.y - 1.0f) < 1e-5f && r > 0.0f) {
      ++at_joint;
      EXPECT_NEAR(v.weights.x, 0.5f, 1e-5f);
      EXPECT_EQ(v.bones[0], 0);
      EXPECT_EQ(v.bones[1], 1);
    }
  }
  EXPECT_EQ(at_joint, spec.sectors);
  EXPECT_NEAR(at_base, spec.base_radius, 1e-6f);
  EXPECT_NEAR(at_tip, spec.tip_radius, 1e-5f);
  EXPECT_TRUE(BuiltFor(m, std::vector<float>{1.0f, 1.0f, 1.0f}));
  EXPECT_FALSE(BuiltFor(m, std::vector<float>{1.0f, 1.0f}));
}

TEST(Skinning, RestPoseAndRigidMotionsAreReproduced) {
  const SkinMesh m = Tube({0.5f, 1.0f, 0.8f, 0.3f});
  std::vector<glm::quat> rot(4, glm::quat(1, 0, 0, 0));
  std::vector<DualQuat> bones(4);
  ASSERT_TRUE(SkinBones(m, rot, RestJoints(m), bones));
  for (const SkinVertex& v : m.vertices) {
    ASSERT_LT(glm::length(SkinDualQuat(v, bones).position - v.position), 1e-5f);
  }
  std::mt19937 rng(1);
  for (int trial = 0; trial < 20; ++trial) {
    const glm::quat r =
        glm::angleAxis(std::uniform_real_distribution<float>(-3, 3)(rng), RandomUnit(rng));
    const glm::vec3 t = RandomUnit(rng) * 3.0f;
    std::vector<glm::vec3> joints = RestJoints(m);
    for (glm::vec3& j : joints) j = r * j + t;
    rot.assign(4, r);
    ASSERT_TRUE(SkinBones(m, rot, joints, bones));
    for (const SkinVertex& v : m.vertices) {
      const SkinnedPoint d = SkinDualQuat(v, bones);
      const SkinnedPoint l = SkinLinear(v, bones);
      ASSERT_LT(glm::length(d.position - (r * v.position + t)), 1e-4f);
      ASSERT_LT(glm::length(l.position - (r * v.position + t)), 1e-4f);
      ASSERT_LT(glm::length(d.normal - r * v.normal), 1e-4f);
    }
  }
}

// Posed by rotations.h: a vertex that follows one bone only stays at its rest distance from
// that bone's axis and at its rest height along it.
TEST(Skinning, VerticesFollowTheirBones) {
  std::mt19937 rng(2);
  const std::vector<float> lengths(12, 0.5f);
  const SkinMesh m = Tube(lengths);
  std::vector<glm::vec3> joints{glm::vec3(0.3f, -0.2f, 0.1f)};
  for (float l : lengths) {
    joints.push_back(joints.back() + glm::normalize(kY + 1.2f * RandomUnit(rng)) * l);
  }
  std::vector<glm::quat> rot(lengths.size());
  ASSERT_TRUE(ChainRotations(joints, {}, rot));
  std::vector<DualQuat> bones(lengths.size());
  ASSERT_TRUE(SkinBones(m, rot, joints, bones));
  int checked = 0;
  for (const SkinVertex& v : m.vertices) {
    if (v.weights.x != 1.0f) continue;
    const auto b = static_cast<std::size_t>(v.bones[0]);
    const glm::vec3 p = SkinDualQuat(v, bones).position;
    const glm::vec3 axis = glm::normalize(joints[b + 1] - joints[b]);
    const float along = glm::dot(p - joints[b], axis);
    const float radial = glm::length(p - joints[b] - along * axis);
    EXPECT_NEAR(along, v.position.y - m.rest_origins[b].y, 1e-4f);
    EXPECT_NEAR(radial, glm::length(glm::vec2(v.position.x, v.position.z)), 1e-4f);
    ++checked;
  }
  EXPECT_GT(checked, 100);
}

// The candy wrapper: the upper bone twisted half a turn about its own axis. Linear blending
// pulls the ring at the joint onto the axis; dual quaternions keep its radius.
TEST(Skinning, HalfTurnTwistKeepsVolumeWithDualQuaternionsOnly) {
  const SkinMesh m = Tube({1.0f, 1.0f});
  const std::vector<glm::quat> rot{glm::quat(1, 0, 0, 0), glm::angleAxis(3.1f, kY)};
  std::vector<DualQuat> bones(2);
  ASSERT_TRUE(SkinBones(m, rot, RestJoints(m), bones));
  float dq_min = 1e9f, lbs_max = 0.0f, rest = 0.0f;
  for (const SkinVertex& v : m.vertices) {
    if (std::fabs(v.position.y - 1.0f) > 1e-5f) continue;  // the ring at the joint
    rest = glm::length(glm::vec2(v.position.x, v.position.z));
    const glm::vec3 d = SkinDualQuat(v, bones).position;
    const glm::vec3 l = SkinLinear(v, bones).position;
    dq_min = std::min(dq_min, glm::length(glm::vec2(d.x, d.z)));
    lbs_max = std::max(lbs_max, glm::length(glm::vec2(l.x, l.z)));
  }
  ASSERT_GT(rest, 0.0f);
  EXPECT_GT(dq_min, 0.99f * rest);
  EXPECT_LT(lbs_max, 0.1f * rest);
}

TEST(Skinning, BlendHandlesAntipodalQuaternionsAndBadSizes) {
  const DualQuat a = DualQuat::FromRotationTranslation(glm::angleAxis(0.3f, kY), {1, 2, 3});
  DualQuat b = a;
  b.real = -b.real;
  b.dual = -b.dual;  // the same transform
  const DualQuat pair[2] = {a, b};
  const float w[2] = {0.5f, 0.5f};
  const DualQuat blended = Blend(pair, w);
  EXPECT_LT(glm::length(blended.TransformPoint({1, 0, 0}) - a.TransformPoint({1, 0, 0})), 1e-5f);
  EXPECT_LT(glm::length(a.Translation() - glm::vec3(1, 2, 3)), 1e-5f);
  const SkinMesh m = Tube({1.0f, 1.0f});
  std::vector<DualQuat> out(2);
  EXPECT_FALSE(SkinBones(m, std::vector<glm::quat>(3), RestJoints(m), out));
  EXPECT_FALSE(SkinBones(m, std::vector<glm::quat>(2), std::vector<glm::vec3>(1), out));
}

}  // namespace
}  // namespace fabrik
