#include "camera/unproject.h"

#include <cmath>
#include <glm/geometric.hpp>
#include <glm/gtc/matrix_inverse.hpp>
#include <glm/matrix.hpp>

namespace fabrik {
namespace {

bool Finite(glm::vec2 v) { return std::isfinite(v.x) && std::isfinite(v.y); }
bool Finite(const glm::vec3& v) {
  return std::isfinite(v.x) && std::isfinite(v.y) && std::isfinite(v.z);
}
bool Positive(glm::vec2 v) { return v.x > 0.0f && v.y > 0.0f && Finite(v); }

}  // namespace

glm::vec2 WindowToFramebuffer(glm::vec2 window_pos, glm::vec2 window_size, glm::vec2 fb_size) {
  if (!Positive(window_size)) return window_pos;
  return window_pos * (fb_size / window_size);
}

glm::vec2 WindowToNdc(glm::vec2 window_pos, glm::vec2 window_size, glm::vec2 fb_size) {
  const glm::vec2 fb = WindowToFramebuffer(window_pos, window_size, fb_size);
  // GLFW reports the cursor at a pixel's top-left corner in window units; the framebuffer
  // pixel it falls in is floor(fb). Framebuffer x in [0, W] maps to NDC [-1, 1]; y flips.
  return glm::vec2(2.0f * fb.x / fb_size.x - 1.0f, 1.0f - 2.0f * fb.y / fb_size.y);
}

std::optional<Ray> ScreenRay(glm::vec2 window_pos, glm::vec2 window_size, glm::vec2 fb_size,
                             const glm::mat4& view, const glm::mat4& projection) {
  if (!Finite(window_pos) || !Positive(window_size) || !Positive(fb_size)) return std::nullopt;
  const glm::mat4 view_proj = projection * view;
  const float det = glm::determinant(view_proj);
  if (!std::isfinite(det) || std::fabs(det) < 1e-30f) return std::nullopt;
  // Double precision for the inverse: far/near ratios of 4e4 lose digits in float.
  const glm::dmat4 inverse = glm::inverse(glm::dmat4(view_proj));
  const glm::dvec2 ndc(WindowToNdc(window_pos, window_size, fb_size));
  const glm::dvec4 near_h = inverse * glm::dvec4(ndc, -1.0, 1.0);
  const glm::dvec4 far_h = inverse * glm::dvec4(ndc, 1.0, 1.0);
  if (std::fabs(near_h.w) < 1e-300 || std::fabs(far_h.w) < 1e-300) return std::nullopt;
  const glm::dvec3 near_p = glm::dvec3(near_h) / near_h.w;
  const glm::dvec3 far_p = glm::dvec3(far_h) / far_h.w;
  const glm::dvec3 d = far_p - near_p;
  const double len = glm::length(d);
  if (!(len > 0.0) || !std::isfinite(len)) return std::nullopt;
  Ray ray{glm::vec3(near_p), glm::vec3(d / len)};
  if (!Finite(ray.origin) || !Finite(ray.direction)) return std::nullopt;
  return ray;
}

std::optional<float> IntersectPlane(const Ray& ray, const glm::vec3& point,
                                    const glm::vec3& normal) {
  const float denom = glm::dot(ray.direction, normal);
  if (!std::isfinite(denom) || std::fabs(denom) < 1e-6f) return std::nullopt;
  const float t = glm::dot(point - ray.origin, normal) / denom;
  if (!std::isfinite(t) || t < 0.0f) return std::nullopt;
  return t;
}

std::optional<glm::vec3> ProjectToWindow(const glm::vec3& world, glm::vec2 window_size,
                                         glm::vec2 fb_size, const glm::mat4& view,
                                         const glm::mat4& projection) {
  if (!Positive(window_size) || !Positive(fb_size)) return std::nullopt;
  const glm::vec4 clip = projection * view * glm::vec4(world, 1.0f);
  if (!(clip.w > 1e-12f)) return std::nullopt;
  const glm::vec3 ndc = glm::vec3(clip) / clip.w;
  const glm::vec2 fb((ndc.x + 1.0f) * 0.5f * fb_size.x, (1.0f - ndc.y) * 0.5f * fb_size.y);
  const glm::vec2 win = fb * (window_size / fb_size);
  const glm::vec3 out(win, ndc.z);
  if (!Finite(out)) return std::nullopt;
  return out;
}

std::optional<glm::vec3> ScreenToPlaneZ(glm::vec2 window_pos, glm::vec2 window_size,
                                        glm::vec2 fb_size, const glm::mat4& view,
                                        const glm::mat4& projection, float plane_z) {
  if (!std::isfinite(plane_z)) return std::nullopt;
  const std::optional<Ray> ray = ScreenRay(window_pos, window_size, fb_size, view, projection);
  if (!ray) return std::nullopt;
  const glm::vec3 point(0.0f, 0.0f, plane_z), normal(0.0f, 0.0f, 1.0f);
  const std::optional<float> t = IntersectPlane(*ray, point, normal);
  if (!t) return std::nullopt;
  glm::vec3 hit = ray->origin + ray->direction * *t;
  hit.z = plane_z;  // exactly on the plane, whatever the rounding of t
  if (!Finite(hit)) return std::nullopt;
  return hit;
}

float DistanceToRay(const Ray& ray, const glm::vec3& point) {
  const glm::vec3 v = point - ray.origin;
  return glm::length(v - ray.direction * glm::dot(v, ray.direction));
}

}  // namespace fabrik
