// model_load.cpp - a model file through Assimp into a Model (model.h, docs/characters.md).
#include <assimp/anim.h>
#include <assimp/config.h>
#include <assimp/postprocess.h>
#include <assimp/scene.h>

#include <algorithm>
#include <array>
#include <assimp/Importer.hpp>
#include <cmath>
#include <exception>
#include <filesystem>
#include <fstream>
#include <glm/geometric.hpp>
#include <glm/mat3x3.hpp>
#include <string>
#include <system_error>
#include <unordered_map>
#include <vector>

#include "character/model.h"

namespace fabrik::character {
namespace {

std::string Name(const aiString& s) { return s.C_Str(); }

bool FiniteModelVec(const glm::vec3& v) {
  return std::isfinite(v.x) && std::isfinite(v.y) && std::isfinite(v.z);
}

bool InModelRange(const glm::vec3& v) {
  return FiniteModelVec(v) && std::abs(v.x) <= kMaxCoordinate && std::abs(v.y) <= kMaxCoordinate &&
         std::abs(v.z) <= kMaxCoordinate;
}

// The rigid transform of an Assimp matrix (row-major: a1..a4 is the first row), its
// translation times `scale`; an error naming `what` when it is not finite, not rigid (scale,
// shear, a mirror, a projective row) or beyond kMaxCoordinate.
Result<BoneTransform> RigidFromMatrix(const aiMatrix4x4& m, float scale, const std::string& what) {
  const float* cells = m[0];
  for (int i = 0; i < 16; ++i) {
    if (!std::isfinite(cells[i])) return MakeError(what + " is not finite (NaN or infinity)");
  }
  glm::mat3 r;
  for (int c = 0; c < 3; ++c) r[c] = glm::vec3(m[0][c], m[1][c], m[2][c]);
  const float tol = kRigidTolerance;
  const bool unit = std::abs(glm::length(r[0]) - 1.0f) <= tol &&
                    std::abs(glm::length(r[1]) - 1.0f) <= tol &&
                    std::abs(glm::length(r[2]) - 1.0f) <= tol;
  const bool square = std::abs(glm::dot(r[0], r[1])) <= tol &&
                      std::abs(glm::dot(r[0], r[2])) <= tol &&
                      std::abs(glm::dot(r[1], r[2])) <= tol;
  const bool affine = std::abs(m.d1) <= tol && std::abs(m.d2) <= tol && std::abs(m.d3) <= tol &&
                      std::abs(m.d4 - 1.0f) <= tol;
  if (!unit || !square || !affine || glm::determinant(r) < 0.0f) {
    return MakeError(what + " is not rigid (it scales, shears or mirrors; scale " +
                     std::to_string(glm::length(r[0])) +
                     "): only rotations and translations are supported");
  }
  BoneTransform t;
  t.rotation = glm::normalize(glm::quat_cast(r));
  t.translation = glm::vec3(m.a4, m.b4, m.c4) * scale;
  if (!InModelRange(t.translation)) {
    return MakeError(what + " moves beyond " + std::to_string(kMaxCoordinate) + " m");
  }
  return t;
}

// The product of the transforms of every node above `node` (the scene root's included).
aiMatrix4x4 AboveTransform(const aiNode* node) {
  aiMatrix4x4 m;
  for (const aiNode* p = node->mParent; p != nullptr; p = p->mParent) m = p->mTransformation * m;
  return m;
}

// The path from the scene root down to `node`.
std::vector<const aiNode*> PathFromRoot(const aiNode* node) {
  std::vector<const aiNode*> path;
  for (const aiNode* n = node; n != nullptr; n = n->mParent) path.push_back(n);
  std::reverse(path.begin(), path.end());
  return path;
}

// One vertex's largest weights, largest first.
struct TopWeights {
  std::array<float, kMaxInfluences> weight{};
  std::array<int, kMaxInfluences> bone{};
  void Add(int b, float w) {
    int at = kMaxInfluences;
    while (at > 0 && weight[at - 1] < w) --at;
    if (at == kMaxInfluences) return;
    for (int i = kMaxInfluences - 1; i > at; --i) {
      weight[i] = weight[i - 1];
      bone[i] = bone[i - 1];
    }
    weight[at] = w;
    bone[at] = b;
  }
};

class ModelLoader {
 public:
  ModelLoader(const aiScene& scene, const std::string& source, float scale)
      : scene_(scene), source_(source), scale_(scale) {
    model_.source = source;
  }
  Result<Model> Run();

 private:
  Error Fail(const std::string& what) const { return MakeError(source_ + ": " + what); }
  Result<const aiNode*> SkeletonTop();
  Status BuildSkeleton(const aiNode* top);
  Status InverseBinds();
  Status AddMesh(const aiMesh& mesh);
  Status Weights(const aiMesh& mesh, std::vector<TopWeights>& top);
  Status AddAnimation(const aiAnimation& anim);
  Status AddChannel(const aiNodeAnim& ch, const std::string& where, float tps, int bone);

  const aiScene& scene_;
  std::string source_;
  float scale_;
  Model model_;
  BoneTransform above_;  // the transform above the skeleton's root (folded into bone 0)
  std::unordered_map<std::string, int> bone_of_;
};

Result<const aiNode*> ModelLoader::SkeletonTop() {
  std::vector<const aiNode*> common;
  bool any = false;
  for (unsigned m = 0; m < scene_.mNumMeshes; ++m) {
    const aiMesh& mesh = *scene_.mMeshes[m];
    for (unsigned b = 0; b < mesh.mNumBones; ++b) {
      const aiNode* node = scene_.mRootNode->FindNode(mesh.mBones[b]->mName);
      if (node == nullptr) {
        return Fail("bone " + Name(mesh.mBones[b]->mName) + " of mesh " + Name(mesh.mName) +
                    " has no node in the hierarchy");
      }
      const std::vector<const aiNode*> path = PathFromRoot(node);
      if (!any) {
        common = path;
        any = true;
        continue;
      }
      std::size_t k = 0;
      while (k < common.size() && k < path.size() && common[k] == path[k]) ++k;
      common.resize(k);
    }
  }
  if (!any) return Fail("no skinned mesh (no mesh is weighted to bones)");
  return common.back();
}

Status ModelLoader::BuildSkeleton(const aiNode* top) {
  Skeleton& sk = model_.skeleton;
  Result<BoneTransform> above =
      RigidFromMatrix(AboveTransform(top), scale_, "the transform above bone " + Name(top->mName));
  if (!above) return MakeError(source_ + ": " + above.error());
  above_ = above.value();
  struct Pending {
    const aiNode* node;
    int parent;
  };
  std::vector<Pending> stack{{top, -1}};
  while (!stack.empty()) {
    const Pending p = stack.back();
    stack.pop_back();
    if (sk.bone_count() >= kMaxBones) {
      return Fail("more than " + std::to_string(kMaxBones) +
                  " bones, more than the skinning holds");
    }
    const std::string name = Name(p.node->mName);
    Result<BoneTransform> local =
        RigidFromMatrix(p.node->mTransformation, scale_, "bone " + name + "'s rest transform");
    if (!local) return MakeError(source_ + ": " + local.error());
    if (!bone_of_.emplace(name, sk.bone_count()).second) {
      return Fail("two bones are named '" + name + "'");
    }
    sk.names.push_back(name);
    sk.parents.push_back(p.parent);
    sk.rest_local.push_back(p.parent < 0 ? above_ * local.value() : local.value());
    const int self = sk.bone_count() - 1;
    for (unsigned c = p.node->mNumChildren; c-- > 0;) stack.push_back({p.node->mChildren[c], self});
  }
  sk.skinned.assign(sk.names.size(), 0);
  return Ok{};
}

Status ModelLoader::InverseBinds() {
  Skeleton& sk = model_.skeleton;
  const int n = sk.bone_count();
  std::vector<BoneTransform> rest_model(static_cast<std::size_t>(n));
  for (int b = 0; b < n; ++b) {
    const int p = sk.parents[b];
    rest_model[b] = p < 0 ? sk.rest_local[b] : rest_model[p] * sk.rest_local[b];
  }
  sk.inverse_bind.resize(static_cast<std::size_t>(n));
  std::vector<std::uint8_t> given(static_cast<std::size_t>(n), 0);
  for (int b = 0; b < n; ++b) sk.inverse_bind[b] = Inverse(rest_model[b]);
  for (unsigned m = 0; m < scene_.mNumMeshes; ++m) {
    const aiMesh& mesh = *scene_.mMeshes[m];
    for (unsigned i = 0; i < mesh.mNumBones; ++i) {
      const aiBone& bone = *mesh.mBones[i];
      const int b = bone_of_.at(Name(bone.mName));
      Result<BoneTransform> inv = RigidFromMatrix(
          bone.mOffsetMatrix, scale_, "bone " + Name(bone.mName) + "'s inverse bind matrix");
      if (!inv) return MakeError(source_ + ": " + inv.error());
      const BoneTransform& t = inv.value();
      if (given[b]) {
        const BoneTransform& old = sk.inverse_bind[b];
        const bool same = std::abs(glm::dot(old.rotation, t.rotation)) > 1.0f - 1e-6f &&
                          glm::length(old.translation - t.translation) <= 1e-4f;
        if (!same) {
          return Fail("bone " + Name(bone.mName) +
                      " has different bind matrices in two meshes (one is " + Name(mesh.mName) +
                      ")");
        }
      }
      sk.inverse_bind[b] = t;
      given[b] = 1;
    }
  }
  return Ok{};
}

Status ModelLoader::Weights(const aiMesh& mesh, std::vector<TopWeights>& top) {
  top.assign(mesh.mNumVertices, TopWeights{});
  for (unsigned i = 0; i < mesh.mNumBones; ++i) {
    const aiBone& bone = *mesh.mBones[i];
    const int b = bone_of_.at(Name(bone.mName));
    for (unsigned k = 0; k < bone.mNumWeights; ++k) {
      const aiVertexWeight& w = bone.mWeights[k];
      if (!std::isfinite(w.mWeight) || w.mWeight < 0.0f) {
        return Fail("mesh " + Name(mesh.mName) + ": bone " + Name(bone.mName) +
                    " has a weight that is negative or not finite");
      }
      if (w.mVertexId >= mesh.mNumVertices) {
        return Fail("mesh " + Name(mesh.mName) + ": bone " + Name(bone.mName) +
                    " weights a vertex the mesh does not have");
      }
      if (w.mWeight > 0.0f) top[w.mVertexId].Add(b, w.mWeight);
    }
  }
  return Ok{};
}

Status ModelLoader::AddMesh(const aiMesh& mesh) {
  const std::string mesh_name = Name(mesh.mName);
  if (model_.vertices.size() + mesh.mNumVertices > kMaxVertices) {
    return Fail("more than " + std::to_string(kMaxVertices) + " vertices");
  }
  std::vector<TopWeights> top;
  if (Status s = Weights(mesh, top); !s) return s;
  MeshPart part{mesh_name, static_cast<std::uint32_t>(model_.vertices.size()), mesh.mNumVertices,
                static_cast<std::uint32_t>(model_.indices.size()), 0};
  for (unsigned v = 0; v < mesh.mNumVertices; ++v) {
    const aiVector3D& p = mesh.mVertices[v];
    Vertex out;
    out.position = glm::vec3(p.x, p.y, p.z) * scale_;
    if (!InModelRange(out.position)) {
      return Fail("mesh " + mesh_name + " vertex " + std::to_string(v) +
                  " is not finite or beyond " + std::to_string(kMaxCoordinate) + " m");
    }
    const aiVector3D n = mesh.HasNormals() ? mesh.mNormals[v] : aiVector3D(0.0f, 1.0f, 0.0f);
    out.normal = glm::vec3(n.x, n.y, n.z);
    if (!FiniteModelVec(out.normal)) {
      return Fail("mesh " + mesh_name + " vertex " + std::to_string(v) + " has a normal that " +
                  "is not finite");
    }
    const float len = glm::length(out.normal);
    out.normal = len > 1e-12f ? out.normal / len : glm::vec3(0.0f, 1.0f, 0.0f);
    const TopWeights& w = top[v];
    const float sum = w.weight[0] + w.weight[1] + w.weight[2] + w.weight[3];
    if (!(sum > 0.0f)) {
      return Fail("mesh " + mesh_name + " vertex " + std::to_string(v) +
                  " has no skin weight (its weights sum to 0)");
    }
    for (int i = 0; i < kMaxInfluences; ++i) {
      out.bones[i] = w.weight[i] > 0.0f ? w.bone[i] : 0;
      out.weights[i] = w.weight[i] / sum;
      if (w.weight[i] > 0.0f) model_.skeleton.skinned[w.bone[i]] = 1;
    }
    model_.vertices.push_back(out);
  }
  for (unsigned f = 0; f < mesh.mNumFaces; ++f) {
    const aiFace& face = mesh.mFaces[f];
    if (face.mNumIndices != 3) continue;  // points and lines are left out
    for (int k = 0; k < 3; ++k) {
      if (face.mIndices[k] >= mesh.mNumVertices) {
        return Fail("mesh " + mesh_name + " face " + std::to_string(f) +
                    " names a vertex the mesh does not have");
      }
      model_.indices.push_back(part.first_vertex + face.mIndices[k]);
    }
    part.index_count += 3;
  }
  if (model_.indices.size() / 3 > kMaxTriangles) {
    return Fail("more than " + std::to_string(kMaxTriangles) + " triangles");
  }
  model_.parts.push_back(std::move(part));
  return Ok{};
}

// Channels of one bone; every key checked.
Status ModelLoader::AddChannel(const aiNodeAnim& ch, const std::string& where, float tps,
                               int bone) {
  Channel out;
  out.bone = bone;
  const bool root = model_.skeleton.parents[bone] < 0;
  float last = -INFINITY;
  for (unsigned k = 0; k < ch.mNumPositionKeys; ++k) {
    const aiVectorKey& key = ch.mPositionKeys[k];
    const float t = static_cast<float>(key.mTime / tps);
    glm::vec3 v = glm::vec3(key.mValue.x, key.mValue.y, key.mValue.z) * scale_;
    if (root) v = Apply(above_, v);
    if (!std::isfinite(t) || t < last || !InModelRange(v)) {
      return Fail(where + ": a translation key is not finite, out of order or beyond " +
                  std::to_string(kMaxCoordinate) + " m");
    }
    last = t;
    out.translation_times.push_back(t);
    out.translations.push_back(v);
  }
  last = -INFINITY;
  for (unsigned k = 0; k < ch.mNumRotationKeys; ++k) {
    const aiQuatKey& key = ch.mRotationKeys[k];
    const float t = static_cast<float>(key.mTime / tps);
    glm::quat q(key.mValue.w, key.mValue.x, key.mValue.y, key.mValue.z);
    const float len = std::sqrt(glm::dot(q, q));
    if (!std::isfinite(t) || t < last || !std::isfinite(len) || len < 1e-6f) {
      return Fail(where + ": a rotation key is not finite, zero or out of order");
    }
    q = q / len;
    if (root) q = glm::normalize(above_.rotation * q);
    last = t;
    out.rotation_times.push_back(t);
    out.rotations.push_back(q);
  }
  for (unsigned k = 0; k < ch.mNumScalingKeys; ++k) {
    const aiVector3D& s = ch.mScalingKeys[k].mValue;
    const float worst =
        std::max({std::abs(s.x - 1.0f), std::abs(s.y - 1.0f), std::abs(s.z - 1.0f)});
    if (!(worst <= kRigidTolerance)) {
      return Fail(where + " scales its bone: only rotations and translations are supported");
    }
  }
  model_.animations.back().channels.push_back(std::move(out));
  return Ok{};
}

Status ModelLoader::AddAnimation(const aiAnimation& anim) {
  Animation out;
  out.name = Name(anim.mName);
  if (out.name.empty()) out.name = "animation " + std::to_string(model_.animations.size());
  const double tps = anim.mTicksPerSecond > 0.0 ? anim.mTicksPerSecond : kDefaultTicksPerSecond;
  out.ticks_per_second = static_cast<float>(tps);
  out.duration = static_cast<float>(anim.mDuration / tps);
  if (!std::isfinite(out.ticks_per_second) || !std::isfinite(out.duration) || out.duration < 0.0f) {
    return Fail("animation " + out.name + " has a duration or tick rate that is not finite");
  }
  model_.animations.push_back(std::move(out));
  int outside = 0;
  std::vector<std::uint8_t> seen(model_.skeleton.names.size(), 0);
  for (unsigned c = 0; c < anim.mNumChannels; ++c) {
    const aiNodeAnim& ch = *anim.mChannels[c];
    const auto it = bone_of_.find(Name(ch.mNodeName));
    if (it == bone_of_.end()) {
      // A channel of a mesh's own node (exporters write one) moves nothing skinned.
      const aiNode* node = scene_.mRootNode->FindNode(ch.mNodeName);
      if (node == nullptr || node->mNumMeshes == 0) ++outside;
      continue;
    }
    const std::string where = "animation " + model_.animations.back().name + ", bone " + it->first;
    if (seen[it->second]) return Fail(where + " has two channels");
    seen[it->second] = 1;
    if (Status s = AddChannel(ch, where, static_cast<float>(tps), it->second); !s) return s;
  }
  if (outside > 0) {
    model_.warnings.push_back("animation " + model_.animations.back().name + ": " +
                              std::to_string(outside) +
                              (outside == 1 ? " channel moves" : " channels move") +
                              " a node outside the skeleton: ignored");
  }
  return Ok{};
}

Result<Model> ModelLoader::Run() {
  if (scene_.mRootNode == nullptr) return Fail("no node hierarchy");
  Result<const aiNode*> top = SkeletonTop();
  if (!top) return MakeError(top.error());
  if (Status s = BuildSkeleton(top.value()); !s) return MakeError(s.error());
  if (Status s = InverseBinds(); !s) return MakeError(s.error());
  for (unsigned m = 0; m < scene_.mNumMeshes; ++m) {
    const aiMesh& mesh = *scene_.mMeshes[m];
    if (mesh.mNumBones == 0) {
      model_.warnings.push_back("mesh " + Name(mesh.mName) + " has no skin: left out");
      continue;
    }
    if (Status s = AddMesh(mesh); !s) return MakeError(s.error());
  }
  if (scene_.mNumAnimations > static_cast<unsigned>(kMaxAnimations)) {
    return Fail("more than " + std::to_string(kMaxAnimations) + " animations");
  }
  std::size_t keys = 0;
  for (unsigned a = 0; a < scene_.mNumAnimations; ++a) {
    const aiAnimation& anim = *scene_.mAnimations[a];
    for (unsigned c = 0; c < anim.mNumChannels; ++c) {
      const aiNodeAnim& ch = *anim.mChannels[c];
      keys += std::size_t{ch.mNumPositionKeys} + ch.mNumRotationKeys + ch.mNumScalingKeys;
    }
  }
  if (keys > kMaxAnimationKeys) {
    return Fail("animations with more than " + std::to_string(kMaxAnimationKeys) + " keys");
  }
  for (unsigned a = 0; a < scene_.mNumAnimations; ++a) {
    if (Status s = AddAnimation(*scene_.mAnimations[a]); !s) return MakeError(s.error());
  }
  return std::move(model_);
}

// Assimp's processing, in steps. Reading: nothing but the format's own reader. Then the
// faces are checked (CheckFaces), because Debian's Assimp aborts the process inside its
// triangulation on a face without corners. Then: triangles only, normals made where a file
// has none, points and lines removed, the data checked (ValidateDataStructure). Then the skin
// weights are checked as the file gives them (ScanSkin), because joining vertices drops what
// it cannot use (a bone without weight, a NaN weight); then identical vertices are joined
// (the X format repeats a vertex for every face corner).
constexpr unsigned kReadFlags = 0;
constexpr unsigned kShapeFlags = aiProcess_ValidateDataStructure | aiProcess_Triangulate |
                                 aiProcess_GenSmoothNormals | aiProcess_SortByPType;
constexpr unsigned kJoinFlags = aiProcess_JoinIdenticalVertices;

// The weights as read: an error for a weight that is negative or not finite; a warning for
// each bone weighted to no vertex; the vertex count before joining.
Status ScanSkin(const aiScene& scene, const std::string& source, Model& model) {
  for (unsigned m = 0; m < scene.mNumMeshes; ++m) {
    const aiMesh& mesh = *scene.mMeshes[m];
    if (mesh.mNumBones > 0) model.file_vertices += mesh.mNumVertices;
    for (unsigned i = 0; i < mesh.mNumBones; ++i) {
      const aiBone& bone = *mesh.mBones[i];
      bool used = false;
      for (unsigned k = 0; k < bone.mNumWeights; ++k) {
        const float w = bone.mWeights[k].mWeight;
        if (!std::isfinite(w) || w < 0.0f) {
          return MakeError(source + ": mesh " + Name(mesh.mName) + ": bone " + Name(bone.mName) +
                           " has a weight that is negative or not finite");
        }
        used = used || w > 0.0f;
      }
      if (!used) {
        model.warnings.push_back("bone " + Name(bone.mName) + " of mesh " + Name(mesh.mName) +
                                 " is weighted to no vertex: kept as a joint");
      }
    }
  }
  return Ok{};
}

// Every face has corners, every corner names a vertex of its mesh, and the faces are within
// the limits, before Assimp's processing works on them.
Status CheckFaces(const aiScene& scene, const std::string& source) {
  std::size_t faces = 0;
  for (unsigned m = 0; m < scene.mNumMeshes; ++m) {
    const aiMesh& mesh = *scene.mMeshes[m];
    if (mesh.mNumVertices > 0 && mesh.mVertices == nullptr) {
      return MakeError(source + ": mesh " + Name(mesh.mName) + " has no vertex positions");
    }
    faces += mesh.mNumFaces;
    if (faces > kMaxTriangles) {
      return MakeError(source + ": more than " + std::to_string(kMaxTriangles) + " faces");
    }
    for (unsigned f = 0; f < mesh.mNumFaces; ++f) {
      const aiFace& face = mesh.mFaces[f];
      if (face.mNumIndices == 0 || face.mIndices == nullptr) {
        return MakeError(source + ": mesh " + Name(mesh.mName) + " face " + std::to_string(f) +
                         " has no corners");
      }
      for (unsigned k = 0; k < face.mNumIndices; ++k) {
        if (face.mIndices[k] >= mesh.mNumVertices) {
          return MakeError(source + ": mesh " + Name(mesh.mName) + " face " + std::to_string(f) +
                           " names a vertex the mesh does not have");
        }
      }
    }
  }
  return Ok{};
}

Result<Model> FromScene(const aiScene* scene, Assimp::Importer& importer, const std::string& source,
                        const LoadOptions& options) {
  if (scene == nullptr) {
    return MakeError(source + ": Assimp cannot read it: " + importer.GetErrorString());
  }
  if (Status s = CheckFaces(*scene, source); !s) return MakeError(s.error());
  scene = importer.ApplyPostProcessing(kShapeFlags);
  if (scene == nullptr) {
    return MakeError(source + ": Assimp cannot use it: " + importer.GetErrorString());
  }
  Model scanned;
  if (Status s = ScanSkin(*scene, source, scanned); !s) return MakeError(s.error());
  scene = importer.ApplyPostProcessing(kJoinFlags);
  if (scene == nullptr) {
    return MakeError(source + ": Assimp cannot join its vertices: " + importer.GetErrorString());
  }
  Result<Model> model = ModelLoader(*scene, source, options.metres_per_unit).Run();
  if (!model) return model;
  Model& out = model.value();
  out.file_vertices = scanned.file_vertices;
  out.warnings.insert(out.warnings.begin(), scanned.warnings.begin(), scanned.warnings.end());
  return model;
}

void Configure(Assimp::Importer& importer) {
  importer.SetPropertyInteger(AI_CONFIG_PP_SBP_REMOVE,
                              aiPrimitiveType_POINT | aiPrimitiveType_LINE);
}

Status CheckScale(const LoadOptions& options) {
  if (!(options.metres_per_unit >= 1e-6f && options.metres_per_unit <= 1e3f)) {
    return MakeError("scale " + std::to_string(options.metres_per_unit) +
                     " metres per unit is outside [1e-6, 1000]");
  }
  return Ok{};
}

}  // namespace

// The DirectX .x guard: Assimp's X reader allocates whatever a count in the file claims
// before it reads the items. In a text file every count is a plain integer, so one larger
// than the file could hold (or than kMinCountLimit in a smaller file: key times are plain
// integers too) is refused before Assimp sees the bytes. The blocks of raw 32-bit words
// (DeclData, FVFData: vertex data exporters store as integers) are skipped. Binary and
// compressed .x files are refused: their counts cannot be checked this way.
constexpr std::size_t kMinCountLimit = 1u << 16;

bool IsXFile(std::string_view bytes) { return bytes.substr(0, 4) == "xof "; }

Status GuardXText(std::string_view bytes, const std::string& source) {
  if (bytes.size() < 16 || bytes.substr(8, 4) != "txt ") {
    return MakeError(source + ": a binary or compressed .x file; only text .x files are read");
  }
  const std::size_t limit = std::max(bytes.size(), kMinCountLimit);
  const auto digit = [](char c) { return c >= '0' && c <= '9'; };
  const auto word = [&](char c) {
    return digit(c) || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == '.' ||
           c == '-' || c == '+';
  };
  for (std::size_t i = 0; i < bytes.size();) {
    if (bytes.compare(i, 8, "DeclData") == 0 || bytes.compare(i, 7, "FVFData") == 0) {
      i = std::min(bytes.find('}', i), bytes.size());
      continue;
    }
    if (!digit(bytes[i]) || (i > 0 && word(bytes[i - 1]))) {
      ++i;
      continue;
    }
    std::size_t end = i;
    std::size_t value = 0;
    while (end < bytes.size() && digit(bytes[end])) {
      value = std::min<std::size_t>(value * 10 + static_cast<std::size_t>(bytes[end] - '0'),
                                    std::size_t{1} << 40);
      ++end;
    }
    const bool real =
        end < bytes.size() && (bytes[end] == '.' || bytes[end] == 'e' || bytes[end] == 'E');
    if (!real && value > limit) {
      return MakeError(source + ": claims a count of " + std::string(bytes.substr(i, end - i)) +
                       ", more than the file could hold");
    }
    i = end;
  }
  return Ok{};
}

Result<Model> LoadModelFromMemory(std::string_view bytes, const std::string& format_hint,
                                  const std::string& source, const LoadOptions& options) {
  if (Status s = CheckScale(options); !s) return MakeError(s.error());
  if (bytes.empty()) return MakeError(source + ": the file is empty");
  if (bytes.size() > kMaxFileBytes) {
    return MakeError(source + ": larger than the limit of " + std::to_string(kMaxFileBytes >> 20) +
                     " MiB");
  }
  if (IsXFile(bytes)) {
    if (Status s = GuardXText(bytes, source); !s) return MakeError(s.error());
  }
  try {
    Assimp::Importer importer;
    Configure(importer);
    const aiScene* scene =
        importer.ReadFileFromMemory(bytes.data(), bytes.size(), kReadFlags, format_hint.c_str());
    return FromScene(scene, importer, source, options);
  } catch (const std::exception& e) {
    return MakeError(source + ": reading failed: " + e.what());
  }
}

Result<Model> LoadModelFile(const std::string& path, const LoadOptions& options) {
  if (Status s = CheckScale(options); !s) return MakeError(s.error());
  std::error_code ec;
  const auto status = std::filesystem::status(path, ec);
  if (ec || !std::filesystem::exists(status)) return MakeError(path + ": no such file");
  if (std::filesystem::is_directory(status)) {
    return MakeError(path + ": is a directory, not a model file");
  }
  if (!std::filesystem::is_regular_file(status)) return MakeError(path + ": not a regular file");
  const auto size = std::filesystem::file_size(path, ec);
  if (ec) return MakeError(path + ": cannot read its size: " + ec.message());
  if (size == 0) return MakeError(path + ": the file is empty");
  if (size > kMaxFileBytes) {
    return MakeError(path + ": " + std::to_string(size) + " bytes, larger than the limit of " +
                     std::to_string(kMaxFileBytes >> 20) + " MiB");
  }
  // A .x file (whatever its name) is read here and guarded (GuardXText); any other format is
  // read by Assimp from its path, so that files it refers to are found.
  std::ifstream in(path, std::ios::binary);
  if (!in) return MakeError(path + ": cannot open it for reading");
  std::string bytes(4, '\0');
  in.read(bytes.data(), 4);
  if (in && IsXFile(bytes)) {
    bytes.resize(static_cast<std::size_t>(size));
    in.read(bytes.data() + 4, static_cast<std::streamsize>(size - 4));
    if (!in) return MakeError(path + ": read failed");
    return LoadModelFromMemory(bytes, "x", path, options);
  }
  try {
    Assimp::Importer importer;
    Configure(importer);
    return FromScene(importer.ReadFile(path, kReadFlags), importer, path, options);
  } catch (const std::exception& e) {
    return MakeError(path + ": reading failed: " + e.what());
  }
}

}  // namespace fabrik::character
