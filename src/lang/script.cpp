#include "lang/script.h"

#include <algorithm>
#include <cmath>

#include "lang/text.h"

namespace fabrik {
namespace {

std::string JoinForDisplay(std::span<const std::string> words) {
  std::string out;
  for (const std::string& w : words) {
    if (!out.empty()) out += ' ';
    const bool quote = w.empty() || w.find_first_of(" \t#") != std::string::npos;
    out += quote ? "\"" + w + "\"" : w;
  }
  return out;
}

// A time or duration word: finite, in [0, Script::kMaxTime].
Result<double> Seconds(std::string_view what, std::string_view word) {
  const text::Number n = text::ParseReal(word);
  std::string problem;
  if (n.error == text::NumberError::kNotFinite) {
    problem = " (not a finite number)";
  } else if (n.error == text::NumberError::kOutOfRange ||
             (n.error == text::NumberError::kNone &&
              (n.value < 0.0 || n.value > Script::kMaxTime))) {
    problem = " (out of range)";
  } else if (n.error == text::NumberError::kNone) {
    return n.value;
  }
  return MakeError(std::string(what) + ": expected seconds from 0 to 1e6, got " +
                   text::Quote(word) + problem);
}

}  // namespace

Result<Script> ParseScriptText(std::string_view text, std::string_view source_name,
                               const CommandContext& context) {
  CommandContext inner = context;
  inner.in_script = true;
  Script script;
  script.source_name_ = std::string(source_name);
  double previous_time = 0.0;
  std::size_t previous_line = 0;
  std::size_t spline_points = 0;

  const std::vector<std::string_view> lines = text::SplitLines(text);
  for (std::size_t i = 0; i < lines.size(); ++i) {
    const std::size_t line_no = i + 1;
    auto fail = [&](const std::string& message) -> Result<Script> {
      return MakeError(text::AtLine(source_name, line_no, message));
    };
    Result<std::vector<std::string>> tokens = text::Tokenize(lines[i]);
    if (!tokens.ok()) return fail(tokens.error());
    const std::vector<std::string>& words = tokens.value();
    if (words.empty()) continue;

    if (text::Lower(words[0]) != "at") {
      return fail("expected 'at T COMMAND', got " + text::Quote(JoinForDisplay(words)));
    }
    if (words.size() < 2) return fail("at: missing time and command (usage: at T COMMAND)");
    Result<double> time = Seconds("at", words[1]);
    if (!time.ok()) return fail(time.error());
    if (words.size() < 3) return fail("at " + words[1] + ": missing command");
    if (time.value() < previous_time) {
      return fail("time " + words[1] + " is earlier than the previous line's time (line " +
                  std::to_string(previous_line) + "); times must not decrease");
    }

    std::span<const std::string> command_words(words.data() + 2, words.size() - 2);
    ScriptLine line;
    line.time = time.value();
    line.source_line = line_no;
    line.text = JoinForDisplay(words);

    // `target X Y Z over D`: split off the glide before handing the rest to the command
    // parser, which knows nothing of time.
    if (text::Lower(command_words[0]) == "target") {
      for (std::size_t k = 1; k < command_words.size(); ++k) {
        if (text::Lower(command_words[k]) != "over") continue;
        if (k + 2 != command_words.size()) {
          return fail(
              "target ... over: expected one duration D after 'over' (usage: at T "
              "target X Y Z over D)");
        }
        Result<double> d = Seconds("over", command_words[k + 1]);
        if (!d.ok()) return fail(d.error());
        line.glide_seconds = d.value();
        command_words = command_words.first(k);
        break;
      }
    }

    if (script.lines_.size() >= Script::kMaxLines) {
      return fail("too many lines: a script holds at most " + std::to_string(Script::kMaxLines) +
                  " timed lines");
    }
    Result<Command> command = ParseCommandWords(command_words, inner);
    if (!command.ok()) return fail(command.error());
    if (const auto* load = std::get_if<cmd::SplineLoad>(&command.value())) {
      spline_points += load->spline.points().size();
      if (spline_points > Script::kMaxSplinePoints) {
        return fail("too many spline points: the splines a script loads hold at most " +
                    std::to_string(Script::kMaxSplinePoints) + " control points in all");
      }
    }
    line.command = std::move(command).value();
    script.duration_ = std::max(script.duration_, line.time + line.glide_seconds);
    previous_time = line.time;
    previous_line = line_no;
    script.lines_.push_back(std::move(line));
  }
  return script;
}

Result<Script> LoadScriptFile(const std::string& path, const CommandContext& context) {
  Result<std::string> text = text::ReadTextFile(path);
  if (!text.ok()) return MakeError(text.error());
  return ParseScriptText(text.value(), path, context);
}

}  // namespace fabrik
