// The chain's built-in commands, their language half: target, mode, joints, length, lengths,
// moe, iterations (docs/language.md "The console and script language"). A section holds the
// command's help text, its parser, its struct's canonical text (Format) and range check
// (Validate) and its CommandSpec (name, usage, summary, completion keywords); the group's list
// at the end is what lang/command.cpp's kGroups reads. How the app carries each command out
// (its apply) and whether the settings file keeps it are in core/commands/chain.cpp. The
// structs are in lang/command.h, because keys, the panel and scripts build and carry them.
#include <array>
#include <cmath>

#include "lang/command_parse.h"

namespace fabrik {

using namespace command_parse;

namespace {

constexpr std::array<std::string_view, 4> kModeNames = {"drag", "spline", "console", "script"};

bool IsSegmentLength(float v) {
  return std::isfinite(v) && v >= kMinSegmentLength && v <= kMaxSegmentLength;
}

}  // namespace

// ---- target X Y Z [YAW PITCH ROLL] ----
namespace {

constexpr std::string_view kTargetDetails[] = {
    "  |X|, |Y|, |Z| <= 1e6; +Y is up, the chain's root is at the origin.",
    "  YAW PITCH ROLL (degrees, |angle| <= 3600) also ask the effector for that",
    "  rotation: R = Ry(yaw) Rx(pitch) Rz(roll); all 0 points it up. Without them the",
    "  orientation stays as it is ('orient off' drops it).",
    "  In a script, moves the scripted target instead (the mode stays script); there",
    "  the angles are ignored: use 'orient YAW PITCH ROLL'."};

// An angle in degrees with |value| <= kMaxTargetAngleDegrees.
Result<float> AngleDegrees(std::string_view what, std::string_view word) {
  const text::Number n = text::ParseReal(word);
  const std::string_view description = "an angle in degrees from -3600 to 3600";
  if (n.error != text::NumberError::kNone) return Expected(what, description, word, n.error);
  if (std::fabs(n.value) > static_cast<double>(kMaxTargetAngleDegrees)) {
    return Expected(what, description, word, text::NumberError::kOutOfRange);
  }
  return static_cast<float>(n.value);
}

Result<Command> ParseTarget(Words args, const CommandContext&) {
  if (args.size() != 3 && args.size() != 6) {
    return MakeError(
        "target: expected 3 or 6 arguments (usage: target X Y Z [YAW PITCH ROLL]), got " +
        std::to_string(args.size()));
  }
  cmd::Target t;
  const char* axes[3] = {"target X", "target Y", "target Z"};
  for (int i = 0; i < 3; ++i) {
    Result<float> v = Coordinate(axes[i], args[static_cast<std::size_t>(i)]);
    if (!v.ok()) return MakeError(v.error());
    t.position[i] = v.value();
  }
  if (args.size() == 6) {
    const char* angles[3] = {"target YAW", "target PITCH", "target ROLL"};
    glm::vec3 a(0.0f);
    for (int i = 0; i < 3; ++i) {
      Result<float> v = AngleDegrees(angles[i], args[static_cast<std::size_t>(3 + i)]);
      if (!v.ok()) return MakeError(v.error());
      a[i] = v.value();
    }
    t.angles_deg = a;
  }
  return Command(t);
}

}  // namespace

std::string cmd::Target::Format() const {
  std::string text = "target " + FormatFloat(position.x) + " " + FormatFloat(position.y) + " " +
                     FormatFloat(position.z);
  if (angles_deg) {
    for (int i = 0; i < 3; ++i) {
      text += ' ';
      text += FormatFloat((*angles_deg)[i]);
    }
  }
  return text;
}
Status cmd::Target::Validate() const {
  for (int i = 0; i < 3; ++i) {
    const float v = position[i];
    if (!std::isfinite(v) || std::fabs(v) > kMaxTargetCoordinate) {
      return Fail("target: coordinate " + std::to_string(i) + " is not finite or beyond 1e6");
    }
    if (angles_deg) {
      const float a = (*angles_deg)[i];
      if (!std::isfinite(a) || std::fabs(a) > kMaxTargetAngleDegrees) {
        return Fail("target: angle " + std::to_string(i) + " is not finite or beyond 3600 degrees");
      }
    }
  }
  return Ok{};
}

namespace {
// The command: name, usage, help, parser and keywords.
const CommandSpec kTargetSpec = {
    .name = cmd::Target::kName,
    .usage = "target X Y Z [YAW PITCH ROLL]",
    .summary = "set the target (world units; angles in degrees); mode becomes console",
    .details = kTargetDetails,
    .parse = ParseTarget};
}  // namespace

// ---- mode drag|spline|console|script ----
namespace {

constexpr std::string_view kModeDetails[] = {
    "  drag: drag the target with the mouse;  spline: follow the loaded spline;",
    "  console: stay where 'target' put it;  script: follow the running script."};

Result<Command> ParseMode(Words args, const CommandContext&) {
  if (args.size() != 1) {
    return WrongArity("mode", "mode drag|spline|console|script", 1, args.size());
  }
  const std::string w = text::Lower(args[0]);
  for (std::size_t i = 0; i < kModeNames.size(); ++i) {
    if (w == kModeNames[i]) return Command(cmd::Mode{static_cast<TargetMode>(i)});
  }
  return MakeError("mode: expected drag, spline, console or script, got " + text::Quote(args[0]));
}

}  // namespace

std::string cmd::Mode::Format() const { return "mode " + std::string(ModeName(mode)); }
Status cmd::Mode::Validate() const {
  return static_cast<std::size_t>(mode) < kModeNames.size() ? Status(Ok{})
                                                            : Fail("mode: unknown mode");
}

namespace {
// The command: name, usage, help, parser and keywords.
const CommandSpec kModeSpec = {.name = cmd::Mode::kName,
                               .usage = "mode drag|spline|console|script",
                               .summary = "choose where the target comes from",
                               .details = kModeDetails,
                               .parse = ParseMode,
                               .keywords = kModeNames};
}  // namespace

std::span<const std::string_view> ModeNames() { return kModeNames; }

std::string_view ModeName(TargetMode mode) {
  const auto i = static_cast<std::size_t>(mode);
  return i < kModeNames.size() ? kModeNames[i] : std::string_view("drag");
}

// ---- joints N ----
namespace {

Result<Command> ParseJoints(Words args, const CommandContext&) {
  if (args.size() != 1) return WrongArity("joints", "joints N", 1, args.size());
  Result<int> n = IntegerIn("joints", args[0], kMinJoints, kMaxJoints);
  if (!n.ok()) return MakeError(n.error());
  return Command(cmd::Joints{n.value()});
}

}  // namespace

std::string cmd::Joints::Format() const { return "joints " + std::to_string(count); }
Status cmd::Joints::Validate() const {
  if (count < kMinJoints || count > kMaxJoints) {
    return Fail("joints: count " + std::to_string(count) + " is outside 2..10000");
  }
  return Ok{};
}

namespace {
// The command: name, usage, help, parser and keywords.
const CommandSpec kJointsSpec = {.name = cmd::Joints::kName,
                                 .usage = "joints N",
                                 .summary = "joint count, root included (2..10000)",
                                 .parse = ParseJoints};
}  // namespace

// ---- length L ----
namespace {

Result<Command> ParseLength(Words args, const CommandContext&) {
  if (args.size() != 1) return WrongArity("length", "length L", 1, args.size());
  Result<float> l = SegmentLength("length", args[0]);
  if (!l.ok()) return MakeError(l.error());
  return Command(cmd::Length{l.value()});
}

}  // namespace

std::string cmd::Length::Format() const { return "length " + FormatFloat(length); }
Status cmd::Length::Validate() const {
  return IsSegmentLength(length) ? Status(Ok{}) : Fail("length: not a length from 0.0001 to 1000");
}

namespace {
// The command: name, usage, help, parser and keywords.
const CommandSpec kLengthSpec = {.name = cmd::Length::kName,
                                 .usage = "length L",
                                 .summary = "every segment's length (0.0001 <= L <= 1000)",
                                 .parse = ParseLength};
}  // namespace

// ---- lengths A B C ... ----
namespace {

constexpr std::string_view kLengthsDetails[] = {
    "  1 to 9999 lengths, each from 0.0001 to 1000 world units."};

Result<Command> ParseLengths(Words args, const CommandContext&) {
  if (args.empty()) {
    return MakeError("lengths: expected at least 1 length (usage: lengths A B C ...)");
  }
  if (args.size() > static_cast<std::size_t>(kMaxJoints - 1)) {
    return MakeError("lengths: at most " + std::to_string(kMaxJoints - 1) +
                     " lengths (10000 joints), got " + std::to_string(args.size()));
  }
  cmd::Lengths out;
  out.lengths.reserve(args.size());
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string what = "lengths: length " + std::to_string(i + 1);
    Result<float> l = SegmentLength(what, args[i]);
    if (!l.ok()) return MakeError(l.error());
    out.lengths.push_back(l.value());
  }
  return Command(std::move(out));
}

}  // namespace

std::string cmd::Lengths::Format() const {
  std::string s = "lengths";
  for (float l : lengths) {
    s += ' ';
    s += FormatFloat(l);
  }
  return s;
}
Status cmd::Lengths::Validate() const {
  if (lengths.empty() || lengths.size() > static_cast<std::size_t>(kMaxJoints - 1)) {
    return Fail("lengths: needs 1 to 9999 lengths, has " + std::to_string(lengths.size()));
  }
  for (std::size_t i = 0; i < lengths.size(); ++i) {
    if (!IsSegmentLength(lengths[i])) {
      return Fail("lengths: length " + std::to_string(i + 1) +
                  " is not a length from 0.0001 to 1000");
    }
  }
  return Ok{};
}

namespace {
// The command: name, usage, help, parser and keywords.
const CommandSpec kLengthsSpec = {.name = cmd::Lengths::kName,
                                  .usage = "lengths A B C ...",
                                  .summary = "per-segment lengths; joints = their count + 1",
                                  .details = kLengthsDetails,
                                  .parse = ParseLengths};
}  // namespace

// ---- moe E ----
namespace {

Result<Command> ParseMoe(Words args, const CommandContext&) {
  if (args.size() != 1) return WrongArity("moe", "moe E", 1, args.size());
  Result<float> e = NumberIn("moe", args[0], kMoeRange);
  if (!e.ok()) return MakeError(e.error());
  return Command(cmd::Moe{e.value()});
}

}  // namespace

std::string cmd::Moe::Format() const { return "moe " + FormatFloat(tolerance); }
Status cmd::Moe::Validate() const {
  return kMoeRange.Contains(tolerance) ? Status(Ok{})
                                       : Fail("moe: not a number " + std::string(kMoeRange.text));
}

namespace {
// The command: name, usage, help, parser and keywords.
// "margin of error, world units (0 < E <= 100)"
const std::string kMoeSummary =
    "margin of error, " + std::string(kMoeRange.unit) + " (" + RangeAround(kMoeRange, "E") + ")";
const CommandSpec kMoeSpec = {
    .name = cmd::Moe::kName, .usage = "moe E", .summary = kMoeSummary, .parse = ParseMoe};
}  // namespace

// ---- iterations N ----
namespace {

Result<Command> ParseIterations(Words args, const CommandContext&) {
  if (args.size() != 1) return WrongArity("iterations", "iterations N", 1, args.size());
  Result<int> n = IntegerIn("iterations", args[0], kMinIterations, kMaxIterations);
  if (!n.ok()) return MakeError(n.error());
  return Command(cmd::Iterations{n.value()});
}

}  // namespace

std::string cmd::Iterations::Format() const {
  return "iterations " + std::to_string(max_iterations);
}
Status cmd::Iterations::Validate() const {
  if (max_iterations < kMinIterations || max_iterations > kMaxIterations) {
    return Fail("iterations: " + std::to_string(max_iterations) + " is outside 1..100000");
  }
  return Ok{};
}

namespace {
// The command: name, usage, help, parser and keywords.
const CommandSpec kIterationsSpec = {.name = cmd::Iterations::kName,
                                     .usage = "iterations N",
                                     .summary = "iteration cap per solve (1..100000)",
                                     .parse = ParseIterations};
}  // namespace

// ---- the group, in the order `help` lists them ----
namespace {
const CommandSpec kChainSpecs[] = {kTargetSpec,  kModeSpec, kJointsSpec,    kLengthSpec,
                                   kLengthsSpec, kMoeSpec,  kIterationsSpec};
}  // namespace

std::span<const CommandSpec> command_parse::ChainCommands() { return kChainSpecs; }

}  // namespace fabrik
