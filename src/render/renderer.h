// renderer.h - draws plain scene data with OpenGL 3.3: the only drawing code in the project.
//
// The renderer knows nothing of chains, solvers or modes: callers hand it spans of spheres,
// bones and line vertices in world space. Each Draw* call is at most one instanced draw call
// per level of detail (4 for spheres, 2 for bones, 1 otherwise; one line draw for lines)
// whatever the number of instances. Each instance's mesh follows its size on screen, and
// instances that enclose the camera are skipped, so the work stays bounded as chains grow
// (docs/performance.md: Rendering cost).
// Call order per frame: BeginFrame, SetCamera, any Draw*, then (optionally) ReadPixels.
#pragma once

#include <glm/mat4x4.hpp>
#include <glm/vec2.hpp>
#include <glm/vec3.hpp>
#include <glm/vec4.hpp>
#include <glm/gtc/quaternion.hpp>
#include <cstddef>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "ik/result.h"
#include "skin/tube_mesh.h"

namespace fabrik {

struct SphereInstance {
  glm::vec3 center{0.0f};
  float radius = 0.1f;
  glm::vec4 color{1.0f};
};

// A tapered cylinder from `start` (radius r0) to `end` (radius r1).
struct BoneInstance {
  glm::vec3 start{0.0f};
  float r0 = 0.1f;
  glm::vec3 end{0.0f, 1.0f, 0.0f};
  float r1 = 0.05f;
  glm::vec4 color{1.0f};
};

struct LineVertex {
  glm::vec3 position{0.0f};
  glm::vec4 color{1.0f};
};

class Renderer {
 public:
  // Loads the shaders from `shader_dir` (mesh, line and background programs) and builds the
  // meshes. Fails with the file name and compiler log on any shader problem.
  static Result<std::unique_ptr<Renderer>> Create(const std::string& shader_dir);
  ~Renderer();
  Renderer(const Renderer&) = delete;
  Renderer& operator=(const Renderer&) = delete;

  // Sets the viewport to the whole framebuffer and draws the background gradient.
  void BeginFrame(glm::ivec2 framebuffer_size);
  void SetCamera(const glm::mat4& view, const glm::mat4& projection, const glm::vec3& eye);
  // How many framebuffer pixels one world unit spans at `point`, seen with the camera of the
  // last SetCamera (constant in an orthographic view). For choosing detail, not for picking.
  float PixelsPerUnitAt(const glm::vec3& point) const;

  // Opaque (or translucent, when color.a < 1) lit spheres. Spheres enclosing the eye (within
  // the near-plane distance) are skipped: they could only fill the screen with their inside.
  void DrawSpheres(std::span<const SphereInstance> spheres);
  void DrawBones(std::span<const BoneInstance> bones);
  // Soft dark blobs on the ground plane (y = 0) under the given spheres, spreading with the
  // height up to 7 units, at most one per spot (render/instance_filter.h).
  void DrawShadows(std::span<const SphereInstance> spheres);
  // A translucent sphere whose silhouette glows: the reach of a chain.
  void DrawShell(const glm::vec3& center, float radius, const glm::vec4& color);
  // Line list (pairs of vertices). `fade_radius` > 0 fades lines out with horizontal
  // distance from `fade_centre`. `on_top` draws without depth testing.
  void DrawLines(std::span<const LineVertex> vertices, float width = 1.0f, bool on_top = false,
                 glm::vec3 fade_centre = glm::vec3(0.0f), float fade_radius = 0.0f);

  // Skinned tube (docs/rotations.md). SetSkinMesh uploads a
  // tube built by BuildTube (tube_mesh.h); call it when the chain's lengths change (BuiltFor
  // tells). DrawSkin poses it on the GPU with dual quaternion skinning (shaders/skin.vert): one
  // world rotation per bone (rotations.h: +Y onto the segment) and the joint positions (at
  // least one more than the bones), lit like the other meshes, one draw call for any number
  // of bones. Returns false and draws nothing when no mesh is set or the counts do not match.
  void SetSkinMesh(const SkinMesh& mesh);
  bool DrawSkin(std::span<const glm::quat> rotations, std::span<const glm::vec3> joints,
                const glm::vec4& color);

  // Reads the current framebuffer (before swap) as tightly packed RGB rows, top row first.
  std::vector<unsigned char> ReadPixels(glm::ivec2 framebuffer_size) const;

  // Draw calls issued since BeginFrame (for the panel's readouts and tests).
  int draw_calls() const { return draw_calls_; }
  // Sphere and bone instances and line vertices handed to Draw* since BeginFrame: what one
  // frame asked the GPU to draw (tests check that a scene's frame stays bounded).
  std::size_t drawn_items() const { return drawn_items_; }

 private:
  struct Impl;
  explicit Renderer(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
  int draw_calls_ = 0;
  std::size_t drawn_items_ = 0;
};

// Writes RGB pixels (top row first) as a PNG file: encoded by stb_image_write in memory, then
// written atomically (io/file_write.h). On a failure (full disk, a FIFO or device at `path`,
// a folder that cannot be written) the error names the path and the reason, and no file or a
// partial one is left at `path`: an existing file there is unchanged.
Status WritePng(const std::string& path, std::span<const unsigned char> rgb, glm::ivec2 size);

}  // namespace fabrik
