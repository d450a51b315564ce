#include "markers/take_file.h"

#include "markers/csm.h"
#include "markers/text_file.h"
#include "markers/trc.h"

namespace fabrik::markers {

Result<Take> ReadTakeFile(const std::string& path) {
  Result<std::string> bytes = ReadMarkerFile(path);
  if (!bytes.ok()) return MakeError(bytes.error());
  const std::string& text = bytes.value();
  const std::size_t start = text.find_first_not_of(" \t\r\n");
  if (start != std::string::npos && text.compare(start, 12, "PathFileType") == 0) {
    return ReadTrcText(text, path);
  }
  if (start != std::string::npos && text[start] == '$') return ReadCsmText(text, path);
  return MakeError(path + ": neither a TRC file (PathFileType) nor a CSM file ($ sections)");
}

}  // namespace fabrik::markers
