#include "character/quadruped.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <glm/geometric.hpp>
#include <string>

#include "character/pose.h"
#include "ik/fabrik.h"
#include "ik/rotations.h"

namespace fabrik::character {
namespace {

// The body rides so that each leg's hip-to-foot height is this share of its bind height: a
// leg a little bent reaches forward and back.
constexpr float kCrouch = 0.9f;
// The run starts above this many times the walk's ground speed and stops below the second.
constexpr float kRunFrom = 1.5f, kRunUntil = 1.3f;
// Samples of a cycle when its ground speed is measured.
constexpr int kSpeedSamples = 240;
// The FABRIK cap of a leg's solve (the paw is placed within 0.1 mm well before it).
constexpr int kLegIterations = 40;

bool HasWord(const std::string& name, const char* word) {
  std::string lower = name;
  for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return lower.find(word) != std::string::npos;
}

// Every run of bones from a branching bone's child down to a leaf (see quadruped.h).
std::vector<std::vector<int>> LeafRuns(const Skeleton& sk) {
  const int n = sk.bone_count();
  std::vector<int> children(std::size_t(n), 0);
  for (int b = 1; b < n; ++b) ++children[std::size_t(sk.parents[std::size_t(b)])];
  std::vector<std::vector<int>> runs;
  for (int leaf = 0; leaf < n; ++leaf) {
    if (children[std::size_t(leaf)] != 0) continue;
    std::vector<int> run{leaf};
    int b = leaf;
    while (sk.parents[std::size_t(b)] >= 0 &&
           children[std::size_t(sk.parents[std::size_t(b)])] == 1) {
      b = sk.parents[std::size_t(b)];
      run.insert(run.begin(), b);
    }
    runs.push_back(std::move(run));
  }
  return runs;
}

Status FindLegs(const Model& model, const std::vector<BoneTransform>& bind, QuadrupedRig& rig) {
  float low = bind[0].translation.y, high = low;
  for (const BoneTransform& t : bind) {
    low = std::min(low, t.translation.y);
    high = std::max(high, t.translation.y);
  }
  const float limit = low + 0.25f * (high - low);
  std::vector<std::vector<int>> legs;
  for (std::vector<int>& run : LeafRuns(model.skeleton)) {
    if (run.size() >= 3 && bind[std::size_t(run.back())].translation.y <= limit) {
      legs.push_back(std::move(run));
    }
  }
  if (legs.size() != 4) {
    return MakeError(model.source + ": not a quadruped: " + std::to_string(legs.size()) +
                     " legs found (runs of 3 or more bones ending low), 4 needed");
  }
  int left = 0;
  for (const auto& l : legs) left += bind[std::size_t(l[0])].translation.x > 0.0f ? 1 : 0;
  if (left != 2) return MakeError(model.source + ": not a quadruped: the legs are not two a side");
  // Order: left front, right front, left hind, right hind.
  auto z = [&](const std::vector<int>& l) { return bind[std::size_t(l[0])].translation.z; };
  for (const auto& l : legs) {
    const bool is_left = bind[std::size_t(l[0])].translation.x > 0.0f;
    bool front = true;
    for (const auto& o : legs) {
      const bool o_left = bind[std::size_t(o[0])].translation.x > 0.0f;
      if (&o != &l && o_left == is_left && z(o) > z(l)) front = false;
    }
    const int slot = (front ? 0 : 2) + (is_left ? 0 : 1);
    QuadrupedLeg& leg = rig.legs[std::size_t(slot)];
    if (!leg.bones.empty()) {
      return MakeError(model.source + ": not a quadruped: two legs of one side at one depth");
    }
    leg.bones = l;
    leg.front = front;
    leg.left = is_left;
    leg.foot_height = bind[std::size_t(l.back())].translation.y - rig.ground_y;
  }
  return Ok{};
}

// How fast the feet of `animation` move backwards (-Z) under the body, m/s.
float GroundSpeed(const Model& model, const QuadrupedRig& rig, const Animation& animation) {
  const Skeleton& sk = model.skeleton;
  std::vector<BoneTransform> pose(std::size_t(sk.bone_count()));
  std::vector<glm::vec3> feet[4];
  const float dt = animation.duration / kSpeedSamples;
  for (int k = 0; k <= kSpeedSamples; ++k) {
    SampleAnimation(sk, animation, float(k) * dt, pose);
    LocalToModel(sk, pose, pose);
    for (int i = 0; i < 4; ++i) {
      feet[i].push_back(pose[std::size_t(rig.legs[std::size_t(i)].bones.back())].translation -
                        pose[0].translation);
    }
  }
  // While a foot moves backwards it stands on the ground (the cycle's feet barely lift, so
  // heights cannot tell): the mean backward speed of the four.
  double sum = 0.0;
  int count = 0;
  for (const auto& foot : feet) {
    for (std::size_t k = 1; k < foot.size(); ++k) {
      if (foot[k].z < foot[k - 1].z) {
        sum += double(foot[k - 1].z - foot[k].z) / dt;
        ++count;
      }
    }
  }
  return count > 0 ? float(sum / count) : 0.0f;
}

Status FindCycles(const Model& model, QuadrupedRig& rig) {
  int walk = -1, run = -1, longest = -1, shortest = -1;
  const auto& anims = model.animations;
  for (int a = 0; a < int(anims.size()); ++a) {
    const Animation& an = anims[std::size_t(a)];
    if (!(an.duration > 0.0f)) continue;
    if (walk < 0 && HasWord(an.name, "walk")) walk = a;
    if (run < 0 && HasWord(an.name, "run")) run = a;
    if (longest < 0 || an.duration > anims[std::size_t(longest)].duration) longest = a;
    if (shortest < 0 || an.duration < anims[std::size_t(shortest)].duration) shortest = a;
  }
  if (walk < 0) walk = longest;
  if (run < 0 && shortest != walk) run = shortest;
  if (run == walk) run = -1;
  if (walk < 0) return MakeError(model.source + ": no animation to walk with");
  const auto cycle = [&](int a) {
    const Animation& an = anims[std::size_t(a)];
    return QuadrupedCycle{a, an.duration, GroundSpeed(model, rig, an)};
  };
  rig.walk = cycle(walk);
  if (!(rig.walk.ground_speed > 0.01f)) {
    return MakeError(model.source + ": the walk '" + anims[std::size_t(walk)].name +
                     "' does not move its feet backwards under the body");
  }
  if (run >= 0) {
    rig.run = cycle(run);
    if (!(rig.run.ground_speed > rig.walk.ground_speed)) rig.run = QuadrupedCycle{};
  }
  return Ok{};
}

// The mean distance from a leg's first bone to its leaf, bind pose.
float LegHeight(const std::vector<BoneTransform>& bind, const QuadrupedLeg& leg) {
  return bind[std::size_t(leg.bones.front())].translation.y -
         bind[std::size_t(leg.bones.back())].translation.y;
}

}  // namespace

Result<QuadrupedRig> FindQuadrupedRig(const Model& model) {
  QuadrupedRig rig;
  std::vector<BoneTransform> bind(std::size_t(model.skeleton.bone_count()));
  if (bind.empty() || !BindPose(model.skeleton, bind)) {
    return MakeError(model.source + ": no skeleton");
  }
  rig.ground_y = bind[0].translation.y;
  for (const Vertex& v : model.vertices) rig.ground_y = std::min(rig.ground_y, v.position.y);
  Status legs = FindLegs(model, bind, rig);
  if (!legs) return MakeError(legs.error());
  rig.body_origin = glm::vec3(0.0f);
  for (const QuadrupedLeg& l : rig.legs) {
    rig.body_origin += 0.25f * bind[std::size_t(l.bones.front())].translation;
  }
  Status cycles = FindCycles(model, rig);
  if (!cycles) return MakeError(cycles.error());
  return rig;
}

WalkerSettings QuadrupedWalkerSettings(const Model& model, const QuadrupedRig& rig) {
  std::vector<BoneTransform> bind(std::size_t(model.skeleton.bone_count()));
  BindPose(model.skeleton, bind);
  WalkerSettings s;
  float height = 0.0f, foot = 0.0f, spread = 0.0f;
  for (const QuadrupedLeg& l : rig.legs) {
    height += 0.25f * LegHeight(bind, l);
    foot += 0.25f * l.foot_height;
  }
  const int groups[4] = {0, 1, 1, 0};  // diagonal pairs
  for (std::size_t i = 0; i < 4; ++i) {
    const QuadrupedLeg& l = rig.legs[i];
    const glm::vec3 hip = bind[std::size_t(l.bones.front())].translation - rig.body_origin;
    glm::vec3 rest = bind[std::size_t(l.bones.back())].translation - rig.body_origin;
    // The walker needs the rest foot off the hip's vertical: nudge it outwards.
    if (glm::length(glm::vec2(rest.x - hip.x, rest.z - hip.z)) < 0.01f * height) {
      rest.x += (l.left ? 0.01f : -0.01f) * height;
    }
    s.legs.push_back({hip, glm::vec3(rest.x, 0.0f, rest.z), groups[i]});
    spread = std::max(spread, glm::length(glm::vec2(rest.x - hip.x, rest.z - hip.z)));
  }
  s.ride_height = kCrouch * height + foot;
  s.step_threshold = 0.22f * height;
  s.settle_threshold = 0.04f * height;
  s.max_drift = 0.4f * height;
  s.swing_height = 0.15f * height;
  s.swing_time = 0.28f;
  s.max_speed = 0.8f * height;
  s.slow_radius = 1.5f * height;
  s.max_tilt = 0.4f;
  // Proxies long enough for every foothold (the walker's reach check), never drawn.
  const float proxy = (s.ride_height + spread + s.max_drift) * 0.6f;
  s.segment_lengths = {proxy, proxy, proxy};
  // Their solves are never used: one iteration each keeps their cost small.
  s.max_iterations = 1;
  glm::vec3 lo = bind[0].translation, hi = lo;
  for (const BoneTransform& t : bind) {
    lo = glm::min(lo, t.translation);
    hi = glm::max(hi, t.translation);
  }
  s.body_size = hi - lo;
  return s;
}

QuadrupedWalker::QuadrupedWalker(std::shared_ptr<const Model> model, QuadrupedRig rig,
                                 Walker walker)
    : model_(std::move(model)), rig_(std::move(rig)), walker_(std::move(walker)) {}

Result<QuadrupedWalker> QuadrupedWalker::Create(std::shared_ptr<const Model> model,
                                                std::shared_ptr<const Heightmap> terrain,
                                                glm::vec2 start, float yaw) {
  if (!model) return MakeError("quadruped: no model");
  Result<QuadrupedRig> rig = FindQuadrupedRig(*model);
  if (!rig) return MakeError(rig.error());
  Result<Walker> walker =
      Walker::Create(std::move(terrain), QuadrupedWalkerSettings(*model, rig.value()), start, yaw);
  if (!walker) return MakeError(model->source + ": " + walker.error());
  QuadrupedWalker q(model, std::move(rig).value(), std::move(walker).value());
  std::vector<BoneTransform> bind(std::size_t(model->skeleton.bone_count()));
  BindPose(model->skeleton, bind);
  for (std::size_t i = 0; i < 4; ++i) {
    const std::vector<int>& bones = q.rig_.legs[i].bones;
    std::vector<glm::vec3> joints;
    for (int b : bones) joints.push_back(bind[std::size_t(b)].translation);
    const glm::vec3 hip = joints[0];
    for (glm::vec3& j : joints) j -= hip;
    Result<Chain> chain = Chain::FromJoints(joints);
    if (!chain) return MakeError(model->source + ": a leg folds onto itself: " + chain.error());
    q.chains_.push_back(std::move(chain).value());
    q.lengths_[i].assign(q.chains_[i].lengths().begin(), q.chains_[i].lengths().end());
    q.solved_[i].resize(bones.size());
    q.pre_[i].resize(bones.size());
    q.scratch_[i].resize(bones.size());
  }
  std::size_t longest = 0;
  for (const auto& leg : q.rig_.legs) longest = std::max(longest, leg.bones.size());
  q.recording_.Reserve(longest, kLegIterations);
  q.to_world_.Resize(longest);
  q.local_.resize(bind.size());
  q.pose_.resize(bind.size());
  q.last_body_ = q.walker_.body_position();
  q.PoseModel(0.0f);
  return q;
}

void QuadrupedWalker::SetRecordedLeg(int index) {
  recorded_leg_ = (index >= 0 && index < 4) ? index : -1;
  recording_.Clear();
}

Result<int> QuadrupedWalker::Update(float dt, const glm::vec3& goal) {
  Result<int> steps = walker_.Update(dt, goal);
  if (!steps) return steps;
  PoseModel(std::min(dt, walker_.settings().max_frame_time));
  return steps;
}

Status QuadrupedWalker::SetTerrain(std::shared_ptr<const Heightmap> terrain) {
  Status s = walker_.SetTerrain(std::move(terrain));
  if (!s) return s;
  last_body_ = walker_.body_position();
  PoseModel(0.0f);
  return Ok{};
}

void QuadrupedWalker::PoseModel(float dt) {
  // The cycle's speed from the body's ground speed.
  const glm::vec3 body = walker_.body_position();
  const float moved = glm::length(glm::vec2(body.x - last_body_.x, body.z - last_body_.z));
  last_body_ = body;
  const float speed = dt > 0.0f ? moved / dt : 0.0f;
  if (rig_.run.animation >= 0) {
    const float walk = rig_.walk.ground_speed;
    if (!running_ && speed > kRunFrom * walk) running_ = true, cycle_time_ = 0.0f;
    if (running_ && speed < kRunUntil * walk) running_ = false, cycle_time_ = 0.0f;
  }
  const QuadrupedCycle& cycle = running_ ? rig_.run : rig_.walk;
  rate_ = speed / cycle.ground_speed;
  cycle_time_ = std::fmod(cycle_time_ + dt * rate_, cycle.duration);
  const Skeleton& sk = model_->skeleton;
  SampleAnimation(sk, model_->animations[std::size_t(cycle.animation)], cycle_time_, local_);
  // The walker moves the body: the root keeps its rest place across the ground.
  local_[0].translation.x = sk.rest_local[0].translation.x;
  local_[0].translation.z = sk.rest_local[0].translation.z;
  LocalToModel(sk, local_, pose_);
  const glm::quat rot = walker_.body_rotation();
  const BoneTransform place{rot, body - rot * rig_.body_origin};
  for (BoneTransform& t : pose_) t = place * t;
  iterations_ = 0;
  for (std::size_t i = 0; i < 4; ++i) SolveLeg(i);
}

void QuadrupedWalker::SolveLeg(std::size_t i) {
  const std::vector<int>& bones = rig_.legs[i].bones;
  const std::size_t n = bones.size();
  // The cycle's leg with the bind lengths (the cycle keeps them to 0.1 mm), hip-relative.
  const glm::vec3 hip = pose_[std::size_t(bones[0])].translation;
  std::vector<glm::vec3>& pre = pre_[i];
  std::vector<glm::vec3>& rel = scratch_[i];
  rel[0] = glm::vec3(0.0f);
  for (std::size_t k = 1; k < n; ++k) {
    const glm::vec3 d =
        pose_[std::size_t(bones[k])].translation - pose_[std::size_t(bones[k - 1])].translation;
    const float len = glm::length(d);
    const glm::vec3 dir = len > 1e-9f ? d / len : glm::vec3(0.0f, -1.0f, 0.0f);
    rel[k] = rel[k - 1] + dir * lengths_[i][k - 1];
  }
  for (std::size_t k = 0; k < n; ++k) pre[k] = hip + rel[k];
  Chain& chain = chains_[i];
  if (chain.SetPose(rel)) {
    SolveSettings settings;
    settings.tolerance = 1e-4f;
    settings.max_iterations = kLegIterations;
    to_world_.inner = &recording_;
    to_world_.offset = hip;
    SolveObserver* observer = static_cast<int>(i) == recorded_leg_ ? &to_world_ : nullptr;
    const SolveResult r = SolveFabrik(chain, foot_goal(i) - hip, settings, observer);
    iterations_ += r.iterations;
  }
  std::vector<glm::vec3>& solved = solved_[i];
  for (std::size_t k = 0; k < n; ++k) solved[k] = hip + chain.joints()[k];
  // Each bone turned onto its solved direction, twist kept; the leaf turns with its parent.
  glm::quat turn(1.0f, 0.0f, 0.0f, 0.0f);
  for (std::size_t k = 0; k < n; ++k) {
    BoneTransform& t = pose_[std::size_t(bones[k])];
    if (k + 1 < n) {
      const glm::vec3 from = glm::normalize(pre[k + 1] - pre[k]);
      const glm::vec3 to = glm::normalize(solved[k + 1] - solved[k]);
      const glm::vec3 other = std::abs(from.x) < 0.9f ? glm::vec3(1, 0, 0) : glm::vec3(0, 1, 0);
      turn = MinimalRotation(from, to, glm::normalize(glm::cross(from, other)));
    }
    t.rotation = glm::normalize(turn * t.rotation);
    t.translation = solved[k];
  }
}

std::span<const glm::vec3> QuadrupedWalker::leg_joints(std::size_t i) const {
  return i < 4 ? std::span<const glm::vec3>(solved_[i]) : std::span<const glm::vec3>();
}

std::span<const glm::vec3> QuadrupedWalker::leg_pre_solve(std::size_t i) const {
  return i < 4 ? std::span<const glm::vec3>(pre_[i]) : std::span<const glm::vec3>();
}

glm::vec3 QuadrupedWalker::foot_goal(std::size_t i) const {
  if (i >= 4) return glm::vec3(0.0f);
  return walker_.legs()[i].foot_target + glm::vec3(0.0f, rig_.legs[i].foot_height, 0.0f);
}

}  // namespace fabrik::character
