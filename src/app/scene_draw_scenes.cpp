// Step 5, the scenes with their own look: the arm's hinge arcs and the creature's tree.
#include <algorithm>
#include <cmath>
#include <glm/geometric.hpp>

#include "app/scene_palette.h"
#include "app/systems.h"

namespace fabrik {

using namespace draw;  // the palette

void SceneDrawer::DrawCreature(const CreatureScene& c, Renderer& renderer, float base) {
  const Tree& tree = *c.tree;
  std::span<const glm::vec3> p = tree.positions();
  spheres_.clear();
  bones_.clear();
  const float joint_r = base * 0.8f;
  for (std::size_t i = 0; i < p.size(); ++i) {
    glm::vec4 color = tree.children(i).size() > 1 ? kSubBaseColor : kJointColor;
    if (i == 0) color = kRootColor;
    if (i < c.at_limit.size() && c.at_limit[i]) color = kAtLimitColor;
    float r = joint_r;
    if (tree.is_effector(i)) {
      color = kEffectorColor;
      r = base * 1.1f;
    }
    spheres_.push_back({p[i], r, color});
    if (i > 0) {
      const glm::vec3& q = p[static_cast<std::size_t>(tree.parent(i))];
      bones_.push_back({q, base * 0.55f, p[i], base * 0.35f, kBoneColor});
    }
  }
  renderer.DrawShadows(spheres_);
  renderer.DrawBones(bones_);
  renderer.DrawSpheres(spheres_);
  // Limits: a cone outline at every ball joint.
  lines_.clear();
  std::vector<Frame>& frames = frames_;
  frames.resize(p.size());
  frames[0] = MakeFrame(tree.base());
  for (std::size_t i = 1; i < p.size(); ++i) {
    const Frame& parent = frames[static_cast<std::size_t>(tree.parent(i))];
    frames[i] = TransportFrame(parent, p[i] - p[static_cast<std::size_t>(tree.parent(i))]);
    const bool limit = i < c.at_limit.size() && c.at_limit[i];
    AddConstraintOutline(tree.constraint(i), parent, p[static_cast<std::size_t>(tree.parent(i))],
                         tree.length(i) * 0.35f, limit);
  }
  renderer.DrawLines(lines_, 1.0f, false);
}

void SceneDrawer::DrawArmExtras(const AppState& state, const ArmScene& arm, Renderer& renderer,
                                float base) {
  std::span<const glm::vec3> p = state.chain.joints();
  SegmentParentFrames(p, arm.constraints, frames_);
  lines_.clear();
  for (std::size_t i = 0; i < arm.constraints.joints.size() && i + 1 < p.size(); ++i) {
    const bool limit = i < arm.at_limit.size() && arm.at_limit[i];
    AddConstraintOutline(arm.constraints.joints[i], frames_[i], p[i],
                         state.chain.lengths()[i] * 0.35f, limit);
  }
  // The pole: a violet ball and a line to the elbow it steers. While an orientation target is
  // set the oriented solve does not use it: a faint ball, no line.
  spheres_.clear();
  if (arm.use_pole) {
    const bool steering = !state.orient.euler_deg.has_value();
    const glm::vec4 pole_color(0.75f, 0.45f, 1.0f, steering ? 0.9f : 0.25f);
    spheres_.push_back({arm.pole, base * 0.8f, pole_color});
    if (steering && p.size() > 2) {
      lines_.push_back({arm.pole, glm::vec4(0.75f, 0.45f, 1.0f, 0.5f)});
      lines_.push_back({p[2], glm::vec4(0.75f, 0.45f, 1.0f, 0.5f)});
    }
  }
  renderer.DrawLines(lines_, 1.5f, false);
  renderer.DrawSpheres(spheres_);
}

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
