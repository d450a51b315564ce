#include "scenes/chain/chain_scene.h"

#include <chrono>

#include "core/app_state.h"
#include "core/frame.h"
#include "core/scene_registry.h"
#include "core/step_view.h"
#include "core/tool_solve.h"
#include "ik/free_root.h"

namespace fabrik {

bool ChainScene::Enter(AppState& state) {
  const std::vector<float> lengths =
      state.scene.chain_lengths.empty() ? state.lengths : state.scene.chain_lengths;
  auto chain = Chain::Straight(glm::vec3(0.0f), glm::vec3(0.0f, 1.0f, 0.0f), lengths);
  if (!chain) {
    SetMessage(state, chain.error(), true);
    return false;
  }
  state.chain = std::move(chain).value();
  state.lengths = lengths;
  return true;
}

void ChainScene::Solve(AppState& state) {
  if (state.step.active) {
    UpdateStepView(state);
    return;
  }
  if (state.root.free) {
    SolveFreeRoot(state);
    return;
  }
  if (state.orient.euler_deg) {
    // An orientation target: the oriented FABRIK solve, whatever solver is selected
    // (docs/rotations.md: In the app).
    SolveOriented(state, nullptr);
    UpdateRace(state);
    return;
  }
  // The everyday tools (soften, stretch, turn limit, stiffness, two_bone, spline IK).
  if (SolveWithTools(state)) {
    UpdateRace(state);
    return;
  }
  const auto start = std::chrono::steady_clock::now();
  const SolveResult result = fabrik::Solve(state.solver, state.chain, state.target(),
                                           BoundedSettings(state, state.chain.joint_count()));
  const auto end = std::chrono::steady_clock::now();
  state.solve_us = std::chrono::duration<double, std::micro>(end - start).count();
  if (!result.ok) {
    SetMessage(state, std::string("solve rejected: ") + result.error, true);
    return;
  }
  state.last = result;
  state.iteration_history.Push(static_cast<float>(result.iterations));
  state.solve_us_history.Push(static_cast<float>(state.solve_us));
  UpdateRace(state);
}

// docs/scenes.md: Free root - the chain pulled by its head, the root following (ik/free_root.h).
void ChainScene::SolveFreeRoot(AppState& state) {
  const auto start = std::chrono::steady_clock::now();
  const SolveResult result = PullChain(state.chain, state.target());
  RecordSolveTime(state, start);
  if (!result.ok) {
    SetMessage(state, std::string("solve rejected: ") + result.error, true);
    return;
  }
  state.last = result;
  state.root.Push(state.chain.root());
  state.iteration_history.Push(static_cast<float>(result.iterations));
  state.solve_us_history.Push(static_cast<float>(state.solve_us));
}

std::span<const glm::vec3> ChainScene::Pose(const AppState& state) const {
  if (state.step.active && state.step.pose.size() == state.chain.joint_count()) {
    return state.step.pose;
  }
  return ToolPose(state);
}

// Its registry line (scenes/registry.h).
SceneEntry ChainSceneEntry() { return {.make = MakeSceneOf<ChainScene>}; }

}  // namespace fabrik
