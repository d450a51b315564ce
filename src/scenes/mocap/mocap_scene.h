// mocap_scene.h - a motion-capture clip with full-body FABRIK on top (docs/mocap.md: The mocap
// scene). One character (mocap/character.h) plays the clip on the terrain: its feet are
// grounded, and its hands and head take targets.
//
// Ground: the app's terrain (`--terrain`, `terrain load`) when one is loaded, else flat ground
// at y = 0 of the terrain's side. The character stands with its clip's frame-0 root at the
// world's origin, facing +Z.
//
// Targets, world metres:
//   * the right hand reaches for the mode's target (the app's target) once it is taken: a
//     drag of the hand's marker (or anywhere else), a switch to the spline, console or script
//     mode, `reach right X Y Z` (which also puts the target there) or `reach right target`.
//     Until then the target rides on the right wrist, so its marker is where the hand is;
//     `reach right off` lets go;
//   * the left hand reaches for a fixed point (`reach left X Y Z`, a drag of its marker);
//   * the head looks at a point (`look X Y Z`, a drag of its marker).
// Targets ease in and out over the library's 0.3 s blend; `ik weight W` blends the whole IK
// with the clip (0: the clip itself).
//
// Export (`mocap export PATH`, mocap_export.h): the clip baked with what the scene holds when
// the export starts (ground, placement, IK weight, the reach and look targets set), 32 clip
// frames per Solve, the file written when all are baked. It keeps its own clip and ground:
// `mocap load` and `terrain load` meanwhile change the scene, not the export; leaving the
// scene cancels it (nothing written, one error line).
//
// Character (mocap_skin.h): capsules on the clip's bones, or a skinned model from a file
// (`character PATH`, `--character PATH`) whose bones follow the final pose by retargeting
// (`retarget on|off`); with a model the clip is loaded scaled to the model's legs.
//
// Playback (mocap_playback.h) advances by the frame's dt, so `--fixed-dt` plays the clip
// deterministically. The camera, when following, moves its pivot with the character's root.
#pragma once

#include <array>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "core/scene.h"
#include "mocap/character.h"
#include "mocap/grounding_meter.h"
#include "scenes/mocap/mocap_config.h"
#include "scenes/mocap/mocap_export.h"
#include "scenes/mocap/mocap_playback.h"
#include "scenes/mocap/mocap_skin.h"
#include "targets/target_sources.h"
#include "terrain/heightmap.h"

namespace fabrik {

class MocapScene final : public Scene {
 public:
  // Grab indices of the handles other than the right hand's target (Grab::kEffectorTarget).
  static constexpr int kLeftHandHandle = 0;
  static constexpr int kLookHandle = 1;

  std::string_view name() const override { return "mocap"; }
  // Loads MocapConfig's clip (state.scene.configs) (path resolved against the data folder, its
  // scale); fails with the loader's one-line message and changes nothing.
  bool Enter(AppState& state) override;
  OrbitCamera::Home CameraHome(const AppState& state) const override;
  // Advances the clip, sets the targets, runs the character's frame (IK timed into ik_us and
  // state.solve_us) and moves a following camera. state.last: distance from the right wrist
  // to its reach target (0 without one), reached within the library's 1 mm tolerance.
  void Solve(AppState& state) override;
  // The final pose's joints, world metres, in the clip's joint order.
  std::span<const glm::vec3> Pose(const AppState& state) const override;
  // The right hand's target (the app's target), the left hand's and the look point when set.
  void Handles(const AppState& state, std::vector<Handle>& out) const override;
  bool MoveHandle(const Grab& grab, const glm::vec3& position) override;
  // "skeleton" (the clip's; with a skinned character the character's own, and the clip's as
  // "clip_skeleton"), "clip", "ik_weight", "ik_us", "playback", "mocap_view", "grounding" (the
  // live figures below), "character" (null with capsules), "retarget", "retarget_us",
  // "skin_us", and "mocap" with the last export's "export" once one was started
  // (docs/state.md).
  void WriteState(nlohmann::json& line) const override;
  // Cancels a running export with one error line (the header comment).
  void Leave(AppState& state) override;

  // Swaps the clip for the one at `resolved_path` (`path` as the user wrote it), keeping the
  // weight, targets and playback settings; time restarts at 0. On failure: false with the
  // message set, nothing changed.
  bool Load(AppState& state, const std::string& path, const std::string& resolved_path,
            float scale);
  // The skinned character at `path` (resolved against the data folder), or capsules for "";
  // the clip is reloaded (scaled to the character, mocap_skin.h) and restarts at 0. Refused
  // with one line naming the problem, nothing changed: no clip, a file the library refuses,
  // a model the clip cannot be retargeted onto.
  Status SetCharacter(AppState& state, const std::string& path);
  // Retargeting on, or off: the character holds its bind pose at the clip's pelvis.
  void SetRetarget(bool on) { retarget_ = on; }
  bool retarget() const { return retarget_; }
  // How the GPU skins the character: linear blending, or dual quaternions (the default).
  void SetLinearSkinning(bool linear) { linear_skinning_ = linear; }
  bool linear_skinning() const { return linear_skinning_; }
  // The skinned character, if one is loaded.
  const std::optional<MocapSkin>& skin() const { return skin_; }

  // A hand's reach: a point, or nullopt to let go. The right hand's point also becomes the
  // app's target. Refused (message, nothing changed) without arms or for a non-finite or
  // farther than 10 km point.
  Status SetReach(AppState& state, mocap::Side hand, const std::optional<glm::vec3>& point);
  // The right hand follows the app's target from now on.
  Status FollowTarget();
  Status SetLook(const std::optional<glm::vec3>& point);
  Status SetIkWeight(float weight);
  // Starts exporting the clip to `path` (the header comment). Refused with one line, nothing
  // started: no clip, an export already running, a path io::CheckExportPath refuses, a target
  // the bake refuses.
  Status StartExport(AppState& state, const std::string& path);
  // Bakes up to `frames` more clip frames of a running export; when it finishes prints one
  // console line ("mocap export: wrote PATH (N frames)", or the error, also as the message).
  void AdvanceExport(AppState& state, int frames);
  // The running or last export, if any.
  const std::optional<ClipExport>& clip_export() const { return export_; }
  // Jumps to frame `frame` (clamped into the clip).
  void SetFrame(int frame);

  // How well the feet stay on the ground since the clip or the ground last changed
  // (mocap/grounding_meter.h): the clip's own pose, and the pose with the IK, each against
  // the clip's, over the frames the scene has solved (a frame's pop is its move since the
  // frame before, as shown; a restart of the clip is not counted as one).
  mocap::GroundingFigures ClipGrounding() const;
  mocap::GroundingFigures IkGrounding() const;

  const mocap::Character& character() const { return *character_; }
  const std::shared_ptr<const Heightmap>& ground() const { return ground_; }
  const std::string& clip_path() const { return path_; }
  bool right_follows() const { return right_follows_; }
  int frame() const;
  double ik_us() const { return ik_us_; }

  Playback playback;
  bool ghost = true;   // draw the clip's own pose (the animated pose) faintly
  bool follow = true;  // the camera's pivot follows the character

 private:
  // Points the character at the app's current terrain, or at flat ground (docs above).
  void SyncGround(AppState& state);
  // Load's work: the clip at `resolved_path`, scaled to `skin`'s legs when there is one, and
  // on success the scene takes both. On failure: the error, nothing changed.
  Status LoadWith(AppState& state, const std::string& path, const std::string& resolved_path,
                  float scale, std::optional<MocapSkin> skin);
  void PlaceCamera(AppState& state);
  // How far each hand of the skinned character goes where the clip's wrist is (MocapSkin::
  // Frame): the hand's reach blend times the IK weight this frame, so a reaching hand
  // reaches the target, fading in and out with the reach.
  std::array<float, 2> HandFollow() const;
  // The state line's "retarget", "character", "retarget_us" and "skin_us" (docs/state.md).
  void WriteCharacterState(nlohmann::json& line) const;
  // Poses the skinned character, if any, from the final pose and the animated pose.
  // Poses the skinned character from the IK's pose; `clip_dt` is the clip time this frame
  // moved (the held feet's fade, mocap_skin.h).
  void PoseSkin(float clip_dt = 0.0f);
  // What a state line's skeleton is made of: names, parents and world positions of one
  // skeleton, and its feet's, hands' and head's joints (-1: none) in it.
  struct MocapSkeletonOf {
    std::span<const std::string> names;
    std::span<const int> parents;
    std::span<const glm::vec3> joints, animated;
    std::array<int, 2> feet, hands;
    int head = -1;
  };
  // A state line's "skeleton" of `of`, with the scene's contacts, pins and targets.
  nlohmann::json SkeletonJson(const MocapSkeletonOf& of) const;
  // The clip's skeleton ("skeleton" with capsules, "clip_skeleton" with a character), and the
  // skinned character's own ("skeleton" with a character; docs/state.md).
  nlohmann::json ClipSkeletonJson() const;
  nlohmann::json CharacterSkeletonJson() const;

  std::shared_ptr<const mocap::Rig> rig_;
  std::optional<mocap::Character> character_;
  // The ground the character stands on, kept alive here: the character holds a plain pointer.
  std::shared_ptr<const Heightmap> ground_;
  int ground_revision_ = -1;
  std::string path_;
  bool right_follows_ = false;
  TargetMode last_mode_ = TargetMode::kDrag;
  std::optional<glm::vec3> left_reach_;  // what `reach left` asked for (before blending)
  glm::vec3 followed_{0.0f};             // the root position the camera last followed
  double ik_us_ = 0.0;
  std::optional<ClipExport> export_;
  std::optional<MocapSkin> skin_;
  bool retarget_ = true;
  bool linear_skinning_ = false;
  // The live grounding figures (ClipGrounding, IkGrounding), restarted with the ground.
  std::optional<mocap::GroundingMeter> clip_meter_, ik_meter_;
};

struct CommandEntry;  // core/command_table.h
// The scene's own commands: mocap, reach, look, ik, character, retarget, ghost, follow
// (mocap_commands.cpp).
std::span<const CommandEntry> MocapCommandEntries();

}  // namespace fabrik
