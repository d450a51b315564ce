#include "targets/command.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <set>
#include <system_error>

#include "targets/script.h"
#include "targets/spline_file.h"
#include "targets/text.h"

namespace fabrik {
namespace {

constexpr std::array<std::string_view, 4> kModeNames = {"drag", "spline", "console", "script"};
constexpr std::array<std::string_view, 4> kSolverNames = {"fabrik", "ccd", "jacobian_transpose",
                                                          "dls"};
constexpr std::array<std::string_view, 5> kSceneNames = {"chain", "arm", "creature", "field",
                                                         "walker"};
constexpr std::array<std::string_view, 7> kSplineSubcommands = {
    "load", "speed", "play", "pause", "restart", "loop", "pingpong"};
constexpr std::array<std::string_view, 5> kScriptSubcommands = {"run", "play", "pause", "restart",
                                                                "stop"};

constexpr std::array<std::string_view, 11> kStepSubcommands = {
    "on", "off", "next", "prev", "pass", "back", "iteration", "start", "end", "play", "pause"};

constexpr std::array<CommandInfo, 19> kCommands = {{
    {"target", "target X Y Z [YAW PITCH ROLL]",
     "set the target (world units; angles in degrees); mode becomes console"},
    {"mode", "mode drag|spline|console|script", "choose where the target comes from"},
    {"joints", "joints N", "joint count, root included (2..10000)"},
    {"length", "length L", "every segment's length (0.0001 <= L <= 1000)"},
    {"lengths", "lengths A B C ...", "per-segment lengths; joints = their count + 1"},
    {"moe", "moe E", "margin of error, world units (0 < E <= 100)"},
    {"iterations", "iterations N", "iteration cap per solve (1..100000)"},
    {"spline", "spline load PATH|speed V|play|pause|restart|loop|pingpong",
     "the spline followed in spline mode"},
    {"script", "script run PATH|play|pause|restart|stop", "timed command scripts"},
    {"camera", "camera reset", "back to the starting view"},
    {"state", "state", "print chain, target and solver state"},
    {"help", "help [COMMAND]", "list the commands, or explain one"},
    {"solver", "solver fabrik|ccd|jacobian_transpose|dls", "choose the IK solver"},
    {"accelerate", "accelerate on|off", "accelerated FABRIK (bend-scale steps) or the textbook"},
    {"scene", "scene chain|arm|creature|walker", "choose the scene"},
    {"clear", "clear", "clear the console"},
    {"step", "step on|off|next [N]|prev [N]|pass|back|iteration|start|end|play|pause",
     "replay one solve reach by reach"},
    {"race", "race on|off", "run every solver side by side"},
    {"quit", "quit", "close the demo"},
}};

// Extra lines for `help COMMAND`.
std::vector<std::string_view> Details(std::string_view name) {
  if (name == "step") {
    return {"  step on / off          pause the solve and replay it reach by reach (key P)",
            "  step next [N] / prev [N]   N reaches forward or back (default 1)",
            "  step pass / back       to the next / previous half-pass boundary",
            "  step iteration         to the next iteration boundary",
            "  step start / end / play / pause"};
  }
  if (name == "target") {
    return {"  |X|, |Y|, |Z| <= 1e6; +Y is up, the chain's root is at the origin.",
            "  YAW PITCH ROLL (degrees, |angle| <= 3600) also ask the effector for that",
            "  rotation: R = Ry(yaw) Rx(pitch) Rz(roll); all 0 points it up. Without them the",
            "  orientation stays as it is ('orient off' drops it).",
            "  In a script, moves the scripted target instead (the mode stays script); there",
            "  the angles are ignored: use 'orient YAW PITCH ROLL'."};
  }
  if (name == "mode") {
    return {"  drag: drag the target with the mouse;  spline: follow the loaded spline;",
            "  console: stay where 'target' put it;  script: follow the running script."};
  }
  if (name == "lengths") return {"  1 to 9999 lengths, each from 0.0001 to 1000 world units."};
  if (name == "spline") {
    return {"  spline load PATH     read a spline file (relative paths: working directory,",
            "                       then the project folder), e.g. assets/splines/word.txt",
            "  spline speed V       world units per second along the curve, 0 < V <= 1000",
            "  spline play|pause|restart",
            "  spline loop|pingpong what an open curve does at its end (closed curves wrap)"};
  }
  if (name == "script") {
    return {
        "  script run PATH      read a script file and start it, e.g. "
        "assets/scripts/tour.txt",
        "  script play|pause    resume / hold script time",
        "  script restart       start again from time 0",
        "  script stop          stop and go back to time 0",
        "  Script lines: 'at T COMMAND' and 'at T target X Y Z over D'."};
  }
  if (name == "solver") return {"  The app reports a solver it does not have."};
  return {};
}

// ---- error helpers -------------------------------------------------------------------------

std::string NumberProblem(text::NumberError error) {
  switch (error) {
    case text::NumberError::kNone:
      return " (out of range)";
    case text::NumberError::kSyntax:
      return "";
    case text::NumberError::kNotFinite:
      return " (not a finite number)";
    case text::NumberError::kOutOfRange:
      return " (out of range)";
  }
  return "";
}

Error Expected(std::string_view what, std::string_view description, std::string_view word,
               text::NumberError error) {
  std::string m(what);
  m += ": expected ";
  m += description;
  m += ", got ";
  m += text::Quote(word);
  m += NumberProblem(error);
  return MakeError(std::move(m));
}

// "a, b, c or d" (sep ", ", last " or ") or "a|b|c|d" (both "|").
std::string JoinNames(std::span<const std::string_view> names, std::string_view sep,
                      std::string_view last_sep) {
  std::string out;
  for (std::size_t i = 0; i < names.size(); ++i) {
    if (i > 0) out += (i + 1 == names.size()) ? last_sep : sep;
    out += names[i];
  }
  return out;
}

Error WrongArity(std::string_view what, std::string_view usage, std::size_t expected,
                 std::size_t got) {
  std::string m(what);
  if (expected == 0) {
    m += ": expected no arguments, got " + std::to_string(got);
  } else {
    m += ": expected " + std::to_string(expected) + (expected == 1 ? " argument" : " arguments");
    m += " (usage: " + std::string(usage) + "), got " + std::to_string(got);
  }
  return MakeError(std::move(m));
}

// ---- value parsers -----------------------------------------------------------------------

// An integer in [lo, hi].
Result<int> IntegerIn(std::string_view what, std::string_view word, int lo, int hi) {
  const std::string description =
      "an integer from " + std::to_string(lo) + " to " + std::to_string(hi);
  const text::Number n = text::ParseInteger(word);
  if (n.error != text::NumberError::kNone) {
    // "2.5" is a number but not an integer: say so rather than "not a number".
    const text::Number real = text::ParseReal(word);
    if (n.error == text::NumberError::kSyntax && real.error == text::NumberError::kNone) {
      return MakeError(std::string(what) + ": expected " + description + ", got " +
                       text::Quote(word) + " (not an integer)");
    }
    return Expected(what, description, word,
                    n.error == text::NumberError::kSyntax ? real.error : n.error);
  }
  if (n.value < lo || n.value > hi) {
    return Expected(what, description, word, text::NumberError::kOutOfRange);
  }
  return static_cast<int>(n.value);
}

// A float in (0, hi]; the check is on the float, so a tiny positive double that rounds to 0
// is refused too.
Result<float> PositiveUpTo(std::string_view what, std::string_view word, float hi,
                           std::string_view hi_text) {
  const std::string description = "a number > 0 and <= " + std::string(hi_text);
  const text::Number n = text::ParseReal(word);
  if (n.error != text::NumberError::kNone) return Expected(what, description, word, n.error);
  if (!(n.value <= static_cast<double>(hi))) {
    return Expected(what, description, word, text::NumberError::kOutOfRange);
  }
  const float f = static_cast<float>(n.value);
  if (!(f > 0.0f)) return Expected(what, description, word, text::NumberError::kOutOfRange);
  return f;
}

// A segment length in [kMinSegmentLength, kMaxSegmentLength].
Result<float> SegmentLength(std::string_view what, std::string_view word) {
  const std::string description = "a length from 0.0001 to 1000";
  const text::Number n = text::ParseReal(word);
  if (n.error != text::NumberError::kNone) return Expected(what, description, word, n.error);
  if (!(n.value >= static_cast<double>(kMinSegmentLength) &&
        n.value <= static_cast<double>(kMaxSegmentLength))) {
    return Expected(what, description, word, text::NumberError::kOutOfRange);
  }
  return static_cast<float>(n.value);
}

// A float with |value| <= kMaxTargetCoordinate.
Result<float> Coordinate(std::string_view what, std::string_view word) {
  const text::Number n = text::ParseReal(word);
  const std::string_view description = "a number from -1e6 to 1e6";
  if (n.error != text::NumberError::kNone) return Expected(what, description, word, n.error);
  if (std::fabs(n.value) > static_cast<double>(kMaxTargetCoordinate)) {
    return Expected(what, description, word, text::NumberError::kOutOfRange);
  }
  return static_cast<float>(n.value);
}

// `word` (lower-cased) if it is one of `names`.
std::optional<std::string> OneOf(std::string_view word, std::span<const std::string_view> names) {
  std::string lowered = text::Lower(word);
  for (std::string_view n : names) {
    if (lowered == n) return lowered;
  }
  return std::nullopt;
}

bool Exists(const std::filesystem::path& p) {
  std::error_code ec;
  return std::filesystem::exists(p, ec) && !ec;
}

std::string SearchedText(const CommandContext& context) {
  std::string s = "the working directory";
  for (const std::string& root : context.search_roots) s += ", " + root;
  return s;
}

// ---- the commands --------------------------------------------------------------------------

using Words = std::span<const std::string>;

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

Result<Command> ParseTarget(Words args) {
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

Result<Command> ParseMode(Words args) {
  if (args.size() != 1) {
    return WrongArity("mode", "mode drag|spline|console|script", 1, args.size());
  }
  const std::string w = text::Lower(args[0]);
  for (std::size_t i = 0; i < kModeNames.size(); ++i) {
    if (w == kModeNames[i]) return Command(cmd::Mode{static_cast<TargetMode>(i)});
  }
  return MakeError("mode: expected drag, spline, console or script, got " + text::Quote(args[0]));
}

Result<Command> ParseLoad(std::string_view what, Words args, const CommandContext& context,
                          bool script) {
  const std::string usage = std::string(what) + " PATH";
  if (args.size() != 1) return WrongArity(what, usage, 1, args.size());
  const std::string& path = args[0];
  if (path.empty()) return MakeError(std::string(what) + ": the path is empty");
  const std::string resolved = ResolveDataPath(path, context.search_roots);
  if (!Exists(resolved)) {
    return MakeError(std::string(what) + ": cannot find " + text::Quote(path) + " (looked in " +
                     SearchedText(context) + ")");
  }
  Result<std::string> contents = text::ReadTextFile(resolved);
  if (!contents.ok()) return MakeError(std::string(what) + ": " + contents.error());
  if (!script) {
    Result<Spline> spline = ParseSplineText(contents.value(), path);
    if (!spline.ok()) return MakeError(spline.error());
    return Command(cmd::SplineLoad{path, resolved, std::move(spline).value()});
  }
  CommandContext inner = context;
  inner.in_script = true;
  Result<Script> parsed = ParseScriptText(contents.value(), path, inner);
  if (!parsed.ok()) return MakeError(parsed.error());
  return Command(
      cmd::ScriptRun{path, resolved, std::make_shared<const Script>(std::move(parsed).value())});
}

Result<Command> ParseSpline(Words args, const CommandContext& context) {
  if (args.empty()) {
    return MakeError("spline: missing subcommand (usage: spline " +
                     std::string(kCommands[7].usage.substr(7)) + ")");
  }
  const std::string sub = text::Lower(args[0]);
  const Words rest = args.subspan(1);
  if (sub == "load") return ParseLoad("spline load", rest, context, false);
  if (sub == "speed") {
    if (rest.size() != 1) return WrongArity("spline speed", "spline speed V", 1, rest.size());
    Result<float> v = PositiveUpTo("spline speed", rest[0], SplineFollower::kMaxSpeed, "1000");
    if (!v.ok()) return MakeError(v.error());
    return Command(cmd::SplineSpeed{v.value()});
  }
  auto simple = [&](Command c) -> Result<Command> {
    if (!rest.empty()) return WrongArity("spline " + sub, "", 0, rest.size());
    return c;
  };
  if (sub == "play") return simple(cmd::SplinePlayback{cmd::Playback::kPlay});
  if (sub == "pause") return simple(cmd::SplinePlayback{cmd::Playback::kPause});
  if (sub == "restart") return simple(cmd::SplinePlayback{cmd::Playback::kRestart});
  if (sub == "loop") return simple(cmd::SplineEnd{EndBehavior::kLoop});
  if (sub == "pingpong") return simple(cmd::SplineEnd{EndBehavior::kPingPong});
  return MakeError("spline: expected " + JoinNames(kSplineSubcommands, ", ", " or ") + ", got " +
                   text::Quote(args[0]));
}

Result<Command> ParseScript(Words args, const CommandContext& context) {
  if (args.empty()) {
    return MakeError("script: missing subcommand (usage: script run PATH|play|pause|restart|stop)");
  }
  const std::string sub = text::Lower(args[0]);
  const Words rest = args.subspan(1);
  if (sub == "run") {
    if (context.in_script) {
      return MakeError("script run: a script cannot run another script");
    }
    return ParseLoad("script run", rest, context, true);
  }
  auto simple = [&](cmd::Playback action) -> Result<Command> {
    if (!rest.empty()) return WrongArity("script " + sub, "", 0, rest.size());
    return Command(cmd::ScriptPlayback{action});
  };
  if (sub == "play") return simple(cmd::Playback::kPlay);
  if (sub == "pause") return simple(cmd::Playback::kPause);
  if (sub == "restart") return simple(cmd::Playback::kRestart);
  if (sub == "stop") return simple(cmd::Playback::kStop);
  return MakeError("script: expected " + JoinNames(kScriptSubcommands, ", ", " or ") + ", got " +
                   text::Quote(args[0]));
}

Result<Command> ParseNamed(std::string_view what, Words args,
                           std::span<const std::string_view> names, bool solver) {
  const std::string usage = std::string(what) + " " + JoinNames(names, "|", "|");
  if (args.size() != 1) return WrongArity(what, usage, 1, args.size());
  std::optional<std::string> name = OneOf(args[0], names);
  if (!name) {
    return MakeError(std::string(what) + ": unknown " + std::string(what) + " " +
                     text::Quote(args[0]) + " (known: " + JoinNames(names, ", ", ", ") + ")");
  }
  if (solver) return Command(cmd::Solver{*name});
  return Command(cmd::Scene{*name});
}

const CommandInfo* FindCommand(std::string_view name) {
  for (const CommandInfo& info : kCommands) {
    if (info.name == name) return &info;
  }
  return nullptr;
}

std::string FormatFloat(float v) {
  char buffer[32];
  std::snprintf(buffer, sizeof(buffer), "%.9g", static_cast<double>(v));
  return buffer;
}

std::string FormatPath(const std::string& path) {
  const bool needs_quotes = path.empty() || path.find_first_of(" \t\r\v\f#") != std::string::npos;
  return needs_quotes ? "\"" + path + "\"" : path;
}

std::string_view PlaybackName(cmd::Playback p) {
  switch (p) {
    case cmd::Playback::kPlay:
      return "play";
    case cmd::Playback::kPause:
      return "pause";
    case cmd::Playback::kRestart:
      return "restart";
    case cmd::Playback::kStop:
      return "stop";
  }
  return "play";
}

template <class... Fs>
struct Overloaded : Fs... {
  using Fs::operator()...;
};
template <class... Fs>
Overloaded(Fs...) -> Overloaded<Fs...>;

}  // namespace

std::string_view ModeName(TargetMode mode) {
  const auto i = static_cast<std::size_t>(mode);
  return i < kModeNames.size() ? kModeNames[i] : std::string_view("drag");
}

std::span<const std::string_view> SolverNames() { return kSolverNames; }
std::span<const std::string_view> SceneNames() { return kSceneNames; }
std::span<const CommandInfo> CommandList() { return kCommands; }

Result<Command> ParseCommandWords(std::span<const std::string> words,
                                  const CommandContext& context) {
  if (words.empty()) return Command(cmd::Nothing{});
  const std::string name = text::Lower(words[0]);
  const Words args = words.subspan(1);

  if (name == "target") return ParseTarget(args);
  if (name == "mode") return ParseMode(args);
  if (name == "joints") {
    if (args.size() != 1) return WrongArity("joints", "joints N", 1, args.size());
    Result<int> n = IntegerIn("joints", args[0], kMinJoints, kMaxJoints);
    if (!n.ok()) return MakeError(n.error());
    return Command(cmd::Joints{n.value()});
  }
  if (name == "length") {
    if (args.size() != 1) return WrongArity("length", "length L", 1, args.size());
    Result<float> l = SegmentLength("length", args[0]);
    if (!l.ok()) return MakeError(l.error());
    return Command(cmd::Length{l.value()});
  }
  if (name == "lengths") {
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
  if (name == "moe") {
    if (args.size() != 1) return WrongArity("moe", "moe E", 1, args.size());
    Result<float> e = PositiveUpTo("moe", args[0], kMaxTolerance, "100");
    if (!e.ok()) return MakeError(e.error());
    return Command(cmd::Moe{e.value()});
  }
  if (name == "iterations") {
    if (args.size() != 1) return WrongArity("iterations", "iterations N", 1, args.size());
    Result<int> n = IntegerIn("iterations", args[0], kMinIterations, kMaxIterations);
    if (!n.ok()) return MakeError(n.error());
    return Command(cmd::Iterations{n.value()});
  }
  if (name == "spline") return ParseSpline(args, context);
  if (name == "script") return ParseScript(args, context);
  if (name == "camera") {
    if (args.size() != 1) return WrongArity("camera", "camera reset", 1, args.size());
    if (text::Lower(args[0]) != "reset") {
      return MakeError("camera: expected reset, got " + text::Quote(args[0]));
    }
    return Command(cmd::CameraReset{});
  }
  if (name == "state") {
    if (!args.empty()) return WrongArity("state", "state", 0, args.size());
    return Command(cmd::State{});
  }
  if (name == "clear") {
    if (!args.empty()) return WrongArity("clear", "clear", 0, args.size());
    return Command(cmd::Clear{});
  }
  if (name == "help") {
    if (args.size() > 1) {
      return MakeError("help: expected at most 1 argument (usage: help [COMMAND]), got " +
                       std::to_string(args.size()));
    }
    if (args.empty()) return Command(cmd::Help{});
    const std::string topic = text::Lower(args[0]);
    const bool extension =
        std::any_of(context.extensions.begin(), context.extensions.end(),
                    [&](const CommandExtension& e) { return e.name == topic; });
    if (FindCommand(topic) == nullptr && !extension) {
      return MakeError("help: unknown command " + text::Quote(args[0]));
    }
    return Command(cmd::Help{topic});
  }
  if (name == "solver") return ParseNamed("solver", args, kSolverNames, true);
  if (name == "scene") {
    return ParseNamed("scene", args,
                      context.scene_names.empty() ? std::span<const std::string_view>(kSceneNames)
                                                  : std::span<const std::string_view>(
                                                        context.scene_names),
                      false);
  }
  if (name == "step") {
    const std::string usage = "step " + JoinNames(kStepSubcommands, "|", "|");
    if (args.empty() || args.size() > 2) return WrongArity("step", usage, 1, args.size());
    const std::string sub = text::Lower(args[0]);
    const auto it = std::find(kStepSubcommands.begin(), kStepSubcommands.end(), sub);
    if (it == kStepSubcommands.end()) {
      return MakeError("step: expected " + JoinNames(kStepSubcommands, ", ", " or ") + ", got " +
                       text::Quote(args[0]));
    }
    cmd::Step step{static_cast<cmd::StepAction>(it - kStepSubcommands.begin()), 1};
    if (args.size() == 2) {
      if (step.action != cmd::StepAction::kNext && step.action != cmd::StepAction::kPrev) {
        return MakeError("step " + sub + ": takes no count");
      }
      Result<int> n = IntegerIn("step " + sub, args[1], 1, 100000);
      if (!n.ok()) return MakeError(n.error());
      step.count = n.value();
    }
    return Command(step);
  }
  if (name == "accelerate") {
    if (args.size() != 1) return WrongArity("accelerate", "accelerate on|off", 1, args.size());
    const std::string sub = text::Lower(args[0]);
    if (sub != "on" && sub != "off") {
      return MakeError("accelerate: expected on or off, got " + text::Quote(args[0]));
    }
    return Command(cmd::Accelerate{sub == "on"});
  }
  if (name == "race") {
    if (args.size() != 1) return WrongArity("race", "race on|off", 1, args.size());
    const std::string sub = text::Lower(args[0]);
    if (sub != "on" && sub != "off") {
      return MakeError("race: expected on or off, got " + text::Quote(args[0]));
    }
    return Command(cmd::Race{sub == "on"});
  }
  if (name == "quit") {
    if (!args.empty()) return WrongArity("quit", "quit", 0, args.size());
    return Command(cmd::Quit{});
  }
  if (name == "at") {
    return MakeError("'at T COMMAND' belongs in script files; type the command by itself");
  }
  for (const CommandExtension& e : context.extensions) {
    if (e.name != name || e.parse == nullptr) continue;
    Result<std::vector<std::string>> parsed = e.parse(args);
    if (!parsed.ok()) return MakeError(parsed.error());
    return Command(cmd::Extension{name, std::move(parsed).value()});
  }
  return MakeError("unknown command " + text::Quote(words[0]) + " (type 'help' for the list)");
}

Result<Command> ParseCommand(std::string_view line, const CommandContext& context) {
  Result<std::vector<std::string>> words = text::Tokenize(line);
  if (!words.ok()) return MakeError(words.error());
  return ParseCommandWords(words.value(), context);
}

Status ValidateCommand(const Command& command) {
  auto fail = [](std::string m) -> Status { return MakeError(std::move(m)); };
  auto positive_up_to = [](float v, float hi) { return std::isfinite(v) && v > 0.0f && v <= hi; };
  auto segment_length = [](float v) {
    return std::isfinite(v) && v >= kMinSegmentLength && v <= kMaxSegmentLength;
  };
  auto named = [](const std::string& n, std::span<const std::string_view> names) {
    return std::find(names.begin(), names.end(), n) != names.end();
  };
  return std::visit(
      Overloaded{
          [&](const cmd::Nothing&) -> Status { return Ok{}; },
          [&](const cmd::Target& c) -> Status {
            for (int i = 0; i < 3; ++i) {
              const float v = c.position[i];
              if (!std::isfinite(v) || std::fabs(v) > kMaxTargetCoordinate) {
                return fail("target: coordinate " + std::to_string(i) +
                            " is not finite or beyond 1e6");
              }
              if (c.angles_deg) {
                const float a = (*c.angles_deg)[i];
                if (!std::isfinite(a) || std::fabs(a) > kMaxTargetAngleDegrees) {
                  return fail("target: angle " + std::to_string(i) +
                              " is not finite or beyond 3600 degrees");
                }
              }
            }
            return Ok{};
          },
          [&](const cmd::Mode& c) -> Status {
            const auto i = static_cast<std::size_t>(c.mode);
            return i < kModeNames.size() ? Status(Ok{}) : fail("mode: unknown mode");
          },
          [&](const cmd::Joints& c) -> Status {
            if (c.count < kMinJoints || c.count > kMaxJoints) {
              return fail("joints: count " + std::to_string(c.count) + " is outside 2..10000");
            }
            return Ok{};
          },
          [&](const cmd::Length& c) -> Status {
            return segment_length(c.length) ? Status(Ok{})
                                            : fail("length: not a length from 0.0001 to 1000");
          },
          [&](const cmd::Lengths& c) -> Status {
            if (c.lengths.empty() || c.lengths.size() > static_cast<std::size_t>(kMaxJoints - 1)) {
              return fail("lengths: needs 1 to 9999 lengths, has " +
                          std::to_string(c.lengths.size()));
            }
            for (std::size_t i = 0; i < c.lengths.size(); ++i) {
              if (!segment_length(c.lengths[i])) {
                return fail("lengths: length " + std::to_string(i + 1) +
                            " is not a length from 0.0001 to 1000");
              }
            }
            return Ok{};
          },
          [&](const cmd::Moe& c) -> Status {
            return positive_up_to(c.tolerance, kMaxTolerance)
                       ? Status(Ok{})
                       : fail("moe: not a number > 0 and <= 100");
          },
          [&](const cmd::Iterations& c) -> Status {
            if (c.max_iterations < kMinIterations || c.max_iterations > kMaxIterations) {
              return fail("iterations: " + std::to_string(c.max_iterations) +
                          " is outside 1..100000");
            }
            return Ok{};
          },
          [&](const cmd::SplineLoad& c) -> Status {
            const float l = c.spline.length();
            return std::isfinite(l) && l > 0.0f ? Status(Ok{})
                                                : fail("spline load: degenerate spline");
          },
          [&](const cmd::SplineSpeed& c) -> Status {
            return positive_up_to(c.speed, SplineFollower::kMaxSpeed)
                       ? Status(Ok{})
                       : fail("spline speed: not a number > 0 and <= 1000");
          },
          [&](const cmd::SplinePlayback& c) -> Status {
            return c.action == cmd::Playback::kPlay || c.action == cmd::Playback::kPause ||
                           c.action == cmd::Playback::kRestart
                       ? Status(Ok{})
                       : fail("spline: playback must be play, pause or restart");
          },
          [&](const cmd::SplineEnd& c) -> Status {
            return c.behavior == EndBehavior::kLoop || c.behavior == EndBehavior::kPingPong
                       ? Status(Ok{})
                       : fail("spline: unknown end behaviour");
          },
          [&](const cmd::ScriptRun& c) -> Status {
            return c.script ? Status(Ok{}) : fail("script run: no script");
          },
          [&](const cmd::ScriptPlayback& c) -> Status {
            const auto a = static_cast<int>(c.action);
            return a >= 0 && a <= static_cast<int>(cmd::Playback::kStop)
                       ? Status(Ok{})
                       : fail("script: unknown playback action");
          },
          [&](const cmd::CameraReset&) -> Status { return Ok{}; },
          [&](const cmd::State&) -> Status { return Ok{}; },
          [&](const cmd::Help& c) -> Status {
            return c.topic.empty() || FindCommand(c.topic) != nullptr ? Status(Ok{})
                                                                      : fail("help: unknown topic");
          },
          [&](const cmd::Solver& c) -> Status {
            return named(c.name, kSolverNames) ? Status(Ok{}) : fail("solver: unknown name");
          },
          [&](const cmd::Scene& c) -> Status {
            return named(c.name, kSceneNames) ? Status(Ok{}) : fail("scene: unknown name");
          },
          [&](const cmd::Clear&) -> Status { return Ok{}; },
          [&](const cmd::Step& c) -> Status {
            const auto a = static_cast<int>(c.action);
            if (a < 0 || a > static_cast<int>(cmd::StepAction::kPause)) {
              return fail("step: unknown action");
            }
            return c.count >= 1 && c.count <= 100000 ? Status(Ok{})
                                                     : fail("step: count out of range");
          },
          [&](const cmd::Race&) -> Status { return Ok{}; },
          [&](const cmd::Accelerate&) -> Status { return Ok{}; },
          [&](const cmd::Quit&) -> Status { return Ok{}; },
          [&](const cmd::Extension& c) -> Status {
            return !c.name.empty() && FindCommand(c.name) == nullptr
                       ? Status(Ok{})
                       : fail("extension: not a name of its own");
          },
      },
      command);
}

std::string FormatCommand(const Command& command) {
  return std::visit(
      Overloaded{
          [](const cmd::Nothing&) -> std::string { return ""; },
          [](const cmd::Target& c) -> std::string {
            std::string text = "target " + FormatFloat(c.position.x) + " " +
                               FormatFloat(c.position.y) + " " + FormatFloat(c.position.z);
            if (c.angles_deg) {
              for (int i = 0; i < 3; ++i) text += " " + FormatFloat((*c.angles_deg)[i]);
            }
            return text;
          },
          [](const cmd::Mode& c) { return "mode " + std::string(ModeName(c.mode)); },
          [](const cmd::Joints& c) { return "joints " + std::to_string(c.count); },
          [](const cmd::Length& c) { return "length " + FormatFloat(c.length); },
          [](const cmd::Lengths& c) {
            std::string s = "lengths";
            for (float l : c.lengths) {
              s += ' ';
              s += FormatFloat(l);
            }
            return s;
          },
          [](const cmd::Moe& c) { return "moe " + FormatFloat(c.tolerance); },
          [](const cmd::Iterations& c) { return "iterations " + std::to_string(c.max_iterations); },
          [](const cmd::SplineLoad& c) { return "spline load " + FormatPath(c.path); },
          [](const cmd::SplineSpeed& c) { return "spline speed " + FormatFloat(c.speed); },
          [](const cmd::SplinePlayback& c) {
            return "spline " + std::string(PlaybackName(c.action));
          },
          [](const cmd::SplineEnd& c) -> std::string {
            return c.behavior == EndBehavior::kLoop ? "spline loop" : "spline pingpong";
          },
          [](const cmd::ScriptRun& c) { return "script run " + FormatPath(c.path); },
          [](const cmd::ScriptPlayback& c) {
            return "script " + std::string(PlaybackName(c.action));
          },
          [](const cmd::CameraReset&) -> std::string { return "camera reset"; },
          [](const cmd::State&) -> std::string { return "state"; },
          [](const cmd::Help& c) {
            return c.topic.empty() ? std::string("help") : "help " + c.topic;
          },
          [](const cmd::Solver& c) { return "solver " + c.name; },
          [](const cmd::Scene& c) { return "scene " + c.name; },
          [](const cmd::Clear&) -> std::string { return "clear"; },
          [](const cmd::Step& c) {
            std::string out =
                "step " + std::string(kStepSubcommands[static_cast<std::size_t>(c.action)]);
            if ((c.action == cmd::StepAction::kNext || c.action == cmd::StepAction::kPrev) &&
                c.count != 1) {
              out += " " + std::to_string(c.count);
            }
            return out;
          },
          [](const cmd::Race& c) -> std::string { return c.on ? "race on" : "race off"; },
          [](const cmd::Accelerate& c) -> std::string {
            return c.on ? "accelerate on" : "accelerate off";
          },
          [](const cmd::Quit&) -> std::string { return "quit"; },
          [](const cmd::Extension& c) {
            std::string out = c.name;
            for (const std::string& a : c.args) {
              out += ' ';
              out += FormatPath(a);
            }
            return out;
          },
      },
      command);
}

std::string_view CommandName(const Command& command) {
  return std::visit(Overloaded{
                        [](const cmd::Nothing&) -> std::string_view { return ""; },
                        [](const cmd::Target&) -> std::string_view { return "target"; },
                        [](const cmd::Mode&) -> std::string_view { return "mode"; },
                        [](const cmd::Joints&) -> std::string_view { return "joints"; },
                        [](const cmd::Length&) -> std::string_view { return "length"; },
                        [](const cmd::Lengths&) -> std::string_view { return "lengths"; },
                        [](const cmd::Moe&) -> std::string_view { return "moe"; },
                        [](const cmd::Iterations&) -> std::string_view { return "iterations"; },
                        [](const cmd::SplineLoad&) -> std::string_view { return "spline"; },
                        [](const cmd::SplineSpeed&) -> std::string_view { return "spline"; },
                        [](const cmd::SplinePlayback&) -> std::string_view { return "spline"; },
                        [](const cmd::SplineEnd&) -> std::string_view { return "spline"; },
                        [](const cmd::ScriptRun&) -> std::string_view { return "script"; },
                        [](const cmd::ScriptPlayback&) -> std::string_view { return "script"; },
                        [](const cmd::CameraReset&) -> std::string_view { return "camera"; },
                        [](const cmd::State&) -> std::string_view { return "state"; },
                        [](const cmd::Help&) -> std::string_view { return "help"; },
                        [](const cmd::Solver&) -> std::string_view { return "solver"; },
                        [](const cmd::Scene&) -> std::string_view { return "scene"; },
                        [](const cmd::Clear&) -> std::string_view { return "clear"; },
                        [](const cmd::Step&) -> std::string_view { return "step"; },
                        [](const cmd::Race&) -> std::string_view { return "race"; },
                        [](const cmd::Accelerate&) -> std::string_view { return "accelerate"; },
                        [](const cmd::Quit&) -> std::string_view { return "quit"; },
                        [](const cmd::Extension& c) -> std::string_view { return c.name; },
                    },
                    command);
}

std::vector<std::string> HelpLines(std::string_view topic) { return HelpLines(topic, {}); }

std::vector<std::string> HelpLines(std::string_view topic,
                                   std::span<const CommandExtension> extensions) {
  std::vector<std::string> lines;
  auto listed = [&](std::string_view usage, std::string_view summary) {
    std::string line = "  " + std::string(usage);
    if (line.size() < 44) line.resize(44, ' ');
    line += "  " + std::string(summary);
    lines.push_back(std::move(line));
  };
  if (topic.empty()) {
    lines.emplace_back("commands (help COMMAND for more; # starts a comment):");
    for (const CommandInfo& info : kCommands) listed(info.usage, info.summary);
    for (const CommandExtension& e : extensions) listed(e.usage, e.summary);
    return lines;
  }
  const std::string name = text::Lower(topic);
  if (const CommandInfo* info = FindCommand(name)) {
    lines.push_back("usage: " + std::string(info->usage));
    lines.push_back("  " + std::string(info->summary));
    for (std::string_view d : Details(name)) lines.emplace_back(d);
    return lines;
  }
  for (const CommandExtension& e : extensions) {
    if (e.name != name) continue;
    lines.push_back("usage: " + std::string(e.usage));
    lines.push_back("  " + std::string(e.summary));
    for (std::string_view d : e.details) lines.emplace_back(d);
    return lines;
  }
  lines.push_back("help: unknown command " + text::Quote(topic));
  return lines;
}

std::string ResolveDataPath(std::string_view path, std::span<const std::string> search_roots) {
  const std::filesystem::path p{std::string(path)};
  if (path.empty() || p.is_absolute() || Exists(p)) return std::string(path);
  for (const std::string& root : search_roots) {
    if (root.empty()) continue;
    const std::filesystem::path candidate = std::filesystem::path(root) / p;
    if (Exists(candidate)) return candidate.string();
  }
  return std::string(path);
}

std::string CommonPrefix(std::span<const std::string> candidates) {
  if (candidates.empty()) return "";
  std::string prefix = candidates[0];
  for (const std::string& c : candidates.subspan(1)) {
    std::size_t n = 0;
    while (n < prefix.size() && n < c.size() && prefix[n] == c[n]) ++n;
    prefix.resize(n);
  }
  return prefix;
}

namespace {

bool StartsWith(std::string_view s, std::string_view prefix) {
  return s.substr(0, prefix.size()) == prefix;
}

// Files and folders whose path starts with `partial`, looked up in the working directory
// and then each search root; returned as `partial` would be completed (folders end in '/').
std::vector<std::string> CompletePath(std::string_view partial, const CommandContext& context) {
  const std::size_t slash = partial.rfind('/');
  const std::string dir_part =
      slash == std::string_view::npos ? "" : std::string(partial.substr(0, slash + 1));
  const std::string file_part(slash == std::string_view::npos ? partial
                                                              : partial.substr(slash + 1));
  std::vector<std::filesystem::path> bases;
  const std::filesystem::path dir(dir_part.empty() ? "." : dir_part);
  if (dir.is_absolute()) {
    bases.push_back(dir);
  } else {
    bases.push_back(dir);
    for (const std::string& root : context.search_roots) {
      if (!root.empty()) bases.push_back(std::filesystem::path(root) / dir);
    }
  }
  std::set<std::string> found;
  constexpr std::size_t kMaxEntries = 256;
  for (const auto& base : bases) {
    std::error_code ec;
    std::filesystem::directory_iterator it(base, ec), end;
    for (; !ec && it != end && found.size() < kMaxEntries; it.increment(ec)) {
      const std::string name = it->path().filename().string();
      if (!StartsWith(name, file_part)) continue;
      if (!name.empty() && name[0] == '.' && (file_part.empty() || file_part[0] != '.')) {
        continue;
      }
      std::error_code type_ec;
      const bool is_dir = it->is_directory(type_ec);
      found.insert(dir_part + name + (is_dir ? "/" : ""));
    }
  }
  return {found.begin(), found.end()};
}

std::vector<std::string> Complete(std::string_view prefix, const CommandContext* context) {
  // Split on whitespace; quotes are not handled (Tab on a quoted path completes nothing).
  std::vector<std::string> words;
  {
    std::size_t i = 0;
    while (i < prefix.size()) {
      while (i < prefix.size() && (prefix[i] == ' ' || prefix[i] == '\t')) ++i;
      const std::size_t start = i;
      while (i < prefix.size() && prefix[i] != ' ' && prefix[i] != '\t') ++i;
      if (i > start) words.emplace_back(prefix.substr(start, i - start));
    }
  }
  const bool trailing_space = !prefix.empty() && (prefix.back() == ' ' || prefix.back() == '\t');
  if (!words.empty() && words[0].find('#') != std::string::npos) return {};
  const std::string partial = (trailing_space || words.empty()) ? "" : words.back();
  const std::string head(prefix.substr(0, prefix.size() - partial.size()));
  // Index of the word being completed: 0 is the command name.
  const std::size_t index = (trailing_space || words.empty()) ? words.size() : words.size() - 1;
  const std::string lowered = text::Lower(partial);

  std::vector<std::string> out;
  // Adds `candidate` if it extends what was typed; `more` when further words must follow.
  auto offer = [&](std::string_view candidate, bool more) {
    if (StartsWith(candidate, lowered)) {
      out.push_back(head + std::string(candidate) + (more ? " " : ""));
    }
  };
  auto offer_all = [&](std::span<const std::string_view> names, bool more) {
    for (std::string_view n : names) offer(n, more);
  };

  if (index == 0) {
    for (const CommandInfo& info : kCommands) {
      const bool takes_args = info.name != "state" && info.name != "clear" &&
                              info.name != "help" && info.name != "quit";
      offer(info.name, takes_args);
    }
    if (context != nullptr) {
      for (const CommandExtension& e : context->extensions) offer(e.name, true);
    }
  } else {
    const std::string name = text::Lower(words[0]);
    const std::string sub = words.size() > 1 ? text::Lower(words[1]) : "";
    if (index == 1) {
      if (name == "mode") offer_all(kModeNames, false);
      if (name == "camera") offer("reset", false);
      if (name == "solver") offer_all(kSolverNames, false);
      if (name == "scene") {
        if (context != nullptr && !context->scene_names.empty()) {
          offer_all(context->scene_names, false);
        } else {
          offer_all(kSceneNames, false);
        }
      }
      if (name == "step") offer_all(kStepSubcommands, false);
      if (name == "race" || name == "accelerate") {
        offer("on", false);
        offer("off", false);
      }
      if (name == "help") {
        for (const CommandInfo& info : kCommands) offer(info.name, false);
        if (context != nullptr) {
          for (const CommandExtension& e : context->extensions) offer(e.name, false);
        }
      }
      if (context != nullptr) {
        for (const CommandExtension& e : context->extensions) {
          if (e.name == name) offer_all(e.keywords, false);
        }
      }
      if (name == "spline") {
        for (std::string_view s : kSplineSubcommands) offer(s, s == "load" || s == "speed");
      }
      if (name == "script") {
        for (std::string_view s : kScriptSubcommands) offer(s, s == "run");
      }
    } else if (index == 2 && context != nullptr &&
               ((name == "spline" && sub == "load") || (name == "script" && sub == "run"))) {
      for (const std::string& p : CompletePath(partial, *context)) out.push_back(head + p);
    }
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

}  // namespace

std::vector<std::string> CompleteCommand(std::string_view prefix) {
  return Complete(prefix, nullptr);
}

std::vector<std::string> CompleteCommand(std::string_view prefix, const CommandContext& context) {
  return Complete(prefix, &context);
}

}  // namespace fabrik
