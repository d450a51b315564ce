#include "render/skin_pass.h"

#include <glad/gl.h>

#include <cstddef>
#include <cstdint>

#include "skin/skinning.h"

namespace fabrik {

Result<std::unique_ptr<SkinPass>> SkinPass::Create(const std::string& shader_dir) {
  auto program = ShaderProgram::Load(shader_dir + "/skin.vert", shader_dir + "/mesh.frag");
  if (!program) return MakeError(program.error());
  std::unique_ptr<SkinPass> pass(new SkinPass());
  pass->program_ = std::move(program).value();
  glGenVertexArrays(1, &pass->vao_);
  glGenBuffers(1, &pass->vbo_);
  glGenBuffers(1, &pass->ebo_);
  glBindVertexArray(pass->vao_);
  glBindBuffer(GL_ARRAY_BUFFER, pass->vbo_);
  glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, pass->ebo_);
  VertexAttribute(0, 3, sizeof(SkinVertex), offsetof(SkinVertex, position));
  VertexAttribute(1, 3, sizeof(SkinVertex), offsetof(SkinVertex, normal));
  VertexAttribute(2, 2, sizeof(SkinVertex), offsetof(SkinVertex, bones), AttributeType::kInt);
  VertexAttribute(3, 2, sizeof(SkinVertex), offsetof(SkinVertex, weights));
  glBindVertexArray(0);
  // Texture buffers are core since GL 3.1.
  glGenBuffers(1, &pass->bone_buffer_);
  glGenTextures(1, &pass->bone_texture_);
  glBindBuffer(GL_TEXTURE_BUFFER, pass->bone_buffer_);
  glBufferData(GL_TEXTURE_BUFFER, sizeof(glm::vec4) * 2, nullptr, GL_STREAM_DRAW);
  glBindTexture(GL_TEXTURE_BUFFER, pass->bone_texture_);
  glTexBuffer(GL_TEXTURE_BUFFER, GL_RGBA32F, pass->bone_buffer_);
  glBindTexture(GL_TEXTURE_BUFFER, 0);
  glBindBuffer(GL_TEXTURE_BUFFER, 0);
  return pass;
}

SkinPass::~SkinPass() {
  glDeleteVertexArrays(1, &vao_);
  glDeleteBuffers(1, &vbo_);
  glDeleteBuffers(1, &ebo_);
  glDeleteBuffers(1, &bone_buffer_);
  glDeleteTextures(1, &bone_texture_);
}

void SkinPass::SetMesh(const SkinMesh& mesh) {
  glBindVertexArray(vao_);
  glBindBuffer(GL_ARRAY_BUFFER, vbo_);
  glBufferData(GL_ARRAY_BUFFER, static_cast<GLsizeiptr>(mesh.vertices.size() * sizeof(SkinVertex)),
               mesh.vertices.data(), GL_STATIC_DRAW);
  glBufferData(GL_ELEMENT_ARRAY_BUFFER,
               static_cast<GLsizeiptr>(mesh.indices.size() * sizeof(std::uint32_t)),
               mesh.indices.data(), GL_STATIC_DRAW);
  glBindVertexArray(0);
  index_count_ = static_cast<int>(mesh.indices.size());
  rest_.rest_origins = mesh.rest_origins;
  rest_.lengths = mesh.lengths;
  bones_.resize(mesh.bone_count());
  texels_.resize(mesh.bone_count() * 2);
}

bool SkinPass::Draw(std::span<const glm::quat> rotations, std::span<const glm::vec3> joints,
                    const glm::vec4& color, const glm::mat4& view_projection,
                    const glm::vec3& eye) {
  if (index_count_ == 0 || !SkinBones(rest_, rotations, joints, bones_)) return false;
  for (std::size_t i = 0; i < bones_.size(); ++i) {
    const glm::quat& r = bones_[i].real;
    const glm::quat& d = bones_[i].dual;
    texels_[2 * i] = glm::vec4(r.x, r.y, r.z, r.w);
    texels_[2 * i + 1] = glm::vec4(d.x, d.y, d.z, d.w);
  }
  glBindBuffer(GL_TEXTURE_BUFFER, bone_buffer_);
  const auto bytes = static_cast<GLsizeiptr>(texels_.size() * sizeof(glm::vec4));
  glBufferData(GL_TEXTURE_BUFFER, bytes, nullptr, GL_STREAM_DRAW);  // orphan, then fill
  glBufferSubData(GL_TEXTURE_BUFFER, 0, bytes, texels_.data());
  glBindBuffer(GL_TEXTURE_BUFFER, 0);
  glActiveTexture(GL_TEXTURE0);
  glBindTexture(GL_TEXTURE_BUFFER, bone_texture_);
  program_.Use();
  program_.Set("u_view_projection", view_projection);
  program_.Set("u_eye", eye);
  program_.Set("u_bones", 0);
  program_.Set("u_color", color);
  program_.Set("u_kind", 0);
  program_.Set("u_shell", 0);
  // The tube is closed and wound outwards: back faces never show.
  glEnable(GL_CULL_FACE);
  glCullFace(GL_BACK);
  glBindVertexArray(vao_);
  glDrawElements(GL_TRIANGLES, index_count_, GL_UNSIGNED_INT, nullptr);
  glBindVertexArray(0);
  glDisable(GL_CULL_FACE);
  glBindTexture(GL_TEXTURE_BUFFER, 0);
  return true;
}

}  // namespace fabrik
