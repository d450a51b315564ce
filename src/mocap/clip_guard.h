// clip_guard.h - the cheap look at a BVH file taken before Assimp parses it (clip.h).
//
// Assimp's BVH importer reserves memory for the frame count a file claims and recurses once
// per nesting level, before it can notice that the data is not there; and when it refuses a
// hierarchy it leaks the nodes it has built. GuardBvhText splits the text into words the way
// the importer does (white space separates words; "{" and "}" are words of their own),
// checks the hierarchy's keywords and numbers (a stricter grammar than the importer's, so a
// hierarchy passed here is one it accepts), and refuses a file whose claims pass the limits
// of clip.h. In the motion data it checks the lines, which the importer does not see (it
// reads values as words): one frame a line, each with one plain number per channel, as many
// frame lines as the "Frames:" claim; blank lines are skipped. Assimp then parses the values.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "ik/result.h"

namespace fabrik::mocap {

struct BvhClaims {
  int joints = 0;                // ROOT, JOINT and End Site entries
  int channels = 0;              // channel values per frame
  int frames = 0;                // the "Frames:" claim
  float frame_time = 0.0f;       // the "Frame Time:" claim, seconds
  std::size_t motion_bytes = 0;  // bytes after the frame time
  // Per joint in file order (End Sites included, empty): its CHANNELS names, space separated.
  std::vector<std::string> channel_layout;
};

// Fails, naming the problem, on: no HIERARCHY / ROOT, more than kMaxJoints joints, a
// CHANNELS count outside [0, 6] or an unknown channel, an unexpected word or a number that
// is not a plain decimal in the hierarchy, no MOTION section, a frame count that is not a number,
// zero, above kMaxFrames or (with the joints) above kMaxSamples, a frame time outside
// [kMinFrameTime, kMaxFrameTime], a frame line with more or fewer values than channels or a value
// that is not a plain number (the error names the line), or more or fewer frame lines than claimed
// (the error names both counts). `text` starts at the file's first byte after a UTF-8 byte-order
// mark (LoadClipFromMemory drops one), so line numbers are the file's.
Result<BvhClaims> GuardBvhText(std::string_view text);

}  // namespace fabrik::mocap
