#include "io/file_write.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstring>
#include <random>

namespace fabrik::io {
namespace {

// Linux's own limit on symlinks followed in one path lookup.
constexpr int kMaxLinks = 40;

std::string Folder(const std::string& path) {
  const std::size_t slash = path.rfind('/');
  if (slash == std::string::npos) return ".";
  if (slash == 0) return "/";
  return path.substr(0, slash);
}

std::string Failure(const char* verb, const std::string& path, int error_number) {
  return std::string("cannot ") + verb + " " + path + ": " + ErrnoText(error_number);
}

const char* KindOf(mode_t mode) {
  if (S_ISFIFO(mode)) return "a FIFO";
  if (S_ISSOCK(mode)) return "a socket";
  if (S_ISDIR(mode)) return "a folder";
  if (S_ISBLK(mode)) return "a block device";
  if (S_ISCHR(mode)) return "a character device";
  return "not a regular file";
}

// A fresh name in `folder` for the temporary file, created exclusively (never an existing
// file, never through a symlink someone placed there).
Result<std::pair<std::string, int>> CreateTemporary(const std::string& target) {
  static std::atomic<unsigned> counter{0};
  std::random_device device;
  const std::string folder = Folder(target);
  const std::string base = target.substr(target.rfind('/') + 1);
  int error_number = 0;
  for (int attempt = 0; attempt < 16; ++attempt) {
    const std::string name = folder + "/." + base + ".tmp-" + std::to_string(::getpid()) + "-" +
                             std::to_string(counter++) + "-" + std::to_string(device() % 100000);
    const int fd = ::open(name.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0666);
    if (fd >= 0) return std::make_pair(name, fd);
    error_number = errno;
    if (error_number != EEXIST) break;
  }
  return MakeError(Failure("write", target, error_number) + " (creating a temporary file in " +
                   folder + ")");
}

// A fresh temporary name beside `target`, as CreateTemporary's (never an existing file).
std::string TemporaryName(const std::string& target, const char* kind, unsigned attempt) {
  static std::atomic<unsigned> counter{0};
  std::random_device device;
  const std::string base = target.substr(target.rfind('/') + 1);
  return Folder(target) + "/." + base + "." + kind + "-" + std::to_string(::getpid()) + "-" +
         std::to_string(counter++) + "-" + std::to_string(attempt) + "-" +
         std::to_string(device() % 100000);
}

// Keeps the file `target` names as TARGET.bak, but only while it is still the file `wanted`.
// Several writers may do this at once (two demos sharing a settings folder, both finding the
// same unusable file): checking the identity and then renaming TARGET would let a late writer
// rename another's new file over the backup, and the user's file would be gone. So the file
// TARGET names now is first hard-linked under a temporary name, the link's identity is checked
// (a link cannot change what it points at), and only a link to `wanted` is renamed over the
// backup. A writer that finds TARGET already replaced does nothing: the writer that replaced
// it has kept the backup. Returns an error text, or nothing on success or when there is
// nothing to keep. Where the file system has no hard links, falls back to renaming TARGET.
std::optional<std::string> KeepBackup(const std::string& target, const FileId& wanted,
                                      const std::string& shown) {
  const std::string backup = target + ".bak";
  auto failed = [&](int e) {
    return Failure("keep", shown, e) + " as " + backup + " (not replaced)";
  };
  for (unsigned attempt = 0; attempt < 16; ++attempt) {
    const std::string link = TemporaryName(target, "bak", attempt);
    if (::link(target.c_str(), link.c_str()) != 0) {
      const int e = errno;
      if (e == EEXIST) continue;
      if (e == ENOENT) return std::nullopt;  // no file to keep any more
      if (e == EPERM || e == EOPNOTSUPP || e == EXDEV || e == EMLINK) {
        const auto now = IdentifyFile(target);
        if (!now || !(*now == wanted)) return std::nullopt;
        if (::rename(target.c_str(), backup.c_str()) != 0) return failed(errno);
        return std::nullopt;
      }
      return failed(e);
    }
    struct stat st {};
    const bool same = ::lstat(link.c_str(), &st) == 0 && FileId{st.st_dev, st.st_ino} == wanted;
    if (!same) {
      ::unlink(link.c_str());
      return std::nullopt;
    }
    const int renamed = ::rename(link.c_str(), backup.c_str());
    const int e = errno;
    // When the backup already is this file (another writer kept it first), rename() does
    // nothing and leaves the link: it goes either way.
    ::unlink(link.c_str());
    if (renamed != 0) return failed(e);
    return std::nullopt;
  }
  return failed(EEXIST);
}

}  // namespace

std::string ErrnoText(int error_number) {
  if (error_number == 0) return "unknown error";
  char buffer[256];
  // GNU strerror_r returns the text (possibly not in buffer); thread-safe, unlike strerror.
  return std::string(strerror_r(error_number, buffer, sizeof buffer));
}

std::optional<FileId> IdentifyFile(const std::string& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) return std::nullopt;
  return FileId{st.st_dev, st.st_ino};
}

Result<std::string> ResolveWriteTarget(const std::string& path) {
  std::string p = path;
  for (int links = 0; links <= kMaxLinks; ++links) {
    struct stat st {};
    if (::lstat(p.c_str(), &st) != 0 || !S_ISLNK(st.st_mode)) return p;
    std::string link(4096, '\0');
    const ssize_t n = ::readlink(p.c_str(), link.data(), link.size());
    if (n < 0) return MakeError(Failure("read the link", p, errno));
    if (static_cast<std::size_t>(n) >= link.size()) {
      return MakeError("cannot read the link " + p + ": its target is too long");
    }
    link.resize(static_cast<std::size_t>(n));
    p = (link.empty() || link[0] == '/') ? link : Folder(p) + "/" + link;
  }
  return MakeError(Failure("write", path, ELOOP));
}

int WriteAll(int fd, std::string_view bytes) {
  while (!bytes.empty()) {
    const ssize_t n = ::write(fd, bytes.data(), bytes.size());
    if (n < 0) {
      if (errno == EINTR) continue;
      return errno == 0 ? EIO : errno;
    }
    if (n == 0) return EIO;  // no progress and no reason: do not spin
    bytes.remove_prefix(static_cast<std::size_t>(n));
  }
  return 0;
}

Status WriteFileAtomic(const std::string& path, std::string_view bytes,
                       const WriteOptions& options) {
  if (path.empty()) return MakeError("cannot write a file with an empty name");
  auto resolved = ResolveWriteTarget(path);
  if (!resolved) return MakeError(resolved.error());
  const std::string& target = resolved.value();
  const std::string shown = target == path ? path : path + " (-> " + target + ")";

  struct stat old {};
  const bool exists = ::stat(target.c_str(), &old) == 0;
  if (exists && !S_ISREG(old.st_mode)) {
    return MakeError("cannot write " + shown + ": it is " + KindOf(old.st_mode) +
                     ", not a regular file");
  }
  auto temporary = CreateTemporary(target);
  if (!temporary) return MakeError(temporary.error());
  // Plain variables, not a structured binding: clang 14 cannot capture one in a lambda.
  const std::string temp = temporary.value().first;
  const int fd = temporary.value().second;
  auto fail = [&](const char* verb, int error_number) {
    ::unlink(temp.c_str());
    return MakeError(Failure(verb, shown, error_number));
  };
  int error_number = WriteAll(fd, bytes);
  if (error_number == 0 && exists && ::fchmod(fd, old.st_mode & 07777) != 0) error_number = errno;
  if (error_number == 0 && options.sync && ::fsync(fd) != 0) error_number = errno;
  // close() can report a write that failed late (NFS, quotas): its result counts too.
  if (::close(fd) != 0 && error_number == 0 && errno != EINTR) error_number = errno;
  if (error_number != 0) return fail("write", error_number);

  if (exists && options.back_up) {
    if (auto problem = KeepBackup(target, *options.back_up, shown)) {
      ::unlink(temp.c_str());
      return MakeError(*problem);
    }
  }
  if (::rename(temp.c_str(), target.c_str()) != 0) return fail("replace", errno);
  return Ok{};
}

Result<int> OpenStreamOutput(const std::string& path, bool append) {
  if (path.empty()) return MakeError("cannot write a file with an empty name");
  struct stat st {};
  auto refuse = [&](mode_t mode) -> Result<int> {
    return MakeError("cannot write " + path + ": it is " + KindOf(mode) +
                     " (only a regular file or a character device)");
  };
  auto allowed = [](mode_t mode) { return S_ISREG(mode) || S_ISCHR(mode); };
  if (::stat(path.c_str(), &st) == 0 && !allowed(st.st_mode)) return refuse(st.st_mode);
  // O_NONBLOCK: a FIFO made between the stat and the open cannot block the open (it fails
  // with ENXIO without a reader, or opens and is refused by the fstat below).
  const int flags = O_WRONLY | O_CREAT | O_CLOEXEC | O_NONBLOCK | (append ? O_APPEND : O_TRUNC);
  const int fd = ::open(path.c_str(), flags, 0666);
  if (fd < 0) return MakeError(Failure("write", path, errno));
  if (::fstat(fd, &st) != 0 || !allowed(st.st_mode)) {
    const mode_t mode = st.st_mode;
    ::close(fd);
    return refuse(mode);
  }
  const int status = ::fcntl(fd, F_GETFL);
  if (status >= 0) ::fcntl(fd, F_SETFL, status & ~O_NONBLOCK);
  return fd;
}

}  // namespace fabrik::io
