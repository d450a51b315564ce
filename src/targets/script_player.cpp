// Playing a script: script time, the due lines under a budget, and the target's glides.
#include "targets/script_player.h"

#include <algorithm>
#include <cmath>
#include <variant>

namespace fabrik {

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
