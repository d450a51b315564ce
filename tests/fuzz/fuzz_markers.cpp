// libFuzzer target: arbitrary bytes through the marker readers other than TRC (fuzz_trc has
// that one): the first byte picks the reader, the rest is the file.
//   even: a marker set (src/markers/marker_set.h). Checks: no crash; a refusal is one
//         printable line naming the source; an accepted set has every segment, the pelvis at
//         least 3 markers and every other segment 1 to 64, no marker on more than two.
//   odd:  a CSM take through the guard and Assimp (src/markers/csm.h). Checks: no crash; a
//         refusal is one printable line naming the source; an accepted take passes
//         ValidateTake, and written with CsmText and read again it is the same take (names,
//         frames, gaps, first frame, rate to the file's 3 decimals, positions to its 6).
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <string>
#include <string_view>

#include "markers/csm.h"
#include "markers/marker_set.h"

namespace {

using namespace fabrik::markers;

void Check(bool condition, const char* what) {
  if (!condition) {
    std::fprintf(stderr, "fuzz_markers: broken promise: %s\n", what);
    std::abort();
  }
}

void CheckMessage(const std::string& message, std::string_view source) {
  bool printable = true;
  for (unsigned char c : message) printable = printable && c >= ' ' && c != 0x7f;
  if (!printable || message.rfind(source, 0) != 0) {
    std::fprintf(stderr, "fuzz_markers: the message:");
    for (unsigned char c : message) std::fprintf(stderr, c >= ' ' && c < 0x7f ? "%c" : "\\x%02x", c);
    std::fprintf(stderr, "\n");
  }
  Check(message.rfind(source, 0) == 0, "the message names the source");
  Check(printable, "the message is one printable line");
}

void CheckMarkerSet(std::string_view text) {
  const fabrik::Result<MarkerSet> set = ParseMarkerSet(text, "fuzz.txt");
  if (!set.ok()) {
    CheckMessage(set.error(), "fuzz.txt");
    return;
  }
  std::map<std::string, int> segments_of;
  for (int s = 0; s < kSegmentCount; ++s) {
    const auto& markers = set.value().segments[static_cast<std::size_t>(s)];
    Check(markers.size() >= (s == kPelvis ? 3u : 1u), "enough markers on every segment");
    Check(markers.size() <= static_cast<std::size_t>(kMaxMarkersPerSegment), "at most 64");
    for (const std::string& m : markers) ++segments_of[m];
  }
  for (const auto& [name, count] : segments_of) Check(count <= 2, "a marker on two segments at most");
}

bool Near(float a, float b) {
  // 6 decimals of a millimetre, and float rounding of the value itself (metres).
  return std::fabs(a - b) <= 1e-8f + 4e-7f * std::max(std::fabs(a), std::fabs(b));
}

void CheckCsm(std::string_view text) {
  const fabrik::Result<Take> take = ReadCsmText(text, "fuzz.csm");
  if (!take.ok()) {
    CheckMessage(take.error(), "fuzz.csm");
    return;
  }
  const Take& t = take.value();
  Check(ValidateTake(t).ok(), "an accepted take is valid");
  const fabrik::Result<Take> back = ReadCsmText(CsmText(t), "fuzz.csm (written)");
  Check(back.ok(), "a written take reads back");
  const Take& b = back.value();
  Check(b.names == t.names && b.frame_count == t.frame_count, "names and frames kept");
  Check(b.first_frame == t.first_frame, "first frame kept");
  Check(std::fabs(b.rate - t.rate) <= 5e-4f + 1e-6f * t.rate, "rate kept");
  Check(b.seen == t.seen, "gaps kept");
  for (std::size_t i = 0; i < t.positions.size(); ++i) {
    if (!t.seen[i]) continue;
    for (int k = 0; k < 3; ++k) Check(Near(b.positions[i][k], t.positions[i][k]), "positions kept");
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const std::string_view text(reinterpret_cast<const char*>(data) + 1, size - 1);
  if (data[0] % 2 == 0) {
    CheckMarkerSet(text);
  } else {
    CheckCsm(text);
  }
  return 0;
}
