// Ready-made trees for the demo and the tests: a hand (palm and fingers) and a creature
// (spine, arms, legs, head), declared in tree.h.
#include <cmath>
#include <glm/geometric.hpp>
#include <string>
#include <vector>

#include "ik/fabrik.h"
#include "ik/tree.h"
#include "ik/vec_util.h"

namespace fabrik {

namespace {

// Appends a node and returns its index.
int AddNode(std::vector<TreeNodeSpec>& nodes, int parent, const glm::vec3& position,
            const JointConstraint& constraint = {}) {
  nodes.push_back({parent, position, constraint});
  return static_cast<int>(nodes.size()) - 1;
}

// `dir` turned by `angle` towards `towards` (both unit, perpendicular enough).
glm::vec3 Turn(const glm::vec3& dir, const glm::vec3& towards, float angle) {
  return SafeNormalize(dir * std::cos(angle) + towards * std::sin(angle), dir);
}

}  // namespace

Result<Tree> BuildHand(const HandSpec& spec) {
  if (spec.fingers < 3 || spec.fingers > 5) return MakeError("a hand has 3 to 5 fingers");
  if (spec.segments_per_finger < 1 || spec.segments_per_finger > 8) {
    return MakeError("a finger has 1 to 8 segments");
  }
  if (!(spec.palm_length > 0.0f) || !std::isfinite(spec.palm_length) ||
      !(spec.segment_length > 0.0f) || !std::isfinite(spec.segment_length)) {
    return MakeError("palm_length and segment_length must be finite and > 0");
  }
  if (!IsFinite(spec.wrist)) return MakeError("wrist is not finite");
  const bool c = spec.constrained;
  const JointConstraint palm = c ? JointConstraint::Cone(0.6f) : JointConstraint{};
  const JointConstraint base_joint =
      c ? JointConstraint::Ball(0.3f, 1.2f, 0.6f, 0.6f) : JointConstraint{};
  // Not a narrow fan: FABRIK converges poorly on hinge-like cones (see constraints.h).
  const JointConstraint finger_joint =
      c ? JointConstraint::Ball(0.3f, 1.4f, 0.35f, 0.35f) : JointConstraint{};
  const glm::vec3 y(0.0f, 1.0f, 0.0f);
  const glm::vec3 x(1.0f, 0.0f, 0.0f);
  const glm::vec3 z(0.0f, 0.0f, 1.0f);
  const float curl = 0.12f;  // per finger joint, towards +Z ("down" in the carried frame)

  std::vector<TreeNodeSpec> nodes;
  const int wrist = AddNode(nodes, -1, spec.wrist);
  const int mid = AddNode(nodes, wrist, spec.wrist + y * (0.5f * spec.palm_length), palm);
  const int knuckle = AddNode(nodes, mid, spec.wrist + y * spec.palm_length, palm);

  auto add_finger = [&](int from, glm::vec3 dir) {
    int at = from;
    for (int k = 0; k < spec.segments_per_finger; ++k) {
      if (k > 0) dir = Turn(dir, z, curl);
      const glm::vec3 pos =
          nodes[static_cast<std::size_t>(at)].position + dir * spec.segment_length;
      at = AddNode(nodes, at, pos, k == 0 ? base_joint : finger_joint);
    }
  };
  // The thumb leaves the middle of the palm 0.55 rad towards +X (within the 0.6 rad limit).
  add_finger(mid, Turn(y, x, 0.55f));
  const int others = spec.fingers - 1;
  for (int f = 0; f < others; ++f) {
    // Fan across [-0.35, +0.35] rad about +Y, from -X (little finger) to +X.
    const float spread = others == 1 ? 0.0f : -0.35f + 0.7f * static_cast<float>(f) / (others - 1);
    add_finger(knuckle, Turn(y, x, spread));
  }
  return Tree::Create(nodes);
}

Result<Tree> BuildCreature(const CreatureSpec& spec) {
  if (spec.effectors < 3 || spec.effectors > 5) return MakeError("a creature has 3 to 5 effectors");
  if (!(spec.scale > 0.0f) || !std::isfinite(spec.scale)) {
    return MakeError("scale must be finite and > 0");
  }
  if (!IsFinite(spec.hips)) return MakeError("hips position is not finite");
  const bool c = spec.constrained;
  const float s = spec.scale;
  const JointConstraint spine = c ? JointConstraint::Cone(0.5f) : JointConstraint{};
  const JointConstraint limb = c ? JointConstraint::Cone(1.2f) : JointConstraint{};
  const JointConstraint wide = c ? JointConstraint::Cone(2.8f) : JointConstraint{};
  const bool head = spec.effectors != 4;
  const bool legs = spec.effectors != 3;
  const glm::vec3 y(0.0f, 1.0f, 0.0f);
  const glm::vec3 z(0.0f, 0.0f, 1.0f);

  std::vector<TreeNodeSpec> nodes;
  const int hips = AddNode(nodes, -1, spec.hips);
  const int belly = AddNode(nodes, hips, spec.hips + y * (0.6f * s), spine);
  const int chest = AddNode(nodes, belly, spec.hips + glm::vec3(0.0f, 1.2f, 0.05f) * s, spine);

  // A limb of `count` segments from `from` along `dir`, bending slightly towards `bend`.
  auto add_limb = [&](int from, glm::vec3 dir, const glm::vec3& bend, int count, float len,
                      const JointConstraint& first, const JointConstraint& rest) {
    int at = from;
    for (int k = 0; k < count; ++k) {
      if (k > 0) dir = Turn(dir, bend, 0.25f);
      const glm::vec3 pos = nodes[static_cast<std::size_t>(at)].position + dir * (len * s);
      at = AddNode(nodes, at, pos, k == 0 ? first : rest);
    }
  };
  for (float side : {-1.0f, 1.0f}) {
    add_limb(chest, glm::normalize(glm::vec3(side, -0.15f, 0.0f)), z, 3, 0.45f, wide, limb);
  }
  if (head) add_limb(chest, y, z, 2, 0.3f, spine, spine);
  if (legs) {
    for (float side : {-1.0f, 1.0f}) {
      add_limb(hips, glm::normalize(glm::vec3(0.45f * side, -1.0f, 0.0f)), z, 2, 0.55f, wide, limb);
    }
  }
  return Tree::Create(nodes);
}

}  // namespace fabrik
