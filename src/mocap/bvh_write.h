// bvh_write.h - writing a skeleton and its frames as a BVH file (docs/mocap.md: Writing BVH).
//
// The general writer: any caller with a skeleton of its own (the mocap bake, a marker
// recorder) fills a BvhSkeleton and BvhFrames and gets the text or a file.
//
// Skeleton. Joints in depth-first order, parents first: joint 0 is the ROOT, every other
// joint's parent has a smaller index, and a joint's children follow it in the order they are
// written. A joint is written as "End Site" when `end_site` is set (it must be a leaf without
// channels); every other joint as ROOT or JOINT with its name (one word: no white space, no
// braces, not empty) and its channels in the given order. Offsets are in the file's units.
//
// Channels. Each joint's channel list is the file's: up to three position channels and up to
// three rotation channels, each axis at most once per kind. A rotation is written as the
// product of the rotation channels in list order (R = R_1 R_2 R_3, each about its own axis,
// the convention of BVH readers such as Assimp's), so a joint with all three rotation
// channels holds any rotation; a joint with fewer holds only rotations about those axes, and
// any other rotation is refused (WriteBvhFile / FormatBvh fail naming the joint and frame).
// Position channels write the joint's translation from its parent (file units).
//
// Frames. BvhFrames holds per frame and joint the local rotation (unit quaternion, of the
// joint's frame in its parent's) and translation (file units; read only for joints with
// position channels). Angles are written in degrees and every value as the shortest decimal
// that reads back to the same float (values below 1e-7 in magnitude as 0), so a reader taking
// floats gets back what was written.
//
// Errors (one message naming the problem, nothing written): a malformed skeleton (as above),
// frame data of the wrong size, no frames, a frame time that is not finite and positive, a
// non-finite value, a rotation the channels cannot hold. WriteBvhFile writes through
// io::WriteFileAtomic: to a temporary name in the target's folder, every write and the close
// checked, renamed over the target only when complete; a FIFO, a folder, a device or a full
// disk give one error and leave no file behind.
#pragma once

#include <cstdint>
#include <glm/gtc/quaternion.hpp>
#include <glm/vec3.hpp>
#include <string>
#include <vector>

#include "ik/result.h"

namespace fabrik::mocap {

enum class BvhChannel : std::uint8_t {
  kXposition,
  kYposition,
  kZposition,
  kXrotation,
  kYrotation,
  kZrotation
};

struct BvhJoint {
  std::string name;                  // ignored for an End Site
  int parent = -1;                   // -1 for joint 0 only
  glm::vec3 offset{0.0f};            // from the parent, file units
  std::vector<BvhChannel> channels;  // in file order
  bool end_site = false;
};

struct BvhSkeleton {
  std::vector<BvhJoint> joints;
};

struct BvhFrames {
  int frame_count = 0;
  float frame_time = 0.0f;              // seconds between frames
  std::vector<glm::quat> rotations;     // [frame x joints + joint]
  std::vector<glm::vec3> translations;  // [frame x joints + joint], file units
};

// Parses a BVH channel list ("Xposition Yposition Zposition Zrotation Xrotation Yrotation");
// an unknown word, a repeated channel or more than six fail.
Result<std::vector<BvhChannel>> ParseBvhChannels(const std::string& words);

// The whole file as text.
Result<std::string> FormatBvh(const BvhSkeleton& skeleton, const BvhFrames& frames);

// FormatBvh written to `path` atomically (see the header comment).
Status WriteBvhFile(const std::string& path, const BvhSkeleton& skeleton, const BvhFrames& frames);

}  // namespace fabrik::mocap
