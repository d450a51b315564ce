// writable_path.cpp - see writable_path.h.
#include "io/writable_path.h"

#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>

namespace fabrik::io {

WritablePath InspectWritablePath(const std::string& path) {
  WritablePath out;
  if (path.empty()) return out;
  out.trailing_slash = path.back() == '/';
  struct stat st {};
  if (::stat(path.c_str(), &st) == 0) {
    if (S_ISDIR(st.st_mode)) {
      out.kind = WritablePath::Kind::kFolder;
    } else if (S_ISCHR(st.st_mode)) {
      out.kind = WritablePath::Kind::kCharDevice;
    } else if (S_ISREG(st.st_mode)) {
      out.kind = WritablePath::Kind::kRegular;
    } else {
      out.kind = WritablePath::Kind::kOther;
    }
    return out;
  }
  if (errno != ENOENT) {
    out.kind = WritablePath::Kind::kStatError;
    out.error = errno;
    return out;
  }
  out.kind = WritablePath::Kind::kMissing;
  const std::size_t slash = path.find_last_of('/');
  out.folder = slash == std::string::npos ? "." : (slash == 0 ? "/" : path.substr(0, slash));
  out.folder_exists = ::stat(out.folder.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
  if (out.folder_exists && ::access(out.folder.c_str(), W_OK | X_OK) != 0) out.folder_error = errno;
  return out;
}

}  // namespace fabrik::io
