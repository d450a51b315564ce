// state_writer.h - the per-frame JSON Lines stream of --state-out (docs/state.md "The state line").
#pragma once

#include <cstdio>
#include <glm/vec2.hpp>
#include <cstddef>
#include <memory>
#include <string>

#include "core/app_state.h"
#include "ik/result.h"
#include "io/line_file.h"

namespace fabrik {

// What the shell adds to the state line: facts about the window and panel, not app state.
struct ShellReport {
  bool console_open = false;
  bool console_ready = false;  // the console's input line takes typed characters now
  int draw_calls = 0;
  std::size_t drawn_items = 0;  // instances and line vertices drawn (Renderer::drawn_items)
  // The pointer as this frame's input saw it (window coordinates, top-left origin), and the
  // left, right and middle buttons, so tests can wait for input to arrive instead of sleeping.
  bool cursor_valid = false;
  glm::vec2 cursor{0.0f};
  bool buttons[3] = {false, false, false};
};

class StateWriter {
 public:
  // Opens (truncates) `path`; fails with a message if it cannot be written. A FIFO, socket
  // or folder is refused without blocking (io/line_file.h); /dev/null and other character
  // devices are allowed.
  static Result<std::unique_ptr<StateWriter>> Open(const std::string& path);
  // Writes one whole line for the frame just finished (no user-space buffering). The first
  // failed write (full disk) is returned, the file then ends with its last complete line and
  // nothing more is written; Ok otherwise, also after that failure.
  Status Write(const AppState& state, const ShellReport& shell = {});

 private:
  explicit StateWriter(io::LineFile file) : file_(std::move(file)) {}
  io::LineFile file_;
};

// The state line as a JSON string (no newline), also used by the console's `state`, which
// leaves out `console_last` (else each `state` would print the previous one inside it).
// Bytes that are not valid UTF-8 in any text field are written as U+FFFD.
std::string StateLine(const AppState& state, const ShellReport& shell = {},
                      bool with_console_last = true);

}  // namespace fabrik
