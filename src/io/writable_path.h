// writable_path.h - what stands at a path a file is to be written to, found without creating,
// opening or truncating anything (POSIX stat and access). Callers turn it into their own
// messages: the demo's options (app/options.cpp) and the exports (CheckExportPath below).
#pragma once

#include <string>
#include <string_view>

#include "ik/result.h"

namespace fabrik::io {

struct WritablePath {
  enum class Kind {
    kEmpty,       // the path is empty
    kFolder,      // an existing folder
    kCharDevice,  // an existing character device (/dev/null)
    kOther,       // an existing FIFO, socket or block device
    kRegular,     // an existing regular file
    kMissing,     // nothing there yet (stat: ENOENT)
    kStatError,   // stat failed otherwise: see `error`
  };
  Kind kind = Kind::kEmpty;
  bool trailing_slash = false;  // the path ends in '/'
  int error = 0;                // kStatError: stat's errno
  // kMissing: the folder the new file would go in ("." for a bare name), whether it exists
  // as a folder, and access(W_OK | X_OK)'s errno on it (0: writable).
  std::string folder;
  bool folder_exists = false;
  int folder_error = 0;
};

// Follows symlinks, as stat does. Never fails: every outcome is a Kind.
WritablePath InspectWritablePath(const std::string& path);

// Whether a file the app exports (a baked clip, a solved take) can be written at `path`
// without harm, checked before any work starts: refused, with one line naming the path and
// the problem, when it is empty, names a folder, is an existing folder, FIFO, device or
// socket, lies in a folder that does not exist or cannot be written, or is the file
// `source_path` the export reads (compared by file identity, so another spelling or a link is
// caught too; the line then calls it "the `source_name` being read"). Nothing is created.
Status CheckExportPath(const std::string& path, const std::string& source_path,
                       std::string_view source_name);

}  // namespace fabrik::io
