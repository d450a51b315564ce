// writable_path.cpp - see writable_path.h.
#include "io/writable_path.h"

#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>

#include "io/file_write.h"

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

Status CheckExportPath(const std::string& path, const std::string& source_path,
                       std::string_view source_name) {
  using Kind = WritablePath::Kind;
  const WritablePath at = InspectWritablePath(path);
  if (at.kind == Kind::kEmpty) return MakeError("the path is empty");
  if (at.trailing_slash) return MakeError(path + " names a folder, not a file");
  switch (at.kind) {
    case Kind::kFolder:
      return MakeError(path + " is a folder");
    case Kind::kCharDevice:
    case Kind::kOther:
      return MakeError(path + " is not a regular file (a FIFO, a device or a socket)");
    case Kind::kRegular: {
      const auto id = IdentifyFile(path);
      if (id && id == IdentifyFile(source_path)) {
        return MakeError(path + " is the " + std::string(source_name) +
                         " being read; writing it would overwrite it");
      }
      return Ok{};
    }
    case Kind::kStatError:
      return MakeError("cannot write " + path + ": " + ErrnoText(at.error));
    default:
      break;
  }
  if (!at.folder_exists) {
    return MakeError("cannot write " + path + ": the folder " + at.folder + " does not exist");
  }
  if (at.folder_error != 0) {
    return MakeError("cannot write " + path + ": " + ErrnoText(at.folder_error));
  }
  return Ok{};
}

}  // namespace fabrik::io
