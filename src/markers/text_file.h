// text_file.h - reading a marker file whole, within the take's size limit (take.h).
#pragma once

#include <string>
#include <string_view>

#include "ik/result.h"

namespace fabrik::markers {

// The bytes of `path`. Fails, naming the path: missing, a folder or not a regular file,
// unreadable, empty, or larger than kMaxFileBytes.
Result<std::string> ReadMarkerFile(const std::string& path);

// A word of a file as a message quotes it: its first 40 bytes, each byte that is not
// printable ASCII shown as '?', so a message stays one printable line.
std::string Printable(std::string_view word);

}  // namespace fabrik::markers
