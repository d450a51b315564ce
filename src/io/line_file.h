// line_file.h - a file written as a stream of whole lines (a recording, the --state-out
// stream), where a failed write is reported once and never leaves half a line.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "ik/result.h"

namespace fabrik::io {

class LineFile {
 public:
  LineFile() = default;
  LineFile(LineFile&& other) noexcept;
  LineFile& operator=(LineFile&& other) noexcept;
  LineFile(const LineFile&) = delete;
  LineFile& operator=(const LineFile&) = delete;
  ~LineFile() { (void)Close(); }

  // Opens `path` as OpenStreamOutput does (file_write.h): never blocks; a FIFO, socket,
  // folder or block device is refused; created or truncated (or appended to).
  static Result<LineFile> Open(const std::string& path, bool append = false);

  // Writes `lines`, which should end in '\n'. On the first failed write (full disk, a file
  // size limit, an I/O error) the file is cut back to the end of the last complete write, so
  // it ends with a whole line, is closed, and the error is returned ("cannot write PATH: No
  // space left on device"). After that, or when not open, Write does nothing and returns Ok.
  Status Write(std::string_view lines);
  // Closes the file; the error of a failed close (the last data lost), or of a regular file
  // that is no longer at its path (removed, replaced, its folder deleted), else Ok.
  Status Close();

  bool is_open() const { return fd_ >= 0; }
  // Whether a write or the close failed (the file was closed then).
  bool failed() const { return failed_; }
  const std::string& path() const { return path_; }

 private:
  int fd_ = -1;
  std::string path_;
  std::int64_t good_size_ = 0;  // bytes of complete writes so far (regular files)
  bool regular_ = false;
  bool failed_ = false;
};

}  // namespace fabrik::io
