// clip.h - a motion-capture clip (a skeleton and its frames), loaded from BVH with Assimp.
//
// Space and units. Everything in a Clip is in metres (the file's units times scale()), in the
// file's own frame: right-handed, +Y up; a BVH character faces +Z in its rest pose, so its
// left is +X. Joint 0 is the root. Joints are stored in depth-first order (every parent before
// its children), so the joints of the subtree of j are exactly [j, subtree_end(j)).
// BVH "End Site"s are joints too (no channels: they follow their parent rigidly), named by
// Assimp "EndSite_<parent name>".
//
// Loading (LoadClipFile, LoadClipFromMemory). The file is parsed by Assimp's BVH importer;
// before Assimp sees it, a cheap guard reads only the tokens that decide how much Assimp
// would allocate and how deep it would recurse (joint count, channel count, claimed frame
// count), so that a hostile file is refused before it costs memory or stack. One call gives
// one Clip or one Error naming the problem:
//   * the path is missing, a directory, unreadable, or larger than kMaxFileBytes;
//   * the text is not a BVH Assimp accepts (Assimp's own message is passed on);
//   * no skeleton (no ROOT), or more than kMaxJoints joints (End Sites included);
//   * no frames, more than kMaxFrames frames, frames x joints above kMaxSamples;
//   * motion data that is not one frame a line (a line with more or fewer values than the
//     channels, a value that is not a number: the error names the line), or more or fewer
//     frame lines than the "Frames:" claim (the error names both counts);
//   * a frame time not finite or outside [kMinFrameTime, kMaxFrameTime] seconds;
//   * a channel value that is not finite, or an offset / translation beyond kMaxMetres once
//     scaled;
//   * a given scale not finite or outside [kMinScale, kMaxScale].
//
// Scale rule (ClipLoadOptions::metres_per_unit = 0, the default). The rest-pose height h
// (highest minus lowest joint, file units) is matched against common units: metres, then
// centimetres, millimetres and inches, the first that makes a plausible adult height
// (kMinPlausibleHeight..kMaxPlausibleHeight metres) wins. If none does (e.g. the CMU
// captures, whose unit is a scaled inch), the skeleton is scaled to kDefaultHeight (1.7 m);
// a height that would need a scale outside [kMinScale, kMaxScale] is refused.
//
// Up-axis rule (ClipLoadOptions::up). Some exporters write Z-up skeletons (the rest pose
// stands along +Z). Read as Y-up, such a skeleton's "height" is its depth, and the scale rule
// makes a giant of it. With UpAxis::kDetect (the default) a rest pose more than kZUpRatio
// times as deep (Z extent) as tall (Y extent) is taken for Z-up; a Z-up clip is turned by
// -90 degrees about X (file +Z becomes +Y, file -Y becomes +Z) before the scale rule, every
// offset, translation and rotation alike, so the clip is the same motion in the frame above.
// turned_from_z_up() says so.
#pragma once

#include <cstddef>
#include <cstdint>
#include <glm/gtc/quaternion.hpp>
#include <glm/vec3.hpp>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "ik/result.h"

namespace fabrik::mocap {

// Limits of an accepted clip (documented in docs/mocap.md).
inline constexpr std::size_t kMaxFileBytes = 128u << 20;  // 128 MiB
inline constexpr int kMaxJoints = 1000;                   // End Sites included
inline constexpr int kMaxFrames = 1000000;
inline constexpr std::size_t kMaxSamples = 4000000;  // frames x joints (<= 112 MB stored)
inline constexpr float kMinFrameTime = 1e-4f;        // seconds (10 kHz)
inline constexpr float kMaxFrameTime = 10.0f;        // seconds
inline constexpr float kMinScale = 1e-6f;            // metres per file unit
inline constexpr float kMaxScale = 1e3f;
inline constexpr float kMaxMetres = 1e4f;  // largest |coordinate| of an offset or translation

// The scale rule's constants (metres).
inline constexpr float kMinPlausibleHeight = 1.2f;
inline constexpr float kMaxPlausibleHeight = 2.2f;
inline constexpr float kDefaultHeight = 1.7f;

// Which file axis is up (the up-axis rule above).
enum class UpAxis : std::uint8_t {
  kDetect,  // Z when the rest pose is more than kZUpRatio times as deep (Z) as tall (Y)
  kY,       // the file's +Y is up, as BVH usually has it: kept as it is
  kZ,       // the file's +Z is up: turned so that it becomes +Y
};
// A standing person is about ten times as tall as deep; an animal on four legs about twice
// as long (Z) as high. A Y-up skeleton over three times as deep as tall is taken for Z-up.
inline constexpr float kZUpRatio = 3.0f;

struct ClipLoadOptions {
  // Metres per file unit; 0 chooses it from the skeleton's height (the scale rule above).
  float metres_per_unit = 0.0f;
  UpAxis up = UpAxis::kDetect;
};

// How the scale was chosen.
enum class ScaleSource : std::uint8_t {
  kGiven,
  kUnitMetres,
  kUnitCentimetres,
  kUnitMillimetres,
  kUnitInches,
  kHeightNormalised
};

class Clip {
 public:
  int joint_count() const { return static_cast<int>(names_.size()); }
  int frame_count() const { return frame_count_; }
  // Seconds between frames.
  float frame_time() const { return frame_time_; }
  // Time of the last frame, seconds: (frame_count - 1) x frame_time.
  float duration() const { return static_cast<float>(frame_count_ - 1) * frame_time_; }
  // Metres per file unit, and how it was chosen.
  float scale() const { return scale_; }
  ScaleSource scale_source() const { return scale_source_; }
  // True when the file was read as Z-up and turned to +Y up (the up-axis rule above).
  bool turned_from_z_up() const { return turned_from_z_up_; }
  // The rest pose's height (highest minus lowest joint), metres.
  float rest_height() const { return rest_height_; }
  // Where the clip came from (the path given, or the name given to LoadClipFromMemory).
  const std::string& source() const { return source_; }

  const std::string& name(int j) const { return names_[j]; }
  std::span<const std::string> names() const { return names_; }
  // Parent of each joint: -1 for the root (joint 0 only), otherwise a smaller index.
  std::span<const int> parents() const { return parents_; }
  // One past the last joint of j's subtree.
  int subtree_end(int j) const { return subtree_end_[j]; }
  // Rest offset of each joint from its parent (the root's: from the origin), metres.
  std::span<const glm::vec3> offsets() const { return offsets_; }
  // Rest-pose joint positions (offsets summed, no rotation), metres.
  std::span<const glm::vec3> rest_positions() const { return rest_positions_; }

  // Frame f's local rotation of joint j (unit quaternion; identity for End Sites).
  const glm::quat& rotation(int f, int j) const {
    return rotations_[static_cast<std::size_t>(f) * names_.size() + j];
  }
  // Frame f's local translation of joint j from its parent, metres: the joint's position
  // channels when it has them (the root's usually), otherwise its rest offset.
  glm::vec3 translation(int f, int j) const {
    const int k = translation_track_[j];
    return k < 0 ? offsets_[j] : translations_[static_cast<std::size_t>(f) * track_count_ + k];
  }
  // True when joint j has position channels.
  bool has_translation(int j) const { return translation_track_[j] >= 0; }
  // Joint j's channels as the file lists them, space separated ("Xposition Yposition
  // Zposition Zrotation Xrotation Yrotation"); empty for End Sites.
  const std::string& channel_layout(int j) const { return channel_layout_[j]; }

 private:
  friend struct ClipBuilder;
  std::string source_;
  std::vector<std::string> names_;
  std::vector<int> parents_;
  std::vector<int> subtree_end_;
  std::vector<glm::vec3> offsets_;
  std::vector<glm::vec3> rest_positions_;
  std::vector<int> translation_track_;
  std::vector<std::string> channel_layout_;
  int track_count_ = 0;
  int frame_count_ = 0;
  float frame_time_ = 0.0f;
  float scale_ = 1.0f;
  float rest_height_ = 0.0f;
  ScaleSource scale_source_ = ScaleSource::kGiven;
  bool turned_from_z_up_ = false;
  std::vector<glm::quat> rotations_;     // [frame][joint]
  std::vector<glm::vec3> translations_;  // [frame][track]
};

// Reads a BVH file. See the header comment for the errors.
Result<Clip> LoadClipFile(const std::string& path, const ClipLoadOptions& options = {});

// The same from bytes in memory; `source` names them in messages and in Clip::source().
Result<Clip> LoadClipFromMemory(std::string_view bytes, const std::string& source,
                                const ClipLoadOptions& options = {});

// A short name for a scale source ("given", "metres", "centimetres", "millimetres", "inches",
// "height 1.7 m").
const char* ScaleSourceName(ScaleSource source);

}  // namespace fabrik::mocap
