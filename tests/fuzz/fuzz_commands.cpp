// libFuzzer target: arbitrary text through the console command parser.
// Checks: no crash; every accepted command satisfies ValidateCommand (the documented ranges)
// and holds no NaN; its canonical text parses back to the same text; help and Tab completion
// never crash and complete only to lines that extend what was typed.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include "lang/command.h"
#include "lang/script.h"
#include "lang/text.h"

namespace {

void Check(bool condition, const char* what) {
  if (!condition) {
    std::fprintf(stderr, "fuzz_commands: broken promise: %s\n", what);
    std::abort();
  }
}

bool Finite(const glm::vec3& v) {
  return std::isfinite(v.x) && std::isfinite(v.y) && std::isfinite(v.z);
}

void CheckSpline(const fabrik::Spline& s) {
  Check(std::isfinite(s.length()) && s.length() > 0.0f, "spline length");
  for (int k = 0; k <= 8; ++k)
    Check(Finite(s.PointAtDistance(s.length() * k / 8.0)), "spline point");
}

void CheckLine(std::string_view line, const fabrik::CommandContext& context) {
  using namespace fabrik;
  Result<Command> parsed = ParseCommand(line, context);
  if (!parsed.ok()) {
    Check(!parsed.error().empty(), "empty error");
    Check(parsed.error().find('\n') == std::string::npos, "multi-line error");
  } else {
    const Command& c = parsed.value();
    Check(ValidateCommand(c).ok(), "parsed command out of range");
    if (const auto* t = std::get_if<cmd::Target>(&c)) Check(Finite(t->position), "target NaN");
    if (const auto* l = std::get_if<cmd::SplineLoad>(&c)) CheckSpline(l->spline);
    if (const auto* r = std::get_if<cmd::ScriptRun>(&c)) {
      for (const ScriptLine& sl : r->script->lines()) {
        Check(ValidateCommand(sl.command).ok(), "script line out of range");
      }
    }
    const std::string text = FormatCommand(c);
    Result<Command> again = ParseCommand(text, context);
    Check(again.ok(), "canonical text does not parse");
    Check(FormatCommand(again.value()) == text, "canonical text changes");
    Check(again.value().index() == c.index(), "canonical text parses to another command");
  }
  for (const std::string& h : HelpLines(line.substr(0, 32))) Check(!h.empty(), "empty help line");
  // Completion keeps everything before the word being completed, and a candidate that
  // needs no further words is a whole valid command.
  const std::string_view prefix = line.substr(0, 64);
  const std::size_t cut = prefix.find_last_of(" \t");
  const std::string_view head = cut == std::string_view::npos ? "" : prefix.substr(0, cut + 1);
  for (const std::string& candidate : CompleteCommand(prefix)) {
    Check(candidate.compare(0, head.size(), head) == 0, "completion dropped typed text");
    if (!candidate.empty() && candidate.back() != ' ') {
      Check(ParseCommand(candidate).ok(), "completed line does not parse");
    }
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size > 4096) return 0;  // lines are short; long inputs only slow the search down
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  fabrik::CommandContext context;
  context.search_roots = {FABRIK_SOURCE_DIR};
  for (std::string_view line : fabrik::text::SplitLines(text)) CheckLine(line, context);
  return 0;
}
