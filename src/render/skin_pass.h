// skin_pass.h - skinning on the GPU: the skinned tube (SkinPass, used by Renderer; renderer.h
// is the API) and a character loaded from a file (ModelSkinPass, docs/characters.md).
//
// Each owns its vertex and index buffers, a BoneTexture (the bones' texture buffer: two RGBA32F
// texels per bone, a bone-count limit of GL_MAX_TEXTURE_BUFFER_SIZE / 2, at least 32,768,
// instead of the few hundred a uniform array allows) and its program: shaders/skin.vert (two
// bones a vertex) or shaders/model_skin.vert (four, dual quaternion or linear blend), both
// with mesh.frag.
#pragma once

#include <glm/gtc/quaternion.hpp>
#include <glm/mat4x4.hpp>
#include <glm/vec3.hpp>
#include <glm/vec4.hpp>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "character/model.h"
#include "ik/result.h"
#include "render/shader.h"
#include "skin/dual_quat.h"
#include "skin/tube_mesh.h"

namespace fabrik {

// The bones of one draw as unit dual quaternions in a texture buffer (the header comment).
class BoneTexture {
 public:
  BoneTexture();
  ~BoneTexture();
  BoneTexture(const BoneTexture&) = delete;
  BoneTexture& operator=(const BoneTexture&) = delete;
  // Uploads `bones` (the buffer orphaned, then filled) and binds the texture to unit 0.
  void Upload(std::span<const DualQuat> bones);
  void Unbind() const;

 private:
  unsigned buffer_ = 0;
  unsigned texture_ = 0;
  std::vector<glm::vec4> texels_;
};

// A skinned mesh's vertex array with its vertex and index buffers (both passes below).
class SkinnedMeshBuffers {
 public:
  // Makes the buffers and sets the vertex layout: `layout` calls VertexAttribute
  // (render/shader.h) with the vertex array and both buffers bound.
  explicit SkinnedMeshBuffers(void (*layout)());
  ~SkinnedMeshBuffers();
  SkinnedMeshBuffers(const SkinnedMeshBuffers&) = delete;
  SkinnedMeshBuffers& operator=(const SkinnedMeshBuffers&) = delete;
  // Replaces the vertices (`vertex_bytes` bytes) and the triangles' indices.
  void Upload(const void* vertices, std::size_t vertex_bytes,
              std::span<const std::uint32_t> indices);
  // Draws `count` indices from `first` as triangles with `program` (in use, its uniforms set;
  // the bones' texture bound), then unbinds the bones' texture.
  void Draw(std::size_t first, std::size_t count, const BoneTexture& bones) const;

 private:
  unsigned vao_ = 0;
  unsigned vbo_ = 0;
  unsigned ebo_ = 0;
};

// Uses a skinning program and sets what both passes' shaders share: the camera, the bones'
// texture unit, the colour, and mesh.frag's plain lit surface.
void UseSkinProgram(const ShaderProgram& program, const glm::mat4& view_projection,
                    const glm::vec3& eye, const glm::vec4& color);

class SkinPass {
 public:
  // Loads the program and makes the (empty) buffers; fails with the shader's message.
  static Result<std::unique_ptr<SkinPass>> Create(const std::string& shader_dir);
  SkinPass(const SkinPass&) = delete;
  SkinPass& operator=(const SkinPass&) = delete;

  void SetMesh(const SkinMesh& mesh);
  // See Renderer::DrawSkin. Returns false (drawing nothing) without a mesh or on a count
  // mismatch.
  bool Draw(std::span<const glm::quat> rotations, std::span<const glm::vec3> joints,
            const glm::vec4& color, const glm::mat4& view_projection, const glm::vec3& eye);

 private:
  SkinPass();
  ShaderProgram program_;
  SkinnedMeshBuffers mesh_;
  BoneTexture bone_texture_;
  int index_count_ = 0;
  SkinMesh rest_;  // rest origins and lengths only (the vertices live on the GPU)
  std::vector<DualQuat> bones_;
};

// A loaded character's meshes (character/model.h), skinned on the GPU with the transforms
// character::SkinningTransforms gives (world space when the pose is), and lit like every
// mesh. Shell code: needs a current GL context.
class ModelSkinPass {
 public:
  static Result<std::unique_ptr<ModelSkinPass>> Create(const std::string& shader_dir);
  ModelSkinPass(const ModelSkinPass&) = delete;
  ModelSkinPass& operator=(const ModelSkinPass&) = delete;

  // Uploads the model's bind-pose vertices and triangles (once per model).
  void SetModel(const character::Model& model);
  // Draws mesh part `part` of the model in `color`; `linear` picks linear blending over dual
  // quaternions. False (nothing drawn) without a model, for a part it does not have, or
  // with a bone count other than the model's.
  bool Draw(std::span<const DualQuat> bones, int part, const glm::vec4& color, bool linear,
            const glm::mat4& view_projection, const glm::vec3& eye);

 private:
  ModelSkinPass();
  ShaderProgram program_;
  SkinnedMeshBuffers mesh_;
  BoneTexture bone_texture_;
  std::vector<character::MeshPart> parts_;
  std::size_t bone_count_ = 0;
};

}  // namespace fabrik
