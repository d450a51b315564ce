// mocap_skin.h - the mocap scene's skinned character (docs/mocap.md: The skinned character): a
// model loaded by the character library (character/model.h) whose bones follow the scene's
// final pose, after its IK, through the library's retargeting (character/retarget.h).
//
// Size: the scene loads its clip scaled so that the clip's legs are the character's
// (Retargeter::scale(), the library's leg-length ratio, is then 1): the character keeps its
// own size in metres, and its ankles land where the scene's IK grounded the clip's.
// Placement: each frame the retargeted pose is moved so that the character's pelvis bone is
// at the clip's pelvis joint (world metres). With retargeting off the character holds its
// bind pose there instead. The clip's pose before the IK is retargeted the same way
// (FrameAnimated), for the state line's animated pose.
//
// Soles: the character's ankles sit at another height above its soles than the clip's above
// the clip's (the human's 7.5 cm; 01_01's left ankle, scaled to its legs, 9.9 cm; Boxing_Toes'
// 4.9 cm: docs/characters.md, The human's feet), so with its ankles where the IK holds the clip's
// the human would float or sink. Each ankle's goal is lifted (Retargeter::SetFootLift) by the
// character's ankle height above its foot's lowest vertex in the bind pose, less the clip's lowest
// ankle height above its floor (ContactTrack::ankle_low), at most a tenth of the leg: its sole
// lands where the clip's does, its ankle that far above or below the pin.
//
// Feet: the character's foot is not the clip's (the human's toes reach farther below its toe
// bone than the clip's toe tips below the clip's balls), so the IK, which keeps the clip's foot
// on the ground, would let the character's mesh into it where the clip stands on the ball of
// its foot. With a ground given, each frame each foot (the ankle bone and the bones below it)
// turns up about the ankle just enough for the front of its mesh (the vertices weighted at
// least half to it, the toe's left out, ahead of the ankle) to stay on the ground; then each
// toe (the first bone below the ankle towards the leg's leaf, with the bones below it) bends up
// about its joint just enough for its mesh ahead of the joint to stay on it; where the toe
// cannot bend far enough, the foot turns further for the toe's mesh too. A foot turns at most
// 29 degrees, a toe 80. Every turn is about the level axis square to the part's aim (the
// foot's: its toe; the toe's: its child, or the model's forward), so it swings the part
// without twisting it. The smallest turns, none while the mesh is above the ground
// (docs/characters.md: The human's feet).
//
// Held feet: the character's ankle follows the clip's, so where the clip's IK holds the
// clip's heel and ball the character's own (another foot, on legs fitted in proportion) would
// still slide. While SetFootContacts says a point of a foot is down (its heel, the ankle bone;
// its ball, the toe bone), that point of the character's own foot is held where it was in the
// frame it went down (per point, as the scene's pins are). Each frame, after the
// retargeting, the leg (hip, knee, ankle) is fitted again by Retargeter::FitLeg so that the
// ankle lands on the held heel (with the ball alone down, where the foot, as the retargeting
// turned it, keeps its ball on the held ball), then the foot (the ankle bone and the bones
// below it) turns about the ankle by the smallest rotation that points it at the held ball;
// while both points are down the foot keeps the whole rotation it had when the second went
// down (a planted foot does not roll: the clip's IK can turn its foot about itself by 40
// degrees in a frame on the hills, 01_03), in proportion to both points' weights.
// A new hold starts where the point is, so it holds in full at once; a point lifted (or the
// IK's weight below 1) lets go over kHoldRelease, the scene's pin release time (smoothstep
// of a linear fade). Then the feet's turns (above) run, a foot held by heel and ball turning
// only as far as its holds have faded (its toe still bends); where they swing a ball held
// without its heel, the leg moves the foot back across the ground. A held point more than kMaxHoldSlip across the ground from where the retargeting
// puts it (a clip's time jump) starts again where the point is. The sole's drop: when a heel
// goes down on a foot with no point held, the height of the foot's lowest vertex (its toe's
// included) above the ground, less kSoleClearance, at most kMaxSoleDrop, is measured, and the
// held points are lowered by it, easing in (a smoothstep) over kHoldRelease: the lift matches
// the clip's lowest ankle over the whole clip, and a planted ankle mostly stands higher
// (docs/characters.md: The human's feet).
//
// No GL: Frame() leaves the bones as unit dual quaternions (character/cpu_skin.h:
// SkinningTransforms), ready for the GPU pass (render/skin_pass.h: ModelSkinPass).
#pragma once

#include <array>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "character/model.h"
#include "character/retarget.h"
#include "ik/result.h"
#include "mocap/character.h"
#include "mocap/clip.h"
#include "mocap/clip_sample.h"
#include "skin/dual_quat.h"
#include "terrain/heightmap.h"

namespace fabrik {

class MocapSkin {
 public:
  // Reads the model at `resolved_path` (`path` as the user wrote it). Fails with one line
  // naming the file and the problem (the library's messages, docs/characters.md: Errors).
  static Result<MocapSkin> Load(const std::string& path, const std::string& resolved_path);
  // Another skin of the same model (not loaded again), not yet bound to a clip: the crowd
  // binds one to each of its clips.
  static MocapSkin Share(const std::string& path, std::shared_ptr<const character::Model> model);

  // The leg-length ratio the clip must be scaled by so that its legs are the character's;
  // fails, naming the problem, when the library cannot retarget the clip onto this model.
  Result<float> ScaleFor(const mocap::Clip& clip) const;
  // Maps `rig`'s clip (already scaled by ScaleFor) onto the character, its feet lifted by
  // the soles' difference (foot_lift); on failure nothing changes.
  Status Bind(const mocap::Rig& rig);

  // Poses the character from the clip's world pose (the scene's final pose) and makes the
  // skinning transforms; times both (retarget_us, skin_us). `hand_follow` (left, right; see
  // character::Retargeter::SetHandFollow) is how far each hand goes where the clip's wrist
  // is rather than in proportion: the scene's reach blends, so a reaching hand reaches its
  // target. False before Bind or on a pose of another size (then nothing changes).
  // `ground`, when given, keeps the feet on it (the header comment; not with retargeting off).
  bool Frame(const mocap::Pose& clip_pose, bool retarget, std::array<float, 2> hand_follow,
             const Heightmap* ground = nullptr);
  // The same for the clip's pose before the IK (the scene's animated pose), with the hands in
  // proportion: animated_pose(), for the state line's skeleton.animated. Not timed, no
  // skinning transforms; allocates nothing. False as Frame.
  bool FrameAnimated(const mocap::Pose& animated, bool retarget);
  // How each foot (left, right) stands this frame: which of its points are down (kDown: heel
  // and ball), the frame's step in seconds and the IK's weight (0..1: below 1 no point is
  // held), for the next Frame (the header comment: Held feet). Without a call nothing is held.
  enum class FootDown { kAir, kDown, kHeelOnly, kBallOnly };
  void SetFootContacts(std::array<FootDown, 2> feet, float dt, float weight = 1.0f);
  // How the scene's IK stands a foot: its points down while the foot is pinned.
  static FootDown DownOf(const mocap::FootState& foot);
  // Each foot's (left, right) hold weights this frame, heel and ball (0..1, after the
  // smoothstep), and where the points are held (world metres; valid while the weight is
  // above 0).
  struct FootHold {
    float heel_weight = 0.0f, ball_weight = 0.0f;
    glm::vec3 heel{0.0f}, ball{0.0f};
    glm::quat foot{1.0f, 0.0f, 0.0f, 0.0f};  // the ankle bone's rotation, both points down
  };
  const std::array<FootHold, 2>& foot_holds() const { return hold_.holds; }
  // One character's held feet: everything SetFootContacts and Frame keep between frames (the
  // header comment: Held feet). The skin keeps its own; a skin shared by several characters
  // (the crowd's, one per clip) is handed each character's by Frame's last argument.
  struct FeetHold {
    std::array<FootDown, 2> feet{FootDown::kAir, FootDown::kAir};
    float dt = 0.0f;         // the step to the next Frame, seconds
    float ik_weight = 1.0f;  // 0..1
    std::array<FootHold, 2> holds{};
    float linear[2][2] = {{0.0f, 0.0f}, {0.0f, 0.0f}};   // per foot and point, before smoothstep
    bool held[2][2] = {{false, false}, {false, false}};  // held now
    bool foot_held[2] = {false, false};                  // FootHold::foot recorded
    float drop[2] = {0.0f, 0.0f}, drop_ramp[2] = {0.0f, 0.0f};  // the sole's drop
    glm::vec3 raw[2][2] = {};                                   // held points before the drop
  };
  // Lets go of every held point at once (the skin's own state): for a clip that restarted or
  // was moved to another time, whose feet went down elsewhere.
  void ForgetHolds() { hold_ = FeetHold{}; }
  // SetFootContacts for the state `hold` (the skin's own is untouched).
  static void SetFootContacts(FeetHold& hold, std::array<FootDown, 2> feet, float dt,
                              float weight = 1.0f);
  // Frame for the character whose held feet are `hold` (read and updated in place of the
  // skin's own, which is untouched); foot_holds() then is the skin's own again.
  bool Frame(const mocap::Pose& clip_pose, bool retarget, std::array<float, 2> hand_follow,
             const Heightmap* ground, FeetHold& hold);

  const std::string& path() const { return path_; }
  const character::Model& model() const { return *model_; }
  // Shared with the drawing, which uploads the mesh once per model.
  const std::shared_ptr<const character::Model>& shared_model() const { return model_; }
  // World metres, one per bone: this frame's pose, and its skinning transforms.
  const std::vector<character::BoneTransform>& pose() const { return pose_; }
  const std::vector<DualQuat>& bones() const { return bones_; }
  // Each ankle's lift, left and right, metres (the header comment); 0 before Bind.
  std::array<float, 2> foot_lift() const { return foot_lift_; }
  // World metres, one per bone: the animated pose of FrameAnimated.
  const std::vector<character::BoneTransform>& animated_pose() const { return animated_; }
  // The character's limbs in its own bone indices (Retargeter::character_limbs); null before
  // Bind.
  const mocap::Limbs* limbs() const { return retarget_ ? &retarget_->character_limbs() : nullptr; }
  double retarget_us() const { return retarget_us_; }
  double skin_us() const { return skin_us_; }

 private:
  std::string path_;
  std::shared_ptr<const character::Model> model_;
  std::optional<character::Retargeter> retarget_;
  int pelvis_bone_ = 0, pelvis_clip_ = 0;
  // Poses `clip_pose` into `out` and moves it so that the pelvis is on the clip's (the header
  // comment); false before Bind, on a pose of another size.
  bool PoseInto(const mocap::Pose& clip_pose, bool retarget, std::array<float, 2> hand_follow,
                std::vector<character::BoneTransform>& out);

  // A foot or a toe kept on the ground (the header comment): its bone, the bones below it
  // (itself included), the points of its mesh in the bone's frame, and the model's forward
  // (+Z) in the bone's frame.
  struct SolePart {
    int bone = -1;
    std::vector<int> bones;
    std::vector<glm::vec3> points;
    glm::vec3 forward{0.0f, 0.0f, 1.0f};
    int aim_bone = -1;      // the bone the part aims at (the foot: its toe), or -1: `forward`
    float max_bend = 0.0f;  // radians
    float bend = 0.0f;      // this frame's, radians
  };
  // Finds both feet's parts after Bind.
  void FindFeet();
  // Turns `part` up about its joint until its mesh is on the ground, as far as it may.
  // `also`: another part whose mesh (as it is posed now) the turn must lift too; it turns
  // with `part` when it is below it. Adds to part.bend.
  void BendUp(SolePart& part, const Heightmap& ground, const SolePart* also);

  std::vector<character::BoneTransform> pose_, animated_;
  std::array<SolePart, 4> soles_;
  std::array<float, 2> sole_drop_{};  // bind: each ankle's height above its foot's lowest vertex
  std::array<float, 2> foot_lift_{};  // left foot, right foot, left toe, right toe
  std::vector<DualQuat> bones_;
  double retarget_us_ = 0.0, skin_us_ = 0.0;
  // Held feet (the header comment): per foot and point (heel, ball), the linear weight and
  // whether the point was down last frame.
  void HoldFeet(const Heightmap* ground);
  void HoldFoot(int side);
  // Holds the points down this frame that were not held yet (and the foot's rotation).
  void RecordHolds(const Heightmap* ground, const bool (&down)[2][2]);
  // How far the lowest vertex of a foot (its toe's included) is above the ground, at most
  // kMaxSoleDrop.
  float SoleGap(int side, const Heightmap& ground) const;
  FeetHold hold_;
  // The feet's turns (the header comment: Feet), each foot and then its toe.
  void TurnFeetUp(const Heightmap& ground);
};

// The scene's pin release time (mocap::CharacterSettings::release_time).
inline const float kHoldRelease = mocap::CharacterSettings{}.release_time;
inline constexpr float kMaxHoldSlip = 0.3f;  // metres
inline constexpr float kMaxSoleDrop = 0.03f;    // metres
inline constexpr float kSoleClearance = 0.005f;  // metres

}  // namespace fabrik
