#include "render/meshes.h"

#include <cmath>
#include <numbers>

namespace fabrik {
namespace {

std::uint16_t Index(int i) { return static_cast<std::uint16_t>(i); }

// Two triangles for the quad (i0 i1 / i2 i3), i2 i3 being the next row, wound outwards.
void AddQuad(std::vector<std::uint16_t>& out, int i0, int i1, int i2, int i3) {
  out.insert(out.end(), {Index(i0), Index(i2), Index(i1), Index(i1), Index(i2), Index(i3)});
}

}  // namespace

MeshData SphereMesh(int rings, int sectors) {
  MeshData mesh;
  for (int r = 0; r <= rings; ++r) {
    const float phi = std::numbers::pi_v<float> * static_cast<float>(r) / static_cast<float>(rings);
    for (int s = 0; s <= sectors; ++s) {
      const float theta =
          2.0f * std::numbers::pi_v<float> * static_cast<float>(s) / static_cast<float>(sectors);
      const glm::vec3 n(std::sin(phi) * std::cos(theta), std::cos(phi),
                        std::sin(phi) * std::sin(theta));
      mesh.vertices.push_back({n, n});
    }
  }
  const int row = sectors + 1;
  for (int r = 0; r < rings; ++r) {
    for (int s = 0; s < sectors; ++s) {
      const int i0 = r * row + s;
      AddQuad(mesh.indices, i0, i0 + 1, i0 + row, i0 + row + 1);
    }
  }
  return mesh;
}

MeshData CylinderMesh(int sectors) {
  MeshData mesh;
  for (int s = 0; s <= sectors; ++s) {
    const float a =
        2.0f * std::numbers::pi_v<float> * static_cast<float>(s) / static_cast<float>(sectors);
    const glm::vec3 n(std::cos(a), 0.0f, std::sin(a));
    mesh.vertices.push_back({n, n});                       // bottom ring: 2 s
    mesh.vertices.push_back({n + glm::vec3(0, 1, 0), n});  // top ring: 2 s + 1
  }
  for (int s = 0; s < sectors; ++s) {
    const int b0 = 2 * s, t0 = b0 + 1, b1 = b0 + 2, t1 = b0 + 3;
    mesh.indices.insert(mesh.indices.end(),
                        {Index(b0), Index(t0), Index(b1), Index(b1), Index(t0), Index(t1)});
  }
  return mesh;
}

MeshData QuadMesh() {
  const glm::vec3 n(0.0f, 1.0f, 0.0f);
  MeshData mesh;
  mesh.vertices = {{{-1, 0, -1}, n}, {{1, 0, -1}, n}, {{1, 0, 1}, n}, {{-1, 0, 1}, n}};
  mesh.indices = {0, 1, 2, 0, 2, 3};
  return mesh;
}

}  // namespace fabrik
