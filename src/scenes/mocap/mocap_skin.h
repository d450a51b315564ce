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
#include "mocap/clip.h"
#include "mocap/clip_sample.h"
#include "skin/dual_quat.h"

namespace fabrik {

class MocapSkin {
 public:
  // Reads the model at `resolved_path` (`path` as the user wrote it). Fails with one line
  // naming the file and the problem (the library's messages, docs/characters.md: Errors).
  static Result<MocapSkin> Load(const std::string& path, const std::string& resolved_path);

  // The leg-length ratio the clip must be scaled by so that its legs are the character's;
  // fails, naming the problem, when the library cannot retarget the clip onto this model.
  Result<float> ScaleFor(const mocap::Clip& clip) const;
  // Maps `clip` (already scaled by ScaleFor) onto the character; on failure nothing changes.
  Status Bind(const mocap::Clip& clip);

  // Poses the character from the clip's world pose (the scene's final pose) and makes the
  // skinning transforms; times both (retarget_us, skin_us). `hand_follow` (left, right; see
  // character::Retargeter::SetHandFollow) is how far each hand goes where the clip's wrist
  // is rather than in proportion: the scene's reach blends, so a reaching hand reaches its
  // target. False before Bind or on a pose of another size (then nothing changes).
  bool Frame(const mocap::Pose& clip_pose, bool retarget, std::array<float, 2> hand_follow);
  // The same for the clip's pose before the IK (the scene's animated pose), with the hands in
  // proportion: animated_pose(), for the state line's skeleton.animated. Not timed, no
  // skinning transforms; allocates nothing. False as Frame.
  bool FrameAnimated(const mocap::Pose& animated, bool retarget);

  const std::string& path() const { return path_; }
  const character::Model& model() const { return *model_; }
  // Shared with the drawing, which uploads the mesh once per model.
  const std::shared_ptr<const character::Model>& shared_model() const { return model_; }
  // World metres, one per bone: this frame's pose, and its skinning transforms.
  const std::vector<character::BoneTransform>& pose() const { return pose_; }
  const std::vector<DualQuat>& bones() const { return bones_; }
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

  std::vector<character::BoneTransform> pose_, animated_;
  std::vector<DualQuat> bones_;
  double retarget_us_ = 0.0, skin_us_ = 0.0;
};

}  // namespace fabrik
