// script.h - timed command scripts (assets/scripts/*.txt, docs/language.md "Script files"):
// their text and its parser. The player that runs them is targets/script_player.h.
//
// Format, one item per line:
//   # comment                       '#' starts a comment anywhere (also after a command)
//   at T COMMAND...                 run COMMAND (command.h) when script time reaches T s
//   at T target X Y Z over D        glide the target linearly, from wherever it is at time
//                                   T, to X Y Z, arriving at time T + D
// Blank lines are ignored; `at` and `over` are case-insensitive.
//   * T: seconds from the start, a finite number in [0, kMaxTime]. Times must not decrease
//     down the file (an earlier time after a later one is an error, so the file reads in the
//     order it runs); equal times run in file order.
//   * D: seconds, finite, in [0, kMaxTime]; D = 0 is the same as a plain `target`.
//   * COMMAND: any command of command.h except `script run` (no scripts inside scripts).
//     `spline load PATH` is loaded when the script is parsed, resolving PATH like the console
//     does (working directory, then the context's search roots), so a script file names
//     splines relative to the project root ("assets/splines/word.txt").
// Errors are one line, "NAME:LINE: message", e.g.
//   "assets/scripts/tour.txt:12: joints: expected an integer from 2 to 10000, got 'x'"
//   "assets/scripts/tour.txt:9: time 3 is earlier than the previous line's time 5"
// Nothing throws.
#pragma once

#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <glm/vec3.hpp>

#include "ik/result.h"
#include "lang/command.h"

namespace fabrik {

// One timed line of a script.
struct ScriptLine {
  double time = 0.0;  // seconds from the script's start, >= 0, non-decreasing down the list
  // Never cmd::Nothing or cmd::ScriptRun. A cmd::Target here moves the scripted target (it
  // never appears in ScriptStep::commands).
  Command command;
  double glide_seconds = 0.0;   // > 0 only for `target ... over D`
  std::size_t source_line = 0;  // 1-based line in the file
  std::string text;             // the line as written, without comment, for the panel
};

class Script;

// Parses script text. `source_name` labels errors; `context` resolves `spline load` paths
// (its in_script flag is forced on). An empty script (only comments) is valid.
Result<Script> ParseScriptText(std::string_view text, std::string_view source_name,
                               const CommandContext& context = {});

// Reads and parses the script at `path` (used as given; `script run` resolves it first).
// A missing or unreadable file gives "PATH: cannot open file (reason)".
Result<Script> LoadScriptFile(const std::string& path, const CommandContext& context = {});

// A parsed, valid script: its timed lines in the order they run.
class Script {
 public:
  static constexpr double kMaxTime = 1.0e6;  // seconds, for T and D
  // Bounds on what one script may hold, so that no script can exhaust memory (docs/language.md:
  // Script files): timed lines, and spline control points over all its `spline load` lines.
  static constexpr std::size_t kMaxLines = 100000;
  static constexpr std::size_t kMaxSplinePoints = 100000;

  const std::string& source_name() const { return source_name_; }
  const std::vector<ScriptLine>& lines() const { return lines_; }
  // The time of the last event: max over lines of time + glide_seconds (0 if empty).
  double duration() const { return duration_; }

 private:
  friend Result<Script> ParseScriptText(std::string_view, std::string_view, const CommandContext&);
  std::string source_name_;
  std::vector<ScriptLine> lines_;
  double duration_ = 0.0;
};

}  // namespace fabrik
