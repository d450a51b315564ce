#include "core/execute.h"

#include <algorithm>

#include "core/builtin_table.h"
#include "core/frame.h"

namespace fabrik {
namespace {

bool Fail(AppState& state, const std::string& text) {
  ConsolePrint(state, text, ConsoleLine::Kind::kError);
  SetMessage(state, text, true);
  return false;
}

}  // namespace

void ConsolePrint(AppState& state, std::string text, ConsoleLine::Kind kind) {
  auto& log = state.console.log;
  if (log.size() >= ConsoleState::kMaxLines) log.erase(log.begin(), log.begin() + 200);
  if (text.size() > ConsoleState::kMaxLineBytes) {
    // Cut on a UTF-8 character boundary, and say how much was left out.
    std::size_t cut = ConsoleState::kMaxLineBytes;
    while (cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80) --cut;
    const std::size_t left_out = text.size() - cut;
    text.resize(cut);
    text += " ... (" + std::to_string(left_out) + " more bytes)";
  }
  log.push_back({kind, std::move(text)});
  ++state.console.printed;
}

void UseSpline(AppState& state, Spline spline, const std::string& path) {
  // 24 points a span, fewer on long splines: the curve is drawn with at most
  // kMaxSplineDrawPoints points (a 10,000-point spline would otherwise draw 480,000 line
  // vertices a frame; docs/limits.md).
  const auto spans = static_cast<std::size_t>(std::max(1, spline.segment_count()));
  const int per_span =
      static_cast<int>(std::clamp<std::size_t>(kMaxSplineDrawPoints / spans, 1, 24));
  state.spline.polyline = spline.Tessellate(per_span);
  state.spline.follower.SetSpline(std::move(spline));
  state.spline.path = path;
}

void UseScript(AppState& state, std::shared_ptr<const Script> script, const std::string& path) {
  state.script.player.SetScript(std::move(script));
  state.script.player.Start();
  state.script.running = true;
  state.script.target.reset();
  state.script.path = path;
}

// A blank line or a comment: nothing to do.
bool ApplyBuiltin(AppState&, const cmd::Nothing&, CommandOutput&) { return true; }

// An app command, by its CommandEntry (a flag by the entry's flag part).
bool ApplyBuiltin(AppState& state, const cmd::Extension& c, CommandOutput& out) {
  const CommandEntry* entry = FindCommandEntry(c.name);
  if (entry == nullptr || entry->typed) return out.Fail(c.name + ": not in this build");
  if (entry->is_flag()) {
    // A hand-built command (the panel's) is checked as the parser would.
    Result<bool> on = ParseOnOff(c.name, c.args);
    if (!on.ok()) return out.Fail(on.error());
    const FlagPart& flag = entry->flag;
    flag.field(state) = on.value();
    const std::string_view text = on.value() ? flag.on_text : flag.off_text;
    std::string line = text.empty() ? c.name + (on.value() ? " on" : " off") : std::string(text);
    if (flag.note != nullptr) line += flag.note(state, on.value());
    out.Print(std::move(line));
    return true;
  }
  // The words are checked again, so that a command built by hand (the panel's) is held to
  // what the console's would be; for a parsed one this gives the same words back.
  Result<std::vector<std::string>> args = entry->language.parse(c.args);
  if (!args.ok()) return out.Fail(args.error());
  return entry->apply(state, args.value(), out);
}

bool Execute(AppState& state, const Command& command, CommandSource source) {
  // Keys and panel widgets act quietly; the console, --exec and scripts print the result.
  CommandOutput out(state, source);
  // Each struct's apply (core/builtin_table.h), chosen by the compiler.
  return std::visit([&](const auto& c) { return ApplyBuiltin(state, c, out); }, command);
}

bool RunConsoleLine(AppState& state, std::string_view line, CommandSource source) {
  if (source != CommandSource::kQuiet && source != CommandSource::kScript) {
    ConsolePrint(state, "> " + std::string(line), ConsoleLine::Kind::kInput);
  }
  auto parsed = ParseCommand(line, state.command_context);
  if (!parsed) return Fail(state, parsed.error());
  return Execute(state, parsed.value(), source);
}

}  // namespace fabrik
