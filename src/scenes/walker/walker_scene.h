// scene_walker.h - a four-legged FABRIK walker on the terrain (docs/walker.md: The walker scene).
//
// The mode's target is where the walker walks to: it turns, walks there with its feet planted
// and stops. A drag puts the target on the ground under the cursor (IntersectTerrain); the
// target's y is ignored. Debug views: every leg's chain before its solve (a ghost) with its
// pole and swing path, and one chosen leg's last solve recorded for the step view.
//
// The body: the procedural spider, or a four-legged skinned model (`walker model PATH`,
// `--walker-model PATH`; character/quadruped.h) walking on the same gait, its own walk and run
// cycles playing and its four legs planted by FABRIK, drawn skinned on the GPU. With a model
// the debug views draw each leg as its cycle put it before the solve (the ghost) and the foot
// goals; the step view records nothing (the walker's own legs are proxies there).
#pragma once

#include <optional>
#include <span>
#include <string>
#include <vector>

#include "character/quadruped.h"
#include "core/scene.h"
#include "skin/dual_quat.h"
#include "walker/walker.h"

namespace fabrik {

// The packaged quadruped (Debian's assimp-testmodels; docs/characters.md), the panel's picker.
inline constexpr const char* kPackagedQuadrupedPath = "/usr/share/assimp/models/X/Testwuson.X";

// Kept while another scene is on: the model the walker scene walks ("" = the spider).
struct WalkerConfig {
  std::string model_path;
};

class WalkerScene final : public Scene {
 public:
  std::string_view name() const override { return "walker"; }
  // Stands a four-legged spider at the centre of the current terrain (EnsureTerrain), the
  // target on the ground under its body. Fails only if the walker cannot be built.
  bool Enter(AppState& state) override;
  OrbitCamera::Home CameraHome(const AppState& state) const override;
  // walker.Update(frame dt, target); the solve readouts: iterations summed over the legs,
  // distance = horizontal distance from the body to the goal, reached = arrived().
  void Solve(AppState& state) override;
  // Every leg's joints, hip first, foot last, leg after leg.
  std::span<const glm::vec3> Pose(const AppState& state) const override;
  // The goal marker (grabs the target).
  void Handles(const AppState& state, std::vector<Handle>& out) const override;
  std::optional<glm::vec3> SurfaceHit(const Ray& ray) const override;
  // "body", "legs", "goal", "arrived", "steps", "foot_steps", "terrain", "walker_debug"
  // (docs/walker.md: The walker scene).
  void WriteState(nlohmann::json& line) const override;

  // `terrain load`: the walker moves onto the new map (walker->SetTerrain), then the target
  // moves onto the re-clamped goal and the pose refreshes.
  Status UseTerrain(AppState& state, const std::shared_ptr<const Heightmap>& map) override;
  // Debug views (app::WalkerView): the pre-solve ghosts, and the leg whose solve is recorded
  // for the step view (-1: none; out-of-range indices count as none).
  void SetDebug(bool show_pre_solve, int step_leg);
  // The legs the step view can record: the spider's, or the quadruped's four.
  int leg_count() const;
  // `walker model PATH|procedural`: the path as written ("" = the spider). A model that cannot
  // be read or is not a quadruped is refused with its message and nothing changes.
  Status SetModel(AppState& state, const std::string& path);

  // The walker whose body and gait are shown: the spider's, or the quadruped's.
  const Walker* active() const;

  std::optional<Walker> walker;  // the spider (empty while a model walks)
  std::optional<character::QuadrupedWalker> quadruped;
  std::string model_path;       // as written, "" for the spider
  std::vector<DualQuat> bones;  // the quadruped's skinning transforms this frame
  double ik_us = 0.0, skin_us = 0.0;
  bool show_pre_solve = false;
  int step_leg = -1;

 private:
  void RefreshPose();
  void SolveQuadruped(AppState& state, float dt);
  void WriteModelState(nlohmann::json& line) const;
  // The fields both walkers write (docs/state.md): "body", "legs" (as given), "goal",
  // "arrived", "steps", "foot_steps", "walker_debug".
  void WriteWalkState(const Walker& walker, nlohmann::json legs, nlohmann::json& line) const;
  std::vector<glm::vec3> pose_;
};

struct CommandEntry;  // core/command_table.h
// The scene's own commands: terrain, walker (walker_commands.cpp).
std::span<const CommandEntry> WalkerCommandEntries();

}  // namespace fabrik
