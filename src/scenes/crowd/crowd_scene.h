// crowd_scene.h - many characters playing motion-capture clips on the terrain, their legs
// solved together by the batched solver every frame (docs/mocap.md: The crowd scene).
//
// `characters N` (1..kMaxCharacters, default 100) characters play the current clip and every
// other packaged clip with legs of the same joint count (mocap/crowd.h needs one leg shape),
// each at a random place, heading and start time, drawn from a fixed seed so two runs are the
// same. They stand on a square around the origin whose side grows with N (about 3 m per
// character's square root, at most the terrain's side). The ground is the app's terrain, or
// flat ground, as in the mocap scene. Memory grows with characters x joints: a crowd is at
// most kMaxCrowdJoints joints in all (5,000 CMU characters fit; a 1,000-joint clip allows
// 1,000). Drawing is capped: the shell draws the characters nearest the camera's pivot, at
// most kMaxDrawnCharacters and at most kMaxDrawnCrowdJoints joints in all (DrawnCharacterCap).
#pragma once

#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "core/scene.h"
#include "mocap/crowd.h"
#include "scenes/mocap/mocap_config.h"
#include "terrain/heightmap.h"

namespace fabrik {

inline constexpr int kMaxDrawnCharacters = 300;
inline constexpr long kMaxCrowdJoints = 1'000'000;
inline constexpr long kMaxDrawnCrowdJoints = 12'000;

// How many characters of `joints` joints each the shell draws: at most kMaxDrawnCharacters and
// kMaxDrawnCrowdJoints joints in all, at least one.
int DrawnCharacterCap(int joints);

class CrowdScene final : public Scene {
 public:
  std::string_view name() const override { return "crowd"; }
  // Loads the clips and places MocapConfig::characters characters (state.scene.configs); fails
  // (message set, nothing changed) when the current clip cannot be loaded or the crowd would
  // hold more than kMaxCrowdJoints joints.
  bool Enter(AppState& state) override;
  OrbitCamera::Home CameraHome(const AppState& state) const override;
  // One Crowd::Update(dt); solve_us is the whole update, ik_us its IK (after sampling).
  void Solve(AppState& state) override;
  // The first character's final pose.
  std::span<const glm::vec3> Pose(const AppState& state) const override;
  // Nothing to drag.
  void Handles(const AppState&, std::vector<Handle>&) const override {}
  // "characters", "ik_weight", "ik_us", "crowd" {clips, drawn_cap, frame_us, sample_us,
  // solve_us, lowest_foot} (docs/state.md).
  void WriteState(nlohmann::json& line) const override;

  Status SetIkWeight(float weight);
  const mocap::Crowd& crowd() const { return *crowd_; }
  const std::shared_ptr<const Heightmap>& ground() const { return ground_; }
  const std::vector<std::string>& clips() const { return clips_; }
  // DrawnCharacterCap for this crowd's largest skeleton (kMaxDrawnCharacters when empty).
  int drawn_cap() const { return drawn_cap_; }

 private:
  bool Build(AppState& state);

  std::optional<mocap::Crowd> crowd_;
  std::shared_ptr<const Heightmap> ground_;  // kept alive: the crowd holds a plain pointer
  int ground_revision_ = -1;
  std::vector<std::string> clips_;  // the clips played, as loaded
  float ik_weight_ = 1.0f;
  int drawn_cap_ = kMaxDrawnCharacters;
};

struct CommandEntry;  // core/command_table.h
// The scene's own commands: characters (crowd_commands.cpp).
std::span<const CommandEntry> CrowdCommandEntries();

}  // namespace fabrik
