// skin_pass.h - the GL side of the skinned tube, used by Renderer (renderer.h is the API).
//
// Owns the tube's vertex and index buffers, the bones' texture buffer (two RGBA32F texels per
// bone: a bone-count limit of GL_MAX_TEXTURE_BUFFER_SIZE / 2, at least 32,768, instead of the
// few hundred a uniform array allows) and the skin program (shaders/skin.vert + mesh.frag).
#pragma once

#include <memory>
#include <span>
#include <string>
#include <vector>

#include <glm/gtc/quaternion.hpp>
#include <glm/mat4x4.hpp>
#include <glm/vec3.hpp>
#include <glm/vec4.hpp>

#include "ik/result.h"
#include "render/shader.h"
#include "skin/dual_quat.h"
#include "skin/tube_mesh.h"

namespace fabrik {

class SkinPass {
 public:
  // Loads the program and makes the (empty) buffers; fails with the shader's message.
  static Result<std::unique_ptr<SkinPass>> Create(const std::string& shader_dir);
  ~SkinPass();
  SkinPass(const SkinPass&) = delete;
  SkinPass& operator=(const SkinPass&) = delete;

  void SetMesh(const SkinMesh& mesh);
  // See Renderer::DrawSkin. Returns false (drawing nothing) without a mesh or on a count
  // mismatch.
  bool Draw(std::span<const glm::quat> rotations, std::span<const glm::vec3> joints,
            const glm::vec4& color, const glm::mat4& view_projection, const glm::vec3& eye);

 private:
  SkinPass() = default;
  ShaderProgram program_;
  unsigned vao_ = 0;
  unsigned vbo_ = 0;
  unsigned ebo_ = 0;
  unsigned bone_buffer_ = 0;
  unsigned bone_texture_ = 0;
  int index_count_ = 0;
  SkinMesh rest_;  // rest origins and lengths only (the vertices live on the GPU)
  std::vector<DualQuat> bones_;
  std::vector<glm::vec4> texels_;
};

}  // namespace fabrik
