#include "tools/line_reader.h"

#include <streambuf>

namespace fabrik::tools {

LineStatus ReadLine(std::istream& in, std::string& line, std::size_t max_bytes) {
  line.clear();
  std::streambuf* buffer = in.rdbuf();
  if (buffer == nullptr || !in.good()) return LineStatus::kEnd;
  bool any = false;
  bool too_long = false;
  for (;;) {
    const int c = buffer->sbumpc();
    if (c == std::char_traits<char>::eof()) {
      in.setstate(std::ios::eofbit);
      if (!any) return LineStatus::kEnd;
      break;
    }
    any = true;
    if (c == '\n') break;
    if (line.size() < max_bytes) {
      line.push_back(static_cast<char>(c));
    } else {
      too_long = true;  // keep reading to the newline, keep nothing more
    }
  }
  if (too_long) {
    line.clear();
    line.shrink_to_fit();
    return LineStatus::kTooLong;
  }
  return LineStatus::kLine;
}

}  // namespace fabrik::tools
