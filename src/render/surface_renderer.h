// surface_renderer.h - lit indexed triangle meshes with a model matrix: the walker's terrain
// (with a world-space grid drawn on it) and its body. docs/walker.md: The walker scene.
//
// Kept apart from Renderer (renderer.h), whose instanced spheres and bones suit many small
// parts; a surface is one large mesh uploaded once and drawn every frame. Same lighting as
// the mesh shader. Call Draw between Renderer::BeginFrame and reading the pixels.
#pragma once

#include <cstdint>
#include <glm/mat4x4.hpp>
#include <glm/vec3.hpp>
#include <glm/vec4.hpp>
#include <memory>
#include <span>
#include <string>

#include "ik/result.h"

namespace fabrik {

// How a surface is shaded.
struct SurfaceStyle {
  glm::vec4 color{0.8f, 0.8f, 0.8f, 1.0f};
  // > 0: the colour ramps from `color` (low) to `high_color` (height >= ramp_height, world y);
  // steep parts (normal.y < 0.8) shade towards `high_color` too.
  float ramp_height = 0.0f;
  glm::vec4 high_color{0.6f, 0.6f, 0.6f, 1.0f};
  // > 0: grid lines every `grid_step` world units in X and Z, stronger every fifth.
  float grid_step = 0.0f;
  glm::vec4 grid_color{1.0f, 1.0f, 1.0f, 0.25f};
};

class SurfaceRenderer {
 public:
  // Loads shaders/surface.vert and surface.frag from `shader_dir`; fails with the file name
  // and the compiler log.
  static Result<std::unique_ptr<SurfaceRenderer>> Create(const std::string& shader_dir);
  ~SurfaceRenderer();
  SurfaceRenderer(const SurfaceRenderer&) = delete;
  SurfaceRenderer& operator=(const SurfaceRenderer&) = delete;

  // Uploads (or replaces) mesh `slot` (0 .. kSlots - 1): positions and unit normals in model
  // space, one each per vertex, and triangle indices into them. Does nothing for a bad slot
  // or mismatched spans.
  static constexpr int kSlots = 4;
  void Upload(int slot, std::span<const glm::vec3> positions, std::span<const glm::vec3> normals,
              std::span<const std::uint32_t> indices);
  // Draws mesh `slot` with `model` (model -> world), in the camera's view_projection, lit as
  // seen from `eye` (world). Nothing for an empty or bad slot.
  void Draw(int slot, const glm::mat4& model, const glm::mat4& view_projection,
            const glm::vec3& eye, const SurfaceStyle& style);

 private:
  struct Impl;
  explicit SurfaceRenderer(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace fabrik
