// bake.cpp - see bake.h.
#include "mocap/bake.h"

#include <algorithm>
#include <cmath>

namespace fabrik::mocap {
namespace {

bool HoldsAnyRotation(const std::vector<BvhChannel>& channels) {
  int rotations = 0, positions = 0;
  for (BvhChannel c : channels) (static_cast<int>(c) >= 3 ? rotations : positions)++;
  return rotations == 3 && (positions == 0 || positions == 3);
}

Status ApplyEvent(Character& c, const BakeEvent& e) {
  switch (e.kind) {
    case BakeEvent::Kind::kReach:
      return c.SetReachTarget(e.hand, e.point);
    case BakeEvent::Kind::kReachOff:
      c.ClearReachTarget(e.hand);
      return Ok{};
    case BakeEvent::Kind::kLook:
      return c.SetLookTarget(e.point);
    case BakeEvent::Kind::kLookOff:
      c.ClearLookTarget();
      return Ok{};
    case BakeEvent::Kind::kWeight:
      return c.SetIkWeight(e.weight);
  }
  return MakeError("unknown bake event");
}

}  // namespace

BvhSkeleton ClipSkeleton(const Clip& clip) {
  BvhSkeleton s;
  const int joints = clip.joint_count();
  s.joints.resize(static_cast<std::size_t>(joints));
  for (int j = 0; j < joints; ++j) {
    BvhJoint& out = s.joints[static_cast<std::size_t>(j)];
    out.name = clip.name(j);
    out.parent = clip.parents()[j];
    out.offset = clip.offsets()[j] / clip.scale();
    const std::string& layout = clip.channel_layout(j);
    const bool leaf = clip.subtree_end(j) == j + 1;
    if (layout.empty() && leaf && j > 0 && !clip.has_translation(j)) {
      out.end_site = true;
      continue;
    }
    Result<std::vector<BvhChannel>> parsed = ParseBvhChannels(layout);
    if (parsed && HoldsAnyRotation(parsed.value())) {
      out.channels = std::move(parsed.value());
      continue;
    }
    if (clip.has_translation(j)) {
      out.channels = {BvhChannel::kXposition, BvhChannel::kYposition, BvhChannel::kZposition};
    }
    out.channels.insert(out.channels.end(),
                        {BvhChannel::kZrotation, BvhChannel::kXrotation, BvhChannel::kYrotation});
  }
  return s;
}

BvhFrames ClipFrames(const Clip& clip) {
  BvhFrames out;
  out.frame_count = clip.frame_count();
  out.frame_time = clip.frame_time();
  const std::size_t joints = static_cast<std::size_t>(clip.joint_count());
  out.rotations.resize(static_cast<std::size_t>(clip.frame_count()) * joints);
  out.translations.resize(out.rotations.size());
  for (int f = 0; f < clip.frame_count(); ++f) {
    for (int j = 0; j < clip.joint_count(); ++j) {
      const std::size_t at = static_cast<std::size_t>(f) * joints + static_cast<std::size_t>(j);
      out.rotations[at] = clip.rotation(f, j);
      out.translations[at] = clip.translation(f, j) / clip.scale();
    }
  }
  return out;
}

Result<Baker> Baker::Create(std::shared_ptr<const Rig> rig, const BakeOptions& options) {
  if (!rig) return MakeError("bake: no clip");
  Result<Character> made = Character::Create(rig, options.settings);
  if (!made) return MakeError("bake: " + made.error());
  Character& c = made.value();
  c.SetTerrain(options.terrain);
  c.SetPlacement(options.placement);
  if (Status s = c.SetIkWeight(options.ik_weight); !s) return MakeError("bake: " + s.error());
  BakeOptions sorted = options;
  for (const BakeEvent& e : sorted.events) {
    if (!std::isfinite(e.time)) return MakeError("bake: an event's time is not finite");
    // Checked on a scratch character so that a refused event is named before any work.
    Result<Character> scratch = Character::Create(rig, options.settings);
    if (!scratch) return MakeError("bake: " + scratch.error());
    if (Status s = ApplyEvent(scratch.value(), e); !s) {
      return MakeError("bake: event at " + std::to_string(e.time) + " s: " + s.error());
    }
  }
  std::stable_sort(sorted.events.begin(), sorted.events.end(),
                   [](const BakeEvent& a, const BakeEvent& b) { return a.time < b.time; });
  return Baker(std::move(rig), std::move(made.value()), std::move(sorted));
}

Baker::Baker(std::shared_ptr<const Rig> rig, Character character, BakeOptions options)
    : rig_(std::move(rig)), character_(std::move(character)), options_(std::move(options)) {
  const Clip& clip = rig_->clip;
  skeleton_ = ClipSkeleton(clip);
  frames_.frame_count = clip.frame_count();
  frames_.frame_time = clip.frame_time();
  const std::size_t samples =
      static_cast<std::size_t>(clip.frame_count()) * static_cast<std::size_t>(clip.joint_count());
  frames_.rotations.resize(samples);
  frames_.translations.resize(samples);
}

bool Baker::Step(int frames) {
  const float dt = rig_->clip.frame_time();
  for (int k = 0; k < std::max(frames, 1) && !done(); ++k) {
    const float time = static_cast<float>(next_) * dt;
    while (next_event_ < options_.events.size() && options_.events[next_event_].time <= time) {
      (void)ApplyEvent(character_, options_.events[next_event_++]);  // checked in Create
    }
    character_.Update(time, dt);
    Record(next_);
    ++next_;
  }
  return done();
}

void Baker::Record(int frame) {
  const Clip& clip = rig_->clip;
  const Pose& pose = character_.pose();
  const glm::quat unturn = glm::inverse(character_.placed_turn());
  const glm::vec3 shift = character_.placed_shift();
  const int joints = clip.joint_count();
  const float per_metre = 1.0f / clip.scale();
  const std::size_t base = static_cast<std::size_t>(frame) * static_cast<std::size_t>(joints);
  for (int j = 0; j < joints; ++j) {
    const int p = clip.parents()[j];
    glm::quat r;
    glm::vec3 t;
    if (p < 0) {
      r = unturn * pose.rotations[j];
      t = unturn * (pose.positions[j] - shift);
    } else {
      const glm::quat up = glm::inverse(pose.rotations[p]);
      r = up * pose.rotations[j];
      t = clip.has_translation(j) ? up * (pose.positions[j] - pose.positions[p])
                                  : clip.offsets()[j];
    }
    frames_.rotations[base + j] = glm::normalize(r);
    frames_.translations[base + j] = t * per_metre;
  }
  for (int side : {kLeft, kRight}) {
    const int a = rig_->limbs.legs[side].end();
    for (int j = a; j < clip.subtree_end(a); ++j) {
      lowest_foot_ = std::min(lowest_foot_, (unturn * (pose.positions[j] - shift)).y);
    }
  }
}

float Baker::replay_lift() const { return lowest_foot_ - rig_->contacts.floor; }

Result<std::string> Baker::Format() const {
  if (!done()) return MakeError("the bake is not finished");
  return FormatBvh(skeleton_, frames_);
}

Status Baker::Write(const std::string& path) const {
  if (!done()) return MakeError("cannot write " + path + ": the bake is not finished");
  return WriteBvhFile(path, skeleton_, frames_);
}

Status BakeClip(std::shared_ptr<const Rig> rig, const BakeOptions& options,
                const std::string& path) {
  Result<Baker> baker = Baker::Create(std::move(rig), options);
  if (!baker) return MakeError(baker.error());
  baker.value().Step(baker.value().frame_count());
  return baker.value().Write(path);
}

}  // namespace fabrik::mocap
