// file_write.h - writing files so that a failure is reported and never leaves a half file
// (docs/limits.md, "Files the demo writes"). POSIX only; no GL, no app state.
//
// Two kinds of output:
//  - WriteFileAtomic: a whole file (a screenshot, settings.json, imgui.ini) is written to a
//    temporary file in the target's folder, every write and the close are checked, and the
//    temporary file is renamed over the target. On any failure the temporary file is removed,
//    the target is left as it was, and the error names the path and the system's reason.
//  - OpenStreamOutput: a file written line by line while the app runs (--state-out, a
//    recording). It is opened without ever blocking: a FIFO, socket, folder or block device
//    is refused before anything is written.
#pragma once

#include <sys/types.h>

#include <optional>
#include <string>
#include <string_view>

#include "ik/result.h"

namespace fabrik::io {

// The system's text for an errno value ("No space left on device"); never "Success": an
// errno of 0 (a failure the system did not explain) reads "unknown error".
std::string ErrnoText(int error_number);

// Identity of an existing file (following symlinks): the same device and inode means the same
// file, even after it was renamed.
struct FileId {
  dev_t device = 0;
  ino_t inode = 0;
  bool operator==(const FileId&) const = default;
};
std::optional<FileId> IdentifyFile(const std::string& path);

// The file a write to `path` lands in: `path` itself, or, when `path` is a symlink (to any
// depth, dangling or not), the file the links lead to. Fails on a loop of links (more than 40)
// or an unreadable link.
Result<std::string> ResolveWriteTarget(const std::string& path);

struct WriteOptions {
  // fsync the temporary file before the rename (the data reaches the disk before the name).
  bool sync = false;
  // When the target is this very file, it is first kept as TARGET.bak (replacing an older
  // backup) instead of being replaced: a file the app could not read is kept. Once the new
  // file is in place the target is a different file, so later writes make no backup. Safe
  // with several writers at once (two demos sharing a settings folder): the backup only ever
  // receives this very file, never another writer's new one.
  std::optional<FileId> back_up;
};

// Writes `bytes` as the whole content of `path`, atomically (see the top of the file).
// A symlink at `path` is kept and the file it points to is replaced. An existing target that
// is not a regular file (a FIFO, a device, a folder) is refused without being opened. The new
// file has the old one's permission bits, or 0666 less the umask. Errors: one line, naming the
// path and the reason ("cannot write /x/y.png: No space left on device").
Status WriteFileAtomic(const std::string& path, std::string_view bytes,
                       const WriteOptions& options = {});

// Opens `path` for writing one stream of lines: created (0666 less the umask) or truncated
// (`append` false) or appended to. Refused without blocking: a FIFO, socket, folder or block
// device (character devices such as /dev/null or /dev/full are allowed). Returns a file
// descriptor (close-on-exec, blocking writes) or an error naming the path and the reason.
Result<int> OpenStreamOutput(const std::string& path, bool append = false);

// Writes all of `bytes` to `fd`, retrying after interruptions and short writes. Returns 0 or
// the errno of the failure (ENOSPC, EFBIG, EIO, ...); how much was written then is unknown.
int WriteAll(int fd, std::string_view bytes);

}  // namespace fabrik::io
