// scene_field.h - many chains at once (docs/field.md "The field scene"): chains rooted on a grid
// over the ground, all leaning towards the shared target like grass towards a light, solved
// together each frame by the batched solver (ik/batch_fabrik.h).
//
// The per-chain target rule (FieldTarget): a chain whose reach-fraction kFieldLean of its
// length covers the shared target reaches for the target itself; every other chain reaches
// kFieldLean of its length from its root along a direction between straight up and the
// direction to the target, tilted towards the target the more the closer it is. Every chain's
// own target is therefore within its reach.
#pragma once

#include <cstddef>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "core/scene.h"
#include "ik/batch_fabrik.h"

namespace fabrik {

// Bounds of the field (docs/field.md "The field scene"): --chains, and chains x joints.
inline constexpr int kFieldMinChains = 1;
inline constexpr int kFieldMaxChains = 100000;
inline constexpr int kFieldDefaultChains = 10000;
inline constexpr int kFieldDefaultJoints = 10;
inline constexpr long kFieldMaxTotalJoints = 2000000;
// Grid spacing between neighbouring roots and the mean height of a chain, world units.
inline constexpr float kFieldSpacing = 0.5f;
inline constexpr float kFieldReach = 2.4f;
// The share of its own length a chain leans out to when the target is beyond it.
inline constexpr float kFieldLean = 0.85f;

// The field's shape: what --chains and --joints ask for (AppState::field).
struct FieldConfig {
  int chains = kFieldDefaultChains;  // kFieldMinChains..kFieldMaxChains
  int joints = kFieldDefaultJoints;  // per chain, root included, 2..kMaxJoints
};

// The joints per chain the command line asks for: the chain's `joints` when --joints or
// --lengths is among the options `given`, else `fallback` (docs/options.md: --chains).
inline int FieldJointsGiven(std::span<const std::string> given, int joints, int fallback) {
  for (const std::string& name : given) {
    if (name == "--joints" || name == "--lengths") return joints;
  }
  return fallback;
}

// Chain c's own target under the rule above, for a chain rooted at `root` with total length
// `reach` (> 0) and the shared target `target` (finite). Always within `reach` of `root`.
glm::vec3 FieldTarget(const glm::vec3& root, float reach, const glm::vec3& target);

class FieldScene final : public Scene {
 public:
  std::string_view name() const override { return "field"; }
  // The batched solver takes the bend-scale steps when `accelerate` is on; the chains' shape
  // is the field's own (`chains N [JOINTS]`), and it has no step view or race.
  SceneControls controls() const override { return {.accelerate = true}; }
  // Builds FieldConfig::chains chains of FieldConfig::joints joints (state.scene.configs) on a grid
  // centred on the origin (per-chain heights vary by +-15 % for a natural look) and places the
  // target above the field. Fails, with the message set and nothing changed, when chains or joints
  // are out of bounds or their product exceeds kFieldMaxTotalJoints.
  bool Enter(AppState& state) override;
  // Frames the whole field.
  OrbitCamera::Home CameraHome(const AppState& state) const override;
  // Computes every chain's target and solves the whole field (all cores); state.solve_us is
  // the time of both; state.last is the lead chain's outcome (the chain rooted nearest below
  // the target) measured against the shared target. No allocation.
  void Solve(AppState& state) override;
  // The lead chain's joints.
  std::span<const glm::vec3> Pose(const AppState& state) const override;
  // The target only (no effector handle: 10,000 effectors are not grabbable one by one).
  void Handles(const AppState& state, std::vector<Handle>& out) const override;
  // "chains", "field_joints", "reached_share", "samples", "lead_chain", "lane_utilisation",
  // "batch_us" (the batched solve alone, microseconds).
  void WriteState(nlohmann::json& line) const override;

  std::size_t chain_count() const { return batch_ ? batch_->chain_count() : 0; }
  std::size_t joint_count() const { return batch_ ? batch_->joint_count() : 0; }
  // Every chain's joints after the last solve (chain c at c x joint_count()).
  std::span<const glm::vec3> poses() const { return poses_; }
  std::span<const glm::vec3> roots() const { return roots_; }
  std::span<const glm::vec3> targets() const { return targets_; }
  const ChainBatch& batch() const { return *batch_; }
  const BatchSolveResult& last() const { return last_; }
  // Reached share of the chains with a reachable target (1 when none is reachable).
  double reached_share() const;
  // The two chains the state line samples: the first (a corner) and the centre one.
  std::size_t sample(int k) const { return k == 0 ? 0 : centre_; }
  std::size_t lead() const { return lead_; }
  // The grid: chain c is at column c % columns, row c / columns.
  int columns() const { return columns_; }
  int rows() const { return rows_; }
  // Index of the chain whose root is nearest to (x, z) on the grid.
  std::size_t NearestChain(float x, float z) const;

 private:
  std::optional<ChainBatch> batch_;
  std::vector<glm::vec3> roots_;
  std::vector<float> reach_;
  std::vector<glm::vec3> targets_;
  std::vector<glm::vec3> poses_;
  BatchSolveResult last_;
  int columns_ = 1, rows_ = 1;
  std::size_t centre_ = 0, lead_ = 0;
};

struct CommandEntry;  // core/command_table.h
// The scene's own commands: chains (field_commands.cpp).
std::span<const CommandEntry> FieldCommandEntries();

}  // namespace fabrik
