#include "render/renderer.h"

#include <glad/gl.h>

#include <cmath>
#include <cstddef>

#include "render/instance_filter.h"
#include "render/shader.h"

// libstb (Debian) ships the implementation; only the declarations are included here.
#include <stb_image_write.h>

namespace fabrik {
namespace {

struct MeshVertex {
  glm::vec3 position;
  glm::vec3 normal;
};

// The instance layout the mesh shader reads: a = start/centre + radius, b = end + radius.
struct GpuInstance {
  glm::vec4 a;
  glm::vec4 b;
  glm::vec4 color;
};

constexpr float kPi = 3.14159265f;

std::vector<MeshVertex> SphereTriangles(int rings, int sectors) {
  std::vector<MeshVertex> grid;
  for (int r = 0; r <= rings; ++r) {
    const float phi = kPi * static_cast<float>(r) / rings;
    for (int s = 0; s <= sectors; ++s) {
      const float theta = 2.0f * kPi * static_cast<float>(s) / sectors;
      const glm::vec3 n(std::sin(phi) * std::cos(theta), std::cos(phi),
                        std::sin(phi) * std::sin(theta));
      grid.push_back({n, n});
    }
  }
  std::vector<MeshVertex> tris;
  const int row = sectors + 1;
  for (int r = 0; r < rings; ++r) {
    for (int s = 0; s < sectors; ++s) {
      const int i0 = r * row + s, i1 = i0 + 1, i2 = i0 + row, i3 = i2 + 1;
      tris.insert(tris.end(), {grid[i0], grid[i2], grid[i1], grid[i1], grid[i2], grid[i3]});
    }
  }
  return tris;
}

// A unit square in the XZ plane, for the ground shadows (the shader fades it to a disc).
std::vector<MeshVertex> QuadTriangles() {
  const glm::vec3 n(0.0f, 1.0f, 0.0f);
  const MeshVertex a{{-1, 0, -1}, n}, b{{1, 0, -1}, n}, c{{1, 0, 1}, n}, d{{-1, 0, 1}, n};
  return {a, b, c, a, c, d};
}

// A unit cylinder along +y from 0 to 1, radius 1, without caps (the joint spheres cover them).
std::vector<MeshVertex> CylinderTriangles(int sectors) {
  std::vector<MeshVertex> tris;
  for (int s = 0; s < sectors; ++s) {
    const float a0 = 2.0f * kPi * static_cast<float>(s) / sectors;
    const float a1 = 2.0f * kPi * static_cast<float>(s + 1) / sectors;
    const glm::vec3 n0(std::cos(a0), 0.0f, std::sin(a0)), n1(std::cos(a1), 0.0f, std::sin(a1));
    const MeshVertex b0{n0, n0}, b1{n1, n1};
    const MeshVertex t0{n0 + glm::vec3(0, 1, 0), n0}, t1{n1 + glm::vec3(0, 1, 0), n1};
    tris.insert(tris.end(), {b0, t0, b1, b1, t0, t1});
  }
  return tris;
}

struct Mesh {
  GLuint vao = 0;
  GLuint vbo = 0;
  GLsizei count = 0;
};

}  // namespace

struct Renderer::Impl {
  ShaderProgram mesh_shader;
  ShaderProgram line_shader;
  ShaderProgram background_shader;
  Mesh sphere;      // smooth, for a few large spheres
  Mesh sphere_low;  // coarse, for many small ones: vertex work stays flat as chains grow
  Mesh sphere_min;  // coarser still, for thousands
  Mesh cylinder;
  Mesh cylinder_low;
  Mesh quad;
  GLuint instance_vbo = 0;
  GLuint line_vao = 0;
  GLuint line_vbo = 0;
  GLuint empty_vao = 0;
  glm::mat4 view_projection{1.0f};
  glm::vec3 eye{0.0f};
  float near_plane = 0.0f;
  // Reused every frame: no per-frame allocation.
  std::vector<GpuInstance> scratch;
  std::vector<SphereInstance> shadows;
  std::vector<std::pair<std::uint64_t, std::uint32_t>> shadow_keys;

  Mesh MakeMesh(const std::vector<MeshVertex>& vertices) {
    Mesh mesh;
    mesh.count = static_cast<GLsizei>(vertices.size());
    glGenVertexArrays(1, &mesh.vao);
    glGenBuffers(1, &mesh.vbo);
    glBindVertexArray(mesh.vao);
    glBindBuffer(GL_ARRAY_BUFFER, mesh.vbo);
    glBufferData(GL_ARRAY_BUFFER, static_cast<GLsizeiptr>(vertices.size() * sizeof(MeshVertex)),
                 vertices.data(), GL_STATIC_DRAW);
    glEnableVertexAttribArray(0);
    glVertexAttribPointer(0, 3, GL_FLOAT, GL_FALSE, sizeof(MeshVertex),
                          reinterpret_cast<void*>(offsetof(MeshVertex, position)));
    glEnableVertexAttribArray(1);
    glVertexAttribPointer(1, 3, GL_FLOAT, GL_FALSE, sizeof(MeshVertex),
                          reinterpret_cast<void*>(offsetof(MeshVertex, normal)));
    // Per-instance attributes come from the shared instance buffer.
    glBindBuffer(GL_ARRAY_BUFFER, instance_vbo);
    for (int i = 0; i < 3; ++i) {
      glEnableVertexAttribArray(2 + i);
      glVertexAttribPointer(2 + i, 4, GL_FLOAT, GL_FALSE, sizeof(GpuInstance),
                            reinterpret_cast<void*>(sizeof(glm::vec4) * i));
      glVertexAttribDivisor(2 + i, 1);
    }
    glBindVertexArray(0);
    return mesh;
  }
};

Renderer::Renderer(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}

Renderer::~Renderer() {
  for (Mesh* m : {&impl_->sphere, &impl_->sphere_low, &impl_->sphere_min, &impl_->cylinder,
                  &impl_->cylinder_low, &impl_->quad}) {
    glDeleteVertexArrays(1, &m->vao);
    glDeleteBuffers(1, &m->vbo);
  }
  glDeleteBuffers(1, &impl_->instance_vbo);
  glDeleteVertexArrays(1, &impl_->line_vao);
  glDeleteBuffers(1, &impl_->line_vbo);
  glDeleteVertexArrays(1, &impl_->empty_vao);
}

Result<std::unique_ptr<Renderer>> Renderer::Create(const std::string& shader_dir) {
  auto impl = std::make_unique<Impl>();
  auto mesh = ShaderProgram::Load(shader_dir + "/mesh.vert", shader_dir + "/mesh.frag");
  if (!mesh) return MakeError(mesh.error());
  auto line = ShaderProgram::Load(shader_dir + "/line.vert", shader_dir + "/line.frag");
  if (!line) return MakeError(line.error());
  auto bg = ShaderProgram::Load(shader_dir + "/background.vert", shader_dir + "/background.frag");
  if (!bg) return MakeError(bg.error());
  impl->mesh_shader = std::move(mesh).value();
  impl->line_shader = std::move(line).value();
  impl->background_shader = std::move(bg).value();

  glGenBuffers(1, &impl->instance_vbo);
  impl->sphere = impl->MakeMesh(SphereTriangles(16, 24));
  impl->sphere_low = impl->MakeMesh(SphereTriangles(6, 10));
  impl->sphere_min = impl->MakeMesh(SphereTriangles(4, 6));
  impl->cylinder = impl->MakeMesh(CylinderTriangles(16));
  impl->cylinder_low = impl->MakeMesh(CylinderTriangles(6));
  impl->quad = impl->MakeMesh(QuadTriangles());

  glGenVertexArrays(1, &impl->line_vao);
  glGenBuffers(1, &impl->line_vbo);
  glBindVertexArray(impl->line_vao);
  glBindBuffer(GL_ARRAY_BUFFER, impl->line_vbo);
  glEnableVertexAttribArray(0);
  glVertexAttribPointer(0, 3, GL_FLOAT, GL_FALSE, sizeof(LineVertex),
                        reinterpret_cast<void*>(offsetof(LineVertex, position)));
  glEnableVertexAttribArray(1);
  glVertexAttribPointer(1, 4, GL_FLOAT, GL_FALSE, sizeof(LineVertex),
                        reinterpret_cast<void*>(offsetof(LineVertex, color)));
  glGenVertexArrays(1, &impl->empty_vao);
  glBindVertexArray(0);
  return std::unique_ptr<Renderer>(new Renderer(std::move(impl)));
}

void Renderer::BeginFrame(glm::ivec2 framebuffer_size) {
  draw_calls_ = 0;
  glViewport(0, 0, framebuffer_size.x, framebuffer_size.y);
  glClearColor(0.0f, 0.0f, 0.0f, 1.0f);
  glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
  glDisable(GL_DEPTH_TEST);
  glDisable(GL_CULL_FACE);
  impl_->background_shader.Use();
  impl_->background_shader.Set("u_top", glm::vec3(0.16f, 0.18f, 0.23f));
  impl_->background_shader.Set("u_bottom", glm::vec3(0.055f, 0.06f, 0.075f));
  glBindVertexArray(impl_->empty_vao);
  glDrawArrays(GL_TRIANGLES, 0, 3);
  ++draw_calls_;
  glEnable(GL_DEPTH_TEST);
  glDepthFunc(GL_LEQUAL);
  glEnable(GL_BLEND);
  glBlendFunc(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA);
}

void Renderer::SetCamera(const glm::mat4& view, const glm::mat4& projection, const glm::vec3& eye) {
  impl_->view_projection = projection * view;
  impl_->eye = eye;
  // A perspective matrix holds the near distance: P[3][2] / (P[2][2] - 1) (glm's layout).
  const float near_plane =
      projection[2][3] == -1.0f ? projection[3][2] / (projection[2][2] - 1.0f) : 0.0f;
  impl_->near_plane = std::isfinite(near_plane) ? std::fmax(near_plane, 0.0f) : 0.0f;
}

void Renderer::DrawMeshInstances(int kind, const void* data, std::size_t count, bool shell) {
  if (count == 0) return;
  // Level of detail by count: dozens of spheres get the smooth mesh, hundreds the coarse
  // one (they are small on screen then), so the vertex work per frame stays nearly flat.
  const Mesh* mesh = &impl_->sphere;
  if (kind == 1) {
    mesh = count > 300 ? &impl_->cylinder_low : &impl_->cylinder;
  } else if (kind == 2) {
    mesh = &impl_->quad;
  } else if (!shell && count > 300) {
    mesh = &impl_->sphere_min;
  } else if (!shell && count > 48) {
    mesh = &impl_->sphere_low;
  }
  glBindBuffer(GL_ARRAY_BUFFER, impl_->instance_vbo);
  // Orphan then fill: the driver need not wait for last frame's draws to finish.
  glBufferData(GL_ARRAY_BUFFER, static_cast<GLsizeiptr>(count * sizeof(GpuInstance)), nullptr,
               GL_STREAM_DRAW);
  glBufferSubData(GL_ARRAY_BUFFER, 0, static_cast<GLsizeiptr>(count * sizeof(GpuInstance)), data);
  impl_->mesh_shader.Use();
  impl_->mesh_shader.Set("u_view_projection", impl_->view_projection);
  impl_->mesh_shader.Set("u_eye", impl_->eye);
  impl_->mesh_shader.Set("u_kind", kind);
  impl_->mesh_shader.Set("u_shell", shell ? 1 : 0);
  glBindVertexArray(mesh->vao);
  glDrawArraysInstanced(GL_TRIANGLES, 0, mesh->count, static_cast<GLsizei>(count));
  glBindVertexArray(0);
  ++draw_calls_;
}

void Renderer::DrawSpheres(std::span<const SphereInstance> spheres) {
  auto& s = impl_->scratch;
  s.clear();
  for (const SphereInstance& i : spheres) {
    // One enclosing the eye would fill the whole screen with its inside (README: Rendering
    // cost): a camera among a long chain's joints sits inside dozens of them at once.
    if (EyeInsideSphere(i, impl_->eye, impl_->near_plane)) continue;
    s.push_back({{i.center, i.radius}, {}, i.color});
  }
  DrawMeshInstances(0, s.data(), s.size(), false);
}

void Renderer::DrawBones(std::span<const BoneInstance> bones) {
  auto& s = impl_->scratch;
  s.clear();
  for (const BoneInstance& b : bones) {
    if (EyeInsideBone(b, impl_->eye, impl_->near_plane)) continue;
    s.push_back({{b.start, b.r0}, {b.end, b.r1}, b.color});
  }
  DrawMeshInstances(1, s.data(), s.size(), false);
}

void Renderer::DrawShadows(std::span<const SphereInstance> spheres) {
  // Bounded footprints, one blob per spot (README: Rendering cost): blobs that grew with
  // the height made a 10,000-joint chain standing upright blend 10,000 screen-sized quads.
  BuildShadows(spheres, impl_->shadows, impl_->shadow_keys);
  auto& s = impl_->scratch;
  s.clear();
  for (const SphereInstance& i : impl_->shadows) s.push_back({{i.center, i.radius}, {}, i.color});
  glDepthMask(GL_FALSE);
  DrawMeshInstances(2, s.data(), s.size(), false);
  glDepthMask(GL_TRUE);
}

void Renderer::DrawShell(const glm::vec3& center, float radius, const glm::vec4& color) {
  const GpuInstance instance{{center, radius}, {}, color};
  glDepthMask(GL_FALSE);
  glEnable(GL_CULL_FACE);
  glCullFace(GL_FRONT);  // back half first, then front, for a clean translucent look
  DrawMeshInstances(0, &instance, 1, true);
  glCullFace(GL_BACK);
  DrawMeshInstances(0, &instance, 1, true);
  glDisable(GL_CULL_FACE);
  glDepthMask(GL_TRUE);
}

void Renderer::DrawLines(std::span<const LineVertex> vertices, float width, bool on_top,
                         glm::vec3 fade_centre, float fade_radius) {
  if (vertices.empty()) return;
  glBindBuffer(GL_ARRAY_BUFFER, impl_->line_vbo);
  glBufferData(GL_ARRAY_BUFFER, static_cast<GLsizeiptr>(vertices.size_bytes()), vertices.data(),
               GL_STREAM_DRAW);
  impl_->line_shader.Use();
  impl_->line_shader.Set("u_view_projection", impl_->view_projection);
  impl_->line_shader.Set("u_fade_centre", fade_centre);
  impl_->line_shader.Set("u_fade_radius", fade_radius);
  // Core profiles only guarantee width 1; wider lines are a hint the driver may ignore.
  GLfloat range[2] = {1.0f, 1.0f};
  glGetFloatv(GL_ALIASED_LINE_WIDTH_RANGE, range);
  glLineWidth(std::fmin(std::fmax(width, range[0]), range[1]));
  if (on_top) glDisable(GL_DEPTH_TEST);
  glDepthMask(GL_FALSE);
  glBindVertexArray(impl_->line_vao);
  glDrawArrays(GL_LINES, 0, static_cast<GLsizei>(vertices.size()));
  glBindVertexArray(0);
  glDepthMask(GL_TRUE);
  if (on_top) glEnable(GL_DEPTH_TEST);
  glLineWidth(1.0f);
  ++draw_calls_;
}

std::vector<unsigned char> Renderer::ReadPixels(glm::ivec2 size) const {
  std::vector<unsigned char> rgb(static_cast<std::size_t>(size.x) * size.y * 3);
  glPixelStorei(GL_PACK_ALIGNMENT, 1);
  glReadBuffer(GL_BACK);
  glReadPixels(0, 0, size.x, size.y, GL_RGB, GL_UNSIGNED_BYTE, rgb.data());
  // GL's first row is the bottom one; PNG wants the top first.
  const std::size_t row = static_cast<std::size_t>(size.x) * 3;
  for (int y = 0; y < size.y / 2; ++y) {
    std::swap_ranges(rgb.begin() + y * row, rgb.begin() + (y + 1) * row,
                     rgb.begin() + (size.y - 1 - y) * row);
  }
  return rgb;
}

Status WritePng(const std::string& path, std::span<const unsigned char> rgb, glm::ivec2 size) {
  if (size.x <= 0 || size.y <= 0 || rgb.size() != static_cast<std::size_t>(size.x) * size.y * 3) {
    return MakeError("screenshot has no pixels");
  }
  if (!stbi_write_png(path.c_str(), size.x, size.y, 3, rgb.data(), size.x * 3)) {
    return MakeError("could not write PNG '" + path + "'");
  }
  return Ok{};
}

}  // namespace fabrik
