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
//
// Skinned: with a model chosen (`character PATH`, MocapConfig::character_path, shared with the
// mocap scene) every clip is loaded scaled to the model's legs, as the mocap scene does, and
// each frame the kMaxSkinnedCharacters characters nearest the camera's pivot are retargeted
// onto the model and get their skinning transforms (mocap_skin.h); the shell skins them on
// the GPU and draws the rest of its drawn characters as capsules.
#pragma once

#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "core/scene.h"
#include "mocap/crowd.h"
#include "scenes/mocap/mocap_config.h"
#include "scenes/mocap/mocap_skin.h"
#include "skin/dual_quat.h"
#include "terrain/heightmap.h"

namespace fabrik {

inline constexpr int kMaxDrawnCharacters = 300;
inline constexpr long kMaxCrowdJoints = 1'000'000;
inline constexpr long kMaxDrawnCrowdJoints = 12'000;
inline constexpr int kMaxSkinnedCharacters = 100;

// One skinned character of the crowd this frame: which member, and its bones (world space,
// unit dual quaternions, one per bone of the model).
struct CrowdSkinned {
  int member = -1;
  std::vector<DualQuat> bones;
};

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
  // solve_us, lowest_foot}, "character" (null, or path, bones, vertices, skinned),
  // "retarget_us", "skin_us" (docs/state.md).
  void WriteState(nlohmann::json& line) const override;

  Status SetIkWeight(float weight);
  // `character PATH|capsules` in the crowd ("" for capsules): rebuilds the crowd on the model
  // (the same places and times) and keeps the path in MocapConfig; on failure nothing changes.
  Status SetCharacter(AppState& state, const std::string& path);
  // The model's skin (its model and path), or null when the crowd draws capsules.
  const MocapSkin* skin() const { return skins_.empty() ? nullptr : &skins_.front(); }
  // This frame's skinned characters, in no particular order.
  std::span<const CrowdSkinned> skinned() const { return {skinned_.data(), skinned_count_}; }
  // This frame's retargeting and skinning transforms, summed over the skinned, microseconds.
  double retarget_us() const { return retarget_us_; }
  double skin_us() const { return skin_us_; }
  const mocap::Crowd& crowd() const { return *crowd_; }
  const std::shared_ptr<const Heightmap>& ground() const { return ground_; }
  const std::vector<std::string>& clips() const { return clips_; }
  // DrawnCharacterCap for this crowd's largest skeleton (kMaxDrawnCharacters when empty).
  int drawn_cap() const { return drawn_cap_; }

 private:
  // Loads the clips (and the model) and places the crowd; on failure nothing changes.
  Status Build(AppState& state);
  // Retargets and skins the kMaxSkinnedCharacters members nearest the camera's pivot, each
  // holding its own heels and balls (its feet's hold state, kept per member: a member that
  // joins the nearest starts afresh) over the frame's step `dt`.
  void PoseSkinned(const AppState& state, float dt);
  // Gives each of the `count` members first in nearest_ a hold slot, its own since it became
  // one of the nearest, or a free one reset.
  void AssignHolds(std::size_t count);

  std::optional<mocap::Crowd> crowd_;
  std::shared_ptr<const Heightmap> ground_;  // kept alive: the crowd holds a plain pointer
  int ground_revision_ = -1;
  std::vector<std::string> clips_;  // the clips played, as loaded
  float ik_weight_ = 1.0f;
  int drawn_cap_ = kMaxDrawnCharacters;
  std::vector<MocapSkin> skins_;  // one per clip (clips_' order), one model; empty: capsules
  std::vector<int> member_skin_;  // per member: its clip's index in skins_
  std::vector<CrowdSkinned> skinned_;  // kMaxSkinnedCharacters slots, sized once per build
  std::size_t skinned_count_ = 0;
  std::vector<std::pair<float, int>> nearest_;  // per member: squared distance to the pivot
  std::vector<MocapSkin::FeetHold> feet_holds_;  // kMaxSkinnedCharacters slots' held feet
  std::vector<int> hold_member_;                 // per hold slot: its member, or -1
  std::vector<int> member_hold_;                 // per member: its hold slot, or -1
  std::vector<char> is_nearest_;                 // per member: among this frame's nearest
  double retarget_us_ = 0.0, skin_us_ = 0.0;
};

struct CommandEntry;  // core/command_table.h
// The scene's own commands: characters (crowd_commands.cpp).
std::span<const CommandEntry> CrowdCommandEntries();

}  // namespace fabrik
