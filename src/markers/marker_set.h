// marker_set.h - which markers ride on which body segment (docs/markers.md, "Marker sets").
//
// The skeleton's segments are fixed (kSegmentNames, parents first); a marker set names the
// markers of each. File format (assets/markers/*.txt): plain text, `#` starts a comment, blank
// lines are ignored, every other line is
//     SEGMENT: MARKER MARKER ...
// Every segment appears exactly once. The pelvis needs at least 3 markers, every other
// segment at least 1 (its joint with its parent makes the other points of its fit); 2 or
// more is better. A marker may ride on two segments that meet at a joint (a knee marker on
// thigh and shank); its home, where it is predicted from, is the one nearer the pelvis.
//
// Bad input: one error naming the file and line: an unknown segment, a segment twice or
// missing, too few markers, a marker on more than two segments or on two that do not meet,
// a bad marker name (take.h), more than 64 markers on one segment.
#pragma once

#include <array>
#include <string>
#include <string_view>
#include <vector>

#include "ik/result.h"
#include "markers/take.h"

namespace fabrik::markers {

inline constexpr int kSegmentCount = 15;
enum Segment : int {
  kPelvis,
  kThorax,
  kHead,
  kUpperArmL,
  kForearmL,
  kHandL,
  kUpperArmR,
  kForearmR,
  kHandR,
  kThighL,
  kShankL,
  kFootL,
  kThighR,
  kShankR,
  kFootR
};
inline constexpr std::array<const char*, kSegmentCount> kSegmentNames = {
    "pelvis", "thorax",  "head",    "upperarm_l", "forearm_l", "hand_l",  "upperarm_r", "forearm_r",
    "hand_r", "thigh_l", "shank_l", "foot_l",     "thigh_r",   "shank_r", "foot_r"};
// Parent segment of each; -1 for the pelvis.
inline constexpr std::array<int, kSegmentCount> kSegmentParents = {
    -1,        kPelvis, kThorax, kThorax, kUpperArmL, kForearmL, kThorax, kUpperArmR,
    kForearmR, kPelvis, kThighL, kShankL, kPelvis,    kThighR,   kShankR};
inline constexpr int kMaxMarkersPerSegment = 64;

struct MarkerSet {
  std::array<std::vector<std::string>, kSegmentCount> segments;  // marker names per segment
  std::string source;
};

Result<MarkerSet> ParseMarkerSet(std::string_view text, const std::string& source);
Result<MarkerSet> LoadMarkerSetFile(const std::string& path);

// The packaged default, assets/markers/cmu.txt (the CMU set plus LPel/RPel), found from the
// executable's folder or the source tree; or an error naming where it was looked for.
Result<MarkerSet> LoadDefaultMarkerSet();

// A marker set bound to a take: marker indices of the take.
struct BoundSet {
  std::array<std::vector<int>, kSegmentCount> segments;  // take marker indices
  std::vector<int> home;  // per take marker: its home segment, or -1 when on no segment
};
// Fails, naming them, when the set names markers the take lacks.
Result<BoundSet> BindMarkerSet(const MarkerSet& set, const Take& take);

}  // namespace fabrik::markers
