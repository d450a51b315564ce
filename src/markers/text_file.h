// text_file.h - reading a marker file whole, within the take's size limit (take.h).
#pragma once

#include <string>

#include "ik/result.h"

namespace fabrik::markers {

// The bytes of `path`. Fails, naming the path: missing, a folder or not a regular file,
// unreadable, empty, or larger than kMaxFileBytes.
Result<std::string> ReadMarkerFile(const std::string& path);

}  // namespace fabrik::markers
