// The outline of a joint's limits, for the scenes that draw their constraints (the arm's
// hinges, the creature's ball joints).
#include <algorithm>
#include <cmath>
#include <glm/geometric.hpp>

#include "app/scene_palette.h"
#include "app/systems.h"

namespace fabrik {

using namespace draw;  // the palette, kPi, SafeDirection

void SceneDrawer::AddConstraintOutline(const JointConstraint& c, const Frame& parent,
                                       const glm::vec3& at, float radius, bool at_limit) {
  const glm::vec4 color =
      at_limit ? glm::vec4(1.0f, 0.35f, 0.3f, 0.9f) : glm::vec4(0.95f, 0.75f, 0.3f, 0.7f);
  if (c.type == ConstraintType::kHinge) {
    // The allowed arc in the hinge plane, from min_angle to max_angle, plus its end spokes.
    const HingeLimits& h = c.hinge;
    auto to_world = [&](const glm::vec3& v) {
      return h.space == HingeSpace::kWorld
                 ? v
                 : parent.right * v.x + parent.up * v.y + parent.forward * v.z;
    };
    const glm::vec3 axis = SafeDirection(to_world(h.axis));
    glm::vec3 ref = to_world(h.reference);
    ref = ref - axis * glm::dot(ref, axis);
    ref = SafeDirection(ref);
    const glm::vec3 side = glm::cross(axis, ref);
    const int steps = 32;
    glm::vec3 prev{};
    for (int k = 0; k <= steps; ++k) {
      const float t = h.min_angle + (h.max_angle - h.min_angle) * k / steps;
      const glm::vec3 q = at + radius * (std::cos(t) * ref + std::sin(t) * side);
      if (k > 0) {
        lines_.push_back({prev, color});
        lines_.push_back({q, color});
      }
      if (k == 0 || k == steps) {
        lines_.push_back({at, color});
        lines_.push_back({q, color});
      }
      prev = q;
    }
  } else if (c.type == ConstraintType::kBall) {
    // The cone's rim, quadrant by quadrant (elliptical in angle), and a few spokes.
    const ConeLimits& cone = c.cone;
    const int steps = 48;
    glm::vec3 prev{};
    for (int k = 0; k <= steps; ++k) {
      const float phi = 2.0f * kPi * k / steps;
      const float x = std::cos(phi), y = std::sin(phi);
      const float ax = x >= 0.0f ? cone.right : cone.left;
      const float ay = y >= 0.0f ? cone.up : cone.down;
      float theta = 0.0f;
      if (ax > 1e-4f && ay > 1e-4f)
        theta = 1.0f / std::sqrt((x * x) / (ax * ax) + (y * y) / (ay * ay));
      theta = std::min(theta, kPi);
      const glm::vec3 dir =
          std::cos(theta) * parent.forward + std::sin(theta) * (x * parent.right + y * parent.up);
      const glm::vec3 q = at + radius * dir;
      if (k > 0) {
        lines_.push_back({prev, color});
        lines_.push_back({q, color});
      }
      if (k % 12 == 0) {
        lines_.push_back({at, glm::vec4(glm::vec3(color), 0.35f)});
        lines_.push_back({q, glm::vec4(glm::vec3(color), 0.35f)});
      }
      prev = q;
    }
  }
}

}  // namespace fabrik
