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
// Balls: the character's ankle follows the clip's, so where the clip pivots on the ball of a
// foot (its heel up, its ball pinned: the boxer), the clip's ball holds but the character's, a
// foot of another length ahead of the same ankle, would swing around it. While SetFootContacts
// says a foot stands on its ball alone, the character's own ball (its toe bone) is held where
// it was when the heel first rose in this contact: each frame the ankle's goal is shifted
// (Retargeter::SetFootShift) by how far, across the ground, the ball moved the frame before,
// at most kMaxBallShift in all. While the foot stays down otherwise (its heel down again) the shift is kept, so the
// foot stays where the ball put it; once the foot is off the ground (or the IK's weight is
// below 1; the shift is applied times the weight) the shift fades out with a time constant of
// kBallShiftFade. The shift moves at most kMaxBallStep a frame (docs/characters.md: The
// human's feet).
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
  // How each foot (left, right) stands this frame, the frame's step in seconds and the IK's
  // weight (0..1: the shift is a correction of the IK, applied in proportion), for the next
  // Frame (the header comment: Balls). Without a call no ball is held.
  enum class FootDown { kAir, kDown, kBallOnly };
  void SetFootContacts(std::array<FootDown, 2> feet, float dt, float weight = 1.0f);
  // Each ankle's goal shift this frame, metres (world; zero while no ball is held).
  const std::array<glm::vec3, 2>& foot_shift() const { return foot_shift_; }

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
  // Balls (the header comment): per foot, whether it is held, where, and the ankle's shift.
  void HoldBalls();
  std::array<FootDown, 2> feet_{FootDown::kAir, FootDown::kAir};
  std::array<bool, 2> ball_held_{};
  std::array<glm::vec3, 2> ball_hold_{}, foot_shift_{};
  float contacts_dt_ = 0.0f;
  float shift_weight_ = 1.0f;
};

inline constexpr float kMaxBallShift = 0.10f;  // metres
inline constexpr float kMaxBallStep = 0.004f;  // metres a frame
inline constexpr float kBallShiftFade = 0.08f;  // seconds

}  // namespace fabrik
