// tool_state.h - the chain scene's everyday IK tools (docs/tools.md: In the demo): what the
// console's `soften`, `stretch`, `turn limit`, `stiffness`, `pole`, `spline ik` and `solver
// two_bone` set, and what the last solve with them left for drawing and the state line.
//
// Values (each checked by its command; the solve reads them as they are):
//   soften          (0, 1]; 1 is off (ik/soften.h: the target pulled in beyond soften x reach)
//   stretch         >= 1 (at most kMaxStretch); 1 is off (ik/stretch.h)
//   turn_limit_deg  (0, 180] degrees per frame; 0 is off (ik/turn_limit.h)
//   stiffness       one value in [0, 1] per joint, or empty (all 0, off) (ik/stiffness.h)
//   two_bone        the analytic solver of ik/two_bone.h instead of `solver` (3 joints only)
//   pole            the two-bone bend plane's pole, world units; none keeps the bend plane
//   spline_ik       the chain lies along the loaded spline, its head at the spline target
//                   (ik/spline_ik.h); without a spline the chain solves as usual
//   aim_at          look-at (ik/aim.h): after the position solve the last aim_joints joints
//                   turn so that aim_axis, fixed in the effector's frame (+Y along the last
//                   bone), points from the effector at this world point; none is off
//   aim_axis        non-zero, finite (not normalised here; the solver normalises it)
//   aim_joints      k, 1..kMaxAimJoints; the solve uses at most the chain's segment count
#pragma once

#include <glm/gtc/quaternion.hpp>
#include <glm/vec3.hpp>
#include <optional>
#include <vector>

#include "ik/aim.h"
#include "ik/stiffness.h"

namespace fabrik {

struct ToolState {
  static constexpr float kMaxStretch = 10.0f;
  float soften = 1.0f;
  float stretch = 1.0f;
  float turn_limit_deg = 0.0f;
  std::vector<float> stiffness;
  bool two_bone = false;
  std::optional<glm::vec3> pole;
  bool spline_ik = false;
  static constexpr int kMaxAimJoints = 32;
  std::optional<glm::vec3> aim_at;
  glm::vec3 aim_axis{0.0f, 1.0f, 0.0f};
  int aim_joints = 1;

  // Left by the last solve: the stretch factor it applied (1: none) and the stretched pose
  // drawn instead of the chain's while the factor is above 1; the point the chain aimed at
  // when softening pulled the target in; joints of the snake on the spline.
  float stretch_factor = 1.0f;
  std::vector<glm::vec3> stretched;
  std::optional<glm::vec3> soft_target;
  int on_curve = 0;
  // The aim's outcome, measured on the pose drawn (after the turn limit and stretch): degrees
  // between the effector's aim axis and the line from the effector to aim_at; none while the
  // aim is off or did not run.
  std::optional<float> aim_error_deg;

  // The snake moved the chain's root off the origin: the chain is laid straight from the
  // origin again once spline IK stops.
  bool root_moved = false;

  // Working space, kept between frames.
  std::vector<glm::vec3> start;  // the pose before this frame's solve (the turn limit's)
  std::vector<glm::vec3> trail;  // the spline behind the snake's head, sampled
  std::vector<float> reversed;   // the chain's lengths, head first
  std::vector<glm::vec3> laid;   // the snake's joints, head first
  StiffSolver stiff;
  AimSolver aimer;
  std::vector<glm::quat> rotations;  // the drawn pose's bone rotations (the aim error's)
};

}  // namespace fabrik
