#include "targets/script.h"

#include <algorithm>
#include <cmath>

#include "targets/text.h"

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

// ---- ScriptPlayer ------------------------------------------------------------------------

void ScriptPlayer::SetScript(std::shared_ptr<const Script> script) {
  script_ = std::move(script);
  Stop();
}

void ScriptPlayer::Start() {
  if (!script_) return;
  playing_ = true;
  started_ = true;
  time_ = 0.0;
  next_ = 0;
  has_target_ = false;
}

void ScriptPlayer::Play() {
  if (!script_) return;
  if (!started_) {
    Start();
    return;
  }
  playing_ = true;
}

void ScriptPlayer::Stop() {
  playing_ = false;
  started_ = false;
  time_ = 0.0;
  next_ = 0;
  has_target_ = false;
}

std::size_t ScriptPlayer::next_source_line() const {
  if (!script_ || next_ >= script_->lines().size()) return 0;
  return script_->lines()[next_].source_line;
}

bool ScriptPlayer::finished() const {
  if (!script_ || !started_) return false;
  return next_ >= script_->lines().size() && time_ >= script_->duration() - kTimeEpsilon;
}

glm::vec3 ScriptPlayer::GlideAt(double t) const {
  if (t >= glide_end_ - kTimeEpsilon) return glide_to_;
  if (t <= glide_start_) return glide_from_;
  const double f = (t - glide_start_) / (glide_end_ - glide_start_);
  const glm::dvec3 from(glide_from_), to(glide_to_);
  const glm::dvec3 p = from + (to - from) * f;
  return glm::vec3(p);
}

std::size_t ScriptPlayer::due_lines() const {
  if (!script_ || !started_) return 0;
  const std::vector<ScriptLine>& lines = script_->lines();
  // Times never decrease down the list, so the due lines are a prefix of what is left.
  const auto first = lines.begin() + static_cast<std::ptrdiff_t>(next_);
  const auto past = std::upper_bound(first, lines.end(), time_ + kTimeEpsilon,
                                     [](double t, const ScriptLine& l) { return t < l.time; });
  return static_cast<std::size_t>(past - first);
}

ScriptStep ScriptPlayer::Advance(double dt, const glm::vec3& current_target,
                                 const ScriptBudget& budget) {
  ScriptStep step;
  const bool moving = playing_ && std::isfinite(dt) && dt > 0.0;
  // Lines held back by an earlier step's budget run even when time stands still (paused, or
  // the step view), so a pause never strands them.
  if (script_ && started_ && (moving || due_lines() > 0)) {
    const double step_start = time_;
    // Cap the step so time stays finite whatever dt is; 1e9 s is beyond any script.
    const double end = moving ? time_ + std::min(dt, 1.0e9) : time_;
    const std::vector<ScriptLine>& lines = script_->lines();
    std::size_t used = 0;
    bool first = true;
    while (next_ < lines.size() && lines[next_].time <= end + kTimeEpsilon) {
      const std::size_t cost = (budget.cost == nullptr ||
                                std::holds_alternative<cmd::Target>(lines[next_].command))
                                   ? 1
                                   : budget.cost(lines[next_].command);
      if (!first && (cost > budget.units || used + cost > budget.units)) break;
      first = false;
      used += cost;
      const ScriptLine& line = lines[next_++];
      if (const auto* target = std::get_if<cmd::Target>(&line.command)) {
        // Start from the scripted target if it is still moving (or was set during this
        // step); otherwise from where the app says the target is now.
        const bool scripted_is_current = has_target_ && glide_end_ >= step_start;
        glide_from_ = scripted_is_current ? GlideAt(line.time) : current_target;
        glide_to_ = target->position;
        glide_start_ = line.time;
        glide_end_ = line.time + line.glide_seconds;
        has_target_ = true;
        if (target->angles_deg) step.target_angles_deg = target->angles_deg;
      } else {
        step.commands.push_back(line.command);
      }
    }
    time_ = end;
  }
  if (has_target_) {
    step.target = GlideAt(time_);
    step.gliding = time_ < glide_end_ - kTimeEpsilon;
  }
  return step;
}

}  // namespace fabrik
