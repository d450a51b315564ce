#include "ik/constraints_desc.h"

#include <numbers>

namespace fabrik {
namespace {

constexpr float kPiF = std::numbers::pi_v<float>;

}  // namespace

Result<JointConstraint> ToJointConstraint(const ConstraintDesc& d, const std::string& label) {
  const bool has_ball = d.angle || d.up || d.down || d.left || d.right;
  const bool has_hinge = d.axis || d.reference || d.min || d.max;
  JointConstraint c;
  if (d.type == "none") {
    if (has_ball || has_hinge) return MakeError(label + ": type \"none\" takes no limits");
    return c;
  }
  if (d.type == "ball") {
    if (has_hinge) return MakeError(label + ": axis, reference, min and max are hinge fields");
    const float all = d.angle.value_or(kPiF);
    c = JointConstraint::Ball(d.up.value_or(all), d.down.value_or(all), d.left.value_or(all),
                              d.right.value_or(all));
  } else if (d.type == "hinge") {
    if (has_ball) return MakeError(label + ": angle, up, down, left and right are ball fields");
    if (!d.axis) return MakeError(label + ": hinge needs an axis");
    HingeSpace space;
    if (d.space == "parent") {
      space = HingeSpace::kParent;
    } else if (d.space == "world") {
      space = HingeSpace::kWorld;
    } else {
      return MakeError(label + ": unknown hinge space \"" + d.space + "\" (parent or world)");
    }
    const glm::vec3 fallback_ref =
        space == HingeSpace::kParent ? glm::vec3(0.0f, 0.0f, 1.0f) : glm::vec3(0.0f);
    c = JointConstraint::Hinge(*d.axis, d.min.value_or(-kPiF), d.max.value_or(kPiF), space,
                               d.reference.value_or(fallback_ref));
  } else {
    return MakeError(label + ": unknown constraint type \"" + d.type + "\" (ball, hinge or none)");
  }
  if (const char* e = ValidateJointConstraint(c)) return MakeError(label + ": " + e);
  return c;
}

Result<ChainConstraints> ToChainConstraints(std::span<const ConstraintDesc> descs,
                                            std::size_t joint_count, const BaseFrame& base) {
  if (const char* e = ValidateBaseFrame(base)) return MakeError(e);
  if (joint_count < 2) return MakeError("a chain needs at least 2 joints");
  ChainConstraints out;
  out.base = base;
  std::vector<bool> seen(joint_count - 1, false);
  for (std::size_t i = 0; i < descs.size(); ++i) {
    const std::string label = "constraints[" + std::to_string(i) + "]";
    const int j = descs[i].joint;
    if (j < 0 || static_cast<std::size_t>(j) + 1 >= joint_count) {
      return MakeError(label + ": joint " + std::to_string(j) + " is out of range (a chain of " +
                       std::to_string(joint_count) + " joints can limit joints 0.." +
                       std::to_string(joint_count - 2) + ")");
    }
    const auto ji = static_cast<std::size_t>(j);
    if (seen[ji]) return MakeError(label + ": joint " + std::to_string(j) + " is limited twice");
    seen[ji] = true;
    Result<JointConstraint> c = ToJointConstraint(descs[i], label);
    if (!c) return MakeError(c.error());
    if (out.joints.size() <= ji) out.joints.resize(ji + 1);
    out.joints[ji] = c.value();
  }
  return out;
}

Result<Tree> ToTree(std::span<const TreeNodeDesc> nodes, const BaseFrame& base) {
  std::vector<TreeNodeSpec> specs(nodes.size());
  for (std::size_t i = 0; i < nodes.size(); ++i) {
    specs[i].parent = nodes[i].parent;
    specs[i].position = nodes[i].position;
    if (nodes[i].constraint) {
      Result<JointConstraint> c =
          ToJointConstraint(*nodes[i].constraint, "nodes[" + std::to_string(i) + "].constraint");
      if (!c) return MakeError(c.error());
      specs[i].constraint = c.value();
    }
  }
  return Tree::Create(specs, base);
}

}  // namespace fabrik
