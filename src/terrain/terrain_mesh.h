// terrain_mesh.h - a triangle grid over a heightmap, for drawing it (no GL here).
//
// BuildTerrainMesh(map, resolution) samples the ground on a regular grid of resolution x
// resolution vertices spanning the whole square [-S/2, S/2]^2 (docs/walker.md: Terrain): vertex (a,
// b)
// - column a along +X, row b along +Z - sits at x = -S/2 + a S / (resolution - 1),
// z = -S/2 + b S / (resolution - 1), y = map.HeightAt(x, z), with normal map.NormalAt(x, z).
// Vertices are row-major (index b x resolution + a). Each grid cell gives two triangles,
// wound anticlockwise seen from above (+Y), so their geometric normals point up.
#pragma once

#include <cstdint>
#include <glm/vec3.hpp>
#include <vector>

#include "ik/result.h"
#include "terrain/heightmap.h"

namespace fabrik {

struct TerrainMesh {
  int resolution = 0;                  // vertices per side
  std::vector<glm::vec3> positions;    // world space, resolution^2 of them
  std::vector<glm::vec3> normals;      // unit, one per position
  std::vector<std::uint32_t> indices;  // triangles, 6 x (resolution - 1)^2 entries
};

// Accepted resolutions (vertices per side).
inline constexpr int kMinTerrainMeshResolution = 2;
inline constexpr int kMaxTerrainMeshResolution = 2048;

// Fails (with a message naming the value) on a resolution outside
// [kMinTerrainMeshResolution, kMaxTerrainMeshResolution].
Result<TerrainMesh> BuildTerrainMesh(const Heightmap& map, int resolution);

// The resolution to draw `map` with, given the most a scene draws (`max_resolution`, within
// the accepted range): a map of one sample is flat ground, exactly drawn by its four corners
// (resolution 2); any other map gets `max_resolution`. Software OpenGL spends most of a
// frame on a 257 x 257 grid's vertices, so flat ground is not meshed finely.
int TerrainDrawResolution(const Heightmap& map, int max_resolution);
// The most the scenes that draw terrain (walker, mocap) draw: vertices per side of the grid
// (docs/walker.md: The walker scene).
inline constexpr int kSceneTerrainResolution = 257;

}  // namespace fabrik
