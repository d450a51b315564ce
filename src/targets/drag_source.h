// drag_source.h - the mouse-drag target mode as pure math (no GL, no window).
//
// A drag grabs a world point and a plane through it facing the camera. Each cursor ray then
// puts the target where the ray meets that plane, so the target always lies exactly on the
// cursor's ray. Rays parallel to or pointing away from the plane leave the target where it
// was. The hit is kept within kMaxDragDistance of the grabbed point, measured along the ray,
// so a cursor dragged far outside the window stays on its ray and finite.
#pragma once

#include <optional>
#include <span>

#include <glm/vec2.hpp>
#include <glm/vec3.hpp>

#include "camera/unproject.h"

namespace fabrik {

class DragSource {
 public:
  static constexpr float kMaxDragDistance = 10000.0f;

  // Starts a drag of `grabbed` on the plane through it with normal `plane_normal` (the
  // camera's forward vector; normalised here).
  void Begin(const glm::vec3& grabbed, const glm::vec3& plane_normal);
  // The target for the cursor ray, or nullopt to keep the previous target.
  std::optional<glm::vec3> Update(const Ray& ray) const;
  void End() { active_ = false; }
  bool active() const { return active_; }
  const glm::vec3& grabbed() const { return grabbed_; }

 private:
  bool active_ = false;
  glm::vec3 grabbed_{0.0f};
  glm::vec3 normal_{0.0f, 0.0f, -1.0f};
};

// Index of the window-space point nearest `cursor` within `radius` pixels, or nullopt.
std::optional<std::size_t> PickNearest(std::span<const glm::vec2> points, glm::vec2 cursor,
                                       float radius);

}  // namespace fabrik
