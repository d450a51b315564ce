#include "core/tool_passes.h"

#include <algorithm>
#include <cmath>
#include <glm/geometric.hpp>
#include <numbers>

#include "core/tool_solve.h"
#include "core/tool_state.h"
#include "ik/aim.h"
#include "ik/rotations.h"
#include "ik/soften.h"
#include "ik/stretch.h"
#include "ik/turn_limit.h"
#include "ik/two_bone.h"

namespace fabrik {
namespace {

void Report(ToolStageSink* stages, ToolStage stage, std::span<const glm::vec3> pose) {
  if (stages != nullptr) stages->OnStage(stage, pose);
}

}  // namespace

const char* ToolStageName(ToolStage stage) {
  switch (stage) {
    case ToolStage::kStiffness:
      return "stiffness";
    case ToolStage::kTwoBone:
      return "two_bone";
    case ToolStage::kAim:
      return "aim";
    case ToolStage::kTurnLimit:
      return "turn_limit";
    case ToolStage::kStretch:
      return "stretch";
  }
  return "";
}

float AimErrorDeg(std::span<const glm::vec3> pose, const glm::vec3& axis, const glm::vec3& at,
                  std::vector<glm::quat>& rotations) {
  if (pose.size() < 2) return 0.0f;
  rotations.resize(pose.size() - 1);
  if (!ChainRotations(pose, {}, rotations)) return 180.0f;
  const glm::dvec3 a = glm::dvec3(rotations.back() * glm::normalize(axis));
  const glm::dvec3 to = glm::dvec3(at) - glm::dvec3(pose.back());
  if (!(glm::length(to) > 0.0)) return 0.0f;
  const double angle = std::atan2(glm::length(glm::cross(a, to)), glm::dot(a, to));
  return static_cast<float>(angle * 180.0 / std::numbers::pi);
}

SolveResult SolveToolPasses(ToolState& t, SolverKind solver, const SolveSettings& settings,
                            Chain& chain, const glm::vec3& target, SolveObserver* observer,
                            ToolStageSink* stages) {
  t.stretch_factor = 1.0f;
  t.soft_target.reset();
  t.aim_error_deg.reset();
  const std::size_t n = chain.joint_count();
  const glm::vec3 aim =
      t.soften < 1.0f ? SoftenTarget(chain.root(), target, chain.total_length(), t.soften) : target;
  if (aim != target) t.soft_target = aim;
  t.start.assign(chain.joints().begin(), chain.joints().end());

  SolveResult result;
  if (t.two_bone && n == 3) {
    // Softened inside the two-bone solver (the same curve), so the real target goes in.
    if (observer != nullptr) observer->OnBegin(chain.joints(), aim);
    TwoBoneOptions options;
    options.pole = t.pole;
    options.soften = t.soften;
    result = SolveTwoBone(chain, target, settings, options);
    if (result.ok) Report(stages, ToolStage::kTwoBone, chain.joints());
  } else if (AnyStiffness(t)) {
    if (observer != nullptr) observer->OnBegin(chain.joints(), aim);
    result = t.stiff.Solve(chain, aim, settings, t.stiffness);
    if (result.ok) Report(stages, ToolStage::kStiffness, chain.joints());
  } else {
    result = Solve(solver, chain, aim, settings, observer);
  }
  if (!result.ok) return result;

  // Look-at after the position solve, as ozz's IKAimJob runs after its position jobs: the
  // turn moves the effector off the target by what the aim needs.
  if (t.aim_at) {
    AimTarget aim_target;
    aim_target.axis = t.aim_axis;
    aim_target.at = *t.aim_at;
    aim_target.joints = std::clamp(t.aim_joints, 1, static_cast<int>(chain.segment_count()));
    const AimResult aimed = t.aimer.Solve(chain, aim_target);
    if (!aimed.ok) {
      result.ok = false;
      result.error = aimed.error;
      return result;
    }
    Report(stages, ToolStage::kAim, chain.joints());
  }
  if (t.turn_limit_deg > 0.0f) {
    LimitTurn(t.start, t.turn_limit_deg * std::numbers::pi_v<float> / 180.0f, chain);
    Report(stages, ToolStage::kTurnLimit, chain.joints());
  }
  std::span<const glm::vec3> drawn = chain.joints();
  if (t.stretch > 1.0f) {
    const double distance = SafeDistance(chain.root(), target);
    t.stretch_factor = static_cast<float>(StretchFactor(chain.total_length(), distance, t.stretch));
    if (t.stretch_factor > 1.0f) {
      t.stretched.resize(n);
      ScalePose(chain.joints(), t.stretch_factor, t.stretched);
      drawn = t.stretched;
      Report(stages, ToolStage::kStretch, drawn);
    }
    result.reachable = distance <= static_cast<double>(chain.total_length()) * t.stretch;
  }
  if (t.aim_at) t.aim_error_deg = AimErrorDeg(drawn, t.aim_axis, *t.aim_at, t.rotations);
  result.distance = SafeDistance(drawn.back(), target);
  result.reached = result.distance <= settings.tolerance;
  return result;
}

}  // namespace fabrik
