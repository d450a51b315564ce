// model.h - a skinned character loaded from a model file through Assimp: meshes, skin weights,
// skeleton, bind pose and animations. Plain data, no GL (docs/characters.md).
//
// Spaces and units. Model space is the file's scene space as Assimp gives it: right-handed,
// lengths in the file's units times LoadOptions::metres_per_unit (taken as metres; both
// packaged models are in metres already), the file's up axis kept as it is (no turn). Both
// packaged models stand +Y up and face +Z, their left at +X (docs/characters.md: What each
// file gives). Vertices are in model space in the bind pose: a skinned mesh's own node
// transform is not applied (as Direct3D's skinning and glTF do: the bones place the mesh).
//
// The skeleton. A bone is a node of the file's hierarchy. The skeleton is the whole subtree of
// the lowest node that holds every skin bone (a bone some mesh is weighted to): helper nodes
// inside it (a pelvis or end joint without weights) are bones too, nodes outside it are not.
// Bones are in depth-first order, parents before children; bone 0 is the root, whose local
// rest transform includes every transform above it in the file. Every bone transform is rigid
// (rotation and translation): a node or inverse bind matrix with scale, shear or a mirror is
// refused, as is an animation that scales a bone.
//
// Transforms. A BoneTransform maps p to rotation * p + translation. A bone's local transform
// is relative to its parent; its model transform is the product of the local ones from the
// root: model[b] = model[parent[b]] * local[b]. inverse_bind[b] takes a model-space point in
// the bind pose into bone b's space (Assimp's offset matrix); the skinning transform of a pose
// is pose[b] * inverse_bind[b] (cpu_skin.h), so the bind pose, pose[b] = inverse(inverse_bind
// [b]), gives back the mesh as loaded. A bone no mesh is weighted to gets inverse_bind =
// inverse of its rest model transform.
//
// Skin weights. Every vertex keeps its kMaxInfluences largest weights (padded with bone 0 at
// weight 0), renormalised to sum to 1.
//
// Bad input: one call gives one Model or one Error naming the file and the problem (the table
// of docs/characters.md: Errors); nothing is half-loaded. Problems that leave a usable model
// (a skin bone no vertex is weighted to, a mesh without skin, an animation channel for a node
// outside the skeleton) are kept in Model::warnings, one line each.
#pragma once

#include <cstddef>
#include <cstdint>
#include <glm/gtc/quaternion.hpp>
#include <glm/vec3.hpp>
#include <glm/vec4.hpp>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "ik/result.h"

namespace fabrik::character {

// Limits of an accepted model (docs/characters.md: Limits).
inline constexpr std::size_t kMaxFileBytes = 64u << 20;  // 64 MiB
// Bones of the skeleton (helper bones included). The GPU pass holds two texels a bone in a
// texture buffer, as the tube's does (src/render/skin_pass.h), so this is far below what a
// shader holds; it keeps a pose and its upload small.
inline constexpr int kMaxBones = 1024;
inline constexpr std::size_t kMaxVertices = 1000000;   // after identical vertices are joined
inline constexpr std::size_t kMaxTriangles = 2000000;  // all meshes
inline constexpr int kMaxInfluences = 4;               // weights kept per vertex
inline constexpr int kMaxAnimations = 256;
inline constexpr std::size_t kMaxAnimationKeys = 4000000;  // all keys of all animations
inline constexpr float kMaxCoordinate = 1e4f;              // metres: largest |coordinate| accepted
// A bone transform counts as rigid when its axes have unit length and are square to each
// other within this tolerance.
inline constexpr float kRigidTolerance = 1e-3f;
// Assimp's ticks per second when a file gives none.
inline constexpr float kDefaultTicksPerSecond = 25.0f;

// A rigid transform: p -> rotation * p + translation (rotation unit).
struct BoneTransform {
  glm::quat rotation{1.0f, 0.0f, 0.0f, 0.0f};
  glm::vec3 translation{0.0f};
};
BoneTransform operator*(const BoneTransform& a, const BoneTransform& b);
BoneTransform Inverse(const BoneTransform& t);
glm::vec3 Apply(const BoneTransform& t, const glm::vec3& p);

// One vertex as the GPU reads it (attribute locations 0..3 of a skinning shader).
struct Vertex {
  glm::vec3 position;  // model space, bind pose
  glm::vec3 normal;    // unit
  std::int32_t bones[kMaxInfluences];
  glm::vec4 weights;  // sum 1, largest first
};

// One mesh of the file: a range of Model::vertices and of Model::indices.
struct MeshPart {
  std::string name;
  std::uint32_t first_vertex = 0, vertex_count = 0;
  std::uint32_t first_index = 0, index_count = 0;  // triangles: index_count % 3 == 0
};

struct Skeleton {
  std::vector<std::string> names;           // unique
  std::vector<int> parents;                 // -1 for bone 0 only; otherwise a smaller index
  std::vector<BoneTransform> rest_local;    // each bone's rest transform from its parent
  std::vector<BoneTransform> inverse_bind;  // model space (bind pose) -> bone space
  std::vector<std::uint8_t> skinned;        // 1 when some vertex is weighted to the bone
  int bone_count() const { return static_cast<int>(names.size()); }
  // The bone of that name, or -1.
  int Find(std::string_view name) const;
};

// One bone's keys in an animation; times in seconds, increasing. An empty track keeps the
// bone's rest value for that part (translation or rotation).
struct Channel {
  int bone = 0;
  std::vector<float> translation_times;
  std::vector<glm::vec3> translations;  // local, model units (metres)
  std::vector<float> rotation_times;
  std::vector<glm::quat> rotations;  // local, unit
};

struct Animation {
  std::string name;
  float duration = 0.0f;          // seconds (the file's ticks / ticks_per_second)
  float ticks_per_second = 0.0f;  // as the file gives it (kDefaultTicksPerSecond if none)
  std::vector<Channel> channels;  // at most one per bone
};

struct Model {
  std::string source;  // the path, or the name given to LoadModelFromMemory
  Skeleton skeleton;
  std::vector<Vertex> vertices;
  std::vector<std::uint32_t> indices;  // into vertices; counter-clockwise triangles
  std::vector<MeshPart> parts;
  std::vector<Animation> animations;
  std::vector<std::string> warnings;
  std::size_t file_vertices = 0;  // skinned meshes' vertices as Assimp read them, before joining
};

struct LoadOptions {
  // Metres per file unit, finite and in [1e-6, 1e3]: every length is multiplied by it.
  float metres_per_unit = 1.0f;
};

// Reads a model file (any format Assimp reads with skinned meshes; tested with DirectX .x).
Result<Model> LoadModelFile(const std::string& path, const LoadOptions& options = {});
// The same from bytes; `format_hint` is the file extension without the dot ("x"), `source`
// names the bytes in messages.
Result<Model> LoadModelFromMemory(std::string_view bytes, const std::string& format_hint,
                                  const std::string& source, const LoadOptions& options = {});

}  // namespace fabrik::character
