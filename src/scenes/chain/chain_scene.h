// scene_chain.h - the free chain every other feature works on: any solver, the step view,
// the race. Its lengths are the panel's (AppState::lengths).
#pragma once

#include "core/scene.h"

namespace fabrik {

class ChainScene final : public Scene {
 public:
  std::string_view name() const override { return "chain"; }
  bool free_chain() const override { return true; }
  // Rebuilds a straight chain with the lengths it had when another scene took over.
  bool Enter(AppState& state) override;
  // The selected solver, timed; while the step view is on, the replay instead; then the race.
  // With a free root, the rope pull instead (docs/scenes.md: Free root).
  void Solve(AppState& state) override;
  // The step view's replayed pose while it is on.
  std::span<const glm::vec3> Pose(const AppState& state) const override;

 private:
  // With a free root (`root free`): PullChain instead of the solver; no race.
  static void SolveFreeRoot(AppState& state);
};

}  // namespace fabrik
