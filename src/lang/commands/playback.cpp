// The built-in commands that load and play spline and script files, their language half:
// spline ..., script ... (docs/language.md). A section holds the command's help text, its
// parser (files are read and parsed there, at parse time, so a missing or malformed file is a
// parse error that changes nothing), the Format and Validate of each struct it parses to and
// its CommandSpec; the group's list at the end is what lang/command.cpp's kGroups reads. Their
// applies and saved settings are in core/commands/playback.cpp. The structs are in
// lang/command.h (the panel's pickers and scripts carry them).
#include <array>
#include <cmath>
#include <memory>

#include "lang/command_parse.h"
#include "lang/script.h"
#include "lang/spline_file.h"

namespace fabrik {

using namespace command_parse;

namespace {

constexpr std::array<std::string_view, 8> kSplineSubcommands = {
    "load", "speed", "play", "pause", "restart", "loop", "pingpong", "ik"};
constexpr std::string_view kSplineTakingWords[] = {"load", "speed", "ik"};
constexpr std::array<std::string_view, 5> kScriptSubcommands = {"run", "play", "pause", "restart",
                                                                "stop"};
constexpr std::string_view kScriptTakingWords[] = {"run"};

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

// `spline load PATH` / `script run PATH`: finds, reads and parses the file now.
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

}  // namespace

// ---- spline load PATH|speed V|play|pause|restart|loop|pingpong ----
namespace {

constexpr std::string_view kSplineUsage =
    "spline load PATH|speed V|play|pause|restart|loop|pingpong|ik on|off";
constexpr std::string_view kSplineDetails[] = {
    "  spline load PATH     read a spline file (relative paths: working directory,",
    "                       then the project folder), e.g. assets/splines/word.txt",
    "  spline speed V       world units per second along the curve, 0 < V <= 1000",
    "  spline play|pause|restart",
    "  spline loop|pingpong what an open curve does at its end (closed curves wrap)",
    "  spline ik on|off     the demo's chain lies along the spline (docs/tools.md)"};

Result<Command> ParseSpline(Words args, const CommandContext& context) {
  if (args.empty()) {
    return MakeError("spline: missing subcommand (usage: " + std::string(kSplineUsage) + ")");
  }
  const std::string sub = text::Lower(args[0]);
  const Words rest = args.subspan(1);
  if (sub == "load") return ParseLoad("spline load", rest, context, false);
  if (sub == "ik") {
    // `spline ik on|off` is the app's flag (its command table names it "spline ik"); parsed
    // without the app, it is not a command.
    for (const CommandExtension& e : context.extensions) {
      if (e.name != "spline ik") continue;
      Result<bool> on = ParseOnOff("spline ik", rest);
      if (!on.ok()) return MakeError(on.error());
      return Command(cmd::Extension{"spline ik", {on.value() ? "on" : "off"}});
    }
    return MakeError("spline ik: spline IK is the demo's (not in this context)");
  }
  if (sub == "speed") {
    if (rest.size() != 1) return WrongArity("spline speed", "spline speed V", 1, rest.size());
    Result<float> v = PositiveUpTo("spline speed", rest[0], kMaxSplineSpeed, "1000");
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

}  // namespace

std::string cmd::SplineLoad::Format() const { return "spline load " + FormatPath(path); }
Status cmd::SplineLoad::Validate() const {
  const float l = spline.length();
  return std::isfinite(l) && l > 0.0f ? Status(Ok{}) : Fail("spline load: degenerate spline");
}

std::string cmd::SplineSpeed::Format() const { return "spline speed " + FormatFloat(speed); }
Status cmd::SplineSpeed::Validate() const {
  return std::isfinite(speed) && speed > 0.0f && speed <= kMaxSplineSpeed
             ? Status(Ok{})
             : Fail("spline speed: not a number > 0 and <= 1000");
}

std::string cmd::SplinePlayback::Format() const {
  return "spline " + std::string(PlaybackName(action));
}
Status cmd::SplinePlayback::Validate() const {
  return action == Playback::kPlay || action == Playback::kPause || action == Playback::kRestart
             ? Status(Ok{})
             : Fail("spline: playback must be play, pause or restart");
}

std::string cmd::SplineEnd::Format() const {
  return behavior == EndBehavior::kLoop ? "spline loop" : "spline pingpong";
}
Status cmd::SplineEnd::Validate() const {
  return behavior == EndBehavior::kLoop || behavior == EndBehavior::kPingPong
             ? Status(Ok{})
             : Fail("spline: unknown end behaviour");
}

namespace {
// The command: name, usage, help, parser, keywords and the word a PATH follows.
const CommandSpec kSplineLoadSpec = {.name = cmd::SplineLoad::kName,
                                     .usage = kSplineUsage,
                                     .summary = "the spline followed in spline mode",
                                     .details = kSplineDetails,
                                     .parse = ParseSpline,
                                     .keywords = kSplineSubcommands,
                                     .keywords_taking_words = kSplineTakingWords,
                                     .path_after = "load"};
}  // namespace

// ---- script run PATH|play|pause|restart|stop ----
namespace {

constexpr std::string_view kScriptDetails[] = {
    "  script run PATH      read a script file and start it, e.g. "
    "assets/scripts/tour.txt",
    "  script play|pause    resume / hold script time",
    "  script restart       start again from time 0",
    "  script stop          stop and go back to time 0",
    "  Script lines: 'at T COMMAND' and 'at T target X Y Z over D'."};

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

}  // namespace

std::string cmd::ScriptRun::Format() const { return "script run " + FormatPath(path); }
Status cmd::ScriptRun::Validate() const {
  return script ? Status(Ok{}) : Fail("script run: no script");
}

std::string cmd::ScriptPlayback::Format() const {
  return "script " + std::string(PlaybackName(action));
}
Status cmd::ScriptPlayback::Validate() const {
  const auto a = static_cast<int>(action);
  return a >= 0 && a <= static_cast<int>(Playback::kStop) ? Status(Ok{})
                                                          : Fail("script: unknown playback action");
}

namespace {
// The command: name, usage, help, parser, keywords and the word a PATH follows.
const CommandSpec kScriptRunSpec = {.name = cmd::ScriptRun::kName,
                                    .usage = "script run PATH|play|pause|restart|stop",
                                    .summary = "timed command scripts",
                                    .details = kScriptDetails,
                                    .parse = ParseScript,
                                    .keywords = kScriptSubcommands,
                                    .keywords_taking_words = kScriptTakingWords,
                                    .path_after = "run"};
}  // namespace

// ---- the group, in the order `help` lists them ----
namespace {
const CommandSpec kPlaybackSpecs[] = {kSplineLoadSpec, kScriptRunSpec};
}  // namespace

std::span<const CommandSpec> command_parse::PlaybackCommands() { return kPlaybackSpecs; }

}  // namespace fabrik
