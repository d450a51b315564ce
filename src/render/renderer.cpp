#include "render/renderer.h"

#include <glad/gl.h>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string>
#include <glm/geometric.hpp>

#include "io/file_write.h"
#include "render/instance_filter.h"
#include "render/meshes.h"
#include "render/shader.h"
#include "render/skin_pass.h"

// libstb (Debian) ships the implementation; only the declarations are included here.
#include <stb_image_write.h>

namespace fabrik {
namespace {

// The instance layout the mesh shader reads: a = start/centre + radius, b = end + radius.
struct GpuInstance {
  glm::vec4 a;
  glm::vec4 b;
  glm::vec4 color;
};

struct Mesh {
  GLuint vao = 0;
  GLuint vbo = 0;
  GLuint ebo = 0;
  GLsizei count = 0;  // indices
};

// Level of detail by size on screen: the sphere meshes from fine to coarse and the radius in
// pixels below which each coarser one takes over. A sphere a few pixels wide needs a few
// dozen vertices, one filling a tenth of the screen a few hundred (docs/performance.md: Rendering
// cost).
constexpr int kSphereLevels = 4;
constexpr float kSphereLevelPixels[kSphereLevels - 1] = {32.0f, 12.0f, 4.0f};
constexpr int kBoneLevels = 2;
constexpr float kBoneLevelPixels[kBoneLevels - 1] = {3.0f};

int LevelFor(float pixels, const float* thresholds, int levels) {
  int level = 0;
  while (level + 1 < levels && !(pixels >= thresholds[level])) ++level;
  return level;
}

}  // namespace

struct Renderer::Impl {
  ShaderProgram mesh_shader;
  ShaderProgram line_shader;
  ShaderProgram background_shader;
  Mesh sphere[kSphereLevels];  // fine to coarse (see kSphereLevelPixels)
  Mesh cylinder[kBoneLevels];
  Mesh quad;
  GLuint instance_vbo = 0;
  GLuint line_vao = 0;
  GLuint line_vbo = 0;
  GLuint empty_vao = 0;
  glm::mat4 view_projection{1.0f};
  glm::vec3 eye{0.0f};
  float near_plane = 0.0f;
  float framebuffer_height = 1.0f;
  float pixels_per_unit = 1.0f;  // screen pixels of one world unit seen from one unit away
  bool orthographic = false;     // the 2D view: sizes on screen do not depend on depth
  // Reused every frame: no per-frame allocation.
  std::vector<GpuInstance> scratch;
  std::vector<GpuInstance> sorted;
  std::vector<std::uint8_t> levels;
  std::vector<SphereInstance> shadows;
  std::vector<std::pair<std::uint64_t, std::uint32_t>> shadow_keys;
  std::unique_ptr<SkinPass> skin;  // the skinned tube (skin_pass.h)

  Mesh MakeMesh(const MeshData& data) {
    Mesh mesh;
    mesh.count = static_cast<GLsizei>(data.indices.size());
    glGenVertexArrays(1, &mesh.vao);
    glGenBuffers(1, &mesh.vbo);
    glGenBuffers(1, &mesh.ebo);
    glBindVertexArray(mesh.vao);
    glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, mesh.ebo);
    glBufferData(GL_ELEMENT_ARRAY_BUFFER,
                 static_cast<GLsizeiptr>(data.indices.size() * sizeof(std::uint16_t)),
                 data.indices.data(), GL_STATIC_DRAW);
    glBindBuffer(GL_ARRAY_BUFFER, mesh.vbo);
    glBufferData(GL_ARRAY_BUFFER,
                 static_cast<GLsizeiptr>(data.vertices.size() * sizeof(MeshVertex)),
                 data.vertices.data(), GL_STATIC_DRAW);
    VertexAttribute(0, 3, sizeof(MeshVertex), offsetof(MeshVertex, position));
    VertexAttribute(1, 3, sizeof(MeshVertex), offsetof(MeshVertex, normal));
    // Per-instance attributes come from the shared instance buffer.
    for (int i = 0; i < 3; ++i) {
      glEnableVertexAttribArray(2 + i);
      glVertexAttribDivisor(2 + i, 1);
    }
    PointInstances(0);
    glBindVertexArray(0);
    return mesh;
  }

  // Points the bound VAO's instance attributes at the instance buffer from instance `first`
  // (OpenGL 3.3 has no base-instance draw, so each group of a draw is reached this way).
  void PointInstances(std::size_t first) {
    glBindBuffer(GL_ARRAY_BUFFER, instance_vbo);
    for (int i = 0; i < 3; ++i) {
      glVertexAttribPointer(
          2 + i, 4, GL_FLOAT, GL_FALSE, sizeof(GpuInstance),
          reinterpret_cast<void*>(first * sizeof(GpuInstance) + sizeof(glm::vec4) * i));
    }
  }

  // Screen radius in pixels of a sphere of `radius` whose nearest point to the eye is at
  // `distance` (the centre's distance is used for bones' segments; both are estimates).
  float Pixels(float radius, float distance) const {
    return radius * pixels_per_unit / (orthographic ? 1.0f : std::fmax(distance, 1e-6f));
  }

  // Uploads `data` and draws it in `groups` consecutive runs, run g of `counts[g]` instances
  // with `meshes[g]`. Returns the number of draw calls issued.
  int Draw(int kind, bool shell, const GpuInstance* data, const std::size_t* counts,
           const Mesh* const* meshes, int groups) {
    std::size_t total = 0;
    for (int g = 0; g < groups; ++g) total += counts[g];
    if (total == 0) return 0;
    glBindBuffer(GL_ARRAY_BUFFER, instance_vbo);
    // Orphan then fill: the driver need not wait for last frame's draws to finish.
    const auto bytes = static_cast<GLsizeiptr>(total * sizeof(GpuInstance));
    glBufferData(GL_ARRAY_BUFFER, bytes, nullptr, GL_STREAM_DRAW);
    glBufferSubData(GL_ARRAY_BUFFER, 0, bytes, data);
    mesh_shader.Use();
    mesh_shader.Set("u_view_projection", view_projection);
    mesh_shader.Set("u_eye", eye);
    mesh_shader.Set("u_kind", kind);
    mesh_shader.Set("u_shell", shell ? 1 : 0);
    int calls = 0;
    std::size_t first = 0;
    for (int g = 0; g < groups; ++g) {
      if (counts[g] == 0) continue;
      glBindVertexArray(meshes[g]->vao);
      PointInstances(first);
      glDrawElementsInstanced(GL_TRIANGLES, meshes[g]->count, GL_UNSIGNED_SHORT, nullptr,
                              static_cast<GLsizei>(counts[g]));
      PointInstances(0);
      first += counts[g];
      ++calls;
    }
    glBindVertexArray(0);
    return calls;
  }

  // Reorders `scratch` into `sorted` by `levels` (stable), filling counts[0..n).
  void SortByLevel(int n, std::size_t* counts) {
    std::size_t start[kSphereLevels] = {};
    for (int l = 0; l < n; ++l) counts[l] = 0;
    for (std::uint8_t l : levels) ++counts[l];
    for (int l = 1; l < n; ++l) start[l] = start[l - 1] + counts[l - 1];
    sorted.resize(scratch.size());
    for (std::size_t i = 0; i < scratch.size(); ++i) sorted[start[levels[i]]++] = scratch[i];
  }
};

Renderer::Renderer(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}

Renderer::~Renderer() {
  auto release = [](Mesh& m) {
    glDeleteVertexArrays(1, &m.vao);
    glDeleteBuffers(1, &m.vbo);
    glDeleteBuffers(1, &m.ebo);
  };
  for (Mesh& m : impl_->sphere) release(m);
  for (Mesh& m : impl_->cylinder) release(m);
  release(impl_->quad);
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
  auto skin = SkinPass::Create(shader_dir);
  if (!skin) return MakeError(skin.error());
  impl->skin = std::move(skin).value();

  glGenBuffers(1, &impl->instance_vbo);
  const int rings[kSphereLevels] = {16, 10, 6, 4}, sectors[kSphereLevels] = {24, 16, 10, 6};
  for (int l = 0; l < kSphereLevels; ++l) {
    impl->sphere[l] = impl->MakeMesh(SphereMesh(rings[l], sectors[l]));
  }
  impl->cylinder[0] = impl->MakeMesh(CylinderMesh(16));
  impl->cylinder[1] = impl->MakeMesh(CylinderMesh(6));
  impl->quad = impl->MakeMesh(QuadMesh());

  glGenVertexArrays(1, &impl->line_vao);
  glGenBuffers(1, &impl->line_vbo);
  glBindVertexArray(impl->line_vao);
  glBindBuffer(GL_ARRAY_BUFFER, impl->line_vbo);
  VertexAttribute(0, 3, sizeof(LineVertex), offsetof(LineVertex, position));
  VertexAttribute(1, 4, sizeof(LineVertex), offsetof(LineVertex, color));
  glGenVertexArrays(1, &impl->empty_vao);
  glBindVertexArray(0);
  return std::unique_ptr<Renderer>(new Renderer(std::move(impl)));
}

void Renderer::BeginFrame(glm::ivec2 framebuffer_size) {
  draw_calls_ = 0;
  drawn_items_ = 0;
  impl_->framebuffer_height = static_cast<float>(std::max(framebuffer_size.y, 1));
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
  // P[1][1] = 1 / tan(fov_y / 2): half the framebuffer height spans that many units at 1.
  // An orthographic projection (no w from z, the 2D view) has no foreshortening: P[1][1] is
  // then 1 / half height, and that many pixels show one unit at any depth.
  impl_->orthographic = projection[2][3] == 0.0f && projection[3][3] == 1.0f;
  const float focal = projection[1][1] * 0.5f * impl_->framebuffer_height;
  impl_->pixels_per_unit = std::isfinite(focal) ? std::fabs(focal) : 1.0f;
}

float Renderer::PixelsPerUnitAt(const glm::vec3& point) const {
  return impl_->Pixels(1.0f, glm::length(point - impl_->eye));
}

void Renderer::DrawSpheres(std::span<const SphereInstance> spheres) {
  drawn_items_ += spheres.size();
  auto& im = *impl_;
  im.scratch.clear();
  im.levels.clear();
  for (const SphereInstance& i : spheres) {
    // One enclosing the eye would fill the whole screen with its inside (docs/performance.md:
    // Rendering cost): a camera among a long chain's joints sits inside dozens of them at once.
    if (EyeInsideSphere(i, im.eye, im.near_plane)) continue;
    im.scratch.push_back({{i.center, i.radius}, {}, i.color});
    const float distance = glm::length(i.center - im.eye) - i.radius;
    im.levels.push_back(static_cast<std::uint8_t>(
        LevelFor(im.Pixels(i.radius, distance), kSphereLevelPixels, kSphereLevels)));
  }
  std::size_t counts[kSphereLevels];
  im.SortByLevel(kSphereLevels, counts);
  const Mesh* meshes[kSphereLevels];
  for (int l = 0; l < kSphereLevels; ++l) meshes[l] = &im.sphere[l];
  draw_calls_ += im.Draw(0, false, im.sorted.data(), counts, meshes, kSphereLevels);
}

void Renderer::DrawBones(std::span<const BoneInstance> bones) {
  drawn_items_ += bones.size();
  auto& im = *impl_;
  im.scratch.clear();
  im.levels.clear();
  for (const BoneInstance& b : bones) {
    if (EyeInsideBone(b, im.eye, im.near_plane)) continue;
    im.scratch.push_back({{b.start, b.r0}, {b.end, b.r1}, b.color});
    const float r = std::fmax(b.r0, b.r1);
    const float distance =
        std::fmin(glm::length(b.start - im.eye), glm::length(b.end - im.eye)) - r;
    im.levels.push_back(
        static_cast<std::uint8_t>(LevelFor(im.Pixels(r, distance), kBoneLevelPixels, kBoneLevels)));
  }
  std::size_t counts[kBoneLevels];
  im.SortByLevel(kBoneLevels, counts);
  const Mesh* meshes[kBoneLevels] = {&im.cylinder[0], &im.cylinder[1]};
  draw_calls_ += im.Draw(1, false, im.sorted.data(), counts, meshes, kBoneLevels);
}

void Renderer::DrawShadows(std::span<const SphereInstance> spheres) {
  // Bounded footprints, one blob per spot (docs/performance.md: Rendering cost): blobs that grew
  // with the height made a 10,000-joint chain standing upright blend 10,000 screen-sized quads.
  BuildShadows(spheres, impl_->shadows, impl_->shadow_keys);
  auto& s = impl_->scratch;
  s.clear();
  for (const SphereInstance& i : impl_->shadows) s.push_back({{i.center, i.radius}, {}, i.color});
  glDepthMask(GL_FALSE);
  const std::size_t count = s.size();
  const Mesh* quad = &impl_->quad;
  draw_calls_ += impl_->Draw(2, false, s.data(), &count, &quad, 1);
  glDepthMask(GL_TRUE);
}

void Renderer::DrawShell(const glm::vec3& center, float radius, const glm::vec4& color) {
  const GpuInstance instance{{center, radius}, {}, color};
  const std::size_t count = 1;
  const Mesh* mesh = &impl_->sphere[0];
  glDepthMask(GL_FALSE);
  glEnable(GL_CULL_FACE);
  glCullFace(GL_FRONT);  // back half first, then front, for a clean translucent look
  draw_calls_ += impl_->Draw(0, true, &instance, &count, &mesh, 1);
  glCullFace(GL_BACK);
  draw_calls_ += impl_->Draw(0, true, &instance, &count, &mesh, 1);
  glDisable(GL_CULL_FACE);
  glDepthMask(GL_TRUE);
}

void Renderer::DrawLines(std::span<const LineVertex> vertices, float width, bool on_top,
                         glm::vec3 fade_centre, float fade_radius) {
  drawn_items_ += vertices.size();
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

void Renderer::SetSkinMesh(const SkinMesh& mesh) { impl_->skin->SetMesh(mesh); }

bool Renderer::DrawSkin(std::span<const glm::quat> rotations, std::span<const glm::vec3> joints,
                        const glm::vec4& color) {
  if (!impl_->skin->Draw(rotations, joints, color, impl_->view_projection, impl_->eye)) {
    return false;
  }
  ++draw_calls_;
  return true;
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
  // Encoded in memory, then written through a temporary file and renamed: stb's own file
  // writer does not report a failed write, and a full disk would leave a truncated PNG.
  std::string png;
  const auto append = [](void* context, void* data, int bytes) {
    static_cast<std::string*>(context)->append(static_cast<const char*>(data),
                                               static_cast<std::size_t>(bytes));
  };
  if (!stbi_write_png_to_func(append, &png, size.x, size.y, 3, rgb.data(), size.x * 3)) {
    return MakeError("could not encode the PNG for '" + path + "'");
  }
  return io::WriteFileAtomic(path, png);
}

}  // namespace fabrik
