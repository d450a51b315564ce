// tool_passes.h - one solve of a chain with the everyday IK tools' settings (core/tool_state.h),
// from the chain's pose towards a target: the passes the chain scene's frame and the step view
// share, so that the step view's last step is exactly the frame's solve (docs/tools.md: In the
// demo).
//
// Order: soften the target; solve (two_bone, the stiffness solver, or `solver` with the
// observer); aim the last joints (look-at); limit each segment's turn against the pose the call
// started from; stretch. After each tool that moves the chain, `stages` (may be null) gets the
// pose as it stands, so a viewer can show the tool's work as a step of its own. Spline IK is not
// here (it lays the chain along a curve, with no passes): core/tool_solve.h.
//
// Writes the outcome fields of `tools` (stretch_factor, stretched, soft_target, aim_error_deg)
// and uses its working space (start, stiff, aimer, rotations); allocates only while those grow.
// The result's distance and reached are measured from the drawn effector (the stretched one
// while stretched) to the real target, never the softened one; with stretch, reachable means
// within stretch x reach. A refused solve (result.ok false, the library's message) leaves the
// chain as the solver left it (untouched by every solver here).
#pragma once

#include <cstdint>
#include <glm/gtc/quaternion.hpp>
#include <glm/vec3.hpp>
#include <span>
#include <vector>

#include "ik/recording_observer.h"
#include "ik/solve_types.h"
#include "ik/solver.h"

namespace fabrik {

struct ToolState;

// The tools that move the chain as a step of their own.
enum class ToolStage : std::uint8_t {
  kStiffness,  // the stiffness solve (its passes are not recorded one by one)
  kTwoBone,    // the law of cosines: elbow and effector placed in one step
  kAim,        // the last joints turned so the aim axis points at the aim point
  kTurnLimit,  // segments that turned too far clamped back towards their start direction
  kStretch,    // every segment scaled by one factor (the drawn pose)
};

// "stiffness", "two_bone", "aim", "turn_limit", "stretch" (the state line's names).
const char* ToolStageName(ToolStage stage);

class ToolStageSink {
 public:
  virtual ~ToolStageSink() = default;
  // The pose (joint_count() points, world units) right after `stage`; valid during the call.
  virtual void OnStage(ToolStage stage, std::span<const glm::vec3> pose) = 0;
};

// The tools' solve of `chain` with `tools`'s settings (see above). `observer` (may be null)
// records the passes of the plain solver; with two_bone or stiffness it only gets OnBegin with
// the start pose and the (softened) target. `settings` as BoundedSettings gives them.
SolveResult SolveToolPasses(ToolState& tools, SolverKind solver, const SolveSettings& settings,
                            Chain& chain, const glm::vec3& target, SolveObserver* observer,
                            ToolStageSink* stages);

// Degrees between `axis` carried by the last bone's rotation of `pose` (ik/rotations.h, from
// the pose alone, as ik/aim.h measures) and the line from the last joint to `at`; `rotations`
// is working space. A pose with fewer than 2 joints or `at` on the effector: 0.
float AimErrorDeg(std::span<const glm::vec3> pose, const glm::vec3& axis, const glm::vec3& at,
                  std::vector<glm::quat>& rotations);

}  // namespace fabrik
