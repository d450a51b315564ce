#include "io/line_file.h"

#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <utility>

#include "io/file_write.h"

namespace fabrik::io {

LineFile::LineFile(LineFile&& other) noexcept { *this = std::move(other); }

LineFile& LineFile::operator=(LineFile&& other) noexcept {
  if (this != &other) {
    (void)Close();
    fd_ = std::exchange(other.fd_, -1);
    path_ = std::move(other.path_);
    good_size_ = other.good_size_;
    regular_ = other.regular_;
    failed_ = other.failed_;
  }
  return *this;
}

Result<LineFile> LineFile::Open(const std::string& path, bool append) {
  auto fd = OpenStreamOutput(path, append);
  if (!fd) return MakeError(fd.error());
  LineFile f;
  f.fd_ = fd.value();
  f.path_ = path;
  struct stat st {};
  if (::fstat(f.fd_, &st) == 0) {
    f.regular_ = S_ISREG(st.st_mode);
    f.good_size_ = st.st_size;
  }
  return f;
}

Status LineFile::Write(std::string_view lines) {
  if (fd_ < 0 || lines.empty()) return Ok{};
  const int error_number = WriteAll(fd_, lines);
  if (error_number == 0) {
    good_size_ += static_cast<std::int64_t>(lines.size());
    return Ok{};
  }
  // Part of `lines` may be in the file: cut it back so the file ends with a whole line.
  // Shrinking needs no space, so this works on a full disk too.
  if (regular_) (void)::ftruncate(fd_, good_size_);
  ::close(fd_);
  fd_ = -1;
  failed_ = true;
  return MakeError("cannot write " + path_ + ": " + ErrnoText(error_number) +
                   "; stopped writing it (it ends with the last complete line)");
}

Status LineFile::Close() {
  if (fd_ < 0) return Ok{};
  const int result = ::close(fd_);
  const int error_number = errno;
  fd_ = -1;
  if (result != 0 && error_number != EINTR) {
    failed_ = true;
    return MakeError("cannot write " + path_ + ": " + ErrnoText(error_number));
  }
  return Ok{};
}

}  // namespace fabrik::io
