// line_reader.h - fabrik-solve's input lines, with a length limit so that one huge (or
// endless) line costs bounded memory and the next request is still answered (docs/fabrik-solve.md:
// The headless solver, "Limits").
#pragma once

#include <cstddef>
#include <istream>
#include <string>

namespace fabrik::tools {

// Longest request line read, in bytes (without the newline).
inline constexpr std::size_t kMaxLineBytes = 8u << 20;  // 8 MiB

enum class LineStatus {
  kLine,      // `line` holds the next line (a final line without newline included)
  kTooLong,   // the line was longer than max_bytes: it was read to its end and dropped
  kNoMemory,  // no memory to hold the line (std::bad_alloc): it was read to its end and dropped
  kEnd,       // no more input
};

// Reads the next '\n'-terminated line of `in` (the '\n' dropped, any other byte kept) keeping
// at most `max_bytes` of it in memory. Stops at end of input or on a read error.
LineStatus ReadLine(std::istream& in, std::string& line, std::size_t max_bytes = kMaxLineBytes);

}  // namespace fabrik::tools
