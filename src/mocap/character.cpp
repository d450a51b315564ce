// character.cpp - see character.h. The stages run in the order the header lists them; the pop
// limit is in character_pop.cpp.
#include "mocap/character.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <glm/geometric.hpp>
#include <glm/matrix.hpp>
#include <limits>
#include <numbers>

#include "ik/fabrik.h"
#include "mocap/pose_edit.h"

namespace fabrik::mocap {
namespace {

constexpr glm::vec3 kUp(0.0f, 1.0f, 0.0f);
constexpr float kMaxTargetCoordinate = 1e4f;
// A time step longer than this (or backwards) is a jump: pins and smoothing start afresh.
constexpr float kJumpSeconds = 0.25f;
// So is a frame in which a joint of the clip moves farther than this share of the rest
// height, or than kClipJumpSpeed rest heights a second over the time step if that is more.
constexpr float kClipJumpShare = 0.25f;
constexpr float kClipJumpSpeed = 10.0f;
// A foot turns towards the ground's normal in full at its lowest clip height, not at all this
// share of the rest height above it.
constexpr float kTiltHeight = 0.04f;
// The fastest a foot turns to lie from its heel pin to its ball pin, or back, radians a second
// (fast enough to hold a flat foot the clip turns; the pop limit then bounds its pops).
constexpr float kMaxFootTurnSpeed = 8.0f;
// The fastest the gaze's turn of neck and head changes, radians a second, and the share of
// the pop budget (CharacterSettings::max_pop_speed) it may move the head's tip with.
constexpr float kMaxGazeTurnSpeed = 3.0f;
constexpr float kGazePopShare = 0.8f;
// The pelvis keeps each hip within this share of its leg's length from the foot's target:
// FABRIK converges slowly on a nearly straight chain, and a grounded leg looks locked if
// straight.
constexpr float kLegReach = 0.95f;
// The smoothed pelvis is then held below where a leg would need more than this share.
constexpr float kLegReachHard = 0.98f;
// The body is lowered no further than leaves a leg in contact this share of the clip's own
// hip-ankle distance (SolvePelvis).
constexpr float kFoldShare = 0.95f;

// A limb whose middle joint lies off its root-end line by less than this share of the
// root-middle distance counts as (nearly) straight: its bend plane is the remembered one.
constexpr float kStraightShare = 0.08f;
// From this share on, the clip's bend direction is used as it is (BendDirection).
constexpr float kBentShare = 0.3f;
// The time constant with which the middle joint's last correction fades from where the bend
// puts it (TurnToBend), seconds.
constexpr float kBendCorrectionTime = 0.2f;
// The share of the pop budget a foot's turn from the clip's orientation may use at the toe tip
// in a frame (TurnFoot); the pop limit holds the turn back further where the ankle moves too
// (EndFrame). 0.3 held a flat foot too slowly to keep both its points while the clip turned it.
constexpr float kEndTurnShare = 1.0f;
// The same for a foot turning about its ball, the heel up (TurnFoot).
constexpr float kBallTurnShare = 0.5f;
// The bend given to a straight chain before FABRIK solves it, radians.
constexpr float kPreBend = 0.15f;

float Smoothstep(float b) { return b * b * (3.0f - 2.0f * b); }

// Some unit vector perpendicular to unit `v`.
glm::vec3 Perpendicular(const glm::vec3& v) {
  const glm::vec3 c = std::fabs(v.x) < 0.9f ? glm::vec3(1, 0, 0) : glm::vec3(0, 0, 1);
  return glm::normalize(glm::cross(v, c));
}

// Bends a (nearly) straight chain, root at the origin, slightly towards `bend` at its middle
// joint, keeping every bone's length: the joints after the root turn about the root by
// kPreBend, those after the middle back about the middle by twice that. FABRIK then solves
// in the plane of `bend` instead of along the line.
void PreBend(std::span<glm::vec3> chain, int middle, const glm::vec3& bend) {
  const std::size_t n = chain.size();
  const glm::vec3 end = chain[n - 1];
  const float reach = glm::length(end);
  if (reach < 1e-6f || middle < 1 || static_cast<std::size_t>(middle) + 1 >= n) return;
  const glm::vec3 axis = glm::cross(end / reach, bend);
  if (glm::length(axis) < 1e-4f) return;
  const glm::quat out = glm::angleAxis(kPreBend, glm::normalize(axis));
  for (std::size_t i = 1; i < n; ++i) chain[i] = out * chain[i];
  const glm::quat back = glm::angleAxis(-2.0f * kPreBend, glm::normalize(axis));
  const glm::vec3 pivot = chain[static_cast<std::size_t>(middle)];
  for (std::size_t i = static_cast<std::size_t>(middle) + 1; i < n; ++i) {
    chain[i] = pivot + back * (chain[i] - pivot);
  }
}

// The turn WriteLimb gives the joints below a chain's end when it lays the chain `from` along
// `to` (both root-relative): each bone's shortest arc, in turn from the root.
glm::quat ChainTurn(std::span<const glm::vec3> from, std::span<const glm::vec3> to) {
  glm::quat q(1, 0, 0, 0);
  for (std::size_t i = 0; i + 1 < from.size() && i + 1 < to.size(); ++i) {
    q = ShortestArc(q * (from[i + 1] - from[i]), to[i + 1] - to[i]) * q;
  }
  return glm::normalize(q);
}

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
      !(settings.max_pop_speed > 0.0f) ||
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
  previous_animated_.resize(static_cast<std::size_t>(clip.joint_count()));
  last_final_.resize(previous_animated_.size());
  last_animated_.resize(previous_animated_.size());
  std::size_t arm_joints = 0;
  for (int side : {kLeft, kRight}) {
    leg_local_[side].resize(leg_chain_[side].joint_count());
    leg_solved_[side].resize(leg_chain_[side].joint_count());
    leg_length_[side] = leg_chain_[side].total_length();
    feet_[side].joint = rig_->limbs.legs[side].end();
    arm_joints = std::max(arm_joints, arm_chain_[side].joint_count());
  }
  arm_local_.resize(arm_joints);
  arm_clip_.resize(arm_joints);
  for (auto& q : hand_turn_) q = glm::quat(1, 0, 0, 0);
  limit_trial_.resize(std::max(
      arm_joints, std::max(leg_chain_[kLeft].joint_count(), leg_chain_[kRight].joint_count())));
  limit_best_.resize(limit_trial_.size());
  limit_alt_.resize(limit_trial_.size());
  limit_lift_.resize(limit_trial_.size());
  // Bend planes before any frame: the rest pose's where its limb is bent, else the knees
  // forward (+Z) and the elbows back (-Z), as a BVH character stands (clip.h).
  for (int id = 0; id < 4; ++id) {
    const bool leg = id < 2;
    const Limb& limb = leg ? rig_->limbs.legs[id] : rig_->limbs.arms[id - 2];
    bend_memory_[id] = glm::vec3(0.0f, 0.0f, leg ? 1.0f : -1.0f);
    if (!leg && !rig_->limbs.has_arms) continue;
    const auto rest = clip.rest_positions();
    const glm::vec3 root = rest[limb.chain[0]];
    const glm::vec3 end = rest[limb.end()] - root;
    const glm::vec3 m = rest[limb.chain[limb.middle]] - root;
    if (glm::length(end) < 1e-6f) continue;
    const glm::vec3 axis = glm::normalize(end);
    const glm::vec3 m_perp = m - axis * glm::dot(m, axis);
    if (glm::length(m_perp) >= kStraightShare * glm::length(m)) {
      bend_memory_[id] = glm::normalize(m_perp);
    }
  }
  for (auto& q : foot_tilt_) q = glm::quat(1, 0, 0, 0);
  for (auto& q : foot_turn_) q = glm::quat(1, 0, 0, 0);
  for (auto& q : last_foot_turn_) q = glm::quat(1, 0, 0, 0);
  for (auto& q : shown_turn_) q = glm::quat(1, 0, 0, 0);
  for (auto& q : last_end_rotation_) q = glm::quat(1, 0, 0, 0);
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
  return Ok{};
}

void Character::ClearReachTarget(Side hand) { reach_[hand].reset(); }

std::optional<glm::vec3> Character::reach_target(Side hand) const { return reach_[hand]; }

Status Character::SetLookTarget(const glm::vec3& target) {
  if (!rig_->limbs.has_head) return MakeError("this skeleton has no head to turn");
  if (!FiniteTarget(target)) return MakeError("look point must be finite, within 1e4 m");
  look_ = target;
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
  // The clip placed in one pass: turned by the heading about the clip's floor point under
  // its first root position, moved onto (x, z), its floor on the ground under the root.
  const glm::vec3 root = Place(SampleRootTranslation(clip, time));
  ground_ = Ground(root.x, root.z);
  shift_ = glm::vec3(placement_.x, ground_, placement_.z) - heading_ * origin_;
  SampleClipPlaced(clip, time, heading_, shift_, animated_);
  // A clip that jumps by itself (e.g. a reference pose in its first frame) starts afresh too.
  if (!jumped_) {
    const float size = clip.rest_height();
    const float limit =
        std::max(kClipJumpShare * size, kClipJumpSpeed * size * (time - last_time_));
    float moved = 0.0f;
    for (int j = 0; j < clip.joint_count(); ++j) {
      moved = std::max(moved, glm::distance(animated_.positions[j], previous_animated_[j]));
    }
    jumped_ = moved > limit;
  }
  std::copy(animated_.positions.begin(), animated_.positions.end(), previous_animated_.begin());
  clip_moved_ = jumped_ || time != last_time_;
  time_ = time;
}

void Character::PrepareLegs(float dt) {
  const Clip& clip = rig_->clip;
  if (!std::isfinite(dt) || dt < 0.0f) dt = 0.0f;
  const auto start = std::chrono::steady_clock::now();
  frame_dt_ = dt;
  // Scaled as the IK weight has changed (a correction is weighted by it), and fading.
  // Kept corrections let go as the clip plays, not while it is paused (the same pose then).
  clip_dt_ = clip_moved_ ? dt : 0.0f;
  correction_keep_ = jumped_ || !(last_weight_ > 0.0f) ? 0.0f
                                                       : std::exp(-clip_dt_ / kBendCorrectionTime) *
                                                             applied_weight_ / last_weight_;
  UpdateBlends(dt, jumped_);
  UpdateFeet(time_, dt, jumped_);
  SolvePelvis(dt, jumped_);

  const float w = applied_weight_;
  const glm::vec3 lift(0.0f, pelvis_applied_, 0.0f);
  for (int j = 0; j < clip.joint_count(); ++j) {
    final_.positions[j] = animated_.positions[j] + lift;
    final_.rotations[j] = animated_.rotations[j];
  }
  for (int side : {kLeft, kRight}) {
    const Limb& leg = rig_->limbs.legs[side];
    const glm::vec3 hip = final_.positions[leg.chain[0]];
    auto& local = leg_local_[side];
    for (std::size_t i = 0; i < leg.chain.size(); ++i) {
      local[i] = final_.positions[leg.chain[i]] - hip;
    }
    // At IK weight 0 a leg the pop limit still holds off the clip's (leg_held_) is walked
    // back to it within the budget, as an arm is (SolveArm); otherwise it is the clip's.
    leg_active_[side] = w > 0.0f || (leg_held_[side] && !jumped_);
    const glm::vec3 ankle = local.back();
    leg_target_local_[side] = ankle + (feet_[side].target - hip - ankle) * w;
    bool straight = false;
    leg_pole_[side] = BendDirection(side, leg, local, straight);
    // A straight leg aimed closer than it reaches must bend: in the remembered plane.
    if (straight && leg_active_[side] &&
        glm::length(leg_target_local_[side]) < glm::length(ankle) - settings_.tolerance) {
      PreBend(local, leg.middle, leg_pole_[side]);
    }
  }
  last_time_ = time_;
  first_frame_ = false;
  last_ik_seconds_ =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

void Character::UpdateBlends(float dt, bool jumped) {
  // The IK weight moves towards the one set, linearly; at once on a jump.
  if (jumped || !(settings_.weight_blend_time > 0.0f)) {
    applied_weight_ = weight_;
  } else {
    const float step = dt / settings_.weight_blend_time;
    applied_weight_ += std::clamp(weight_ - applied_weight_, -step, step);
  }
  // Reach and gaze blends move towards on (1) or off (0) over reach_blend_time, or longer
  // when the hand or the head would otherwise move faster than max_blend_speed.
  const Limbs& limbs = rig_->limbs;
  // The point a hand or the head heads for moves to a new target no faster than
  // max_blend_speed (at once while its blend is 0: nothing shows it).
  const auto follow = [&](glm::vec3& point, const std::optional<glm::vec3>& target, float blend) {
    if (!target) return;
    if (jumped || blend <= 0.0f) {
      point = *target;
      return;
    }
    const glm::vec3 step = *target - point;
    const float most = settings_.max_blend_speed * dt;
    const float length = glm::length(step);
    point += length > most ? step * (most / length) : step;
  };
  for (int side : {kLeft, kRight}) follow(reach_last_[side], reach_[side], reach_blend_[side]);
  follow(look_last_, look_, gaze_blend_);
  const auto rate = [&](float extent) {
    const float time = std::max(settings_.reach_blend_time, extent / settings_.max_blend_speed);
    return dt / time;
  };
  if (limbs.has_arms) {
    for (int side : {kLeft, kRight}) {
      const Limb& arm = limbs.arms[side];
      const float reach = arm_chain_[side].total_length();
      const float extent =
          std::min(glm::distance(animated_.positions[arm.end()], reach_last_[side]), 2.0f * reach);
      const float step = rate(extent);
      reach_blend_[side] =
          std::clamp(reach_blend_[side] + (reach_[side] ? step : -step), 0.0f, 1.0f);
    }
  }
  if (limbs.has_head) {
    const glm::vec3 head = animated_.positions[limbs.head];
    const glm::vec3 forward = animated_.rotations[limbs.head] * glm::vec3(0.0f, 0.0f, 1.0f);
    const glm::vec3 to = look_last_ - head;
    float angle = 0.0f;
    if (glm::length(to) > 1e-4f) {
      angle = std::acos(std::clamp(glm::dot(forward, glm::normalize(to)), -1.0f, 1.0f));
    }
    angle = std::min(angle, settings_.max_gaze_angle);
    const float radius =
        glm::distance(animated_.positions[limbs.head_tip], animated_.positions[limbs.neck]) +
        glm::distance(head, animated_.positions[limbs.neck]);
    const float step = rate(angle * radius);
    gaze_blend_ = std::clamp(gaze_blend_ + (look_ ? step : -step), 0.0f, 1.0f);
  }
}

void Character::UpdateFeet(float time, float dt, bool jumped) {
  for (int side : {kLeft, kRight}) UpdateFoot(static_cast<Side>(side), time, dt, jumped);
}

void Character::UpdateFoot(Side side, float time, float dt, bool jumped) {
  const Rig& rig = *rig_;
  const Limb& leg = rig.limbs.legs[side];
  FootState& foot = feet_[side];
  const float frame_time = rig.clip.frame_time();
  const int ankle = leg.end(), ball = rig.contacts.ball_joint[side];
  const glm::vec3 a = animated_.positions[ankle];
  const glm::vec3 b = animated_.positions[ball];
  // Where the clip puts the ankle, carried onto the terrain under it.
  const glm::vec3 free_target(a.x, Ground(a.x, a.z) + (a.y - ground_), a.z);
  foot.contact = rig.contacts.At(side, time, frame_time);
  foot.heel = foot.contact && rig.contacts.HeelAt(side, time, frame_time);
  foot.ball = foot.contact && rig.contacts.BallAt(side, time, frame_time);
  // A pin the leg cannot reach whatever the pelvis does (the clip's foot has travelled
  // farther than the leg is long) fades out rather than being dragged.
  if (foot.pinned) {
    const glm::vec3 hip = animated_.positions[leg.chain[0]];
    const glm::vec2 horizontal(foot.pin.x - hip.x, foot.pin.z - hip.z);
    if (glm::length(horizontal) > kLegReach * leg_length_[side]) {
      foot.contact = foot.heel = foot.ball = false;
    }
  }
  // The foot's turn towards the ground under it: in full with the ankle at its lowest clip
  // height, none from kTiltHeight x rest height above it (a foot coming down turns as it
  // lands, so nothing turns in one frame).
  const glm::vec3 normal = terrain_ != nullptr ? terrain_->NormalAt(a.x, a.z) : kUp;
  const float size = rig.clip.rest_height();
  const float above = (a.y - ground_ - rig.contacts.ankle_low[side]) / (kTiltHeight * size);
  const glm::quat tilt =
      ScaleRotation(LimitRotation(ShortestArc(kUp, normal), settings_.max_foot_tilt),
                    Smoothstep(std::clamp(1.0f - above, 0.0f, 1.0f)));
  // Each point is pinned where it is when it goes down: where last frame's pose had it at
  // full IK weight (EndFrame), so a pin moves nothing; after a restart, where the clip puts it.
  if (foot.heel && (jumped || !heel_was_[side])) {
    foot.heel_pin = jumped ? free_target : shown_ankle_[side];
  }
  if (foot.ball && (jumped || !ball_was_[side])) {
    foot.ball_pin = jumped ? free_target + tilt * (b - a) : shown_ball_[side];
  }
  if (foot.heel || foot.ball) ball_last_[side] = !foot.heel;
  contact_was_[side] = foot.contact;
  heel_was_[side] = foot.heel;
  ball_was_[side] = foot.ball;
  if (jumped) {
    foot.pin_weight = foot.contact ? 1.0f : 0.0f;
  } else {
    const float fade = foot.contact ? settings_.pin_fade_in : settings_.release_time;
    const float step = fade > 0.0f ? dt / fade : 1.0f;
    foot.pin_weight = std::clamp(foot.pin_weight + (foot.contact ? step : -step), 0.0f, 1.0f);
  }
  foot.pinned = foot.pin_weight > 0.0f;
  TurnFoot(side, tilt * (b - a), tilt, jumped, dt);
  foot.pin = PinnedAnkle(side, b - a, free_target);
  foot.target = AimFoot(side, free_target, jumped, dt);
}

void Character::TurnFoot(Side side, const glm::vec3& o, const glm::quat& tilt, bool jumped,
                         float dt) {
  const FootState& foot = feet_[side];
  const Limb& leg = rig_->limbs.legs[side];
  const int a = leg.end();
  // Heel and ball both down: the foot is turned so that it lies from the heel pin to the ball
  // pin (both hold, however the clip turns the foot); otherwise it turns back to the clip's
  // orientation. No faster than kMaxFootTurnSpeed.
  glm::quat lay(1, 0, 0, 0);
  const glm::vec3 between = foot.ball_pin - foot.heel_pin;
  if (foot.heel && foot.ball && glm::length(o) > 1e-6f && glm::length(between) > 1e-6f) {
    lay = ShortestArc(o, between);
  }
  if (jumped) {
    foot_turn_[side] = lay;
  } else {
    // From last frame's turn, or from the one keeping the foot's lie as it was (the clip's
    // own turn of the foot undone, as below): whichever comes nearer.
    const glm::quat undo = last_end_rotation_[side] * glm::inverse(animated_.rotations[a]);
    const glm::quat turned = TurnTowards(foot_turn_[side], lay, kMaxFootTurnSpeed * dt);
    const glm::quat held =
        TurnTowards(glm::normalize(foot_turn_[side] * undo), lay, kMaxFootTurnSpeed * dt);
    foot_turn_[side] =
        std::fabs(glm::dot(held, lay)) > std::fabs(glm::dot(turned, lay)) ? held : turned;
  }
  foot_tilt_[side] = foot_turn_[side] * tilt;
  // The foot's whole turn from the clip's orientation: that, and the pitch kept from last
  // frame (KeepToeAboveGround) about the foot's side axis. It changes no faster than
  // kEndTurnShare of the pop budget moves the toe tip. Found before the legs are solved, so
  // that a pinned ball holds under it (PinnedAnkle); the IK weight scales it where it is
  // applied (EndFrame).
  const float w = applied_weight_;
  const float carried = CarriedPitch(side);
  const glm::vec3 u =
      glm::normalize(foot_tilt_[side] * animated_.rotations[a] * glm::vec3(1.0f, 0.0f, 0.0f));
  glm::quat full = glm::angleAxis(w > 0.0f ? carried / w : 0.0f, u) * foot_tilt_[side];
  if (!jumped) {
    const float r = glm::distance(animated_.positions[leg.tip], animated_.positions[a]);
    // A foot on its pinned ball alone turns about the ball, moving the ankle, which the leg
    // must follow: half the budget is left for that.
    const float share = foot.ball && !foot.heel ? kBallTurnShare : kEndTurnShare;
    const float most = r > 1e-6f ? share * settings_.max_pop_speed * frame_dt_ / r : 0.0f;
    // From last frame's turn (the foot turning as the clip turns it), or from the turn that
    // keeps the foot as it was last frame (the clip's own turn undone: a foot held still does
    // not pop, whichever way the clip turns it): whichever comes nearer.
    const glm::quat still = glm::normalize(last_foot_turn_[side] * last_end_rotation_[side] *
                                           glm::inverse(animated_.rotations[a]));
    const glm::quat turned = TurnTowards(last_foot_turn_[side], full, most);
    const glm::quat held = TurnTowards(still, full, most);
    full = std::fabs(glm::dot(held, full)) > std::fabs(glm::dot(turned, full)) ? held : turned;
  }
  last_foot_turn_[side] = full;
}

glm::vec3 Character::PinnedAnkle(Side side, const glm::vec3& foot_vector,
                                 const glm::vec3& free_target) const {
  const FootState& foot = feet_[side];
  if (!foot.pinned) return free_target;
  // The heel down: the ankle on the heel pin. The ball alone down (a foot on its toes): the
  // ankle where the foot, turned as it will be written (TurnFoot), puts its ball on the ball
  // pin, so the foot turns about its ball as the clip turns it. Neither (the contact has ended
  // and the pin fades, or a gap within it): as by the point that was down last (a foot
  // pushing off keeps turning about its ball while its pin fades).
  if (foot.heel || !(foot.ball || ball_last_[side])) return foot.heel_pin;
  return foot.ball_pin - last_foot_turn_[side] * foot_vector;
}

glm::vec3 Character::AimFoot(Side side, const glm::vec3& free_target, bool jumped, float dt) {
  const FootState& foot = feet_[side];
  // The ankle's correction (target less the clip's ankle on the terrain) heads for the pinned
  // one by the pin weight. A pin in full holds exactly (it starts where the foot is); while
  // a pin fades in or out, the correction changes no faster than max_correction_speed: a
  // foot let go while the clip moves it fast catches up over a few frames instead of in one.
  const glm::vec3 wanted = (foot.pin - free_target) * Smoothstep(foot.pin_weight);
  glm::vec3& correction = correction_[side];
  if (jumped || (foot.contact && foot.pin_weight >= 1.0f)) {
    correction = wanted;
  } else {
    const glm::vec3 step = wanted - correction;
    const float most = settings_.max_correction_speed * dt;
    const float length = glm::length(step);
    correction += length > most ? step * (most / length) : step;
  }
  // Where the foot would go without its pin: what the pelvis heeds while a pin fades
  // (SolvePelvis).
  free_aim_[side] = RaiseAim(side, free_target);
  return RaiseAim(side, free_target + correction);
}

glm::vec3 Character::RaiseAim(Side side, glm::vec3 target) const {
  const Rig& rig = *rig_;
  const Limb& leg = rig.limbs.legs[side];
  target.y = std::max(target.y, Ground(target.x, target.z) + rig.contacts.ankle_low[side]);
  // Raised as far as the clip's foot needs to keep its ball and toe tip at their least clip
  // heights above the ground (rather than pitching the foot, which for a foot pointing down
  // would swing the tip far for a small lift).
  const glm::vec3 a = animated_.positions[leg.end()];
  const std::array<std::pair<int, float>, 2> points{
      std::pair{rig.contacts.ball_joint[side], rig.contacts.ball_low[side]},
      std::pair{leg.tip, rig.contacts.tip_low[side]}};
  for (const auto& [joint, low] : points) {
    const glm::vec3 p = target + last_foot_turn_[side] * (animated_.positions[joint] - a);
    target.y += std::max(0.0f, Ground(p.x, p.z) + low - p.y);
  }
  return target;
}

void Character::SolvePelvis(float dt, bool jumped) {
  const Limbs& limbs = rig_->limbs;
  // A foot whose pin fades (its contact has ended) never lowers the body further than the
  // pinned target or the clip's own foot (its free aim) needs, whichever needs less: the
  // body is not lowered to keep a pin that is being let go (the clip pushing off lifts the
  // foot away from it); the pin's target is brought within reach instead (ReleaseFadingPins).
  const auto fading = [&](int side) { return feet_[side].pinned && !feet_[side].contact; };
  float d = 1e30f;
  for (int side : {kLeft, kRight}) {
    float y = feet_[side].target.y;
    if (fading(side)) y = std::max(y, free_aim_[side].y);
    d = std::min(d, y - animated_.positions[limbs.legs[side].end()].y);
  }
  // Highest offset from which the leg still reaches `point` with `share` of its length.
  const auto bound = [&](int side, const glm::vec3& point, float share) {
    const Limb& leg = limbs.legs[side];
    const glm::vec3 v = point - animated_.positions[leg.chain[0]];
    // Where the clip's own leg is straighter than `share`, as straight as it (up to
    // kLegReachHard): a pelvis lowered to bend a straight leg of the clip's made the knee
    // swing where the clip bent it again (01_03, docs/mocap.md: Figures).
    const float own =
        glm::distance(animated_.positions[leg.end()], animated_.positions[leg.chain[0]]);
    const float reach = std::max(share * leg_length_[side],
                                 std::min(own, kLegReachHard * leg_length_[side]));
    const float horizontal2 = v.x * v.x + v.z * v.z;
    return horizontal2 < reach * reach ? v.y + std::sqrt(reach * reach - horizontal2) : 1e30f;
  };
  // Highest offset from which each leg still reaches its target with `share` of its length.
  const auto reachable = [&](float offset, float share) {
    for (int side : {kLeft, kRight}) {
      float most = bound(side, feet_[side].target, share);
      if (fading(side)) most = std::max(most, bound(side, free_aim_[side], share));
      offset = std::min(offset, most);
    }
    return offset;
  };
  const float limit = settings_.pelvis_limit * std::min(leg_length_[kLeft], leg_length_[kRight]);
  // Nor so low that a leg in contact is folded more than the clip's own: its hip kept at
  // least kFoldShare of the clip's hip-ankle distance from its target (a leg the body folds
  // tighter than the clip does swings its knee faster than the clip's, and the pop limit holds
  // its foot back; Boxing_Toes' crouch on the hills, docs/mocap.md: Figures). Reaching the
  // targets comes first (below).
  for (int side : {kLeft, kRight}) {
    if (!feet_[side].contact) continue;
    const Limb& leg = limbs.legs[side];
    const glm::vec3 v = feet_[side].target - animated_.positions[leg.chain[0]];
    const float r =
        kFoldShare *
        glm::distance(animated_.positions[leg.end()], animated_.positions[leg.chain[0]]);
    const float horizontal2 = v.x * v.x + v.z * v.z;
    if (horizontal2 < r * r) d = std::max(d, v.y + std::sqrt(r * r - horizontal2));
  }
  d = std::clamp(reachable(d, kLegReach), -limit, limit);
  if (jumped || settings_.pelvis_smoothing <= 0.0f) {
    pelvis_smoothed_ = d;
  } else {
    // Smoothed, and no faster than max_correction_speed.
    const float step = (d - pelvis_smoothed_) * (1.0f - std::exp(-dt / settings_.pelvis_smoothing));
    const float most = settings_.max_correction_speed * dt;
    pelvis_smoothed_ += std::clamp(step, -most, most);
  }
  // Never so high that a leg would be all but straight (where the knee is most sensitive).
  pelvis_smoothed_ = std::max(std::min(pelvis_smoothed_, reachable(limit, kLegReachHard)), -limit);
  pelvis_applied_ = pelvis_smoothed_ * applied_weight_;
  ReleaseFadingPins();
}

void Character::ReleaseFadingPins() {
  const Limbs& limbs = rig_->limbs;
  for (int side : {kLeft, kRight}) {
    FootState& foot = feet_[side];
    if (!foot.pinned || foot.contact) continue;
    // The target moved from the free aim towards the pin only as far as the hip, with the
    // pelvis found above at full weight, reaches with kLegReach of the leg's length (or as
    // far as the clip's own foot is, if that is farther): the largest k in [0, 1] with
    // |v + k c| <= reach. What is given up is given up for good (the correction shrinks), so
    // the fading pin follows the clip's foot as the clip lifts it.
    const glm::vec3 hip =
        animated_.positions[limbs.legs[side].chain[0]] + glm::vec3(0.0f, pelvis_smoothed_, 0.0f);
    const glm::vec3 v = free_aim_[side] - hip;
    const glm::vec3 c = foot.target - free_aim_[side];
    const float reach = std::max(kLegReach * leg_length_[side], glm::length(v));
    const float cc = glm::dot(c, c);
    if (glm::dot(v + c, v + c) <= reach * reach || cc < 1e-12f) continue;
    const float vc = glm::dot(v, c);
    const float disc = std::max(vc * vc - cc * (glm::dot(v, v) - reach * reach), 0.0f);
    const float k = std::clamp((std::sqrt(disc) - vc) / cc, 0.0f, 1.0f);
    foot.target = free_aim_[side] + c * k;
    correction_[side] *= k;
  }
}

void Character::EndFrame(std::span<const glm::vec3> left_leg,
                         std::span<const glm::vec3> right_leg) {
  const auto start = std::chrono::steady_clock::now();
  const Clip& clip = rig_->clip;
  for (int side : {kLeft, kRight}) {
    feet_[side].held_back = 0.0f;
    const Limb& leg = rig_->limbs.legs[side];
    const int a = leg.end(), ball = rig_->contacts.ball_joint[side];
    if (!leg_active_[side]) {
      leg_held_[side] = false;
      // At IK weight 0 the full IK's points are at their targets (the pins' next starts).
      last_foot_turn_[side] = shown_turn_[side] = glm::quat(1, 0, 0, 0);
      shown_ankle_[side] = feet_[side].target;
      shown_ball_[side] = feet_[side].target + animated_.positions[ball] - animated_.positions[a];
      continue;
    }
    const std::span<const glm::vec3> in = side == kLeft ? left_leg : right_leg;
    auto& solved = leg_solved_[side];
    if (in.size() != solved.size()) continue;
    if (in.data() != solved.data()) std::copy(in.begin(), in.end(), solved.begin());
    TurnToBend(side, leg, solved, leg_pole_[side], applied_weight_);
    // The foot keeps the clip's orientation, turned as TurnFoot found (the ground's tilt, the
    // lie between the pins, the pitch kept from last frame), scaled by the IK weight, so a
    // weight change moves the foot with it.
    const float carried = CarriedPitch(static_cast<Side>(side));
    glm::quat turn = ScaleRotation(last_foot_turn_[side], applied_weight_);
    const glm::vec3 aimed = solved.back();
    // Under the pop limit the foot's turn is held back too, towards the turn that keeps its
    // joints' last corrections, as a hand's (SolveArm).
    pop_keep_pin_ = feet_[side].contact && feet_[side].pinned;
    const glm::quat still = glm::normalize(
        shown_turn_[side] * last_end_rotation_[side] * glm::inverse(animated_.rotations[a]));
    LimitPop(leg, solved, &turn, &shown_turn_[side], &still);
    pop_keep_pin_ = false;
    feet_[side].held_back = glm::distance(aimed, solved.back());
    WriteLimb(leg, solved);
    const glm::quat back = turn * animated_.rotations[a] * glm::inverse(final_.rotations[a]);
    RotateJoints(final_, a, clip.subtree_end(a), back, final_.positions[a]);
    KeepToeAboveGround(static_cast<Side>(side), carried);
    shown_turn_[side] =
        glm::normalize(final_.rotations[a] * glm::inverse(animated_.rotations[a]));
    // Held while the weight is on or the leg is still off the clip's (beyond float rounding).
    bool off = applied_weight_ > 0.0f;
    const int hip = leg.chain[0];
    for (int j = hip; j < clip.subtree_end(hip) && !off; ++j) {
      off = glm::distance(final_.positions[j], animated_.positions[j]) > 1e-6f;
    }
    leg_held_[side] = off;
    // Where the points are at full IK weight (the pins of the next contacts): the ankle at
    // its target, but for what the solve missed (the pop limit's hold, an unreached target;
    // known only at full weight: a weighted pose is not the full IK's); the ball as the foot
    // is turned (TurnFoot's turn of the clip's foot, unweighted).
    const glm::vec3 missed =
        applied_weight_ >= 1.0f
            ? final_.positions[a] - (final_.positions[leg.chain[0]] + leg_target_local_[side])
            : glm::vec3(0.0f);
    shown_ankle_[side] = feet_[side].target + missed;
    shown_ball_[side] = shown_ankle_[side] +
                        last_foot_turn_[side] * (animated_.positions[ball] - animated_.positions[a]);
  }
  for (int side : {kLeft, kRight}) SolveArm(static_cast<Side>(side));
  TurnHead();
  std::copy(final_.positions.begin(), final_.positions.end(), last_final_.begin());
  std::copy(animated_.positions.begin(), animated_.positions.end(), last_animated_.begin());
  for (int side : {kLeft, kRight}) {
    last_end_rotation_[side] = animated_.rotations[rig_->limbs.legs[side].end()];
    if (rig_->limbs.has_arms) {
      last_end_rotation_[2 + side] = animated_.rotations[rig_->limbs.arms[side].end()];
    }
  }
  last_weight_ = applied_weight_;
  // Each limb's middle joint's correction, for the next frame's bend (TurnToBend).
  for (int id = 0; id < 4; ++id) {
    if (id >= 2 && !rig_->limbs.has_arms) break;
    const Limb& limb = id < 2 ? rig_->limbs.legs[id] : rig_->limbs.arms[id - 2];
    const int joint = limb.chain[static_cast<std::size_t>(limb.middle)];
    middle_correction_[id] = final_.positions[joint] - animated_.positions[joint];
  }
  last_ik_seconds_ +=
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

glm::vec3 Character::BendDirection(int id, const Limb& limb, std::span<const glm::vec3> local,
                                   bool& straight) {
  const int parent = rig_->clip.parents()[limb.chain[0]];
  const glm::quat frame = parent >= 0 ? final_.rotations[parent] : glm::quat(1, 0, 0, 0);
  const glm::vec3 end = local.back();
  const float reach = glm::length(end);
  const glm::vec3 axis = reach > 1e-6f ? end / reach : glm::vec3(0.0f, -1.0f, 0.0f);
  const glm::vec3 m = local[limb.middle];
  const glm::vec3 m_perp = m - axis * glm::dot(m, axis);
  const float off = glm::length(m_perp);
  glm::vec3 remembered = frame * bend_memory_[id];
  remembered -= axis * glm::dot(remembered, axis);
  if (glm::length(remembered) < 1e-4f) remembered = Perpendicular(axis);
  remembered = glm::normalize(remembered);
  // The clip's direction counts as far as its bend is clear (in full from kBentShare of the
  // root-middle distance off the line), the last frame's direction for the rest: a nearly
  // straight limb, whose own direction is noise, keeps its plane.
  const float k = std::clamp(off / (kBentShare * glm::length(m)), 0.0f, 1.0f);
  straight = off < kStraightShare * glm::length(m);
  glm::vec3 dir = remembered;
  if (off > 1e-9f) {
    const glm::vec3 mixed = k * (m_perp / off) + (1.0f - k) * remembered;
    if (glm::length(mixed) > 1e-4f) dir = glm::normalize(mixed);
  }
  // Remembered only when the clip has moved: a paused clip gives the same pose every frame.
  if (clip_moved_) bend_memory_[id] = glm::inverse(frame) * dir;
  return dir;
}

void Character::TurnToBend(int id, const Limb& limb, std::span<glm::vec3> solved,
                           const glm::vec3& bend, float weight) const {
  const std::size_t n = solved.size();
  const glm::vec3 end = solved[n - 1];
  const float reach = glm::length(end);
  if (reach > 1e-6f) {
    // Turn the joints between the ends about the root-end line so the middle joint lies in
    // the bend direction: FABRIK keeps the lengths, this keeps the clip's bend plane. A turn
    // about the line itself, so a half turn is never about an arbitrary axis.
    const glm::vec3 axis = end / reach;
    const glm::vec3 m = solved[limb.middle];
    const glm::vec3 m_perp = m - axis * glm::dot(m, axis);
    glm::vec3 b_perp = bend - axis * glm::dot(bend, axis);
    // The middle joint goes where, on its circle about the line, it is nearest to the clip's
    // middle joint moved by its last correction (fading with kBendCorrectionTime): the
    // correction then changes only as much as the limb's ends make it, and a bend plane the
    // clip swings fast or leaves undefined (a straight limb) does not swing the knee or elbow
    // with it. Where that point is too near the line to give a direction, `bend` counts.
    const int joint = limb.chain[static_cast<std::size_t>(limb.middle)];
    const glm::vec3 root = final_.positions[limb.chain[0]];
    const glm::vec3 near =
        animated_.positions[joint] + middle_correction_[id] * correction_keep_ - root;
    const glm::vec3 near_perp = near - axis * glm::dot(near, axis);
    const float near_off = glm::length(near_perp);
    const float b_len = glm::length(b_perp);
    if (near_off > 1e-9f && b_len > 1e-9f) {
      // Measured against the knee's own circle where that is smaller (a leg nearly
      // straight): a knee back on its last place then counts in full, so a paused clip's
      // knee stays put instead of creeping towards `bend`.
      const float clear = std::min(kBentShare * glm::length(m), glm::length(m_perp));
      const float k = clear > 1e-9f ? std::clamp(near_off / clear, 0.0f, 1.0f) : 1.0f;
      b_perp = k * (near_perp / near_off) + (1.0f - k) * (b_perp / b_len);
    }
    if (glm::length(m_perp) > 1e-6f && glm::length(b_perp) > 1e-6f) {
      const float angle =
          std::atan2(glm::dot(axis, glm::cross(m_perp, b_perp)), glm::dot(m_perp, b_perp));
      // By the limb's weight: at a small weight the limb is all but the clip's, turned as
      // little, and at 0 not at all (a reach fading out ends on the clip's arm).
      const glm::quat q = glm::angleAxis(angle * weight, axis);
      for (std::size_t i = 1; i + 1 < n; ++i) solved[i] = q * solved[i];
    }
  }
}

void Character::WriteLimb(const Limb& limb, std::span<const glm::vec3> solved) {
  const std::size_t n = solved.size();
  for (std::size_t i = 0; i + 1 < n; ++i) {
    const int j = limb.chain[i];
    const glm::vec3 current = final_.positions[limb.chain[i + 1]] - final_.positions[j];
    const glm::quat q = ShortestArc(current, solved[i + 1] - solved[i]);
    RotateJoints(final_, j, rig_->clip.subtree_end(j), q, final_.positions[j]);
  }
}

void Character::KeepToeAboveGround(Side side, float carried) {
  const Limb& leg = rig_->limbs.legs[side];
  const int a = leg.end(), tip = leg.tip;
  toe_pitch_[side] = 0.0f;
  if (tip == a || !(applied_weight_ > 0.0f)) return;
  const glm::vec3 ankle = final_.positions[a];
  // The leg's target already keeps the clip's foot above the ground (UpdateFoot); this only
  // takes up what the solve's tolerance leaves, beyond a slack of twice the tolerance: pitch
  // the foot about the ankle's own side axis (its +X: a BVH foot's left, clip.h) by the
  // smallest turn that puts the tip back at its least clip height above the ground less the
  // slack. Pitching moves the tip along the slope, where the ground has another height: a
  // few rounds settle it.
  const float slack = 2.0f * settings_.tolerance;
  const glm::vec3 u = glm::normalize(final_.rotations[a] * glm::vec3(1.0f, 0.0f, 0.0f));
  // The foot already has the pitch kept from last frame (CarriedPitch); what lift is still
  // needed is added to it.
  float pitch = carried;
  for (int round = 0; round < 3; ++round) {
    const glm::vec3 t = final_.positions[tip];
    const float floor = Ground(t.x, t.z) + rig_->contacts.tip_low[side] - slack;
    if (t.y >= floor) break;
    // The tip's height after a turn by theta about u: c + A cos(theta) + B sin(theta).
    const glm::vec3 f = t - ankle;
    const glm::vec3 along = u * glm::dot(u, f);
    const glm::vec3 across = f - along;
    const float A = across.y, B = glm::cross(u, across).y, c = along.y;
    const float r = std::hypot(A, B);
    if (r < 1e-6f) break;
    const float phi = std::atan2(B, A);
    const float spread = std::acos(std::clamp((floor - ankle.y - c) / r, -1.0f, 1.0f));
    float theta = phi + spread;
    for (float candidate : {phi + spread, phi - spread}) {
      candidate = std::remainder(candidate, 2.0f * std::numbers::pi_v<float>);
      if (std::fabs(candidate) < std::fabs(std::remainder(theta, 2.0f * std::numbers::pi_v<float>)))
        theta = candidate;
    }
    theta = std::remainder(theta, 2.0f * std::numbers::pi_v<float>);
    theta *= applied_weight_;
    // Within the pop budget (docs/mocap.md: One character): the pitch moves the tip no
    // farther from where its last correction puts it than the budget, or than it already is.
    if (!jumped_) {
      const glm::vec3 expected = animated_.positions[tip] + last_final_[tip] - last_animated_[tip];
      const float allowed =
          std::max(settings_.max_pop_speed * frame_dt_, glm::distance(t, expected));
      const auto tip_after = [&](float angle) {
        return ankle + glm::angleAxis(angle, u) * (t - ankle);
      };
      if (glm::distance(tip_after(theta), expected) > allowed) {
        float lo = 0.0f, hi = 1.0f;
        for (int k = 0; k < kPopRounds; ++k) {
          const float mid = 0.5f * (lo + hi);
          (glm::distance(tip_after(mid * theta), expected) <= allowed ? lo : hi) = mid;
        }
        theta *= lo;
      }
    }
    pitch += theta;
    const glm::quat q = glm::angleAxis(theta, u);
    RotateJoints(final_, a, rig_->clip.subtree_end(a), q, ankle);
  }
  toe_pitch_[side] = pitch;
}

float Character::CarriedPitch(Side side) const {
  const Limb& leg = rig_->limbs.legs[side];
  if (jumped_ || leg.tip == leg.end()) return 0.0f;
  // Last frame's pitch, let go no faster than max_pop_speed moves the tip: a pitch dropped at
  // once would swing the toe down in one frame.
  const float r = glm::distance(animated_.positions[leg.tip], animated_.positions[leg.end()]);
  const float most = r > 1e-6f ? settings_.max_pop_speed * clip_dt_ / r : 0.0f;
  // Scaled as the IK weight has changed since (the pitch is weighted by it).
  const float scaled =
      last_weight_ > 0.0f ? toe_pitch_[side] * (applied_weight_ / last_weight_) : 0.0f;
  return scaled - std::clamp(scaled, -most, most);
}

void Character::SolveArm(Side side) {
  if (!rig_->limbs.has_arms) return;
  const float e = Smoothstep(reach_blend_[side]) * applied_weight_;
  const Limb& arm = rig_->limbs.arms[side];
  const glm::quat last_hand_turn = hand_turn_[side];
  // A faded reach whose arm the pop limit still holds off the clip's (arm_held_) is walked
  // back to the clip's arm within the budget; otherwise the arm is the clip's.
  if (!(e > 0.0f) && (jumped_ || !arm_held_[side])) {
    arm_held_[side] = false;
    hand_turn_[side] = glm::quat(1, 0, 0, 0);
    return;
  }
  const std::size_t n = arm.chain.size();
  const std::span<glm::vec3> local(arm_local_.data(), n);
  const std::span<glm::vec3> clip(arm_clip_.data(), n);
  const glm::vec3 shoulder = final_.positions[arm.chain[0]];
  for (std::size_t i = 0; i < n; ++i) local[i] = final_.positions[arm.chain[i]] - shoulder;
  std::copy(local.begin(), local.end(), clip.begin());
  if (e > 0.0f) {
    bool straight = false;
    const glm::vec3 bend = BendDirection(2 + side, arm, local, straight);
    // The goal moves from the clip's wrist towards the target by the blend, never the pose.
    const glm::vec3 wrist = local[n - 1];
    const glm::vec3 target = wrist + (reach_last_[side] - shoulder - wrist) * e;
    Chain& chain = arm_chain_[side];
    if (straight && glm::length(target) < glm::length(wrist) - settings_.tolerance) {
      PreBend(local, arm.middle, bend);
    }
    if (chain.SetPose(local) && SolveFabrik(chain, target, solve_).ok) {
      std::copy(chain.joints().begin(), chain.joints().end(), local.begin());
      TurnToBend(2 + side, arm, local, bend, e);
    } else {
      std::copy(clip.begin(), clip.end(), local.begin());
    }
  }
  // The hand (the wrist's subtree) turns with the forearm; where that would pop, the pop
  // limit holds its turn back towards the one that keeps its joints' last corrections.
  hand_turn_[side] = ChainTurn(clip, local);
  const glm::quat still = glm::normalize(last_hand_turn * last_end_rotation_[2 + side] *
                                         glm::inverse(animated_.rotations[arm.end()]));
  LimitPop(arm, local, &hand_turn_[side], &last_hand_turn, &still);
  WriteLimb(arm, local);
  const int w = arm.end();
  const glm::quat back =
      hand_turn_[side] * animated_.rotations[w] * glm::inverse(final_.rotations[w]);
  RotateJoints(final_, w, rig_->clip.subtree_end(w), back, final_.positions[w]);
  // Held while the arm or the hand is still off the clip's (beyond float rounding).
  const glm::quat& t = hand_turn_[side];
  bool off = glm::length(glm::vec3(t.x, t.y, t.z)) > 1e-6f;
  for (std::size_t i = 0; i < n && !off; ++i) off = glm::distance(local[i], clip[i]) > 1e-6f;
  arm_held_[side] = e > 0.0f || off;
}

void Character::TurnHead() {
  const Limbs& limbs = rig_->limbs;
  if (!limbs.has_head) return;
  const float e = Smoothstep(gaze_blend_) * applied_weight_;
  const glm::vec3 head = final_.positions[limbs.head];
  const glm::vec3 forward = final_.rotations[limbs.head] * glm::vec3(0.0f, 0.0f, 1.0f);
  const glm::vec3 to = look_last_ - head;
  glm::quat wanted(1, 0, 0, 0);
  if (e > 0.0f && glm::length(to) >= 1e-4f) {
    wanted = ScaleRotation(LimitRotation(ShortestArc(forward, to), settings_.max_gaze_angle), e);
  }
  // The turn changes no faster than kMaxGazeTurnSpeed: a point behind the head, where the
  // shortest turn flips from one side to the other, swings the head over rather than in one
  // frame.
  if (jumped_) {
    gaze_turn_ = wanted;
  } else {
    // And no faster than kGazePopShare of the pop budget moves the head's tip.
    const float radius =
        glm::distance(animated_.positions[limbs.head_tip], animated_.positions[limbs.neck]);
    float speed = kMaxGazeTurnSpeed;
    if (radius > 1e-6f) speed = std::min(speed, kGazePopShare * settings_.max_pop_speed / radius);
    glm::quat next = TurnTowards(gaze_turn_, wanted, speed * frame_dt_);
    // A turn kept while the clip turns the head fast moves the tip with the clip's motion
    // turned: where that would pop beyond kGazePopShare of the budget, the turn is taken from
    // the one that keeps the tip's last correction (relative to the neck) towards `next`, as
    // far as stays within that share (bisection; docs/mocap.md: One character, Gaze).
    const int tip = limbs.head_tip, neck = limbs.neck, head_joint = limbs.head;
    const glm::vec3 kept = last_final_[tip] - last_final_[neck] +
                           (animated_.positions[tip] - animated_.positions[neck]) -
                           (last_animated_[tip] - last_animated_[neck]);
    const float allowed = kGazePopShare * settings_.max_pop_speed * frame_dt_;
    // The tip relative to the neck with the turn `q` shared between neck and head (below).
    const glm::vec3 h = animated_.positions[head_joint] - animated_.positions[neck];
    const glm::vec3 t = animated_.positions[tip] - animated_.positions[head_joint];
    const auto tip_at = [&](const glm::quat& q) {
      if (neck == head_joint) return q * t;
      const glm::quat np = ScaleRotation(q, settings_.neck_share);
      return np * h + ScaleRotation(q, 1.0f - settings_.neck_share) * (np * t);
    };
    if (glm::distance(tip_at(next), kept) > allowed && glm::length(kept) > 1e-6f) {
      const glm::quat expected =
          glm::normalize(ShortestArc(tip_at(gaze_turn_), kept) * gaze_turn_);
      float lo = 0.0f, hi = 1.0f;
      for (int k = 0; k < kPopRounds; ++k) {
        const float mid = 0.5f * (lo + hi);
        (glm::distance(tip_at(glm::slerp(expected, next, mid)), kept) <= allowed ? lo : hi) = mid;
      }
      next = glm::normalize(glm::slerp(expected, next, lo));
    }
    gaze_turn_ = next;
  }
  const glm::quat q = gaze_turn_;
  if (q.x == 0.0f && q.y == 0.0f && q.z == 0.0f) return;  // no turn (IK weight 0: exact)
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
