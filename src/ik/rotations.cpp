#include "ik/rotations.h"

#include <algorithm>
#include <cmath>
#include <numbers>

#include <glm/geometric.hpp>
#include <glm/mat3x3.hpp>

#include "ik/fabrik.h"
#include "ik/tree.h"
#include "ik/vec_util.h"

namespace fabrik {
namespace {

const glm::vec3 kX(1.0f, 0.0f, 0.0f);
const glm::vec3 kUpAxis(0.0f, 1.0f, 0.0f);
// 1 + cos(pi - 1.4e-3): directions closer than about 1.4e-3 rad to opposite count as a half
// turn (the same threshold as MinimalRotation's fallback).
constexpr float kOppositeSlack = 1e-6f;

bool Usable(const glm::quat& q) {
  if (!std::isfinite(q.w) || !std::isfinite(q.x) || !std::isfinite(q.y) || !std::isfinite(q.z)) {
    return false;
  }
  return std::fabs(glm::dot(q, q) - 1.0f) < 1e-3f;
}

glm::quat Normalized(const glm::quat& q) {
  const float n = std::sqrt(glm::dot(q, q));
  if (!(n > 0.0f) || !std::isfinite(n)) return glm::quat(1.0f, 0.0f, 0.0f, 0.0f);
  return glm::quat(q.w / n, q.x / n, q.y / n, q.z / n);
}

// Angle between unit vectors, radians; atan2 keeps it accurate near 0 and pi.
float AngleBetween(const glm::vec3& a, const glm::vec3& b) {
  return std::atan2(glm::length(glm::cross(a, b)), glm::dot(a, b));
}

// One bone's rotation from its parent's (see the header's "Twist").
struct Step {
  glm::quat rotation;
  float budget;  // summed direction change from the root down to this bone
};

Step RotateBone(const glm::quat& parent, const glm::vec3& d, const glm::quat* previous,
                float parent_budget, float settle) {
  const glm::vec3 parent_dir = parent * kUpAxis;
  const glm::quat spatial = Normalized(MinimalRotation(parent_dir, d, parent * kX) * parent);
  if (previous == nullptr || !Usable(*previous))
    return {spatial, parent_budget + std::numbers::pi_v<float>};
  const glm::vec3 previous_dir = glm::normalize(*previous * kUpAxis);
  if (1.0f + glm::dot(previous_dir, d) < kOppositeSlack)
    return {spatial, parent_budget + std::numbers::pi_v<float>};
  const glm::quat temporal =
      Normalized(MinimalRotation(previous_dir, d, *previous * kX) * *previous);
  const float change = AngleBetween(previous_dir, d);
  if (1.0f + glm::dot(parent_dir, d) < kOppositeSlack) {
    return {temporal, parent_budget + change};  // folded back: S is not defined; keep P
  }
  // Both map +Y onto d, so spatial * temporal^-1 turns about d; its signed angle is the
  // twist between them, wrapped into (-pi, pi].
  const glm::quat r = spatial * glm::conjugate(temporal);
  float twist = 2.0f * std::atan2(glm::dot(glm::vec3(r.x, r.y, r.z), d), r.w);
  if (twist > std::numbers::pi_v<float>) twist -= 2.0f * std::numbers::pi_v<float>;
  if (twist < -std::numbers::pi_v<float>) twist += 2.0f * std::numbers::pi_v<float>;
  const float budget = parent_budget + settle;
  twist = std::clamp(twist, -budget, budget);
  return {Normalized(glm::angleAxis(twist, d) * temporal), parent_budget + change};
}

// The unit direction parent -> child, or `fallback` for a zero or non-finite segment.
glm::vec3 Direction(const glm::vec3& from, const glm::vec3& to, const glm::vec3& fallback) {
  const glm::vec3 v = to - from;
  const float len = RobustLength(v);
  if (!(len > 0.0f) || !std::isfinite(len) || !IsFinite(v)) return fallback;
  return v / len;
}

// A hinge bone: the rotation with +Y on d that keeps the hinge axis on its bone-local axis.
// Returns false (leaving `q`) if the axis is (nearly) along the bone.
bool HingeRotation(const HingeLimits& hinge, const Frame& parent, const glm::vec3& d,
                   glm::quat& q) {
  glm::vec3 axis = glm::normalize(hinge.axis);
  // The axis in the coordinates of a bone at rest (aligned with the parent frame, or with the
  // world for a world hinge), projected perpendicular to +Y.
  glm::vec3 local = hinge.space == HingeSpace::kWorld ? glm::vec3(axis.x, 0.0f, axis.z)
                                                      : glm::vec3(axis.x, 0.0f, -axis.y);
  local = glm::length(local) > 1e-6f ? glm::normalize(local) : kX;
  if (hinge.space == HingeSpace::kParent) {
    axis = parent.right * axis.x + parent.up * axis.y + parent.forward * axis.z;
  }
  glm::vec3 a = axis - glm::dot(axis, d) * d;
  const float len = glm::length(a);
  if (!(len > 1e-4f)) return false;
  a /= len;
  // Columns: where the rotation sends (local, +Y, local x +Y), and those three themselves.
  const glm::mat3 to(a, d, glm::cross(a, d));
  const glm::mat3 from(local, kUpAxis, glm::cross(local, kUpAxis));
  q = Normalized(glm::quat_cast(to * glm::transpose(from)));
  return true;
}

const JointConstraint* ConstraintAt(const ChainConstraints* c, std::size_t i) {
  if (c == nullptr || i >= c->joints.size()) return nullptr;
  return &c->joints[i];
}

bool BuildChain(std::span<const glm::vec3> joints, const ChainConstraints* constraints,
                std::span<const glm::quat> previous, std::span<glm::quat> out,
                const RotationSettings& settings) {
  if (joints.size() < 2 || out.size() != joints.size() - 1) return false;
  const bool has_previous = previous.size() == out.size();
  const float settle =
      settings.settle >= 0.0f && std::isfinite(settings.settle) ? settings.settle : 0.0f;
  Frame frame = constraints ? MakeFrame(constraints->base) : Frame{};
  glm::quat parent = FrameRotation(frame);
  float budget = 0.0f;
  for (std::size_t i = 0; i < out.size(); ++i) {
    const glm::vec3 d = Direction(joints[i], joints[i + 1], parent * kUpAxis);
    const Step step = RotateBone(parent, d, has_previous ? &previous[i] : nullptr, budget, settle);
    glm::quat q = step.rotation;
    const JointConstraint* c = ConstraintAt(constraints, i);
    const bool hinge = c != nullptr && c->type == ConstraintType::kHinge;
    if (hinge) HingeRotation(c->hinge, frame, d, q);
    if (i + 1 == out.size() && !hinge && settings.effector_target != nullptr &&
        Usable(Normalized(*settings.effector_target))) {
      q = EffectorTwist(*settings.effector_target, d);
    }
    out[i] = q;
    parent = q;
    budget = step.budget;
    frame = TransportFrame(frame, d);
  }
  return true;
}

}  // namespace

glm::quat FrameRotation(const Frame& f) {
  return Normalized(glm::quat_cast(glm::mat3(f.right, f.forward, -f.up)));
}

glm::quat MinimalRotation(const glm::vec3& from, const glm::vec3& to,
                          const glm::vec3& half_turn_axis) {
  // Half-vector form: with h the unit bisector of from and to, q = (from.h, from x h) turns
  // by twice the angle between from and h. Accurate up to near a half turn, unlike
  // (1 + from.to, from x to), which cancels there. In double: near a half turn |from + to| is
  // small, and float rounding of h - or of the inputs' unit lengths, hence the normalisation -
  // would tip the result off `to` by rounding / |from + to|.
  const glm::dvec3 a = glm::normalize(glm::dvec3(from)), b = glm::normalize(glm::dvec3(to));
  const glm::dvec3 sum = a + b;
  const double len = glm::length(sum);
  if (!(1.0 + glm::dot(a, b) >= 1e-6) || !(len > 0.0)) {
    return glm::quat(0.0f, half_turn_axis.x, half_turn_axis.y, half_turn_axis.z);
  }
  const glm::dvec3 h = sum / len;
  const glm::dvec3 v = glm::cross(a, h);
  const double w = glm::dot(a, h);
  const double n = std::sqrt(w * w + glm::dot(v, v));
  return glm::quat(static_cast<float>(w / n), static_cast<float>(v.x / n),
                   static_cast<float>(v.y / n), static_cast<float>(v.z / n));
}

glm::quat EffectorTwist(const glm::quat& target, const glm::vec3& direction) {
  const glm::quat t = Normalized(target);
  const glm::vec3 axis = t * kUpAxis;
  return Normalized(MinimalRotation(axis, direction, t * kX) * t);
}

float RotationAngle(const glm::quat& a, const glm::quat& b) {
  const glm::quat r = glm::conjugate(Normalized(a)) * Normalized(b);
  const float s = glm::length(glm::vec3(r.x, r.y, r.z));
  return 2.0f * std::atan2(s, std::fabs(r.w));
}

bool ChainRotations(std::span<const glm::vec3> joints, std::span<const glm::quat> previous,
                    std::span<glm::quat> out, const RotationSettings& settings) {
  return BuildChain(joints, nullptr, previous, out, settings);
}

bool ChainRotations(std::span<const glm::vec3> joints, const ChainConstraints& constraints,
                    std::span<const glm::quat> previous, std::span<glm::quat> out,
                    const RotationSettings& settings) {
  return BuildChain(joints, &constraints, previous, out, settings);
}

bool TreeRotations(const Tree& tree, std::span<const glm::quat> previous, std::span<glm::quat> out,
                   RotationScratch& scratch, const RotationSettings& settings) {
  const std::size_t n = tree.node_count();
  if (n < 2 || out.size() != n - 1) return false;
  const bool has_previous = previous.size() == out.size();
  const float settle =
      settings.settle >= 0.0f && std::isfinite(settings.settle) ? settings.settle : 0.0f;
  scratch.frames.resize(n);
  scratch.rotation.resize(n);
  scratch.budget.resize(n);
  scratch.frames[0] = MakeFrame(tree.base());
  scratch.rotation[0] = FrameRotation(scratch.frames[0]);
  scratch.budget[0] = 0.0f;
  const auto positions = tree.positions();
  for (std::size_t i = 1; i < n; ++i) {
    const auto p = static_cast<std::size_t>(tree.parent(i));
    const glm::quat& parent = scratch.rotation[p];
    const glm::vec3 d = Direction(positions[p], positions[i], parent * kUpAxis);
    const Step step =
        RotateBone(parent, d, has_previous ? &previous[i - 1] : nullptr, scratch.budget[p], settle);
    glm::quat q = step.rotation;
    const JointConstraint& c = tree.constraint(i);
    if (c.type == ConstraintType::kHinge) HingeRotation(c.hinge, scratch.frames[p], d, q);
    scratch.rotation[i] = q;
    scratch.budget[i] = step.budget;
    scratch.frames[i] = TransportFrame(scratch.frames[p], d);
    out[i - 1] = q;
  }
  return true;
}

bool RotationTracker::Prepare(std::size_t bones) {
  if (current_.size() != bones) {
    current_.assign(bones, glm::quat(1.0f, 0.0f, 0.0f, 0.0f));
    previous_.clear();
    return false;
  }
  previous_.swap(current_);
  current_.resize(bones);
  return true;
}

std::span<const glm::quat> RotationTracker::Update(std::span<const glm::vec3> joints,
                                                   const RotationSettings& settings) {
  if (joints.size() < 2) return {};
  Prepare(joints.size() - 1);
  ChainRotations(joints, previous_, current_, settings);
  return current_;
}

std::span<const glm::quat> RotationTracker::Update(std::span<const glm::vec3> joints,
                                                   const ChainConstraints& constraints,
                                                   const RotationSettings& settings) {
  if (joints.size() < 2) return {};
  Prepare(joints.size() - 1);
  ChainRotations(joints, constraints, previous_, current_, settings);
  return current_;
}

std::span<const glm::quat> RotationTracker::Update(const Tree& tree,
                                                   const RotationSettings& settings) {
  if (tree.node_count() < 2) return {};
  Prepare(tree.node_count() - 1);
  TreeRotations(tree, previous_, current_, scratch_, settings);
  return current_;
}

void RotationTracker::Reset() {
  current_.clear();
  previous_.clear();
}

}  // namespace fabrik
