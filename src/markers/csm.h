// csm.h - CSM marker files (Vicon's "Character Studio Marker" text): read through Assimp,
// written by the project (docs/markers.md, "CSM").
//
// A CSM file is millimetres with Z up: $FirstFrame, $LastFrame, $Rate, $Order (the marker
// names, white-space separated) and $Points (one line a frame: the frame number, then x y z
// per marker, or the word DROPOUT for a marker not seen). Other $ sections are ignored.
//
// Reading. Assimp's CSM importer (5.2.5) reserves keys for the frames $LastFrame claims and
// overruns them when a file has more, and it does not step over a DROPOUT. So a guard reads
// the text first, the way the importer splits it, and refuses, naming the problem (and the
// line): no $Order or $Points, a missing or non-numeric $FirstFrame/$LastFrame/$Rate, a claim
// of more frames than kMaxFrames (or samples than kMaxSamples), a bad marker name (take.h),
// a frame line with the wrong number of values, frame numbers not counting up by one from
// $FirstFrame, fewer or more frame lines than claimed, a value that is not a plain finite
// number. The text Assimp then parses is the same data with its claims made exact and each
// DROPOUT replaced by zeros (the guard remembers which were missing). Assimp's result is
// checked against the guard's (names, key counts), then ValidateTake applies.
#pragma once

#include <string>
#include <string_view>

#include "ik/result.h"
#include "markers/take.h"

namespace fabrik::markers {

Result<Take> ReadCsmFile(const std::string& path);
// The same from bytes; `source` names them in messages.
Result<Take> ReadCsmText(std::string_view text, const std::string& source);

// The take as CSM text: millimetres, Z up, DROPOUT for a marker not seen.
std::string CsmText(const Take& take);
// Writes CsmText atomically (io/file_write.h).
Status WriteCsmFile(const Take& take, const std::string& path);

}  // namespace fabrik::markers
