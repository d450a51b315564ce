// take_file.h - a marker take read from a file whose kind is told by its first bytes
// (docs/markers.md, "Takes"): a TRC file starts with PathFileType, a CSM file with a $ section.
#pragma once

#include <string>

#include "ik/result.h"
#include "markers/take.h"

namespace fabrik::markers {

// Reads `path` (text_file.h's limits) as TRC or CSM. Fails with one line naming the file and
// the problem: everything ReadMarkerFile, ReadTrcText and ReadCsmText refuse, and a file that is
// neither kind.
Result<Take> ReadTakeFile(const std::string& path);

}  // namespace fabrik::markers
