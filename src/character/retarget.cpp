// retarget.cpp - a clip played on a character's own skeleton (retarget.h).
#include "character/retarget.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <glm/geometric.hpp>
#include <string>

#include "character/pose.h"
#include "ik/constrained_fabrik.h"
#include "ik/fabrik.h"
#include "ik/rotations.h"

namespace fabrik::character {
namespace {

// A unit vector square to unit `v`: the half-turn axis for MinimalRotation.
glm::vec3 Square(const glm::vec3& v) {
  const glm::vec3 other = std::abs(v.x) < 0.9f ? glm::vec3(1, 0, 0) : glm::vec3(0, 1, 0);
  return glm::normalize(glm::cross(v, other));
}

glm::quat Turn(const glm::vec3& from, const glm::vec3& to) {
  return MinimalRotation(from, to, Square(from));
}

std::string BvhNumber(float v) {
  char buf[48];
  std::snprintf(buf, sizeof buf, "%.6f", static_cast<double>(v));
  return buf;
}

// The character's bind pose as a one-frame BVH text, so that the limb finder (which reads
// clips) sees its shape: bone b is joint "jb", offsets are bind position differences (a BVH
// rest pose has no rotations), a leaf gets an End Site on itself.
std::string SkeletonAsBvh(const Skeleton& sk, const std::vector<BoneTransform>& bind) {
  const int n = sk.bone_count();
  std::vector<std::vector<int>> children(static_cast<std::size_t>(n));
  for (int b = 1; b < n; ++b) children[sk.parents[b]].push_back(b);
  std::string text = "HIERARCHY\n";
  std::vector<int> stack{0};  // a bone, or ~bone for its closing brace
  while (!stack.empty()) {
    const int top = stack.back();
    stack.pop_back();
    if (top < 0) {
      text += "}\n";
      continue;
    }
    const int p = sk.parents[top];
    const glm::vec3 o = p < 0 ? bind[top].translation : bind[top].translation - bind[p].translation;
    text += (p < 0 ? "ROOT j" : "JOINT j") + std::to_string(top) + "\n{\nOFFSET " + BvhNumber(o.x) +
            " " + BvhNumber(o.y) + " " + BvhNumber(o.z) + "\n" +
            (p < 0 ? "CHANNELS 6 Xposition Yposition Zposition Zrotation Xrotation Yrotation\n"
                   : "CHANNELS 3 Zrotation Xrotation Yrotation\n");
    if (children[top].empty()) text += "End Site\n{\nOFFSET 0 0 0\n}\n";
    stack.push_back(~top);
    for (auto c = children[top].rbegin(); c != children[top].rend(); ++c) stack.push_back(*c);
  }
  text += "MOTION\nFrames: 1\nFrame Time: 0.033333\n";
  for (int i = 0; i < 3 * n + 3; ++i) text += i == 0 ? "0" : " 0";
  return text + "\n";
}

// The first joint after `from` on the path to its descendant `tip` that does not coincide
// with `from` in the rest pose; -1 if none.
int NextOnPath(const mocap::Clip& clip, int from, int tip) {
  if (tip < 0) return -1;
  std::vector<int> path;
  for (int j = tip; j >= 0 && j != from; j = clip.parents()[j]) path.push_back(j);
  for (auto it = path.rbegin(); it != path.rend(); ++it) {
    if (glm::length(clip.rest_positions()[*it] - clip.rest_positions()[from]) > 1e-6f) return *it;
  }
  return -1;
}

// The joints after `from` down to `to` (its descendant), in order.
std::vector<int> PathBelow(std::span<const int> parents, int from, int to) {
  std::vector<int> path;
  for (int j = to; j >= 0 && j != from; j = parents[j]) path.push_back(j);
  return {path.rbegin(), path.rend()};
}

// The lowest joint that is `a` or above it and `b` or above it.
int CommonAncestor(std::span<const int> parents, int a, int b) {
  for (int x = a; x >= 0; x = parents[x]) {
    for (int y = b; y >= 0; y = parents[y]) {
      if (x == y) return x;
    }
  }
  return 0;
}

// Share of the path's rest length at each of its joints (the last at 1).
std::vector<float> Shares(std::span<const glm::vec3> rest, int from, const std::vector<int>& path) {
  std::vector<float> at;
  float sum = 0.0f;
  int last = from;
  for (int j : path) {
    sum += glm::length(rest[j] - rest[last]);
    at.push_back(sum);
    last = j;
  }
  for (float& a : at) a = sum > 0.0f ? a / sum : 1.0f;
  return at;
}

// The smallest rotation taking direction `from` onto `to` (identity for a zero vector).
glm::quat TurnBetween(const glm::vec3& from, const glm::vec3& to) {
  const float a = glm::length(from), b = glm::length(to);
  return a > 1e-9f && b > 1e-9f ? Turn(from / a, to / b) : glm::quat(1.0f, 0.0f, 0.0f, 0.0f);
}

// A limb's three joints r, m, e solved by FABRIK (its chain, root at the origin) from where
// they are towards `goal`; with a pole (a point) the middle joint is then turned about the
// root-end line onto the pole's side (BendTowardsPole, ik/constrained_fabrik.h). Writes the solved middle and end.
void SolveLimbChain(Chain& chain, const glm::vec3& r, const glm::vec3& m, const glm::vec3& e,
                    const glm::vec3& goal, const glm::vec3* pole, glm::vec3& m2, glm::vec3& e2) {
  m2 = m;
  e2 = e;
  const glm::vec3 now[3] = {glm::vec3(0.0f), m - r, e - r};
  if (!chain.SetPose(now)) return;
  SolveSettings settings;
  settings.tolerance = 1e-4f;
  settings.max_iterations = 30;
  (void)SolveFabrik(chain, goal - r, settings);
  if (pole != nullptr) BendTowardsPole(chain, *pole - r);
  m2 = r + chain.joints()[1];
  e2 = r + chain.joints()[2];
}

float LegLength(std::span<const glm::vec3> rest, const mocap::Limb& leg) {
  float sum = 0.0f;
  for (std::size_t i = 1; i < leg.chain.size(); ++i) {
    sum += glm::length(rest[leg.chain[i]] - rest[leg.chain[i - 1]]);
  }
  return sum;
}

}  // namespace

void Retargeter::Match(int bone, int clip, int bone_aim, int clip_aim) {
  if (bone < 0 || clip < 0) return;
  for (const RetargetJoint& j : joints_) {
    if (j.bone == bone) return;  // matched already
  }
  RetargetJoint j;
  j.bone = bone;
  j.clip = clip;
  glm::vec3 aim(0.0f);
  // The clip's aim must be a child of its joint: through a joint between them (a finger base
  // at the hand, say) the aim would swing with that joint's own rotation.
  if (bone_aim >= 0 && clip_aim >= 0 && clip_parents_[clip_aim] == clip) {
    const glm::vec3 d_bone = bind_[bone_aim].translation - bind_[bone].translation;
    const glm::vec3 d_clip = clip_rest_[clip_aim] - clip_rest_[clip];
    if (glm::length(d_bone) > 1e-6f && glm::length(d_clip) > 1e-6f) {
      j.bone_aim = bone_aim;
      j.clip_aim = clip_aim;
      aim = glm::normalize(d_bone);
      j.rest_align = Turn(aim, glm::normalize(d_clip));
    }
  }
  joints_.push_back(j);
  aim_rest_.push_back(aim);
}

void Retargeter::MatchSpine(int base, const std::vector<int>& bones, int clip_base,
                            const std::vector<int>& clip_joints) {
  if (bones.empty() || clip_joints.empty()) return;
  std::vector<glm::vec3> bone_rest;
  for (const BoneTransform& t : bind_) bone_rest.push_back(t.translation);
  const std::vector<float> bone_at = Shares(bone_rest, base, bones);
  const std::vector<float> clip_at = Shares(clip_rest_, clip_base, clip_joints);
  std::vector<int> partner;
  for (float a : bone_at) {
    std::size_t best = 0;
    for (std::size_t k = 1; k < clip_at.size(); ++k) {
      if (std::abs(clip_at[k] - a) < std::abs(clip_at[best] - a)) best = k;
    }
    partner.push_back(clip_joints[best]);
  }
  for (std::size_t i = 0; i < bones.size(); ++i) {
    const bool next = i + 1 < bones.size() && partner[i + 1] != partner[i];
    Match(bones[i], partner[i], next ? bones[i + 1] : -1, next ? partner[i + 1] : -1);
  }
}

Result<Retargeter> Retargeter::Create(const Skeleton& character, const mocap::Clip& clip) {
  Retargeter r;
  r.bind_.resize(character.names.size());
  if (!BindPose(character, r.bind_)) return MakeError("the character has no skeleton");
  r.clip_rest_.assign(clip.rest_positions().begin(), clip.rest_positions().end());
  r.clip_parents_.assign(clip.parents().begin(), clip.parents().end());
  mocap::ClipLoadOptions exact;
  exact.metres_per_unit = 1.0f;
  exact.up = mocap::UpAxis::kY;
  Result<mocap::Clip> shape =
      mocap::LoadClipFromMemory(SkeletonAsBvh(character, r.bind_), "the character", exact);
  if (!shape) return MakeError("cannot read the character's shape: " + shape.error());
  Result<mocap::Limbs> ours = mocap::FindLimbs(shape.value());
  if (!ours) return MakeError("the character: " + ours.error());
  Result<mocap::Limbs> theirs = mocap::FindLimbs(clip);
  if (!theirs) return MakeError("the clip: " + theirs.error());
  const mocap::Clip& s = shape.value();
  // Joint "jN" of the shape is bone N; an End Site is its leaf's bone.
  auto bone = [&s](int j) {
    if (j < 0) return -1;
    const std::string& name = s.name(j);
    return name[0] == 'j' ? std::stoi(name.substr(1)) : std::stoi(s.name(s.parents()[j]).substr(1));
  };
  const mocap::Limbs& cl = ours.value();
  const mocap::Limbs& kl = theirs.value();
  r.Match(bone(cl.pelvis), kl.pelvis, -1, -1);
  auto limb = [&](const mocap::Limb& c, const mocap::Limb& k) {
    r.Match(bone(c.chain[0]), k.chain[0], bone(c.chain[c.middle]), k.chain[k.middle]);
    r.Match(bone(c.chain[c.middle]), k.chain[k.middle], bone(c.end()), k.end());
    r.Match(bone(c.end()), k.end(), bone(NextOnPath(s, c.end(), c.tip)),
            NextOnPath(clip, k.end(), k.tip));
  };
  for (int side : {mocap::kLeft, mocap::kRight}) limb(cl.legs[side], kl.legs[side]);
  if (cl.has_arms && kl.has_arms) {
    for (int side : {mocap::kLeft, mocap::kRight}) limb(cl.arms[side], kl.arms[side]);
  }
  if (cl.has_head && kl.has_head) {
    std::vector<int> spine;
    // From the joint that holds both the legs and the head (the pelvis, or a root above it).
    const int base = CommonAncestor(s.parents(), cl.pelvis, cl.head);
    const int clip_base = CommonAncestor(clip.parents(), kl.pelvis, kl.head);
    for (int j : PathBelow(s.parents(), base, cl.head)) spine.push_back(bone(j));
    r.MatchSpine(bone(base), spine, clip_base, PathBelow(clip.parents(), clip_base, kl.head));
    r.Match(bone(cl.head), kl.head, bone(NextOnPath(s, cl.head, cl.head_tip)),
            NextOnPath(clip, kl.head, kl.head_tip));
  }
  // Limbs in bone indices.
  r.character_limbs_ = cl;
  mocap::Limbs& out = r.character_limbs_;
  for (int* j : {&out.pelvis, &out.neck, &out.head, &out.head_tip}) *j = bone(*j);
  for (auto* limbs : {&out.legs, &out.arms}) {
    for (mocap::Limb& l : *limbs) {
      for (int& j : l.chain) j = bone(j);
      l.tip = bone(l.tip);
    }
  }
  r.clip_limbs_ = kl;
  const float ours_leg = 0.5f * (LegLength(s.rest_positions(), cl.legs[0]) +
                                 LegLength(s.rest_positions(), cl.legs[1]));
  const float theirs_leg = 0.5f * (LegLength(clip.rest_positions(), kl.legs[0]) +
                                   LegLength(clip.rest_positions(), kl.legs[1]));
  r.scale_ = theirs_leg > 0.0f ? ours_leg / theirs_leg : 1.0f;
  // Every bone follows its own matched joint or the nearest one above it (the pelvis for the
  // bones above the pelvis).
  r.driver_.assign(character.names.size(), 0);
  for (int b = 0; b < character.bone_count(); ++b) {
    const int p = character.parents[b];
    r.driver_[b] = p < 0 ? 0 : r.driver_[p];
    for (std::size_t i = 0; i < r.joints_.size(); ++i) {
      if (r.joints_[i].bone == b) r.driver_[b] = static_cast<int>(i);
    }
  }
  r.delta_.resize(r.joints_.size());
  r.parents_ = character.parents;
  for (int side : {mocap::kLeft, mocap::kRight}) {
    r.AddLimbFit(r.character_limbs_.legs[side], kl.legs[side], -1);
  }
  if (cl.has_arms && kl.has_arms) {
    for (int side : {mocap::kLeft, mocap::kRight}) {
      r.AddLimbFit(r.character_limbs_.arms[side], kl.arms[side], side);
    }
  }
  return r;
}

int Retargeter::JointOf(int bone) const {
  for (std::size_t i = 0; i < joints_.size(); ++i) {
    if (joints_[i].bone == bone) return static_cast<int>(i);
  }
  return -1;
}

void Retargeter::SetHandFollow(int side, float weight) {
  hand_follow_[side == mocap::kRight ? 1 : 0] =
      std::isnan(weight) ? 0.0f : std::clamp(weight, 0.0f, 1.0f);
}

void Retargeter::SetFootLift(int side, float metres) {
  foot_lift_[side == mocap::kRight ? 1 : 0] = std::isfinite(metres) ? metres : 0.0f;
}


void Retargeter::AddLimbFit(const mocap::Limb& ours, const mocap::Limb& theirs, int arm) {
  const int root = ours.chain[0], middle = ours.chain[ours.middle], end = ours.end();
  const int j_root = JointOf(root), j_middle = JointOf(middle), j_end = JointOf(end);
  if (j_root < 0 || j_middle < 0 || j_end < 0) return;
  const glm::vec3 r = bind_[root].translation;
  Result<Chain> chain = Chain::FromJoints(
      {glm::vec3(0.0f), bind_[middle].translation - r, bind_[end].translation - r});
  if (!chain) return;  // a limb folded onto itself in the bind pose: left unfitted
  const auto length = [](std::span<const glm::vec3> p, int a, int b, int c) {
    return glm::length(p[b] - p[a]) + glm::length(p[c] - p[b]);
  };
  LimbFit fit{j_root, j_middle, j_end, -1, -1, scale_, std::move(chain).value(), arm, -1, {}};
  if (arm < 0) {
    fit.leg = ours.chain[0] == character_limbs_.legs[mocap::kRight].chain[0] ? mocap::kRight
                                                                             : mocap::kLeft;
    fit.anchor = joints_[0].bone;
    fit.clip_anchor = joints_[0].clip;
  } else {
    fit.anchor = root;
    fit.clip_anchor = theirs.chain[0];
    const float clip_arm =
        length(clip_rest_, theirs.chain[0], theirs.chain[theirs.middle], theirs.end());
    if (clip_arm > 0.0f) fit.scale = fit.chain.total_length() / clip_arm;
  }
  // The bones from the root down and the joint each moves with (FitLeg).
  for (int b = root; b < static_cast<int>(parents_.size()); ++b) {
    int with = -1;
    for (int a = b; a >= 0 && with < 0; a = parents_[a]) {
      with = a == end ? 2 : a == middle ? 1 : a == root ? 0 : -1;
    }
    if (with >= 0) fit.below.emplace_back(b, with);
  }
  fits_.push_back(std::move(fit));
}

// Model-space pose from this frame's joint rotations (delta_): rotations on top of the bind
// rotations, positions from the bind offsets, the pelvis placed by the caller afterwards.
void Retargeter::Pose(std::span<BoneTransform> out) const {
  for (std::size_t b = 0; b < bind_.size(); ++b) {
    out[b].rotation = glm::normalize(delta_[driver_[b]] * bind_[b].rotation);
    const int p = parents_[b];
    // The bind offset from the parent, turned with the parent's joint: lengths kept.
    out[b].translation = p < 0 ? bind_[b].translation
                               : out[p].translation + delta_[driver_[p]] * (bind_[b].translation -
                                                                            bind_[p].translation);
  }
}

void Retargeter::FitLimb(LimbFit& fit, const mocap::Pose& clip_pose,
                         std::span<const BoneTransform> pose) {
  const int root = joints_[fit.root].bone, middle = joints_[fit.middle].bone;
  const int end = joints_[fit.end].bone;
  const glm::vec3 r = pose[root].translation, m = pose[middle].translation;
  const glm::vec3 e = pose[end].translation;
  const glm::vec3 clip_end = clip_pose.positions[joints_[fit.end].clip];
  glm::vec3 goal =
      pose[fit.anchor].translation + fit.scale * (clip_end - clip_pose.positions[fit.clip_anchor]);
  if (fit.arm >= 0 && hand_follow_[fit.arm] > 0.0f) {
    // Where the clip's wrist is, from the pelvis (SetHandFollow).
    const RetargetJoint& pelvis = joints_[0];
    const glm::vec3 where =
        pose[pelvis.bone].translation + scale_ * (clip_end - clip_pose.positions[pelvis.clip]);
    goal = glm::mix(goal, where, hand_follow_[fit.arm]);
  }
  if (fit.leg >= 0) goal.y += foot_lift_[fit.leg];  // SetFootLift
  glm::vec3 m2, e2;
  SolveLimbChain(fit.chain, r, m, e, goal, nullptr, m2, e2);
  delta_[fit.root] = glm::normalize(TurnBetween(m - r, m2 - r) * delta_[fit.root]);
  delta_[fit.middle] = glm::normalize(TurnBetween(e - m, e2 - m2) * delta_[fit.middle]);
}

float Retargeter::FitLeg(int side, const glm::vec3& goal, std::span<BoneTransform> pose) {
  if (pose.size() != bind_.size() || !std::isfinite(goal.x) || !std::isfinite(goal.y) ||
      !std::isfinite(goal.z)) {
    return -1.0f;
  }
  LimbFit* fit = nullptr;
  for (LimbFit& f : fits_) {
    if (f.leg >= 0 && f.leg == (side == mocap::kRight ? mocap::kRight : mocap::kLeft)) fit = &f;
  }
  if (fit == nullptr) return -1.0f;
  const int root = joints_[fit->root].bone, middle = joints_[fit->middle].bone;
  const int end = joints_[fit->end].bone;
  const glm::vec3 r = pose[root].translation, m = pose[middle].translation;
  const glm::vec3 e = pose[end].translation;
  // The pole: the knee's side of the hip-ankle line, and a little of the knee bone's forward
  // (the model's +Z turned as the knee is from its bind), which alone decides for a straight leg.
  const glm::vec3 forward = pose[middle].rotation * glm::inverse(bind_[middle].rotation) *
                            glm::vec3(0.0f, 0.0f, 1.0f);
  const glm::vec3 line = e - r;
  const float line_len2 = glm::dot(line, line);
  const glm::vec3 off = line_len2 > 1e-12f ? (m - r) - line * (glm::dot(m - r, line) / line_len2)
                                           : glm::vec3(0.0f);
  const glm::vec3 pole = m + off + 0.05f * glm::length(m - r) * forward;
  glm::vec3 m2, e2;
  SolveLimbChain(fit->chain, r, m, e, goal, &pole, m2, e2);
  const glm::quat turn_root = TurnBetween(m - r, m2 - r);
  const glm::quat turn_middle = TurnBetween(e - m, e2 - m2);
  for (const auto& [b, with] : fit->below) {
    BoneTransform& t = pose[static_cast<std::size_t>(b)];
    if (with == 2) {
      t.translation += e2 - e;  // the ankle and below: moved, not turned
    } else {
      const glm::quat& q = with == 0 ? turn_root : turn_middle;
      const glm::vec3 from = with == 0 ? r : m, to = with == 0 ? r : m2;
      t.translation = to + q * (t.translation - from);
      t.rotation = glm::normalize(q * t.rotation);
    }
  }
  const float miss = glm::distance(e2, goal);
  return miss <= 1e-4f ? 0.0f : miss;
}

bool Retargeter::Apply(const mocap::Pose& clip_pose, std::span<BoneTransform> out) {
  if (out.size() != bind_.size() ||
      clip_pose.joint_count() != static_cast<int>(clip_rest_.size())) {
    return false;
  }
  for (std::size_t i = 0; i < joints_.size(); ++i) {
    const RetargetJoint& j = joints_[i];
    glm::quat d = clip_pose.rotations[j.clip] * j.rest_align;
    if (j.clip_aim >= 0) {
      const glm::vec3 now = clip_pose.positions[j.clip_aim] - clip_pose.positions[j.clip];
      const float len = glm::length(now);
      if (len > 1e-9f) {
        const glm::vec3 from = glm::normalize(d * aim_rest_[i]), to = now / len;
        // In full up to 90 degrees, fading to none at 120: never a half turn.
        const float weight = glm::clamp((glm::dot(from, to) + 0.5f) / 0.5f, 0.0f, 1.0f);
        d = glm::slerp(glm::quat(1.0f, 0.0f, 0.0f, 0.0f), Turn(from, to), weight) * d;
      }
    }
    delta_[i] = glm::normalize(d);
  }
  Pose(out);
  for (LimbFit& fit : fits_) FitLimb(fit, clip_pose, out);
  if (!fits_.empty()) Pose(out);
  // The pelvis where the clip's pelvis goes, its motion scaled by leg length.
  const RetargetJoint& pelvis = joints_[0];
  const glm::vec3 goal = bind_[pelvis.bone].translation +
                         scale_ * (clip_pose.positions[pelvis.clip] - clip_rest_[pelvis.clip]);
  const glm::vec3 shift = goal - out[pelvis.bone].translation;
  for (BoneTransform& t : out) t.translation += shift;
  return true;
}

}  // namespace fabrik::character
