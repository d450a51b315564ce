#include "terrain/terrain_mesh.h"

#include <string>

namespace fabrik {

int TerrainDrawResolution(const Heightmap& map, int max_resolution) {
  // One sample: HeightAt is that sample everywhere and NormalAt is +Y, so the corners alone
  // give the same surface as any finer grid.
  if (map.width() == 1 && map.height() == 1) return kMinTerrainMeshResolution;
  return max_resolution;
}

Result<TerrainMesh> BuildTerrainMesh(const Heightmap& map, int resolution) {
  if (resolution < kMinTerrainMeshResolution || resolution > kMaxTerrainMeshResolution) {
    return MakeError("terrain mesh resolution must be " +
                     std::to_string(kMinTerrainMeshResolution) + " to " +
                     std::to_string(kMaxTerrainMeshResolution) + " vertices per side, got " +
                     std::to_string(resolution));
  }
  TerrainMesh mesh;
  mesh.resolution = resolution;
  const std::size_t n = std::size_t(resolution);
  mesh.positions.reserve(n * n);
  mesh.normals.reserve(n * n);
  const double size = map.size();
  for (int b = 0; b < resolution; ++b) {
    const float z = float(-0.5 * size + b * size / (resolution - 1));
    for (int a = 0; a < resolution; ++a) {
      const float x = float(-0.5 * size + a * size / (resolution - 1));
      mesh.positions.push_back(map.PointAt(x, z));
      mesh.normals.push_back(map.NormalAt(x, z));
    }
  }
  mesh.indices.reserve(6 * (n - 1) * (n - 1));
  for (std::uint32_t b = 0; b + 1 < n; ++b) {
    for (std::uint32_t a = 0; a + 1 < n; ++a) {
      const std::uint32_t v00 = b * std::uint32_t(n) + a;  // (x, z)
      const std::uint32_t v10 = v00 + 1;                   // (x + d, z)
      const std::uint32_t v01 = v00 + std::uint32_t(n);    // (x, z + d)
      const std::uint32_t v11 = v01 + 1;
      // Seen from +Y with X to the right, +Z points towards the viewer's bottom, so
      // v00 -> v01 -> v10 turns anticlockwise about +Y (cross(v01 - v00, v10 - v00) = +Y).
      mesh.indices.insert(mesh.indices.end(), {v00, v01, v10, v10, v01, v11});
    }
  }
  return mesh;
}

}  // namespace fabrik
