#include "render/surface_renderer.h"

#include <glad/gl.h>

#include <array>
#include <glm/gtc/type_ptr.hpp>
#include <vector>

#include "render/shader.h"

namespace fabrik {
namespace {

struct GpuMesh {
  GLuint vao = 0;
  GLuint vbo = 0;
  GLuint ibo = 0;
  GLsizei count = 0;
};

}  // namespace

struct SurfaceRenderer::Impl {
  ShaderProgram shader;
  std::array<GpuMesh, SurfaceRenderer::kSlots> meshes{};
  std::vector<float> interleaved;  // upload scratch
};

SurfaceRenderer::SurfaceRenderer(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}

SurfaceRenderer::~SurfaceRenderer() {
  for (GpuMesh& m : impl_->meshes) {
    if (m.vao == 0) continue;
    glDeleteVertexArrays(1, &m.vao);
    glDeleteBuffers(1, &m.vbo);
    glDeleteBuffers(1, &m.ibo);
  }
}

Result<std::unique_ptr<SurfaceRenderer>> SurfaceRenderer::Create(const std::string& shader_dir) {
  auto shader = ShaderProgram::Load(shader_dir + "/surface.vert", shader_dir + "/surface.frag");
  if (!shader) return MakeError(shader.error());
  auto impl = std::make_unique<Impl>();
  impl->shader = std::move(shader).value();
  return std::unique_ptr<SurfaceRenderer>(new SurfaceRenderer(std::move(impl)));
}

void SurfaceRenderer::Upload(int slot, std::span<const glm::vec3> positions,
                             std::span<const glm::vec3> normals,
                             std::span<const std::uint32_t> indices) {
  if (slot < 0 || slot >= kSlots || positions.size() != normals.size()) return;
  GpuMesh& m = impl_->meshes[static_cast<std::size_t>(slot)];
  if (m.vao == 0) {
    glGenVertexArrays(1, &m.vao);
    glGenBuffers(1, &m.vbo);
    glGenBuffers(1, &m.ibo);
    glBindVertexArray(m.vao);
    glBindBuffer(GL_ARRAY_BUFFER, m.vbo);
    glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, m.ibo);
    VertexAttribute(0, 3, 6 * sizeof(float), 0);
    VertexAttribute(1, 3, 6 * sizeof(float), 3 * sizeof(float));
    glBindVertexArray(0);
  }
  auto& data = impl_->interleaved;
  data.clear();
  for (std::size_t i = 0; i < positions.size(); ++i) {
    data.insert(data.end(), {positions[i].x, positions[i].y, positions[i].z, normals[i].x,
                             normals[i].y, normals[i].z});
  }
  glBindVertexArray(m.vao);
  glBindBuffer(GL_ARRAY_BUFFER, m.vbo);
  glBufferData(GL_ARRAY_BUFFER, static_cast<GLsizeiptr>(data.size() * sizeof(float)), data.data(),
               GL_STATIC_DRAW);
  glBufferData(GL_ELEMENT_ARRAY_BUFFER, static_cast<GLsizeiptr>(indices.size_bytes()),
               indices.data(), GL_STATIC_DRAW);
  glBindVertexArray(0);
  m.count = static_cast<GLsizei>(indices.size());
}

void SurfaceRenderer::Draw(int slot, const glm::mat4& model, const glm::mat4& view_projection,
                           const glm::vec3& eye, const SurfaceStyle& style) {
  if (slot < 0 || slot >= kSlots) return;
  const GpuMesh& m = impl_->meshes[static_cast<std::size_t>(slot)];
  if (m.vao == 0 || m.count == 0) return;
  const ShaderProgram& s = impl_->shader;
  s.Use();
  s.Set("u_model", model);
  s.Set("u_view_projection", view_projection);
  s.Set("u_eye", eye);
  glUniform4fv(glGetUniformLocation(s.id(), "u_color"), 1, glm::value_ptr(style.color));
  glUniform4fv(glGetUniformLocation(s.id(), "u_high_color"), 1, glm::value_ptr(style.high_color));
  glUniform4fv(glGetUniformLocation(s.id(), "u_grid_color"), 1, glm::value_ptr(style.grid_color));
  s.Set("u_ramp_height", style.ramp_height);
  s.Set("u_grid_step", style.grid_step);
  glBindVertexArray(m.vao);
  glDrawElements(GL_TRIANGLES, m.count, GL_UNSIGNED_INT, nullptr);
  glBindVertexArray(0);
}

}  // namespace fabrik
