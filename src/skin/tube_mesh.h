// tube_mesh.h - a tapered tube (a tentacle) bound to the bones of a chain: plain data, no GL.
//
// Rest pose (bind pose): the chain straight up from the origin, bone i from (0, s_i, 0) to
// (0, s_i + lengths[i], 0), s_i the summed lengths before it, every bone rotation the identity
// (rest axis +Y, as rotations.h). The tube runs along that line: rings of `sectors` vertices at
// increasing heights, the radius tapering from `base_radius` at the root to `tip_radius` at
// the last joint, closed by a flat cap under the root and a rounded cap over the tip.
//
// Binding: every vertex has two bone indices and two weights (summing to 1). Around each joint
// the weight passes smoothly (smoothstep) from the bone below to the bone above over half a
// bone length on either side (50/50 at the joint); mid-bone and cap vertices follow one bone.
// Normals are the smooth normals of the tapered surface. World space after skinning:
// SkinBones (skinning.h) turns rotations + joint positions into one dual quaternion per bone.
//
// Size: every bone gets max(rings_per_bone, ceil(min_rings / bones)) rings, the first at its
// start joint, plus one at the tip, so a 200-joint chain gets about
// 800 rings of 16 vertices (~13,000 vertices, ~26,000 triangles): one draw call either way.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include <glm/vec2.hpp>
#include <glm/vec3.hpp>

#include "ik/result.h"

namespace fabrik {

struct TubeSpec {
  float base_radius = 0.12f;  // world units, finite, > 0
  float tip_radius = 0.02f;   // world units, finite, > 0, <= base_radius
  int sectors = 16;           // vertices around a ring, 3..64
  int rings_per_bone = 4;     // 1..64
  int min_rings = 48;  // total tube rings at least about this (short chains stay smooth), 2..4096
};

// The layout shaders/skin.vert reads (attribute locations 0..3).
struct SkinVertex {
  glm::vec3 position;  // rest pose
  glm::vec3 normal;    // rest pose, unit
  std::int32_t bones[2];
  glm::vec2 weights;  // sum 1
};

struct SkinMesh {
  std::vector<SkinVertex> vertices;
  std::vector<std::uint32_t> indices;   // triangles, counter-clockwise seen from outside
  std::vector<glm::vec3> rest_origins;  // rest position of each bone's start joint
  std::vector<float> lengths;           // the bone lengths it was built for
  std::size_t bone_count() const { return rest_origins.size(); }
};

// Builds the tube for a chain with the given segment lengths (at least 1, each finite and > 0).
// Fails with a message naming the bad value (length or spec field).
Result<SkinMesh> BuildTube(std::span<const float> lengths, const TubeSpec& spec = {});

// True when `mesh` was built for exactly these lengths (so it need not be rebuilt).
bool BuiltFor(const SkinMesh& mesh, std::span<const float> lengths);

}  // namespace fabrik
