#include "walker/walker.h"

#include <algorithm>
#include <cmath>
#include <glm/geometric.hpp>
#include <glm/mat3x3.hpp>
#include <numbers>
#include <string>

#include "ik/vec_util.h"
#include "walker/body_fit.h"
#include "walker/gait.h"

namespace fabrik {
namespace {

// Angle in (-pi, pi].
float WrapAngle(float a) {
  a = std::remainder(a, 2.0f * std::numbers::pi_v<float>);
  return a <= -std::numbers::pi_v<float> ? a + 2.0f * std::numbers::pi_v<float> : a;
}

// Closer than this to the goal the body no longer turns to face it (it would spin on the spot
// for a goal a hair away).
constexpr float kTurnRadius = 0.05f;
// Closer than this the body stands on its goal.
constexpr float kArriveRadius = 1e-3f;

}  // namespace

Result<Walker> Walker::Create(std::shared_ptr<const Heightmap> terrain, WalkerSettings settings,
                              glm::vec2 start, float yaw) {
  if (!terrain) return MakeError("walker: no terrain");
  Status valid = ValidateWalkerSettings(settings);
  if (!valid) return MakeError(valid.error());
  if (!std::isfinite(start.x) || !std::isfinite(start.y) || !std::isfinite(yaw)) {
    return MakeError("walker: start position and heading must be finite");
  }
  Walker w;
  w.terrain_ = std::move(terrain);
  w.settings_ = std::move(settings);
  w.solve_settings_.tolerance = w.settings_.foot_tolerance;
  w.solve_settings_.max_iterations = w.settings_.max_iterations;
  // The goal stays this far inside the edges: the farthest a foot may be from the body.
  float footprint = 0.0f;
  for (const LegLayout& l : w.settings_.legs) {
    footprint = std::max(footprint, glm::length(glm::vec2(l.rest_foot.x, l.rest_foot.z)));
  }
  w.goal_margin_ = footprint + w.settings_.max_drift;
  w.yaw_ = WrapAngle(yaw);
  const glm::vec2 xz = w.terrain_->ClampInside(start, w.goal_margin_);
  w.body_ = glm::vec3(xz.x, 0.0f, xz.y);
  w.goal_ = w.GoalOnGround(xz);
  w.support_.resize(w.settings_.legs.size());
  // Recording: the constrained solver may retry once from the rest pose (twice the passes) and
  // the leg may finish with a plain solve (once more).
  w.recording_.Reserve(w.settings_.segment_lengths.size() + 1, 3 * w.settings_.max_iterations);
  for (const LegLayout& layout : w.settings_.legs) {
    Result<Leg> leg = Leg::Create(layout.hip, layout.rest_foot, w.settings_.segment_lengths,
                                  w.settings_.hip_cone);
    if (!leg) return MakeError(leg.error());
    w.legs_.push_back(WalkerLegState{std::move(leg.value()), layout});
  }
  w.Replant();
  return w;
}

glm::vec3 Walker::GoalOnGround(glm::vec2 xz) const { return terrain_->PointAt(xz.x, xz.y); }

void Walker::Replant() {
  // Every foot down at its rest point on the ground (where the old feet stood may be out of
  // reach on other ground), then the body settles onto them at once.
  velocity_ = glm::vec2(0.0f);
  for (WalkerLegState& s : legs_) {
    const glm::vec3 xz = DesiredFoot(s);
    s.foot_target = terrain_->PointAt(xz.x, xz.z);
    s.planted = true;
    s.swing_phase = 0.0f;
    s.drift = 0.0f;
  }
  for (std::size_t i = 0; i < legs_.size(); ++i) support_[i] = legs_[i].foot_target;
  const SupportPlane plane = FitSupportPlane(support_);
  body_.y = plane.centroid.y + settings_.ride_height;
  up_ = LimitTilt(plane.normal, settings_.max_tilt);
  FollowFeet(0.0f);  // rebuild the rotation from up_ and yaw_
  // A few solves from the straight legs so the knees start bent the right way.
  for (int k = 0; k < 4; ++k) SolveLegs();
}

Status Walker::SetTerrain(std::shared_ptr<const Heightmap> terrain) {
  if (!terrain) return MakeError("walker: no terrain");
  terrain_ = std::move(terrain);
  const glm::vec2 xz = terrain_->ClampInside({body_.x, body_.z}, goal_margin_);
  body_.x = xz.x;
  body_.z = xz.y;
  goal_ = GoalOnGround(terrain_->ClampInside({goal_.x, goal_.z}, goal_margin_));
  Replant();
  return Ok{};
}

void Walker::SetRecordedLeg(int index) {
  recorded_leg_ = (index >= 0 && std::size_t(index) < legs_.size()) ? index : -1;
  if (recorded_leg_ < 0) recording_.Clear();
}

Result<int> Walker::Update(float dt, const glm::vec3& goal) {
  if (!IsFinite(goal)) return MakeError("walker goal must be a finite point");
  if (!std::isfinite(dt) || !(dt > 0.0f)) {
    return MakeError("walker time step must be finite and > 0");
  }
  goal_ = GoalOnGround(terrain_->ClampInside({goal.x, goal.z}, goal_margin_));
  accumulator_ += std::min(dt, settings_.max_frame_time);
  int steps = 0;
  // The small slack lets a frame of exactly fixed_step run exactly one step.
  while (accumulator_ >= settings_.fixed_step * (1.0f - 1e-4f)) {
    Step();
    accumulator_ = std::max(0.0f, accumulator_ - settings_.fixed_step);
    ++steps;
  }
  return steps;
}

void Walker::Step() {
  const float dt = settings_.fixed_step;
  Locomote(dt);
  RunGait(dt);
  FollowFeet(dt);
  SolveLegs();
  ++steps_;
}

glm::vec3 Walker::DesiredFoot(const WalkerLegState& s) const {
  // The rest point under the body's heading, led along the body's velocity so a foot lands
  // ahead of the body and drifts back past its rest point before it steps again.
  const float c = std::cos(yaw_), sn = std::sin(yaw_);
  const glm::vec2 rest(s.layout.rest_foot.x, s.layout.rest_foot.z);
  // Body-local x (right) is world (cos, -sin) and local z (forward) is world (sin, cos).
  const glm::vec2 turned(rest.x * c + rest.y * sn, -rest.x * sn + rest.y * c);
  const float lead = 0.5f * settings_.step_threshold / settings_.max_speed;
  const glm::vec2 xz =
      terrain_->ClampInside(glm::vec2(body_.x, body_.z) + turned + velocity_ * lead, 0.0f);
  return {xz.x, 0.0f, xz.y};
}

void Walker::Locomote(float dt) {
  // Slow down - walking and turning - as planted feet lag behind, stopping before they leave
  // their reach; the gait catches up meanwhile.
  float worst = 0.0f;
  for (const WalkerLegState& s : legs_) {
    if (s.planted) worst = std::max(worst, s.drift);
  }
  const float reach_factor = std::clamp(
      (settings_.max_drift - worst) / (settings_.max_drift - settings_.step_threshold), 0.0f, 1.0f);
  const glm::vec2 pos(body_.x, body_.z);
  const glm::vec2 to = glm::vec2(goal_.x, goal_.z) - pos;
  const float dist = glm::length(to);
  float facing = 1.0f;
  bool turning = false;
  if (dist > kTurnRadius) {
    const float wanted = std::atan2(to.x, to.y);
    const float error = WrapAngle(wanted - yaw_);
    const float max_turn = settings_.turn_rate * reach_factor * dt;
    yaw_ = WrapAngle(yaw_ + std::clamp(error, -max_turn, max_turn));
    const float left = WrapAngle(wanted - yaw_);
    turning = std::fabs(left) > 1e-3f;
    // Walk only roughly facing the goal: full speed within ~45 degrees, none beyond ~73.
    facing = std::clamp((std::cos(left) - 0.3f) / 0.4f, 0.0f, 1.0f);
  }
  const float approach = std::clamp(dist / settings_.slow_radius, 0.1f, 1.0f);
  const float speed = settings_.max_speed * approach * facing * reach_factor;
  const float move = std::min(speed * dt, dist);
  velocity_ = glm::vec2(0.0f);
  if (move > 0.0f && dist > 0.0f) {
    const glm::vec2 next = move >= dist ? glm::vec2(goal_.x, goal_.z) : pos + to * (move / dist);
    velocity_ = (next - pos) / dt;
    body_.x = next.x;
    body_.z = next.y;
  }
  settling_ = !turning && glm::length(glm::vec2(goal_.x, goal_.z) - glm::vec2(body_.x, body_.z)) <
                              kArriveRadius;
}

void Walker::RunGait(float dt) {
  GaitLeg gait[16];
  for (std::size_t i = 0; i < legs_.size(); ++i) {
    WalkerLegState& s = legs_[i];
    const glm::vec3 want = DesiredFoot(s);
    if (!s.planted) {
      s.swing_phase = std::min(1.0f, s.swing_phase + dt / settings_.swing_time);
      s.swing_to = terrain_->PointAt(want.x, want.z);
      if (s.swing_phase >= 1.0f) {
        s.planted = true;  // landed: the target is now fixed, exactly on the ground
        s.foot_target = s.swing_to;
      } else {
        s.foot_target =
            SwingPoint(*terrain_, s.swing_from, s.swing_to, s.swing_phase, settings_.swing_height);
      }
    }
    s.drift = glm::length(glm::vec2(s.foot_target.x - want.x, s.foot_target.z - want.z));
    gait[i] = {s.layout.group, s.planted, s.planted ? s.drift : 0.0f};
  }
  const int group =
      ChooseStepGroup(std::span<const GaitLeg>(gait, legs_.size()), last_group_, settling_,
                      settings_.step_threshold, settings_.settle_threshold);
  if (group < 0) return;
  last_group_ = group;
  for (WalkerLegState& s : legs_) {
    if (s.layout.group != group || s.drift <= settings_.settle_threshold) continue;
    const glm::vec3 want = DesiredFoot(s);
    s.planted = false;
    s.swing_phase = 0.0f;
    s.swing_from = s.foot_target;
    s.swing_to = terrain_->PointAt(want.x, want.z);
    ++foot_steps_;
  }
}

void Walker::FollowFeet(float dt) {
  if (dt > 0.0f) {
    for (std::size_t i = 0; i < legs_.size(); ++i) {
      support_[i] = legs_[i].planted ? legs_[i].foot_target : legs_[i].swing_to;
    }
    const SupportPlane plane = FitSupportPlane(support_);
    // Exponential easing (rate follow_rate), capped by the climb and tilt rates.
    const float ease = 1.0f - std::exp(-settings_.follow_rate * dt);
    const float climb = (plane.centroid.y + settings_.ride_height - body_.y) * ease;
    const float max_climb = settings_.max_climb_rate * dt;
    body_.y += std::clamp(climb, -max_climb, max_climb);
    const glm::vec3 target_up = LimitTilt(plane.normal, settings_.max_tilt);
    const float angle = std::acos(std::clamp(glm::dot(up_, target_up), -1.0f, 1.0f));
    up_ = TurnTowards(up_, target_up, std::min(angle * ease, settings_.max_tilt_rate * dt));
  }
  // Orientation: up_ as the body's y, the heading (made perpendicular to it) as its z.
  const glm::vec3 heading(std::sin(yaw_), 0.0f, std::cos(yaw_));
  const glm::vec3 forward = glm::normalize(heading - up_ * glm::dot(heading, up_));
  const glm::vec3 right = glm::cross(up_, forward);
  rotation_ = glm::normalize(glm::quat_cast(glm::mat3(right, up_, forward)));
}

void Walker::SolveLegs() {
  const glm::vec3 body_up = rotation_ * glm::vec3(0.0f, 1.0f, 0.0f);
  for (std::size_t i = 0; i < legs_.size(); ++i) {
    WalkerLegState& s = legs_[i];
    const glm::vec3 hip = body_ + rotation_ * s.layout.hip;
    const glm::vec3 out_local = glm::normalize(glm::vec3(
        s.layout.rest_foot.x - s.layout.hip.x, 0.0f, s.layout.rest_foot.z - s.layout.hip.z));
    const glm::vec3 outward = rotation_ * out_local;
    s.pole = hip + outward * settings_.pole_out + body_up * settings_.pole_up;
    SolveObserver* observer = int(i) == recorded_leg_ ? &recording_ : nullptr;
    s.last_solve = s.leg.Solve(hip, s.foot_target, s.pole, BaseFrame{outward, body_up},
                               solve_settings_, observer);
  }
}

bool Walker::arrived() const {
  if (glm::length(glm::vec2(goal_.x - body_.x, goal_.z - body_.z)) >= kArriveRadius) return false;
  for (const WalkerLegState& s : legs_) {
    if (!s.planted || s.drift > settings_.settle_threshold) return false;
  }
  return true;
}

void Walker::LegBoneRotations(std::size_t index, std::span<glm::quat> out) const {
  if (index >= legs_.size()) return;
  const WalkerLegState& s = legs_[index];
  const glm::vec3 out_world =
      rotation_ * glm::normalize(glm::vec3(s.layout.rest_foot.x - s.layout.hip.x, 0.0f,
                                           s.layout.rest_foot.z - s.layout.hip.z));
  const glm::vec3 knee_axis = glm::cross(out_world, rotation_ * glm::vec3(0.0f, 1.0f, 0.0f));
  BoneRotations(s.leg.joints(), knee_axis, out);
}

}  // namespace fabrik
