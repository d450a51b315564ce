// The terrain mesh: a grid on the ground, triangles facing up, indices in range.
#include <gtest/gtest.h>

#include <cmath>
#include <glm/geometric.hpp>
#include <vector>

#include "terrain/terrain_mesh.h"

namespace fabrik {
namespace {

Heightmap Bumps() {
  std::vector<float> s(16 * 16);
  for (int j = 0; j < 16; ++j)
    for (int i = 0; i < 16; ++i)
      s[std::size_t(j * 16 + i)] = 0.5f + 0.5f * std::sin(i * 0.7f + j * 0.4f);
  Result<Heightmap> map = Heightmap::FromSamples(16, 16, s, 10.0f, 2.0f);
  EXPECT_TRUE(map.ok()) << map.error();
  return map.value();
}

TEST(TerrainMesh, GridLiesOnTheGroundAndSpansTheSquare) {
  const Heightmap map = Bumps();
  Result<TerrainMesh> mesh = BuildTerrainMesh(map, 33);
  ASSERT_TRUE(mesh.ok()) << mesh.error();
  const TerrainMesh& m = mesh.value();
  ASSERT_EQ(m.positions.size(), 33u * 33u);
  ASSERT_EQ(m.normals.size(), m.positions.size());
  ASSERT_EQ(m.indices.size(), 6u * 32u * 32u);
  EXPECT_EQ(m.positions.front().x, -5.0f);
  EXPECT_EQ(m.positions.front().z, -5.0f);
  EXPECT_FLOAT_EQ(m.positions.back().x, 5.0f);
  EXPECT_FLOAT_EQ(m.positions.back().z, 5.0f);
  for (std::size_t k = 0; k < m.positions.size(); ++k) {
    const glm::vec3& p = m.positions[k];
    EXPECT_FLOAT_EQ(p.y, map.HeightAt(p.x, p.z));
    EXPECT_NEAR(glm::length(m.normals[k]), 1.0f, 1e-5f);
    EXPECT_GT(m.normals[k].y, 0.0f);
  }
}

TEST(TerrainMesh, TrianglesFaceUpAndIndicesAreInRange) {
  Result<TerrainMesh> mesh = BuildTerrainMesh(Bumps(), 20);
  ASSERT_TRUE(mesh.ok());
  const TerrainMesh& m = mesh.value();
  for (std::size_t t = 0; t < m.indices.size(); t += 3) {
    for (int k = 0; k < 3; ++k) ASSERT_LT(m.indices[t + k], m.positions.size());
    const glm::vec3 a = m.positions[m.indices[t]], b = m.positions[m.indices[t + 1]],
                    c = m.positions[m.indices[t + 2]];
    EXPECT_GT(glm::cross(b - a, c - a).y, 0.0f) << "triangle " << t / 3;
  }
}

TEST(TerrainMesh, RejectsBadResolutions) {
  for (int r : {-1, 0, 1, kMaxTerrainMeshResolution + 1}) {
    Result<TerrainMesh> mesh = BuildTerrainMesh(Bumps(), r);
    ASSERT_FALSE(mesh.ok()) << r;
    EXPECT_NE(mesh.error().find("resolution"), std::string::npos);
  }
  EXPECT_TRUE(BuildTerrainMesh(Bumps(), kMinTerrainMeshResolution).ok());
}

TEST(TerrainMesh, FlatGroundIsDrawnByItsCornersAndHillsInFull) {
  Result<Heightmap> flat = Heightmap::Flat(40.0f);
  ASSERT_TRUE(flat.ok()) << flat.error();
  ASSERT_EQ(TerrainDrawResolution(flat.value(), 257), 2);
  Result<TerrainMesh> corners = BuildTerrainMesh(flat.value(), 2);
  ASSERT_TRUE(corners.ok()) << corners.error();
  ASSERT_EQ(corners.value().indices.size(), 6u);
  // The two triangles are the ground everywhere: every point of a fine grid lies on them.
  for (const glm::vec3& p : corners.value().positions) EXPECT_EQ(p.y, 0.0f);
  for (int j = 0; j <= 20; ++j) {
    for (int i = 0; i <= 20; ++i) {
      const float x = -20.0f + 2.0f * i, z = -20.0f + 2.0f * j;
      EXPECT_EQ(flat.value().HeightAt(x, z), 0.0f);
      EXPECT_EQ(flat.value().NormalAt(x, z), glm::vec3(0.0f, 1.0f, 0.0f));
    }
  }
  // A map with more than one sample keeps the scene's resolution.
  EXPECT_EQ(TerrainDrawResolution(Bumps(), 257), 257);
  Result<Heightmap> two = Heightmap::FromSamples(2, 1, {0.0f, 1.0f}, 10.0f, 1.0f);
  ASSERT_TRUE(two.ok()) << two.error();
  EXPECT_EQ(TerrainDrawResolution(two.value(), 129), 129);
}

}  // namespace
}  // namespace fabrik
