// scene_arm.h - a robot arm on a turntable: a rigid pedestal, then shoulder, elbow and wrist
// hinges that pitch in the vertical plane through the target (the turntable turns that
// plane to face the target every frame, as a real arm's base yaw does). A pole point decides
// whether the elbow bends up or down. Solved with constrained FABRIK, or with `solver two_bone`
// by the law of cosines for shoulder, elbow and wrist (SolveArmElbow below).
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "core/scene.h"
#include "ik/constrained_fabrik.h"
#include "ik/constraints.h"

namespace fabrik {

class ArmScene final : public Scene {
 public:
  std::string_view name() const override { return "arm"; }
  // Its constrained FABRIK takes the bend-scale steps; the rest is the free chain's.
  // `solver two_bone` solves its shoulder, elbow and wrist.
  SceneControls controls() const override { return {.accelerate = true, .two_bone = true}; }
  // Builds the four-segment arm, raises the iteration cap to at least 30 (limits cost
  // iterations) and places the target in front of it.
  bool Enter(AppState& state) override;
  void Solve(AppState& state) override;
  // The target, the effector and (when used) the pole.
  void Handles(const AppState& state, std::vector<Handle>& out) const override;
  bool MoveHandle(const Grab& grab, const glm::vec3& position) override;
  // "pole", "use_pole", "limited", "joints_at_limit", "at_limit", "max_violation".
  void WriteState(nlohmann::json& line) const override;
  // The bone rotations follow the arm's pose within its constraints' twist limits.
  RotationSource Rotations() const override { return {RotationSource::Kind::kChain, &constraints}; }

  ChainConstraints constraints;  // base frame re-aimed every frame when `turntable`
  bool turntable = true;
  bool use_pole = true;
  glm::vec3 pole{0.0f};
  ConstrainedSolveResult last;
  std::vector<std::uint8_t> at_limit;
  std::optional<Chain> elbow;  // SolveArmElbow's shoulder-elbow-wrist, kept between frames
};

// `solver two_bone` in the arm (docs/tools.md: In the demo): the pedestal stays; the wrist goes
// where the hand, pointing along the line from the shoulder to the target, ends on the target;
// shoulder, elbow and wrist are placed by ik/two_bone.h in one step, the elbow towards `pole`
// (world units; none: the current bend plane) and softened by state.tools.soften; the hand
// then points along that line from the wrist. The hinges' limits are not applied (as Unreal's
// and Godot's two-bone nodes ignore them): `last` reports the joints at or past a limit and the
// largest violation. Fills state.last and arm.last; a pose it cannot solve (a chain that is not
// the arm's five joints, a non-finite target) is refused with state.message and unchanged.
void SolveArmElbow(ArmScene& arm, AppState& state, const std::optional<glm::vec3>& pole);

// Re-aims the arm's turntable at the target: the base frame's right axis becomes horizontal
// and perpendicular to the root->target direction, so every parent-space hinge pitches in the
// vertical plane through the target.
void AimTurntable(ArmScene& arm, const glm::vec3& root, const glm::vec3& target);
// The frame of every segment of a chain under `constraints` (parallel transport from the base
// frame), as the constrained solver carries them: frames[i] is segment i's parent frame.
void SegmentParentFrames(std::span<const glm::vec3> joints, const ChainConstraints& constraints,
                         std::vector<Frame>& frames);

}  // namespace fabrik
