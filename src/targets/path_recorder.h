// path_recorder.h - turns a moving target into a script (docs/settings.md: Record and replay), so
// that `script run` replays the path.
//
// Format written (the script language of script.h; every line is a valid script line):
//   # header comments (what, when, the tolerance)
//   at 0 target X0 Y0 Z0                      the start: the replay's target glides there
//   at T target X Y Z over D                  one glide per kept sample, T = kLeadIn + t
// The recorded motion starts kLeadIn seconds into the script, after the app's 0.6 s mode-switch
// glide (README: The four target modes) has brought the target to the start, so a replay
// shows the recorded path at the recorded times from kLeadIn on.
//
// The glides are chained: each starts at the time the previous one ends (times written with
// 6 decimals, D the difference of the written times), from where the previous one arrived, so
// a ScriptPlayer reproduces the piecewise-linear path through the kept samples exactly.
// Samples that such a glide reproduces are dropped: a sample is kept only when the straight,
// constant-speed glide from the last kept sample to the next one would pass more than
// kTolerance world units from it at its own time (so stops, starts and turns are kept, and a
// target holding still is one glide). At most kMaxSpan samples are checked per glide, which
// bounds the work per sample. Coordinates are written as the shortest text that reads back as
// the same float.
//
// No I/O here: lines are appended to a caller's string, which the app writes to its file.
#pragma once

#include <cstddef>
#include <glm/vec3.hpp>
#include <string>
#include <vector>

namespace fabrik {

class PathRecorder {
 public:
  static constexpr float kTolerance = 0.001f;  // world units
  static constexpr double kLeadIn = 1.0;       // seconds before the recorded motion
  static constexpr std::size_t kMaxSpan = 1024;

  // Starts a recording at `start` (world units) at time 0: appends the header and the first
  // line to `out`. Any earlier recording is forgotten.
  void Begin(const glm::vec3& start, const std::string& header, std::string& out);
  // The target at `time` seconds since Begin. Samples not later than the previous one, or
  // not finite, are ignored. Appends the glides that became final (often none).
  void Add(double time, const glm::vec3& position, std::string& out);
  // Appends the last glide; the recording is then complete and stops taking samples.
  void Finish(std::string& out);

  bool active() const { return active_; }
  // Script lines written so far (the first `at 0 target` included).
  std::size_t lines() const { return lines_; }
  // Samples given to Add and accepted, and samples kept as glide ends so far.
  std::size_t samples() const { return samples_; }
  double last_time() const { return anchor_time_; }

 private:
  struct Sample {
    double time;
    glm::vec3 position;
  };
  bool Reproduces(const Sample& end) const;
  void Emit(const Sample& end, std::string& out);

  bool active_ = false;
  std::size_t lines_ = 0;
  std::size_t samples_ = 0;
  double anchor_time_ = 0.0;  // as written (6 decimals), so chained times add up exactly
  glm::vec3 anchor_{0.0f};
  std::vector<Sample> pending_;  // samples after the anchor; the last is the candidate end
};

}  // namespace fabrik
