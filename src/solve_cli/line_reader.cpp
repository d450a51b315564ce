#include "solve_cli/line_reader.h"

#include <new>
#include <streambuf>

namespace fabrik::tools {

LineStatus ReadLine(std::istream& in, std::string& line, std::size_t max_bytes) {
  line.clear();
  std::streambuf* buffer = in.rdbuf();
  if (buffer == nullptr || !in.good()) return LineStatus::kEnd;
  bool any = false;
  bool too_long = false;
  bool no_memory = false;
  for (;;) {
    const int c = buffer->sbumpc();
    if (c == std::char_traits<char>::eof()) {
      in.setstate(std::ios::eofbit);
      if (!any) return LineStatus::kEnd;
      break;
    }
    any = true;
    if (c == '\n') break;
    if (line.size() < max_bytes && !no_memory) {
      try {
        line.push_back(static_cast<char>(c));
      } catch (const std::bad_alloc&) {
        no_memory = true;  // under a memory limit: drop the line, answer, go on
        line.clear();
        line.shrink_to_fit();
      }
    } else if (!no_memory) {
      too_long = true;  // keep reading to the newline, keep nothing more
    }
  }
  if (no_memory) return LineStatus::kNoMemory;
  if (too_long) {
    line.clear();
    line.shrink_to_fit();
    return LineStatus::kTooLong;
  }
  return LineStatus::kLine;
}

}  // namespace fabrik::tools
