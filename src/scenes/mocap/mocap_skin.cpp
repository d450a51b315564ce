#include "scenes/mocap/mocap_skin.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <glm/geometric.hpp>
#include <glm/gtc/quaternion.hpp>
#include <utility>

#include "character/cpu_skin.h"
#include "character/pose.h"
#include "ik/rotations.h"

namespace fabrik {
namespace {

double MicrosecondsSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - start)
      .count();
}

// The bends are at most these: a toe never folds back onto its foot, nor a foot onto its shin.
constexpr float kMaxToeBend = 1.4f;   // radians, 80 degrees
constexpr float kMaxFootBend = 0.5f;  // radians, 29 degrees
// A part's mesh: the vertices weighted at least this much to its bone and the bones below it.
constexpr float kSoleWeight = 0.5f;

}  // namespace

Result<MocapSkin> MocapSkin::Load(const std::string& path, const std::string& resolved_path) {
  Result<character::Model> model = character::LoadModelFile(resolved_path);
  if (!model) return MakeError(model.error());
  return Share(path, std::make_shared<const character::Model>(std::move(model).value()));
}

MocapSkin MocapSkin::Share(const std::string& path,
                           std::shared_ptr<const character::Model> model) {
  MocapSkin skin;
  skin.path_ = path;
  skin.model_ = std::move(model);
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

Status MocapSkin::Bind(const mocap::Rig& rig) {
  const mocap::Clip& clip = rig.clip;
  auto made = character::Retargeter::Create(model_->skeleton, clip);
  if (!made) return MakeError(path_ + ": cannot play " + clip.source() + ": " + made.error());
  retarget_ = std::move(made).value();
  const character::RetargetJoint& pelvis = retarget_->joints().front();
  pelvis_bone_ = pelvis.bone;
  pelvis_clip_ = pelvis.clip;
  FindFeet();
  // The soles' difference (the header comment), within a tenth of the leg.
  std::vector<character::BoneTransform> bind(model_->skeleton.names.size());
  (void)character::BindPose(model_->skeleton, bind);
  for (int side : {mocap::kLeft, mocap::kRight}) {
    const mocap::Limb& leg = retarget_->character_limbs().legs[side];
    const glm::vec3 hip = bind[leg.chain[0]].translation;
    const glm::vec3 knee = bind[leg.chain[leg.middle]].translation;
    const glm::vec3 ankle = bind[leg.end()].translation;
    const float reach = 0.1f * (glm::distance(hip, knee) + glm::distance(knee, ankle));
    const float lift =
        soles_[side].bone >= 0 ? sole_drop_[side] - rig.contacts.ankle_low[side] : 0.0f;
    foot_lift_[side] = std::clamp(lift, -reach, reach);
    retarget_->SetFootLift(side, foot_lift_[side]);
  }
  return Ok{};
}

void MocapSkin::FindFeet() {
  const character::Skeleton& sk = model_->skeleton;
  std::vector<character::BoneTransform> bind(sk.names.size());
  (void)character::BindPose(sk, bind);
  // Per bone: 1 below (or at) the bone given.
  const auto below = [&sk](int bone) {
    std::vector<char> out(sk.names.size(), 0);
    for (int b = bone; b >= 0 && b < sk.bone_count(); ++b) {
      out[b] = b == bone || (sk.parents[b] >= 0 && out[sk.parents[b]]);
    }
    return out;
  };
  const auto weight = [](const character::Vertex& v, const std::vector<char>& in) {
    float w = 0.0f;
    for (int k = 0; k < character::kMaxInfluences; ++k) w += in[v.bones[k]] ? v.weights[k] : 0.0f;
    return w;
  };
  for (int side : {mocap::kLeft, mocap::kRight}) {
    SolePart& foot = soles_[side];
    SolePart& toe = soles_[2 + side];
    foot = SolePart{};
    toe = SolePart{};
    const mocap::Limb& leg = retarget_->character_limbs().legs[side];
    foot.bone = leg.end();
    foot.max_bend = kMaxFootBend;
    // The toe: the first bone below the ankle on the way to the leg's leaf, off the ankle.
    for (int b = leg.tip; b >= 0 && b != foot.bone; b = sk.parents[b]) {
      if (glm::length(bind[b].translation - bind[foot.bone].translation) > 1e-4f) toe.bone = b;
    }
    toe.max_bend = kMaxToeBend;
    for (SolePart* part : {&foot, &toe}) {
      if (part->bone >= 0) {
        part->forward = glm::inverse(bind[part->bone].rotation) * glm::vec3(0.0f, 0.0f, 1.0f);
      }
    }
    foot.aim_bone = toe.bone;
    // The toe's aim: its first child off its joint, if any.
    for (int b = toe.bone + 1; toe.bone >= 0 && b < sk.bone_count() && toe.aim_bone < 0; ++b) {
      if (sk.parents[b] == toe.bone &&
          glm::length(bind[b].translation - bind[toe.bone].translation) > 1e-4f) {
        toe.aim_bone = b;
      }
    }
    const std::vector<char> in_foot = below(foot.bone);
    const std::vector<char> in_toe =
        toe.bone >= 0 ? below(toe.bone) : std::vector<char>(sk.names.size(), 0);
    for (SolePart* part : {&foot, &toe}) {
      if (part->bone < 0) continue;
      const std::vector<char>& in = part == &foot ? in_foot : in_toe;
      for (int b = 0; b < sk.bone_count(); ++b) {
        if (in[b]) part->bones.push_back(b);
      }
    }
    const character::BoneTransform to_foot = character::Inverse(bind[foot.bone]);
    const character::BoneTransform to_toe =
        toe.bone >= 0 ? character::Inverse(bind[toe.bone]) : character::BoneTransform{};
    for (const character::Vertex& v : model_->vertices) {
      if (toe.bone >= 0 && weight(v, in_toe) >= kSoleWeight) {
        toe.points.push_back(character::Apply(to_toe, v.position));
      } else if (weight(v, in_foot) >= kSoleWeight) {
        foot.points.push_back(character::Apply(to_foot, v.position));
      }
    }
    // The ankle's height above the foot's lowest vertex (toes included), bind pose.
    float lowest = bind[foot.bone].translation.y;
    for (const SolePart* part : {&foot, &toe}) {
      for (const glm::vec3& local : part->points) {
        lowest = std::min(lowest, character::Apply(bind[part->bone], local).y);
      }
    }
    sole_drop_[side] = bind[foot.bone].translation.y - lowest;
    if (foot.points.empty()) foot = SolePart{};
    if (toe.points.empty()) toe = SolePart{};
  }
}

void MocapSkin::BendUp(SolePart& part, const Heightmap& ground, const SolePart* also) {
  if (part.bone < 0) return;
  const glm::vec3 up(0.0f, 1.0f, 0.0f);
  const glm::vec3 joint = pose_[static_cast<std::size_t>(part.bone)].translation;
  // A few rounds: the ground under the deepest point moves as the part turns.
  for (int round = 0; round < 3; ++round) {
    const character::BoneTransform& at_bone = pose_[static_cast<std::size_t>(part.bone)];
    // The part's aim: towards its aim bone, else its bind forward (the model's +Z). The turn
    // is about the level axis square to it, so the part swings up without twisting.
    const glm::vec3 aim = part.aim_bone >= 0
                              ? pose_[static_cast<std::size_t>(part.aim_bone)].translation - joint
                              : at_bone.rotation * part.forward;
    const glm::vec3 side = glm::cross(aim, up);
    if (glm::length(side) < 1e-6f * glm::length(aim)) break;  // aimed straight up or down
    const glm::vec3 axis = glm::normalize(side);              // a positive turn lifts what is ahead
    float deepest = 0.0f;
    glm::vec3 at(0.0f);
    for (const SolePart* of : {static_cast<const SolePart*>(&part), also}) {
      if (of == nullptr || of->bone < 0) continue;
      const character::BoneTransform& frame = pose_[static_cast<std::size_t>(of->bone)];
      for (const glm::vec3& local : of->points) {
        const glm::vec3 p = character::Apply(frame, local);
        if (glm::dot(p - joint, glm::cross(up, axis)) <= 0.0f) continue;  // only what is ahead
        const float depth = ground.HeightAt(p.x, p.z) - p.y;
        if (depth > deepest) deepest = depth, at = p;
      }
    }
    if (deepest <= 1e-5f) break;
    // The deepest point's height above the joint as the part turns by t about the axis:
    // a cos t + b sin t (the axis is level). The smallest t > 0 that lifts it onto the
    // ground's height under it, or the highest it can go.
    const glm::vec3 v = at - joint;
    const glm::vec3 square = v - glm::dot(v, axis) * axis;
    const float along_cos = square.y, along_sin = glm::cross(axis, square).y;
    const float reach = std::hypot(along_cos, along_sin);
    if (reach < 1e-6f || along_sin <= 0.0f) break;  // a turn up would not lift it
    const float peak = std::atan2(along_sin, along_cos);
    const float wanted = std::clamp((v.y + deepest) / reach, -1.0f, 1.0f);
    const float angle = std::min(peak - std::acos(wanted), part.max_bend - part.bend);
    if (angle <= 0.0f) break;
    const glm::quat turn = glm::angleAxis(angle, axis);
    for (int b : part.bones) {
      character::BoneTransform& t = pose_[static_cast<std::size_t>(b)];
      t.rotation = glm::normalize(turn * t.rotation);
      t.translation = joint + turn * (t.translation - joint);
    }
    part.bend += angle;
  }
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

void MocapSkin::TurnFeetUp(const Heightmap& ground) {
  // Each foot for its own mesh, then its toe; where the toe cannot bend far enough, the foot
  // turns further for the toe's mesh too.
  for (int side : {mocap::kLeft, mocap::kRight}) {
    BendUp(soles_[side], ground, nullptr);
    BendUp(soles_[2 + side], ground, nullptr);
    BendUp(soles_[side], ground, &soles_[2 + side]);
  }
}

bool MocapSkin::Frame(const mocap::Pose& clip_pose, bool retarget, std::array<float, 2> hand_follow,
                      const Heightmap* ground) {
  const auto start = std::chrono::steady_clock::now();
  if (!PoseInto(clip_pose, retarget, hand_follow, pose_)) return false;
  for (SolePart& part : soles_) part.bend = 0.0f;
  if (retarget) HoldFeet(ground);
  retarget_us_ = MicrosecondsSince(start);
  const auto skin_start = std::chrono::steady_clock::now();
  (void)character::SkinningTransforms(model_->skeleton, pose_, bones_);
  skin_us_ = MicrosecondsSince(skin_start);
  return true;
}

void MocapSkin::SetFootContacts(std::array<FootDown, 2> feet, float dt, float weight) {
  SetFootContacts(hold_, feet, dt, weight);
}

void MocapSkin::SetFootContacts(FeetHold& hold, std::array<FootDown, 2> feet, float dt,
                                float weight) {
  hold.feet = feet;
  hold.ik_weight = std::isnan(weight) ? 0.0f : std::clamp(weight, 0.0f, 1.0f);
  hold.dt = std::isfinite(dt) ? std::max(dt, 0.0f) : 0.0f;
}

bool MocapSkin::Frame(const mocap::Pose& clip_pose, bool retarget, std::array<float, 2> hand_follow,
                      const Heightmap* ground, FeetHold& hold) {
  // The character's state in place of the skin's own for this frame, then back.
  std::swap(hold_, hold);
  const bool posed = Frame(clip_pose, retarget, hand_follow, ground);
  std::swap(hold_, hold);
  return posed;
}

MocapSkin::FootDown MocapSkin::DownOf(const mocap::FootState& foot) {
  if (!foot.pinned || !(foot.heel || foot.ball)) return FootDown::kAir;
  return foot.heel && foot.ball ? FootDown::kDown
         : foot.heel            ? FootDown::kHeelOnly
                                : FootDown::kBallOnly;
}

void MocapSkin::HoldFeet(const Heightmap* ground) {
  const auto smooth = [](float x) { return x * x * (3.0f - 2.0f * x); };
  const auto point_of = [this](int side, int k) {
    const int bone = k == 0 ? retarget_->character_limbs().legs[side].end() : soles_[2 + side].bone;
    return bone >= 0 ? pose_[static_cast<std::size_t>(bone)].translation : glm::vec3(NAN);
  };
  const float fade = kHoldRelease > 0.0f ? hold_.dt / kHoldRelease : 1.0f;
  bool down[2][2];
  for (int side : {mocap::kLeft, mocap::kRight}) {
    const FootDown f = hold_.feet[side];
    down[side][0] = hold_.ik_weight >= 1.0f && (f == FootDown::kDown || f == FootDown::kHeelOnly);
    down[side][1] = hold_.ik_weight >= 1.0f && soles_[2 + side].bone >= 0 &&
                    (f == FootDown::kDown || f == FootDown::kBallOnly);
    // The foot lowered onto the ground (the sole's drop), easing in over kHoldRelease.
    if (hold_.held[side][0] || hold_.held[side][1]) {
      hold_.drop_ramp[side] = std::min(1.0f, hold_.drop_ramp[side] + fade);
    }
    const glm::vec3 lower(0.0f, hold_.drop[side] * smooth(hold_.drop_ramp[side]), 0.0f);
    hold_.holds[side].heel = hold_.raw[side][0] - lower;
    hold_.holds[side].ball = hold_.raw[side][1] - lower;
    for (int k = 0; k < 2; ++k) {
      float& linear = hold_.linear[side][k];
      const glm::vec3& hold = k == 0 ? hold_.holds[side].heel : hold_.holds[side].ball;
      const glm::vec3 now = point_of(side, k);
      if (down[side][k] && hold_.held[side][k] &&
          glm::length(glm::vec2(hold.x - now.x, hold.z - now.z)) > kMaxHoldSlip) {
        hold_.held[side][k] = false, linear = 0.0f;  // a time jump: held again where it is
      }
      if (!down[side][k]) hold_.held[side][k] = false, linear = std::max(0.0f, linear - fade);
      (k == 0 ? hold_.holds[side].heel_weight : hold_.holds[side].ball_weight) = smooth(linear);
    }
    HoldFoot(side);
  }
  if (ground != nullptr) {
    // A foot held by heel and ball lies as it did when they went down: only its toe bends.
    for (int side : {mocap::kLeft, mocap::kRight}) {
      soles_[side].max_bend =
          kMaxFootBend * (1.0f - hold_.holds[side].heel_weight * hold_.holds[side].ball_weight);
    }
    TurnFeetUp(*ground);
    for (int side : {mocap::kLeft, mocap::kRight}) soles_[side].max_bend = kMaxFootBend;
  }
  // The feet's turns swing a held ball about the ankle: the leg moves the foot back across
  // the ground so that the ball is on its hold again.
  for (int side : {mocap::kLeft, mocap::kRight}) {
    // Not while the heel is down: it holds the foot.
    const float wb = hold_.held[side][0] ? 0.0f : hold_.holds[side].ball_weight;
    if (wb <= 0.0f || soles_[2 + side].bone < 0) continue;
    const glm::vec3 off = wb * (hold_.holds[side].ball - point_of(side, 1));
    if (off.x * off.x + off.z * off.z < 1e-8f) continue;
    const int ankle = retarget_->character_limbs().legs[side].end();
    (void)retarget_->FitLeg(side, pose_[static_cast<std::size_t>(ankle)].translation +
                                      glm::vec3(off.x, 0.0f, off.z), pose_);
  }
  RecordHolds(ground, down);
  hold_.dt = 0.0f;
}

void MocapSkin::RecordHolds(const Heightmap* ground, const bool (&down)[2][2]) {
  const auto smooth = [](float x) { return x * x * (3.0f - 2.0f * x); };
  const auto point_of = [this](int side, int k) {
    const int bone = k == 0 ? retarget_->character_limbs().legs[side].end() : soles_[2 + side].bone;
    return bone >= 0 ? pose_[static_cast<std::size_t>(bone)].translation : glm::vec3(NAN);
  };
  // A point down this frame is held where it is now, in full at once.
  bool fresh[2] = {false, false};
  for (int side : {mocap::kLeft, mocap::kRight}) {
    const bool new_contact = !hold_.held[side][0] && !hold_.held[side][1];
    for (int k = 0; k < 2; ++k) {
      if (!down[side][k] || hold_.held[side][k]) continue;
      if (new_contact && !fresh[side]) {
        // A new contact: points still letting go keep where they are held; the sole's drop
        // is measured afresh and eases in from none.
        const float lowered = hold_.drop[side] * smooth(hold_.drop_ramp[side]);
        for (glm::vec3& raw : hold_.raw[side]) raw.y -= lowered;
        hold_.drop[side] = ground != nullptr && down[side][0]
                               ? std::max(0.0f, SoleGap(side, *ground) - kSoleClearance)
                               : 0.0f;
        hold_.drop_ramp[side] = 0.0f;
      }
      fresh[side] = true;
      hold_.held[side][k] = true;
      hold_.linear[side][k] = 1.0f;
      const glm::vec3 lowered(0.0f, hold_.drop[side] * smooth(hold_.drop_ramp[side]), 0.0f);
      hold_.raw[side][k] = point_of(side, k) + lowered;
      (k == 0 ? hold_.holds[side].heel : hold_.holds[side].ball) = point_of(side, k);
      (k == 0 ? hold_.holds[side].heel_weight : hold_.holds[side].ball_weight) = 1.0f;
    }
  }
  for (int side : {mocap::kLeft, mocap::kRight}) {
    const bool both = hold_.held[side][0] && hold_.held[side][1];
    if (both && (fresh[side] || !hold_.foot_held[side])) {
      hold_.holds[side].foot =
          pose_[static_cast<std::size_t>(retarget_->character_limbs().legs[side].end())].rotation;
    }
    // Kept while either point's weight lasts (both fade), until both are down afresh.
    if (both) hold_.foot_held[side] = true;
    if (hold_.holds[side].heel_weight <= 0.0f || hold_.holds[side].ball_weight <= 0.0f) {
      hold_.foot_held[side] = false;
    }
  }
}

float MocapSkin::SoleGap(int side, const Heightmap& ground) const {
  float lowest = kMaxSoleDrop;
  for (const SolePart* part : {&soles_[side], &soles_[2 + side]}) {
    if (part->bone < 0) continue;
    const character::BoneTransform& frame = pose_[static_cast<std::size_t>(part->bone)];
    for (const glm::vec3& local : part->points) {
      const glm::vec3 p = character::Apply(frame, local);
      lowest = std::min(lowest, p.y - ground.HeightAt(p.x, p.z));
    }
  }
  return std::max(lowest, 0.0f);
}

void MocapSkin::HoldFoot(int side) {
  const FootHold& hold = hold_.holds[side];
  const int ankle = retarget_->character_limbs().legs[side].end();
  const int toe = soles_[2 + side].bone;
  const float wh = hold.heel_weight, wb = toe >= 0 ? hold.ball_weight : 0.0f;
  if (wh <= 0.0f && wb <= 0.0f) return;
  const auto at = [this](int bone) { return pose_[static_cast<std::size_t>(bone)].translation; };
  // The ankle where the ball is held with the foot as the retargeting turned it, then towards
  // the held heel.
  const glm::vec3 on_ball = at(ankle) + wb * (hold.ball - (toe >= 0 ? at(toe) : at(ankle)));
  glm::vec3 goal = on_ball + wh * (hold.heel - on_ball);
  if (!hold_.held[side][0] && toe >= 0) {
    // The heel up (its hold letting go): the ankle a foot's length from the held ball, so
    // that the turn below puts the ball on it.
    const glm::vec3 out = goal - hold.ball;
    const float length = glm::distance(at(toe), at(ankle)), now = glm::length(out);
    if (now > 1e-6f) goal = glm::mix(goal, hold.ball + out * (length / now), wb);
  }
  (void)retarget_->FitLeg(side, goal, pose_);
  if (wb <= 0.0f || soles_[side].bone != ankle) return;
  const glm::vec3 joint = at(ankle);
  const auto turn_foot = [this, side, &joint](const glm::quat& turn) {
    for (int b : soles_[side].bones) {
      character::BoneTransform& t = pose_[static_cast<std::size_t>(b)];
      t.rotation = glm::normalize(turn * t.rotation);
      t.translation = joint + turn * (t.translation - joint);
    }
  };
  const glm::quat none(1.0f, 0.0f, 0.0f, 0.0f);
  // Both points down: the foot's whole rotation as it was when the second went down.
  const float both = hold_.foot_held[side] ? wh * wb : 0.0f;
  if (both > 0.0f) {
    const glm::quat now = pose_[static_cast<std::size_t>(ankle)].rotation;
    turn_foot(glm::slerp(none, glm::normalize(hold.foot * glm::inverse(now)), both));
  }
  // The foot turned about the ankle by the smallest rotation pointing it at the held ball (the
  // rest of the way, where the rotation is not kept in full).
  const glm::vec3 from = at(toe) - joint, to = hold.ball - joint;
  if (glm::length(from) < 1e-6f || glm::length(to) < 1e-6f) return;
  const glm::vec3 f = glm::normalize(from);
  glm::vec3 square = glm::cross(f, glm::vec3(0.0f, 1.0f, 0.0f));
  if (glm::length(square) < 1e-6f) square = glm::cross(f, glm::vec3(1.0f, 0.0f, 0.0f));
  turn_foot(glm::slerp(none, MinimalRotation(f, glm::normalize(to), glm::normalize(square)),
                       wb * (1.0f - both)));
}

bool MocapSkin::FrameAnimated(const mocap::Pose& animated, bool retarget) {
  return PoseInto(animated, retarget, {0.0f, 0.0f}, animated_);
}

}  // namespace fabrik
