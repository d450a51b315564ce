// unproject.h - window pixels to world rays and back, as pure math (no GL).
//
// Conventions: window coordinates are GLFW screen coordinates, origin top-left, +y down,
// `window_size` in the same units. The framebuffer may be larger (HiDPI: framebuffer =
// window x content scale); the viewport covers the whole framebuffer. Matrices are glm's
// column-major view and projection; NDC depth runs from -1 (near) to +1 (far) as in OpenGL.
// Positions outside the window are valid input (a drag that leaves the window): they give
// rays outside the view frustum, never NaN, as long as the matrices are invertible.
#pragma once

#include <glm/mat4x4.hpp>
#include <glm/vec2.hpp>
#include <glm/vec3.hpp>
#include <optional>

namespace fabrik {

struct Ray {
  glm::vec3 origin{0.0f};
  glm::vec3 direction{0.0f, 0.0f, -1.0f};  // unit length
};

// Window coordinates to framebuffer pixel coordinates (origin top-left), scaling by
// framebuffer / window size per axis.
glm::vec2 WindowToFramebuffer(glm::vec2 window_pos, glm::vec2 window_size, glm::vec2 fb_size);

// Window coordinates to normalised device coordinates (x right, y up, [-1, 1] inside).
// Pixel centres are respected: the framebuffer pixel (i, j) covers NDC around its centre.
glm::vec2 WindowToNdc(glm::vec2 window_pos, glm::vec2 window_size, glm::vec2 fb_size);

// The world-space ray from the near plane through the cursor. Returns nullopt when the
// matrices are singular or the inputs are not finite.
std::optional<Ray> ScreenRay(glm::vec2 window_pos, glm::vec2 window_size, glm::vec2 fb_size,
                             const glm::mat4& view, const glm::mat4& projection);

// The point under the cursor on the plane z = `plane_z` (the 2D view's drag plane, docs/scenes.md:
// The 2D view); with an orthographic camera looking down -Z (OrbitCamera's planar mode) its X and
// Y are the cursor's world position exactly. nullopt when ScreenRay fails or the ray is
// parallel to that plane or points away from it.
std::optional<glm::vec3> ScreenToPlaneZ(glm::vec2 window_pos, glm::vec2 window_size,
                                        glm::vec2 fb_size, const glm::mat4& view,
                                        const glm::mat4& projection, float plane_z = 0.0f);

// Where `ray` meets the plane through `point` with normal `normal`, as the ray parameter t
// (origin + t * direction). nullopt if the ray is parallel to the plane or the hit is behind
// the origin (t < 0).
std::optional<float> IntersectPlane(const Ray& ray, const glm::vec3& point,
                                    const glm::vec3& normal);

// World point to window coordinates (top-left origin) and NDC depth; nullopt when the point
// is behind the camera (clip w <= 0).
std::optional<glm::vec3> ProjectToWindow(const glm::vec3& world, glm::vec2 window_size,
                                         glm::vec2 fb_size, const glm::mat4& view,
                                         const glm::mat4& projection);

// Distance from `point` to the line of `ray` (for checking that a target lies on a ray).
float DistanceToRay(const Ray& ray, const glm::vec3& point);

}  // namespace fabrik
