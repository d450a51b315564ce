#include "render/skin_pass.h"

#include <glad/gl.h>

#include <cstddef>
#include <cstdint>

#include "skin/skinning.h"

namespace fabrik {

BoneTexture::BoneTexture() {
  // Texture buffers are core since GL 3.1.
  glGenBuffers(1, &buffer_);
  glGenTextures(1, &texture_);
  glBindBuffer(GL_TEXTURE_BUFFER, buffer_);
  glBufferData(GL_TEXTURE_BUFFER, sizeof(glm::vec4) * 2, nullptr, GL_STREAM_DRAW);
  glBindTexture(GL_TEXTURE_BUFFER, texture_);
  glTexBuffer(GL_TEXTURE_BUFFER, GL_RGBA32F, buffer_);
  glBindTexture(GL_TEXTURE_BUFFER, 0);
  glBindBuffer(GL_TEXTURE_BUFFER, 0);
}

BoneTexture::~BoneTexture() {
  glDeleteBuffers(1, &buffer_);
  glDeleteTextures(1, &texture_);
}

void BoneTexture::Upload(std::span<const DualQuat> bones) {
  texels_.resize(bones.size() * 2);  // grows once per bone count
  for (std::size_t i = 0; i < bones.size(); ++i) {
    const glm::quat& r = bones[i].real;
    const glm::quat& d = bones[i].dual;
    texels_[2 * i] = glm::vec4(r.x, r.y, r.z, r.w);
    texels_[2 * i + 1] = glm::vec4(d.x, d.y, d.z, d.w);
  }
  glBindBuffer(GL_TEXTURE_BUFFER, buffer_);
  const auto bytes = static_cast<GLsizeiptr>(texels_.size() * sizeof(glm::vec4));
  glBufferData(GL_TEXTURE_BUFFER, bytes, nullptr, GL_STREAM_DRAW);  // orphan, then fill
  glBufferSubData(GL_TEXTURE_BUFFER, 0, bytes, texels_.data());
  glBindBuffer(GL_TEXTURE_BUFFER, 0);
  glActiveTexture(GL_TEXTURE0);
  glBindTexture(GL_TEXTURE_BUFFER, texture_);
}

void BoneTexture::Unbind() const { glBindTexture(GL_TEXTURE_BUFFER, 0); }

SkinnedMeshBuffers::SkinnedMeshBuffers(void (*layout)()) {
  glGenVertexArrays(1, &vao_);
  glGenBuffers(1, &vbo_);
  glGenBuffers(1, &ebo_);
  glBindVertexArray(vao_);
  glBindBuffer(GL_ARRAY_BUFFER, vbo_);
  glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, ebo_);
  layout();
  glBindVertexArray(0);
}

SkinnedMeshBuffers::~SkinnedMeshBuffers() {
  glDeleteVertexArrays(1, &vao_);
  glDeleteBuffers(1, &vbo_);
  glDeleteBuffers(1, &ebo_);
}

void SkinnedMeshBuffers::Upload(const void* vertices, std::size_t vertex_bytes,
                                std::span<const std::uint32_t> indices) {
  glBindVertexArray(vao_);
  glBindBuffer(GL_ARRAY_BUFFER, vbo_);
  glBufferData(GL_ARRAY_BUFFER, static_cast<GLsizeiptr>(vertex_bytes), vertices, GL_STATIC_DRAW);
  glBufferData(GL_ELEMENT_ARRAY_BUFFER, static_cast<GLsizeiptr>(indices.size_bytes()),
               indices.data(), GL_STATIC_DRAW);
  glBindVertexArray(0);
}

void SkinnedMeshBuffers::Draw(std::size_t first, std::size_t count,
                              const BoneTexture& bones) const {
  glBindVertexArray(vao_);
  glDrawElements(GL_TRIANGLES, static_cast<GLsizei>(count), GL_UNSIGNED_INT,
                 reinterpret_cast<const void*>(first * sizeof(std::uint32_t)));
  glBindVertexArray(0);
  bones.Unbind();
}

void UseSkinProgram(const ShaderProgram& program, const glm::mat4& view_projection,
                    const glm::vec3& eye, const glm::vec4& color) {
  program.Use();
  program.Set("u_view_projection", view_projection);
  program.Set("u_eye", eye);
  program.Set("u_bones", 0);
  program.Set("u_color", color);
  program.Set("u_kind", 0);
  program.Set("u_shell", 0);
}

namespace {

void TubeLayout() {
  VertexAttribute(0, 3, sizeof(SkinVertex), offsetof(SkinVertex, position));
  VertexAttribute(1, 3, sizeof(SkinVertex), offsetof(SkinVertex, normal));
  VertexAttribute(2, 2, sizeof(SkinVertex), offsetof(SkinVertex, bones), AttributeType::kInt);
  VertexAttribute(3, 2, sizeof(SkinVertex), offsetof(SkinVertex, weights));
}

void ModelLayout() {
  using character::Vertex;
  VertexAttribute(0, 3, sizeof(Vertex), offsetof(Vertex, position));
  VertexAttribute(1, 3, sizeof(Vertex), offsetof(Vertex, normal));
  VertexAttribute(2, 4, sizeof(Vertex), offsetof(Vertex, bones), AttributeType::kInt);
  VertexAttribute(3, 4, sizeof(Vertex), offsetof(Vertex, weights));
}

}  // namespace

SkinPass::SkinPass() : mesh_(TubeLayout) {}

Result<std::unique_ptr<SkinPass>> SkinPass::Create(const std::string& shader_dir) {
  auto program = ShaderProgram::Load(shader_dir + "/skin.vert", shader_dir + "/mesh.frag");
  if (!program) return MakeError(program.error());
  std::unique_ptr<SkinPass> pass(new SkinPass());
  pass->program_ = std::move(program).value();
  return pass;
}

void SkinPass::SetMesh(const SkinMesh& mesh) {
  mesh_.Upload(mesh.vertices.data(), mesh.vertices.size() * sizeof(SkinVertex), mesh.indices);
  index_count_ = static_cast<int>(mesh.indices.size());
  rest_.rest_origins = mesh.rest_origins;
  rest_.lengths = mesh.lengths;
  bones_.resize(mesh.bone_count());
}

bool SkinPass::Draw(std::span<const glm::quat> rotations, std::span<const glm::vec3> joints,
                    const glm::vec4& color, const glm::mat4& view_projection,
                    const glm::vec3& eye) {
  if (index_count_ == 0 || !SkinBones(rest_, rotations, joints, bones_)) return false;
  bone_texture_.Upload(bones_);
  UseSkinProgram(program_, view_projection, eye, color);
  // The tube is closed and wound outwards: back faces never show.
  glEnable(GL_CULL_FACE);
  glCullFace(GL_BACK);
  mesh_.Draw(0, static_cast<std::size_t>(index_count_), bone_texture_);
  glDisable(GL_CULL_FACE);
  return true;
}

ModelSkinPass::ModelSkinPass() : mesh_(ModelLayout) {}

Result<std::unique_ptr<ModelSkinPass>> ModelSkinPass::Create(const std::string& shader_dir) {
  auto program = ShaderProgram::Load(shader_dir + "/model_skin.vert", shader_dir + "/mesh.frag");
  if (!program) return MakeError(program.error());
  std::unique_ptr<ModelSkinPass> pass(new ModelSkinPass());
  pass->program_ = std::move(program).value();
  return pass;
}

void ModelSkinPass::SetModel(const character::Model& model) {
  mesh_.Upload(model.vertices.data(), model.vertices.size() * sizeof(character::Vertex),
               model.indices);
  parts_ = model.parts;
  bone_count_ = static_cast<std::size_t>(model.skeleton.bone_count());
}

bool ModelSkinPass::Draw(std::span<const DualQuat> bones, int part, const glm::vec4& color,
                         bool linear, const glm::mat4& view_projection, const glm::vec3& eye) {
  if (part < 0 || static_cast<std::size_t>(part) >= parts_.size() || bones.size() != bone_count_) {
    return false;
  }
  const character::MeshPart& p = parts_[static_cast<std::size_t>(part)];
  bone_texture_.Upload(bones);
  UseSkinProgram(program_, view_projection, eye, color);
  program_.Set("u_linear", linear ? 1 : 0);
  // Indices are into the model's whole vertex array; both faces are lit (mesh.frag), so a
  // model whose meshes are not closed still shows its inside the right way.
  mesh_.Draw(p.first_index, p.index_count, bone_texture_);
  return true;
}

}  // namespace fabrik
