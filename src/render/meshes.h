// meshes.h - the unit meshes the instanced draws stretch (CPU geometry only, no GL).
//
// Each mesh is indexed: shared vertices are stored once, so the vertex shader runs about once
// per distinct vertex instead of once per triangle corner (six times fewer on a sphere).
#pragma once

#include <cstdint>
#include <glm/vec3.hpp>
#include <vector>

namespace fabrik {

struct MeshVertex {
  glm::vec3 position;
  glm::vec3 normal;
};

struct MeshData {
  std::vector<MeshVertex> vertices;
  std::vector<std::uint16_t> indices;  // triangle list, counter-clockwise seen from outside
};

// A unit sphere (radius 1, centre 0) of `rings` latitude bands (>= 2) and `sectors`
// longitude slices (>= 3); normals equal positions.
MeshData SphereMesh(int rings, int sectors);

// A unit cylinder along +y from y = 0 to y = 1, radius 1, `sectors` slices (>= 3), without
// caps (the joint spheres cover them); normals are radial.
MeshData CylinderMesh(int sectors);

// A unit square in the XZ plane (x, z in [-1, 1]) with normal +y, for the ground shadows.
MeshData QuadMesh();

}  // namespace fabrik
