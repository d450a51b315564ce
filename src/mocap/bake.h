// bake.h - the IK baked into a clip: every frame of a clip played through a Character
// (character.h) and the corrected motion written as BVH (bvh_write.h). No GL, no window.
//
// The baked file has the clip's own skeleton: its joint names, offsets, unit (values are
// divided by Clip::scale(), so a clip read in centimetres is written in centimetres), channel
// order (Clip::channel_layout; a joint whose channels could not hold a corrected rotation, or
// a clip without a layout, gets its position channels and "Zrotation Xrotation Yrotation"),
// and its frame count and frame time. Frame f is the character's pose at clip time
// f x frame_time, played from frame 0 with dt = frame_time, with the frame's placement
// undone (Character::placed_turn / placed_shift): the file is in the clip's own frame, like
// the clip it came from.
//
// Playing the baked file back: sampling its frame f (SampleFrame) gives the IK's pose of that
// frame in the clip's frame, within float rounding (well under 0.1 mm on the packaged clips;
// tested through Assimp). A Character playing it with IK weight 0 at the same placement on
// the same ground gives the IK's world pose up to one constant height for the whole clip:
// placement stands a clip's lowest foot point on the ground (contacts.h), and the IK may have
// moved that point (Baker::replay_lift reports the constant).
//
// Reach and look targets and IK weight changes are BakeEvents at clip times: each applies
// before the first frame at or after its time, in the order given, as the Character's own
// setters would (blends and fades run as when playing).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "mocap/bvh_write.h"
#include "mocap/character.h"

namespace fabrik::mocap {

struct BakeEvent {
  enum class Kind { kReach, kReachOff, kLook, kLookOff, kWeight };
  float time = 0.0f;  // clip seconds
  Kind kind = Kind::kReach;
  Side hand = kRight;     // kReach, kReachOff
  glm::vec3 point{0.0f};  // kReach, kLook: world metres
  float weight = 1.0f;    // kWeight: [0, 1]
};

struct BakeOptions {
  const Heightmap* terrain = nullptr;  // null: flat ground at y = 0; not owned
  Placement placement;
  CharacterSettings settings;
  float ik_weight = 1.0f;
  std::vector<BakeEvent> events;
};

// The skeleton of `clip` as the bake writes it (see the header comment), and the clip's own
// frames as the writer takes them (file units): the clip unchanged, ready to write.
BvhSkeleton ClipSkeleton(const Clip& clip);
BvhFrames ClipFrames(const Clip& clip);

class Baker {
 public:
  // Fails (naming the problem) on a character the rig cannot make, a weight outside [0, 1],
  // an event with a non-finite time, a target the Character refuses (not finite, beyond
  // 10 km, no arms or head), or a clip too large to hold its baked frames (Clip limits).
  static Result<Baker> Create(std::shared_ptr<const Rig> rig, const BakeOptions& options);

  // Runs the IK on up to `frames` (>= 1) more frames; true once every frame is done.
  bool Step(int frames);
  bool done() const { return next_ == frame_count(); }
  int frames_done() const { return next_; }
  int frame_count() const { return frames_.frame_count; }
  float progress() const { return static_cast<float>(next_) / static_cast<float>(frame_count()); }
  // The character after the last frame run (its pose() is that frame's IK pose, world).
  const Character& character() const { return character_; }
  const BvhSkeleton& skeleton() const { return skeleton_; }
  const BvhFrames& frames() const { return frames_; }
  // Lowest foot point of the baked frames minus the clip's floor, metres (see the header).
  float replay_lift() const;

  // The baked clip as BVH text / written to `path` (bvh_write.h); refused until done().
  Result<std::string> Format() const;
  Status Write(const std::string& path) const;

 private:
  Baker(std::shared_ptr<const Rig> rig, Character character, BakeOptions options);
  void Record(int frame);

  std::shared_ptr<const Rig> rig_;
  Character character_;
  BakeOptions options_;
  std::size_t next_event_ = 0;
  int next_ = 0;
  float lowest_foot_ = 1e30f;  // clip frame, metres
  BvhSkeleton skeleton_;
  BvhFrames frames_;
};

// The whole bake at once: Create, Step to the end, Write.
Status BakeClip(std::shared_ptr<const Rig> rig, const BakeOptions& options,
                const std::string& path);

}  // namespace fabrik::mocap
