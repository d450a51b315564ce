#include "targets/path_recorder.h"

#include <charconv>
#include <cmath>
#include <cstdio>
#include <glm/geometric.hpp>

#include "ik/vec_util.h"

namespace fabrik {
namespace {

// The shortest decimal that reads back as the same float (std::to_chars' promise).
void AppendFloat(std::string& out, float f) {
  char buf[32];
  const auto r = std::to_chars(buf, buf + sizeof(buf), f);
  out.append(buf, r.ptr);
}

// Seconds with 6 decimals: what is written is what a replay reads, so the recorder works with
// the rounded value (chained glides then start exactly where the previous one ended).
double RoundTime(double t) { return std::round(t * 1e6) / 1e6; }

void AppendTime(std::string& out, double t) {
  char buf[48];
  std::snprintf(buf, sizeof(buf), "%.6f", t);
  std::string s(buf);
  // Trim trailing zeros (and a bare point): "1.500000" -> "1.5", "2.000000" -> "2".
  while (!s.empty() && s.back() == '0') s.pop_back();
  if (!s.empty() && s.back() == '.') s.pop_back();
  out += s;
}

void AppendPoint(std::string& out, const glm::vec3& p) {
  AppendFloat(out, p.x);
  out += ' ';
  AppendFloat(out, p.y);
  out += ' ';
  AppendFloat(out, p.z);
}

}  // namespace

void PathRecorder::Begin(const glm::vec3& start, const std::string& header, std::string& out) {
  pending_.clear();
  pending_.reserve(kMaxSpan);
  active_ = IsFinite(start);
  lines_ = 0;
  samples_ = 0;
  anchor_time_ = 0.0;
  anchor_ = start;
  if (!active_) return;
  out += header;
  out += "at 0 target ";
  AppendPoint(out, start);
  out += '\n';
  ++lines_;
}

bool PathRecorder::Reproduces(const Sample& end) const {
  // Every pending sample must lie within kTolerance of the glide anchor -> end at its time.
  const double span = end.time - anchor_time_;
  for (const Sample& s : pending_) {
    const double f = (s.time - anchor_time_) / span;
    const glm::dvec3 a(anchor_), b(end.position);
    const glm::dvec3 on_glide = a + (b - a) * f;
    if (glm::length(on_glide - glm::dvec3(s.position)) > kTolerance) return false;
  }
  return true;
}

void PathRecorder::Emit(const Sample& end, std::string& out) {
  out += "at ";
  AppendTime(out, kLeadIn + anchor_time_);
  out += " target ";
  AppendPoint(out, end.position);
  out += " over ";
  AppendTime(out, end.time - anchor_time_);
  out += '\n';
  ++lines_;
  anchor_time_ = end.time;
  anchor_ = end.position;
}

void PathRecorder::Add(double time, const glm::vec3& position, std::string& out) {
  if (!active_ || !std::isfinite(time) || !IsFinite(position)) return;
  const Sample sample{RoundTime(time), position};
  const double last = pending_.empty() ? anchor_time_ : pending_.back().time;
  if (!(sample.time > last)) return;
  ++samples_;
  if (!pending_.empty() && (pending_.size() >= kMaxSpan || !Reproduces(sample))) {
    // The glide to this sample would miss one in between: end the glide at the previous
    // sample, which then anchors the next one.
    const Sample end = pending_.back();
    pending_.clear();
    Emit(end, out);
  }
  pending_.push_back(sample);
}

void PathRecorder::Finish(std::string& out) {
  if (!active_) return;
  if (!pending_.empty()) {
    const Sample end = pending_.back();
    pending_.clear();
    Emit(end, out);
  }
  active_ = false;
}

}  // namespace fabrik
