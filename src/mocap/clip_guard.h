// clip_guard.h - the cheap look at a BVH file taken before Assimp parses it (clip.h).
//
// Assimp's BVH importer reserves memory for the frame count a file claims and recurses once
// per nesting level, before it can notice that the data is not there. GuardBvhText reads only
// the words that decide those costs, splitting the text into words the way the importer does
// (white space separates words; "{" and "}" are words of their own), and refuses a file
// whose claims pass the limits of clip.h. It is a guard, not a parser: a file it lets through
// may still be refused by Assimp.
#pragma once

#include <cstddef>
#include <string_view>

#include "ik/result.h"

namespace fabrik::mocap {

struct BvhClaims {
  int joints = 0;              // ROOT, JOINT and End Site entries
  int channels = 0;            // channel values per frame
  int frames = 0;              // the "Frames:" claim
  float frame_time = 0.0f;     // the "Frame Time:" claim, seconds
  std::size_t motion_bytes = 0;  // bytes after the frame time
};

// Fails, naming the problem, on: no HIERARCHY / ROOT, more than kMaxJoints joints, a
// CHANNELS count outside [0, 6], no MOTION section, a frame count that is not a number, zero,
// above kMaxFrames or (with the joints) above kMaxSamples, more values claimed than the bytes
// that follow could hold, or a frame time outside [kMinFrameTime, kMaxFrameTime].
Result<BvhClaims> GuardBvhText(std::string_view text);

}  // namespace fabrik::mocap
