// text_file.cpp - reading a marker file whole (text_file.h).
#include "markers/text_file.h"

#include <filesystem>
#include <fstream>
#include <iterator>
#include <system_error>

#include "markers/take.h"

namespace fabrik::markers {

Result<std::string> ReadMarkerFile(const std::string& path) {
  std::error_code error;
  const auto status = std::filesystem::status(path, error);
  if (error || !std::filesystem::exists(status)) return MakeError(path + ": no such file");
  if (std::filesystem::is_directory(status)) return MakeError(path + ": is a directory");
  if (!std::filesystem::is_regular_file(status)) return MakeError(path + ": not a regular file");
  const auto size = std::filesystem::file_size(path, error);
  if (error) return MakeError(path + ": cannot read it");
  if (size == 0) return MakeError(path + ": the file is empty");
  if (size > kMaxFileBytes) {
    return MakeError(path + ": larger than the limit of " + std::to_string(kMaxFileBytes >> 20) +
                     " MiB");
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) return MakeError(path + ": cannot open it");
  std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (in.bad()) return MakeError(path + ": read error");
  return bytes;
}

std::string Printable(std::string_view word) {
  std::string out;
  for (char c : word.substr(0, 40)) out += (c >= ' ' && c < 0x7f) ? c : '?';
  return out;
}

}  // namespace fabrik::markers
