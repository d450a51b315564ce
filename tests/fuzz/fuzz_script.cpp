// libFuzzer target: arbitrary text through the script parser, then the player.
// Checks: no crash; an accepted script has finite, non-negative, non-decreasing times within
// range, only valid commands (never Nothing or ScriptRun); playing it with assorted fixed
// steps fires every line exactly once, in order, with finite scripted targets, and finishes.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string_view>

#include "targets/script_player.h"

namespace {

void Check(bool condition, const char* what) {
  if (!condition) {
    std::fprintf(stderr, "fuzz_script: broken promise: %s\n", what);
    std::abort();
  }
}

bool Finite(const glm::vec3& v) {
  return std::isfinite(v.x) && std::isfinite(v.y) && std::isfinite(v.z);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace fabrik;
  if (size == 0 || size > 1 << 14) return 0;
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  CommandContext context;
  context.search_roots = {FABRIK_SOURCE_DIR};
  Result<Script> parsed = ParseScriptText(text, "fuzz.txt", context);
  if (!parsed.ok()) {
    Check(parsed.error().rfind("fuzz.txt:", 0) == 0, "error without file:line");
    return 0;
  }
  auto script = std::make_shared<const Script>(std::move(parsed).value());
  double previous = 0.0;
  std::size_t targets = 0;
  for (const ScriptLine& line : script->lines()) {
    Check(std::isfinite(line.time) && line.time >= 0.0 && line.time <= Script::kMaxTime, "time");
    Check(line.time >= previous, "times decrease");
    previous = line.time;
    Check(std::isfinite(line.glide_seconds) && line.glide_seconds >= 0.0 &&
              line.glide_seconds <= Script::kMaxTime,
          "glide");
    Check(line.source_line >= 1, "source line");
    Check(!std::holds_alternative<cmd::Nothing>(line.command), "Nothing in script");
    Check(!std::holds_alternative<cmd::ScriptRun>(line.command), "ScriptRun in script");
    Check(ValidateCommand(line.command).ok(), "command out of range");
    if (std::holds_alternative<cmd::Target>(line.command)) ++targets;
    Check(line.time + line.glide_seconds <= script->duration(), "duration");
  }

  ScriptPlayer player;
  player.SetScript(script);
  player.Start();
  // Enough equal steps to pass the end, with a step size taken from the input.
  const int steps = 8 + data[0] % 64;
  const double dt = (script->duration() + 1.0) / (steps - 4);
  std::size_t fired = 0;
  glm::vec3 target(0.0f, 1.0f, 0.0f);
  for (int i = 0; i < steps; ++i) {
    ScriptStep step = player.Advance(dt, target);
    fired += step.commands.size();
    for (const Command& c : step.commands) {
      Check(!std::holds_alternative<cmd::Target>(c), "target given as a command");
    }
    if (step.target_angles_deg) {
      const glm::vec3& a = *step.target_angles_deg;
      for (int k = 0; k < 3; ++k) {
        Check(std::isfinite(a[k]) && std::fabs(a[k]) <= kMaxTargetAngleDegrees, "angle range");
      }
    }
    if (step.target) {
      Check(Finite(*step.target), "scripted target NaN");
      target = *step.target;
    }
  }
  Check(player.finished(), "not finished");
  Check(fired + targets == script->lines().size(), "a line fired other than once");
  return 0;
}
