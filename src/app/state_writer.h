// state_writer.h - the per-frame JSON Lines stream of --state-out (contract section 1).
#pragma once

#include <cstdio>
#include <memory>
#include <string>

#include "app/app_state.h"
#include "ik/result.h"

namespace fabrik {

class StateWriter {
 public:
  // Opens (truncates) `path`; fails with a message if it cannot be written.
  static Result<std::unique_ptr<StateWriter>> Open(const std::string& path);
  ~StateWriter();
  // Writes one line for the frame just finished and flushes it.
  void Write(const AppState& state);

 private:
  explicit StateWriter(std::FILE* file) : file_(file) {}
  std::FILE* file_;
};

// The state line as a JSON string (no newline), also used by the console's `state`, which
// leaves out `console_last` (else each `state` would print the previous one inside it).
// Bytes that are not valid UTF-8 in any text field are written as U+FFFD.
std::string StateLine(const AppState& state, bool with_console_last = true);

}  // namespace fabrik
