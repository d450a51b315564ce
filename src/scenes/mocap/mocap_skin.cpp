#include "scenes/mocap/mocap_skin.h"

#include <chrono>

#include "character/cpu_skin.h"
#include "character/pose.h"

namespace fabrik {
namespace {

double MicrosecondsSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - start)
      .count();
}

}  // namespace

Result<MocapSkin> MocapSkin::Load(const std::string& path, const std::string& resolved_path) {
  Result<character::Model> model = character::LoadModelFile(resolved_path);
  if (!model) return MakeError(model.error());
  MocapSkin skin;
  skin.path_ = path;
  skin.model_ = std::make_shared<const character::Model>(std::move(model).value());
  const auto bones = static_cast<std::size_t>(skin.model_->skeleton.bone_count());
  skin.pose_.resize(bones);
  skin.animated_.resize(bones);
  skin.bones_.resize(bones);
  return skin;
}

Result<float> MocapSkin::ScaleFor(const mocap::Clip& clip) const {
  auto made = character::Retargeter::Create(model_->skeleton, clip);
  if (!made) return MakeError(path_ + ": cannot play " + clip.source() + ": " + made.error());
  return made.value().scale();
}

Status MocapSkin::Bind(const mocap::Clip& clip) {
  auto made = character::Retargeter::Create(model_->skeleton, clip);
  if (!made) return MakeError(path_ + ": cannot play " + clip.source() + ": " + made.error());
  retarget_ = std::move(made).value();
  const character::RetargetJoint& pelvis = retarget_->joints().front();
  pelvis_bone_ = pelvis.bone;
  pelvis_clip_ = pelvis.clip;
  return Ok{};
}

bool MocapSkin::PoseInto(const mocap::Pose& clip_pose, bool retarget,
                         std::array<float, 2> hand_follow,
                         std::vector<character::BoneTransform>& out) {
  if (!retarget_ || pelvis_clip_ >= clip_pose.joint_count()) return false;
  retarget_->SetHandFollow(mocap::kLeft, hand_follow[0]);
  retarget_->SetHandFollow(mocap::kRight, hand_follow[1]);
  const bool posed =
      retarget ? retarget_->Apply(clip_pose, out) : character::BindPose(model_->skeleton, out);
  if (!posed) return false;
  // The character's pelvis onto the clip's (the header comment).
  const glm::vec3 shift = clip_pose.positions[static_cast<std::size_t>(pelvis_clip_)] -
                          out[static_cast<std::size_t>(pelvis_bone_)].translation;
  for (character::BoneTransform& t : out) t.translation += shift;
  return true;
}

bool MocapSkin::Frame(const mocap::Pose& clip_pose, bool retarget,
                      std::array<float, 2> hand_follow) {
  const auto start = std::chrono::steady_clock::now();
  if (!PoseInto(clip_pose, retarget, hand_follow, pose_)) return false;
  retarget_us_ = MicrosecondsSince(start);
  const auto skin_start = std::chrono::steady_clock::now();
  (void)character::SkinningTransforms(model_->skeleton, pose_, bones_);
  skin_us_ = MicrosecondsSince(skin_start);
  return true;
}

bool MocapSkin::FrameAnimated(const mocap::Pose& animated, bool retarget) {
  return PoseInto(animated, retarget, {0.0f, 0.0f}, animated_);
}

}  // namespace fabrik
