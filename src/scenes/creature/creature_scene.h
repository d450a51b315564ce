// scene_creature.h - a tree: hips (root), spine to the chest (a sub-base for the arms and the
// neck) and two legs; five effectors (hands, head, feet), each with its own target, solved
// with the centroid rule. The mode's target drives the primary effector (the right hand); in
// drag mode every effector's target can be dragged.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "core/scene.h"
#include "ik/tree.h"

namespace fabrik {

class CreatureScene final : public Scene {
 public:
  std::string_view name() const override { return "creature"; }
  // Builds the creature standing on the ground, hands reaching forward a little; the target
  // starts on the primary effector's target.
  bool Enter(AppState& state) override;
  OrbitCamera::Home CameraHome(const AppState& state) const override;
  void Solve(AppState& state) override;
  std::span<const glm::vec3> Pose(const AppState& state) const override;
  // Every effector and its target (both grab that target).
  void Handles(const AppState& state, std::vector<Handle>& out) const override;
  Grab DefaultGrab() const override { return {Grab::Kind::kEffectorTarget, primary}; }
  // Moves a non-primary effector's target; the primary's is the app's target.
  bool MoveHandle(const Grab& grab, const glm::vec3& position) override;
  // "effectors", "parents", "limited", "joints_at_limit", "max_violation".
  void WriteState(nlohmann::json& line) const override;
  // The bone rotations follow the tree; the effector's is the primary effector's node's.
  RotationSource Rotations() const override;

  std::optional<Tree> tree;
  std::vector<EffectorTarget> targets;  // one per effector
  std::vector<float> distances;
  std::vector<std::uint8_t> at_limit;
  TreeSolveResult last;
  int primary = 0;  // index into targets: the effector the target modes drive
};

}  // namespace fabrik
