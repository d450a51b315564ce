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
  // A regular file must still be where it was opened: when its folder was deleted (or the
  // file removed or replaced) while it was written, the lines went to a file nobody can
  // reach, and saying "written" would lose them silently.
  bool gone = false;
  if (regular_) {
    struct stat open_st {
    }, path_st{};
    gone = ::fstat(fd_, &open_st) != 0 || ::stat(path_.c_str(), &path_st) != 0 ||
           open_st.st_dev != path_st.st_dev || open_st.st_ino != path_st.st_ino;
  }
  const int result = ::close(fd_);
  const int error_number = errno;
  fd_ = -1;
  if (result != 0 && error_number != EINTR) {
    failed_ = true;
    return MakeError("cannot write " + path_ + ": " + ErrnoText(error_number));
  }
  if (gone) {
    failed_ = true;
    return MakeError("cannot keep " + path_ +
                     ": the file was removed or replaced while it was written (was its folder "
                     "deleted?); what was written is lost");
  }
  return Ok{};
}

}  // namespace fabrik::io
