// The arm's `solver two_bone`: shoulder, elbow and wrist by the law of cosines
// (scenes/arm/arm_scene.h: SolveArmElbow).
#include <cmath>
#include <glm/geometric.hpp>
#include <string>
#include <vector>

#include "core/app_state.h"
#include "core/frame.h"
#include "ik/two_bone.h"
#include "scenes/arm/arm_scene.h"

namespace fabrik {

void SolveArmElbow(ArmScene& arm, AppState& state, const std::optional<glm::vec3>& pole) {
  Chain& chain = state.chain;
  const glm::vec3 target = state.target();
  if (chain.joint_count() != 5) {
    SetMessage(state,
               "solver two_bone: the arm has " + std::to_string(chain.joint_count()) +
                   " joints, not its pedestal, shoulder, elbow, wrist and hand",
               true);
    return;
  }
  std::span<glm::vec3> p = chain.pose_for_solver();
  const std::span<const float> len = chain.lengths();
  // The three joints the two-bone solver moves, as a chain of their own: rebuilt only when
  // the arm's upper arm or forearm changed length, else its pose is overwritten in place.
  if (!arm.elbow || arm.elbow->lengths()[0] != len[1] || arm.elbow->lengths()[1] != len[2]) {
    auto made = Chain::FromJoints({p[1], p[2], p[3]});
    if (!made) {
      SetMessage(state, "solver two_bone: " + made.error(), true);
      return;
    }
    arm.elbow = std::move(made).value();
  }
  std::span<glm::vec3> e = arm.elbow->pose_for_solver();
  e[0] = p[1], e[1] = p[2], e[2] = p[3];
  // The hand points along the line from the shoulder to the target, so the wrist's goal lies
  // one hand length short of the target on that line: the hand ends on the target whenever
  // the wrist can reach its goal. Straight above the shoulder, the hand points up.
  const glm::vec3 to = target - p[1];
  const float d = glm::length(to);
  const glm::vec3 dir = d > 1e-6f && std::isfinite(d) ? to / d : glm::vec3(0.0f, 1.0f, 0.0f);
  const glm::vec3 wrist_goal = target - dir * len[3];
  TwoBoneOptions options;
  options.pole = pole;
  options.soften = state.tools.soften;
  const SolveResult r = SolveTwoBone(*arm.elbow, wrist_goal, BoundedSettings(state, 3), options);
  if (!r.ok) {
    SetMessage(state, std::string("solve rejected: ") + r.error, true);
    return;
  }
  p[2] = e[1];
  p[3] = e[2];
  p[4] = p[3] + dir * len[3];
  ConstrainedSolveResult& last = arm.last;
  last.base = r;
  last.base.distance = SafeDistance(p[4], target);
  last.base.reached = last.base.distance <= state.settings.tolerance;
  last.base.reachable = SafeDistance(wrist_goal, p[1]) <= len[1] + len[2];
  last.limited = false;
  last.joints_at_limit = JointsAtLimit(chain.joints(), arm.constraints, arm.at_limit);
  last.max_violation = MaxConstraintViolation(chain.joints(), arm.constraints);
  state.last = last.base;
}

}  // namespace fabrik
