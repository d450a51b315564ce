// character.cpp - see character.h. The stages run in the order the header lists them.
#include "mocap/character.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <glm/geometric.hpp>

#include "ik/fabrik.h"
#include "mocap/pose_edit.h"

namespace fabrik::mocap {
namespace {

constexpr glm::vec3 kUp(0.0f, 1.0f, 0.0f);
constexpr float kMaxTargetCoordinate = 1e4f;
// A time step longer than this (or backwards) is a jump: pins and smoothing start afresh.
constexpr float kJumpSeconds = 0.25f;
// The pelvis keeps each hip within this share of its leg's length from the foot's target:
// FABRIK converges slowly on a nearly straight chain, and a grounded leg looks locked if
// straight.
constexpr float kLegReach = 0.95f;

float Smoothstep(float b) { return b * b * (3.0f - 2.0f * b); }

bool FiniteTarget(const glm::vec3& v) {
  for (int k = 0; k < 3; ++k) {
    if (!std::isfinite(v[k]) || std::fabs(v[k]) > kMaxTargetCoordinate) return false;
  }
  return true;
}

Result<Chain> RestChain(const Clip& clip, const Limb& limb) {
  std::vector<glm::vec3> joints;
  const glm::vec3 base = clip.rest_positions()[limb.chain[0]];
  for (int j : limb.chain) joints.push_back(clip.rest_positions()[j] - base);
  return Chain::FromJoints(std::move(joints));
}

}  // namespace

Result<std::shared_ptr<const Rig>> MakeRig(Clip clip, const ContactSettings& contacts) {
  Result<Limbs> limbs = FindLimbs(clip);
  if (!limbs) return MakeError(clip.source() + ": " + limbs.error());
  auto rig = std::make_shared<Rig>();
  rig->contacts = DetectContacts(clip, limbs.value(), contacts);
  rig->limbs = std::move(limbs.value());
  rig->clip = std::move(clip);
  return std::shared_ptr<const Rig>(std::move(rig));
}

Result<Character> Character::Create(std::shared_ptr<const Rig> rig,
                                    const CharacterSettings& settings) {
  if (!rig) return MakeError("no rig");
  if (!(settings.tolerance > 0.0f) || !std::isfinite(settings.tolerance) ||
      settings.max_iterations < 1 || !(settings.pelvis_limit >= 0.0f) ||
      !(settings.release_time >= 0.0f) || !(settings.reach_blend_time > 0.0f) ||
      !(settings.pelvis_smoothing >= 0.0f) || !(settings.max_gaze_angle >= 0.0f) ||
      !(settings.neck_share >= 0.0f && settings.neck_share <= 1.0f)) {
    return MakeError("character settings out of range");
  }
  const Limbs& limbs = rig->limbs;
  std::array<Result<Chain>, 2> legs{RestChain(rig->clip, limbs.legs[kLeft]),
                                    RestChain(rig->clip, limbs.legs[kRight])};
  for (const auto& leg : legs) {
    if (!leg) return MakeError("leg chain: " + leg.error());
  }
  const float unit[2] = {1.0f, 1.0f};
  std::array<Result<Chain>, 2> arms{Chain::Straight(glm::vec3(0.0f), kUp, unit),
                                    Chain::Straight(glm::vec3(0.0f), kUp, unit)};
  if (limbs.has_arms) {
    arms = {RestChain(rig->clip, limbs.arms[kLeft]), RestChain(rig->clip, limbs.arms[kRight])};
    for (const auto& arm : arms) {
      if (!arm) return MakeError("arm chain: " + arm.error());
    }
  }
  return Character(std::move(rig), settings,
                   {std::move(legs[0].value()), std::move(legs[1].value())},
                   {std::move(arms[0].value()), std::move(arms[1].value())});
}

Character::Character(std::shared_ptr<const Rig> rig, const CharacterSettings& settings,
                     std::array<Chain, 2> legs, std::array<Chain, 2> arms)
    : rig_(std::move(rig)),
      settings_(settings),
      leg_chain_(std::move(legs)),
      arm_chain_(std::move(arms)) {
  solve_.tolerance = settings.tolerance;
  solve_.max_iterations = settings.max_iterations;
  const Clip& clip = rig_->clip;
  animated_.Resize(clip.joint_count());
  final_.Resize(clip.joint_count());
  std::size_t arm_joints = 0;
  for (int side : {kLeft, kRight}) {
    leg_local_[side].resize(leg_chain_[side].joint_count());
    leg_solved_[side].resize(leg_chain_[side].joint_count());
    leg_length_[side] = leg_chain_[side].total_length();
    feet_[side].joint = rig_->limbs.legs[side].end();
    arm_joints = std::max(arm_joints, arm_chain_[side].joint_count());
  }
  arm_local_.resize(arm_joints);
  SetPlacement(Placement{});
}

void Character::SetPlacement(const Placement& placement) {
  placement_ = placement;
  if (!std::isfinite(placement_.x)) placement_.x = 0.0f;
  if (!std::isfinite(placement_.z)) placement_.z = 0.0f;
  if (!std::isfinite(placement_.heading)) placement_.heading = 0.0f;
  heading_ = glm::angleAxis(placement_.heading, kUp);
  const glm::vec3 root0 = rig_->clip.translation(0, 0);
  origin_ = glm::vec3(root0.x, rig_->contacts.floor, root0.z);
  first_frame_ = true;
}

Status Character::SetIkWeight(float weight) {
  if (!(weight >= 0.0f && weight <= 1.0f)) {
    return MakeError("ik weight must be in [0, 1], got " + std::to_string(weight));
  }
  weight_ = weight;
  return Ok{};
}

Status Character::SetReachTarget(Side hand, const glm::vec3& target) {
  if (!rig_->limbs.has_arms) return MakeError("this skeleton has no arms to reach with");
  if (!FiniteTarget(target)) return MakeError("reach target must be finite, within 1e4 m");
  reach_[hand] = target;
  reach_last_[hand] = target;
  return Ok{};
}

void Character::ClearReachTarget(Side hand) { reach_[hand].reset(); }

std::optional<glm::vec3> Character::reach_target(Side hand) const { return reach_[hand]; }

Status Character::SetLookTarget(const glm::vec3& target) {
  if (!rig_->limbs.has_head) return MakeError("this skeleton has no head to turn");
  if (!FiniteTarget(target)) return MakeError("look point must be finite, within 1e4 m");
  look_ = target;
  look_last_ = target;
  return Ok{};
}

void Character::ClearLookTarget() { look_.reset(); }

std::optional<glm::vec3> Character::look_target() const { return look_; }

float Character::Ground(float x, float z) const {
  return terrain_ != nullptr ? terrain_->HeightAt(x, z) : 0.0f;
}

glm::vec3 Character::Place(const glm::vec3& clip_point) const {
  return heading_ * (clip_point - origin_) + glm::vec3(placement_.x, 0.0f, placement_.z);
}

void Character::Update(float time, float dt) {
  BeginFrame(time, dt);
  for (int side : {kLeft, kRight}) {
    auto& solved = leg_solved_[side];
    std::copy(leg_local_[side].begin(), leg_local_[side].end(), solved.begin());
    if (!leg_active_[side]) continue;
    Chain& chain = leg_chain_[side];
    if (!chain.SetPose(leg_local_[side])) continue;
    const SolveResult r = SolveFabrik(chain, leg_target_local_[side], solve_);
    if (!r.ok) continue;
    std::copy(chain.joints().begin(), chain.joints().end(), solved.begin());
  }
  EndFrame(leg_solved_[kLeft], leg_solved_[kRight]);
}

void Character::BeginFrame(float time, float dt) {
  SamplePose(time);
  PrepareLegs(dt);
}

void Character::SamplePose(float time) {
  const Clip& clip = rig_->clip;
  time = std::isfinite(time) ? std::clamp(time, 0.0f, clip.duration()) : 0.0f;
  jumped_ = first_frame_ || time < last_time_ || time - last_time_ > kJumpSeconds;
  time_ = time;
  // The clip placed in one pass: turned by the heading about the clip's floor point under
  // its first root position, moved onto (x, z), its floor on the ground under the root.
  const glm::vec3 root = Place(SampleRootTranslation(clip, time));
  ground_ = Ground(root.x, root.z);
  const glm::vec3 shift = glm::vec3(placement_.x, ground_, placement_.z) - heading_ * origin_;
  SampleClipPlaced(clip, time, heading_, shift, animated_);
}

void Character::PrepareLegs(float dt) {
  const Clip& clip = rig_->clip;
  if (!std::isfinite(dt) || dt < 0.0f) dt = 0.0f;
  const auto start = std::chrono::steady_clock::now();
  // Reach and gaze blends move towards on (1) or off (0) at 1 / reach_blend_time per second.
  const float step = dt / settings_.reach_blend_time;
  for (int side : {kLeft, kRight}) {
    reach_blend_[side] = std::clamp(reach_blend_[side] + (reach_[side] ? step : -step), 0.0f, 1.0f);
  }
  gaze_blend_ = std::clamp(gaze_blend_ + (look_ ? step : -step), 0.0f, 1.0f);
  UpdateFeet(time_, dt, jumped_);
  SolvePelvis(dt, jumped_);

  const glm::vec3 lift(0.0f, pelvis_applied_, 0.0f);
  for (int j = 0; j < clip.joint_count(); ++j) {
    final_.positions[j] = animated_.positions[j] + lift;
    final_.rotations[j] = animated_.rotations[j];
  }
  for (int side : {kLeft, kRight}) {
    const Limb& leg = rig_->limbs.legs[side];
    const glm::vec3 hip = final_.positions[leg.chain[0]];
    for (std::size_t i = 0; i < leg.chain.size(); ++i) {
      leg_local_[side][i] = final_.positions[leg.chain[i]] - hip;
    }
    leg_active_[side] = weight_ > 0.0f;
    const glm::vec3 ankle = leg_local_[side].back();
    leg_target_local_[side] = ankle + (feet_[side].target - hip - ankle) * weight_;
    leg_pole_[side] = leg_local_[side][leg.middle];
  }
  last_time_ = time_;
  first_frame_ = false;
  last_ik_seconds_ =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

void Character::UpdateFeet(float time, float dt, bool jumped) {
  const Rig& rig = *rig_;
  for (int side : {kLeft, kRight}) {
    const Limb& leg = rig.limbs.legs[side];
    FootState& foot = feet_[side];
    const glm::vec3 a = animated_.positions[leg.end()];
    const float h = a.y - ground_;  // the clip's height above its floor
    ankle_height_[side] = h;
    // Where the clip puts the foot, carried onto the terrain under it.
    const glm::vec3 free_target(a.x, Ground(a.x, a.z) + h, a.z);
    foot.contact = rig.contacts.At(side, time, rig.clip.frame_time());
    if (jumped) {
      foot.pinned = false;
      release_left_[side] = 0.0f;
    }
    const auto release = [&] {
      foot.pinned = false;
      release_offset_[side] = foot.pin - free_target;
      release_left_[side] = settings_.release_time;
    };
    if (foot.contact && !foot.pinned) {
      foot.pinned = true;
      foot.pin = free_target;
    } else if (!foot.contact && foot.pinned) {
      release();
    }
    if (foot.pinned) {
      // A pin the leg cannot reach whatever the pelvis does (the clip's foot has travelled
      // farther than the leg is long) is let go rather than dragged.
      const glm::vec3 hip = animated_.positions[leg.chain[0]];
      const glm::vec2 horizontal(foot.pin.x - hip.x, foot.pin.z - hip.z);
      if (glm::length(horizontal) > kLegReach * leg_length_[side]) release();
    }
    glm::vec3 target = free_target;
    if (foot.pinned) {
      target = foot.pin;
    } else if (release_left_[side] > 0.0f && settings_.release_time > 0.0f) {
      target += release_offset_[side] * (release_left_[side] / settings_.release_time);
      release_left_[side] = std::max(0.0f, release_left_[side] - dt);
      target.y = std::max(target.y, Ground(target.x, target.z) + rig.contacts.ankle_low[side]);
    }
    foot.target = target;
  }
}

void Character::SolvePelvis(float dt, bool jumped) {
  const Limbs& limbs = rig_->limbs;
  float desired = 1e30f;
  for (int side : {kLeft, kRight}) {
    desired =
        std::min(desired, feet_[side].target.y - animated_.positions[limbs.legs[side].end()].y);
  }
  if (jumped || settings_.pelvis_smoothing <= 0.0f) {
    pelvis_smoothed_ = desired;
  } else {
    pelvis_smoothed_ +=
        (desired - pelvis_smoothed_) * (1.0f - std::exp(-dt / settings_.pelvis_smoothing));
  }
  float d = pelvis_smoothed_;
  for (int side : {kLeft, kRight}) {
    // Highest hip height from which the leg still reaches (leaving it a little bent).
    const glm::vec3 v = feet_[side].target - animated_.positions[limbs.legs[side].chain[0]];
    const float reach = kLegReach * leg_length_[side];
    const float horizontal2 = v.x * v.x + v.z * v.z;
    if (horizontal2 < reach * reach) d = std::min(d, v.y + std::sqrt(reach * reach - horizontal2));
  }
  const float limit = settings_.pelvis_limit * std::min(leg_length_[kLeft], leg_length_[kRight]);
  pelvis_applied_ = std::clamp(d, -limit, limit) * weight_;
}

void Character::EndFrame(std::span<const glm::vec3> left_leg,
                         std::span<const glm::vec3> right_leg) {
  const auto start = std::chrono::steady_clock::now();
  const Clip& clip = rig_->clip;
  for (int side : {kLeft, kRight}) {
    if (!leg_active_[side]) continue;
    const std::span<const glm::vec3> in = side == kLeft ? left_leg : right_leg;
    auto& solved = leg_solved_[side];
    if (in.size() != solved.size()) continue;
    if (in.data() != solved.data()) std::copy(in.begin(), in.end(), solved.begin());
    const Limb& leg = rig_->limbs.legs[side];
    ApplyLimb(leg, solved, leg_pole_[side]);
    // The foot keeps the clip's orientation.
    const int a = leg.end();
    const glm::quat back = animated_.rotations[a] * glm::inverse(final_.rotations[a]);
    RotateJoints(final_, a, clip.subtree_end(a), back, final_.positions[a]);
    KeepToeAboveGround(static_cast<Side>(side));
  }
  for (int side : {kLeft, kRight}) SolveArm(static_cast<Side>(side));
  TurnHead();
  last_ik_seconds_ +=
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

void Character::ApplyLimb(const Limb& limb, std::span<glm::vec3> solved, const glm::vec3& pole) {
  const std::size_t n = solved.size();
  const glm::vec3 end = solved[n - 1];
  const float reach = glm::length(end);
  if (reach > 1e-6f) {
    // Turn the joints between the ends about the root-end line so the middle joint lies on
    // the pole's side: FABRIK keeps the lengths, this keeps the clip's bend.
    const glm::vec3 axis = end / reach;
    const glm::vec3 m = solved[limb.middle], p = pole;
    const glm::vec3 m_perp = m - axis * glm::dot(m, axis);
    const glm::vec3 p_perp = p - axis * glm::dot(p, axis);
    if (glm::length(m_perp) > 1e-6f && glm::length(p_perp) > 1e-6f) {
      const glm::quat q = ShortestArc(m_perp, p_perp);
      for (std::size_t i = 1; i + 1 < n; ++i) solved[i] = q * solved[i];
    }
  }
  for (std::size_t i = 0; i + 1 < n; ++i) {
    const int j = limb.chain[i];
    const glm::vec3 current = final_.positions[limb.chain[i + 1]] - final_.positions[j];
    const glm::quat q = ShortestArc(current, solved[i + 1] - solved[i]);
    RotateJoints(final_, j, rig_->clip.subtree_end(j), q, final_.positions[j]);
  }
}

void Character::KeepToeAboveGround(Side side) {
  const Limb& leg = rig_->limbs.legs[side];
  const int a = leg.end(), tip = leg.tip;
  if (tip == a || !(weight_ > 0.0f)) return;
  const glm::vec3 ankle = final_.positions[a];
  // Pitch the foot about the ankle until the tip is back at its least clip height above the
  // ground (or as high as the foot's length allows). Pitching moves the tip along the slope,
  // where the ground has another height: a few rounds settle it.
  for (int round = 0; round < 4; ++round) {
    const glm::vec3 t = final_.positions[tip];
    const float floor = Ground(t.x, t.z) + rig_->contacts.tip_low[side];
    const glm::vec3 f = t - ankle;
    const float length = glm::length(f);
    const glm::vec2 horizontal(f.x, f.z);
    if (t.y >= floor || length < 1e-6f || glm::length(horizontal) < 1e-6f) return;
    const float s = std::clamp((floor - ankle.y) / length, -1.0f, 1.0f);
    const glm::vec2 dir = glm::normalize(horizontal) * (std::sqrt(1.0f - s * s) * length);
    const glm::quat q = ShortestArc(f, glm::vec3(dir.x, s * length, dir.y));
    RotateJoints(final_, a, rig_->clip.subtree_end(a), ScaleRotation(q, weight_), ankle);
  }
}

void Character::SolveArm(Side side) {
  const float e = Smoothstep(reach_blend_[side]) * weight_;
  if (!rig_->limbs.has_arms || !(e > 0.0f)) return;
  const Limb& arm = rig_->limbs.arms[side];
  const std::size_t n = arm.chain.size();
  const std::span<glm::vec3> local(arm_local_.data(), n);
  const glm::vec3 shoulder = final_.positions[arm.chain[0]];
  for (std::size_t i = 0; i < n; ++i) local[i] = final_.positions[arm.chain[i]] - shoulder;
  const glm::vec3 pole = local[arm.middle];
  const glm::vec3 wrist = local[n - 1];
  const glm::vec3 target = wrist + (reach_last_[side] - shoulder - wrist) * e;
  Chain& chain = arm_chain_[side];
  if (!chain.SetPose(local)) return;
  if (!SolveFabrik(chain, target, solve_).ok) return;
  std::copy(chain.joints().begin(), chain.joints().end(), local.begin());
  ApplyLimb(arm, local, pole);
}

void Character::TurnHead() {
  const Limbs& limbs = rig_->limbs;
  const float e = Smoothstep(gaze_blend_) * weight_;
  if (!limbs.has_head || !(e > 0.0f)) return;
  const glm::vec3 head = final_.positions[limbs.head];
  const glm::vec3 forward = final_.rotations[limbs.head] * glm::vec3(0.0f, 0.0f, 1.0f);
  const glm::vec3 to = look_last_ - head;
  if (glm::length(to) < 1e-4f) return;
  const glm::quat q =
      ScaleRotation(LimitRotation(ShortestArc(forward, to), settings_.max_gaze_angle), e);
  const Clip& clip = rig_->clip;
  glm::quat head_part = q;
  if (limbs.neck != limbs.head) {
    const glm::quat neck_part = ScaleRotation(q, settings_.neck_share);
    RotateJoints(final_, limbs.neck, clip.subtree_end(limbs.neck), neck_part,
                 final_.positions[limbs.neck]);
    head_part = ScaleRotation(q, 1.0f - settings_.neck_share);
  }
  RotateJoints(final_, limbs.head, clip.subtree_end(limbs.head), head_part,
               final_.positions[limbs.head]);
}

}  // namespace fabrik::mocap
