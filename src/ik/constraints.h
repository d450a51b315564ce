// constraints.h - joint limits for FABRIK: elliptical cones (ball-and-socket) and hinges.
//
// A constraint limits the DIRECTION of one segment relative to a frame; it never changes a
// segment's length. The constrained solvers (constrained_fabrik.h, tree.h) apply the limits
// inside the FABRIK passes, as Aristidou & Lasenby, "FABRIK: A fast, iterative solver for the
// Inverse Kinematics problem", Graphical Models 73(5), 2011, section 4, describe.
//
// Units: angles in radians, lengths in world units. Spaces: world space (right-handed, +Y up)
// unless a field says "parent-local".
//
// Frames. Every segment carries an orthonormal Frame whose `forward` is the segment's
// direction. The frame of segment i is the frame of segment i-1 carried along by the smallest
// rotation that turns i-1's direction into i's (parallel transport), so `up` and `right` vary
// continuously along the chain and never depend on a fixed world "up" - a segment pointing
// straight along world +Y is as well-behaved as any other. The first segment's parent frame is
// the BaseFrame given in world space. Parent-local coordinates are (x, y, z) = (right, up,
// forward) of the parent frame, a right-handed basis (right = cross(up, forward)).
//
// Which joint limits what. In a chain, constraint i sits at joint i and limits segment i (joint
// i -> joint i+1) relative to the parent frame, the frame of segment i-1; for joint 0 (the root,
// or "base" joint) the parent frame is the BaseFrame. The effector joint has no segment to limit.
//
// Ball-and-socket (ConstraintType::kBall): the segment must stay inside an elliptical cone
// around the parent frame's forward axis. The cone is given by four half-angles, one per
// quadrant direction (up = +y, down = -y, right = +x, left = -x, in parent-local coordinates),
// each in [0, pi]. Inside one quadrant the boundary is a quarter ellipse whose semi-axes are the
// two angles bounding that quadrant:
//   * both angles below kTangentPlaneMaxAngle (1.5 rad, about 86 degrees): the quarter ellipse
//     lies in the plane at unit distance along the axis, with semi-axes tan(angle) - an exact
//     elliptical cone;
//   * otherwise (wide cones, up to pi): the quarter ellipse lies in "angular" coordinates, the
//     direction's angle from the axis times its azimuth (an azimuthal-equidistant map), so
//     angles of 90 degrees and more are well-defined.
// Both regimes agree on the four axis directions, so the boundary is continuous. A direction
// outside the cone moves to the nearest boundary point of its quadrant's ellipse (in that
// quadrant's plane). Special cases: a direction behind the tangent plane goes to the boundary
// point whose outward normal has the direction's azimuth (the limit of the in-front case); a
// direction exactly opposite the axis goes to the boundary point on the axis direction with the
// largest angle (ties: up, right, down, left), and within 1e-3 rad of that opposite direction
// the nearest of those four axis boundary points also competes (there every azimuth meets, so
// the quadrant is decided by rounding); all four angles 0 pins the segment to the axis; all
// four pi is no limit at all.
//
// Hinge (ConstraintType::kHinge): the segment must lie in the plane perpendicular to `axis`,
// at a signed angle in [min_angle, max_angle] from `reference` (positive = anticlockwise about
// the axis by the right-hand rule; min is the clockwise limit, max the anticlockwise one). A
// direction off the plane is first projected onto it (a direction along the axis, whose
// projection is degenerate, is taken as angle 0), then clamped to the nearer limit measured
// around the circle. The axis and reference are given in the parent frame (HingeSpace::kParent)
// or in world space (HingeSpace::kWorld, for a world-fixed hinge). A reference that is not
// perpendicular to the axis is made so (its component along the axis is dropped); a zero one,
// or one within 1e-4 rad of the axis line, is replaced by a perpendicular of the axis (towards
// +Y when the axis is mostly horizontal, |axis.y| < 0.9, otherwise towards +X).
//
// Failure behaviour: ValidateJointConstraint / ValidateChainConstraints reject bad parameters
// with a message; the constrained solvers validate first and leave the chain untouched on
// error. The projection functions themselves never fail: any finite or non-finite input gives a
// finite unit vector (a zero or non-finite direction is treated as the parent's forward axis).
//
// JSON shape proposed for the fabrik-solve CLI (see constraints_desc.h for the plain structs):
//   "constraints": [
//     {"joint": 0, "type": "ball", "up": 0.5, "down": 0.5, "left": 0.5, "right": 0.5},
//     {"joint": 1, "type": "ball", "angle": 0.8},                   // symmetric cone
//     {"joint": 2, "type": "hinge", "axis": [0, 0, 1], "space": "world",
//      "reference": [0, 1, 0], "min": -1.5, "max": 1.5},
//     {"joint": 3, "type": "hinge", "axis": [1, 0, 0], "min": 0.0, "max": 2.2}  // parent space
//   ],
//   "base": {"forward": [0, 1, 0], "up": [0, 0, -1]}                // optional BaseFrame
#pragma once

#include <cstddef>
#include <cstdint>
#include <glm/vec3.hpp>
#include <span>
#include <vector>

#include "result.h"

namespace fabrik {

// Segments within this angle (radians) of a limit count as "at the limit" (renderers colour
// them). Also the default slack of the pose checks in tests.
inline constexpr float kAtLimitEpsilon = 1e-3f;

// Quadrants of a cone whose two bounding angles are both below this (radians) use the
// tangent-plane ellipse; wider ones use the angular ellipse (see the header comment).
inline constexpr float kTangentPlaneMaxAngle = 1.5f;

// Orthonormal frame of a segment, world space. right = cross(up, forward).
struct Frame {
  glm::vec3 right{1.0f, 0.0f, 0.0f};
  glm::vec3 up{0.0f, 0.0f, -1.0f};
  glm::vec3 forward{0.0f, 1.0f, 0.0f};
};

// The frame the root joint's constraint is measured in, world space. `forward` is the cone
// axis of a ball at the root (need not be unit; must be finite and non-zero); `up` picks the
// cone's "up" quadrant (made perpendicular to forward; if it is zero, non-finite or parallel to
// forward, a perpendicular of forward is used: towards +Y, or +X when forward is mostly vertical).
// The default is an arm standing on the ground: forward +Y, up -Z, hence right +X.
struct BaseFrame {
  glm::vec3 forward{0.0f, 1.0f, 0.0f};
  glm::vec3 up{0.0f, 0.0f, -1.0f};
};

enum class ConstraintType : std::uint8_t { kNone, kBall, kHinge };
enum class HingeSpace : std::uint8_t { kParent, kWorld };

// Half-angles of an elliptical cone, radians, each in [0, pi] (values up to 1e-3 beyond pi are
// accepted and treated as pi). The default is no limit.
struct ConeLimits {
  float up = 3.14159265f;
  float down = 3.14159265f;
  float left = 3.14159265f;
  float right = 3.14159265f;
};

// A hinge. `axis` must be finite and non-zero (need not be unit). `reference` is the zero-angle
// direction (see the header comment for how a poor one is repaired). Angles in radians with
// -pi <= min_angle <= max_angle <= pi (1e-3 slack beyond pi is accepted). The default is a
// parent-space hinge about the parent's right axis, zero angle = straight on, no limit.
struct HingeLimits {
  glm::vec3 axis{1.0f, 0.0f, 0.0f};
  glm::vec3 reference{0.0f, 0.0f, 1.0f};
  float min_angle = -3.14159265f;
  float max_angle = 3.14159265f;
  HingeSpace space = HingeSpace::kParent;
};

// One joint's limit. Only the member selected by `type` is used.
struct JointConstraint {
  ConstraintType type = ConstraintType::kNone;
  ConeLimits cone{};
  HingeLimits hinge{};

  static JointConstraint None() { return {}; }
  // An elliptical cone with the four half-angles (radians).
  static JointConstraint Ball(float up, float down, float left, float right);
  // A circular cone of the given half-angle (radians).
  static JointConstraint Cone(float half_angle);
  // A hinge; see HingeLimits.
  static JointConstraint Hinge(const glm::vec3& axis, float min_angle, float max_angle,
                               HingeSpace space = HingeSpace::kParent,
                               const glm::vec3& reference = {0.0f, 0.0f, 1.0f});
};

// The constraints of a serial chain. joints[i] limits segment i (joint i -> i+1); there may be
// fewer entries than segments (the rest are unconstrained) but not more.
struct ChainConstraints {
  BaseFrame base{};
  std::vector<JointConstraint> joints;
};

// nullptr when `constraint` is valid, otherwise a static message naming the bad field.
const char* ValidateJointConstraint(const JointConstraint& constraint);
// nullptr when `base` is usable (forward finite and non-zero, up finite), else a static message.
const char* ValidateBaseFrame(const BaseFrame& base);
// Checks every entry and that there are at most joint_count - 1 of them; the message names the
// joint ("joints[3]: hinge max_angle is below min_angle"). Allocates only to build a message.
Status ValidateChainConstraints(const ChainConstraints& constraints, std::size_t joint_count);

// True when the constraint limits anything (type is not kNone).
inline bool IsConstrained(const JointConstraint& c) { return c.type != ConstraintType::kNone; }
// The constraint of segment i: constraints.joints[i], or an unconstrained one past its end.
const JointConstraint& ConstraintAt(const ChainConstraints& constraints, std::size_t i);
// True when the limit does not depend on the parent segment: a world-space hinge.
bool IsWorldFixed(const JointConstraint& c);

// The orthonormal frame for `base` (repairing `up` as described at BaseFrame).
Frame MakeFrame(const BaseFrame& base);

// `parent` carried along by the smallest rotation that turns parent.forward into `direction`
// (parallel transport). `direction` need not be unit; zero or non-finite keeps parent.forward.
// Directions within about 1e-4 rad of exactly opposite (no well-defined smallest rotation) turn
// half a turn about parent.right. Always returns an orthonormal frame. Frames of bends close to
// a half turn are inherently sensitive (a rotation by ~pi about slightly different axes), so
// limits below such a bend are reproducible only to about 1e-7 / (pi - bend) rad.
Frame TransportFrame(const Frame& parent, const glm::vec3& direction);

// The direction nearest `direction` inside the elliptical cone around frame.forward, with
// frame.up / frame.right naming the quadrants. Returns a unit vector; an inside direction comes
// back (normalised) unchanged.
glm::vec3 ConstrainToCone(const glm::vec3& direction, const Frame& frame, const ConeLimits& cone);

// The direction nearest `direction` allowed by the hinge; `parent` is used for kParent hinges.
// Returns a unit vector.
glm::vec3 ConstrainToHinge(const glm::vec3& direction, const Frame& parent,
                           const HingeLimits& hinge);

// Dispatches on constraint.type (kNone returns `direction` normalised). `parent` is the parent
// segment's frame (the BaseFrame's frame for the root joint).
glm::vec3 ConstrainDirection(const JointConstraint& constraint, const Frame& parent,
                             const glm::vec3& direction);

// How far `direction` is outside the constraint: the angle (radians, >= 0) between it and
// ConstrainDirection(...). 0 for an allowed direction.
float ViolationAngle(const JointConstraint& constraint, const Frame& parent,
                     const glm::vec3& direction);

// True when `direction` is outside the limit or within about `epsilon` radians of its boundary:
// a ball, when it is outside the cone whose angles (those below pi; pi means "no limit") are
// each reduced by epsilon - so a direction in a quadrant with an angle below epsilon always is;
// a hinge, when it is off the plane by more than epsilon or within epsilon of min_angle or
// max_angle (a hinge spanning the full circle has no limit angle). A fully locked joint (all
// cone angles 0, or min_angle == max_angle) is therefore always at its limit.
bool IsAtLimit(const JointConstraint& constraint, const Frame& parent, const glm::vec3& direction,
               float epsilon = kAtLimitEpsilon);

// The same limit seen from the child segment: when the frames are carried by parallel
// transport, "child direction inside C relative to the parent frame" is equivalent to "parent
// direction inside Mirrored(C) relative to the child frame". The backward passes use it.
// Cone: up <-> down, left <-> right. Parent-space hinge: axis and reference turned half a turn
// about forward. A world hinge comes back unchanged (it never depends on the parent).
JointConstraint MirroredConstraint(const JointConstraint& constraint);

// ---- Pose checks for a chain (joint positions root first, world space) ----------------------
// Both walk the chain carrying frames exactly as the constrained solver does, so a pose the
// solver returned checks out to float rounding. Neither allocates. Constraints must be valid
// (see ValidateChainConstraints); `joints` must hold at least 2 points.

// The largest ViolationAngle over all joints, radians; *worst_joint (if given) is its joint
// index, or -1 when nothing is violated.
float MaxConstraintViolation(std::span<const glm::vec3> joints, const ChainConstraints& constraints,
                             int* worst_joint = nullptr);

// Writes 1 into at_limit[i] for every joint i at its limit (IsAtLimit), 0 otherwise, for the
// first min(at_limit.size(), joints.size()) joints (the effector is always 0). Returns the
// number of joints at their limit.
int JointsAtLimit(std::span<const glm::vec3> joints, const ChainConstraints& constraints,
                  std::span<std::uint8_t> at_limit, float epsilon = kAtLimitEpsilon);

}  // namespace fabrik
