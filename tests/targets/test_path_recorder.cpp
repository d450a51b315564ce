// PathRecorder (targets/path_recorder.h): a recorded path, written as a script, parses and
// replays through ScriptPlayer along the same positions at the same times (within the
// recorder's tolerance), and samples a glide reproduces are dropped.
#include <gtest/gtest.h>

#include <cmath>
#include <glm/geometric.hpp>
#include <memory>
#include <vector>

#include "targets/path_recorder.h"
#include "targets/script_player.h"

namespace fabrik {
namespace {

constexpr double kDt = 1.0 / 60.0;

struct Recorded {
  std::string text;
  std::vector<glm::vec3> path;  // the target at frame k (time k * kDt)
};

template <class F>
Recorded Record(int frames, F position_at) {
  Recorded r;
  PathRecorder recorder;
  r.path.push_back(position_at(0.0));
  recorder.Begin(r.path[0], "# test\n", r.text);
  for (int k = 1; k < frames; ++k) {
    r.path.push_back(position_at(k * kDt));
    recorder.Add(k * kDt, r.path.back(), r.text);
  }
  recorder.Finish(r.text);
  EXPECT_FALSE(recorder.active());
  return r;
}

// Replays the script from a target already at the start, and returns the largest distance
// between the replayed target at script time kLeadIn + k * kDt and the recorded frame k.
double ReplayError(const Recorded& r) {
  auto script = ParseScriptText(r.text, "recorded.txt");
  EXPECT_TRUE(script.ok()) << script.error() << "\n" << r.text;
  if (!script.ok()) return 1e9;
  ScriptPlayer player;
  player.SetScript(std::make_shared<const Script>(std::move(script).value()));
  player.Start();
  glm::vec3 target = r.path[0];
  const int lead_frames = static_cast<int>(std::lround(PathRecorder::kLeadIn / kDt));
  double worst = 0.0;
  for (int frame = 1; frame < lead_frames + static_cast<int>(r.path.size()); ++frame) {
    const ScriptStep step = player.Advance(kDt, target);
    if (step.target) target = *step.target;
    const int k = frame - lead_frames;
    if (k >= 0) worst = std::max(worst, double(glm::distance(target, r.path[k])));
  }
  EXPECT_TRUE(player.finished());
  return worst;
}

std::size_t CountLines(const std::string& text) {
  std::size_t n = 0;
  for (char c : text) n += c == '\n';
  return n;
}

TEST(PathRecorder, AWigglyPathReplaysWithinTheTolerance) {
  const Recorded r = Record(600, [](double t) {
    return glm::vec3(2.0 * std::sin(1.3 * t), 1.0 + std::cos(2.1 * t), 0.5 * std::sin(0.7 * t));
  });
  EXPECT_LE(ReplayError(r), PathRecorder::kTolerance * 1.01);
  // Kept samples only: far fewer lines than frames.
  EXPECT_LT(CountLines(r.text), 600u / 2);
}

TEST(PathRecorder, StraightConstantSpeedAndHoldsAreOneGlideEach) {
  // 2 s still, 3 s along a straight line at constant speed, 2 s still.
  const Recorded r = Record(7 * 60 + 1, [](double t) {
    const double s = std::clamp((t - 2.0) / 3.0, 0.0, 1.0);
    return glm::vec3(-1.0f + 3.0f * float(s), 2.0f, 0.0f);
  });
  EXPECT_LE(ReplayError(r), PathRecorder::kTolerance * 1.01);
  // Header, the start, then three glides (hold, move, hold).
  EXPECT_EQ(CountLines(r.text), 1u + 1u + 3u) << r.text;
}

TEST(PathRecorder, SharpTurnsAreKept) {
  // A zigzag: the corners must survive, or the replay would cut them.
  const Recorded r = Record(481, [](double t) {
    const double phase = std::fmod(t, 1.0);
    const double tri = phase < 0.5 ? phase * 2.0 : 2.0 - phase * 2.0;
    return glm::vec3(float(t), float(tri), 0.0f);
  });
  EXPECT_LE(ReplayError(r), PathRecorder::kTolerance * 1.01);
}

TEST(PathRecorder, BadSamplesAreIgnored) {
  std::string text;
  PathRecorder recorder;
  recorder.Begin({0, 0, 0}, "", text);
  recorder.Add(0.5, {1, 0, 0}, text);
  recorder.Add(0.4, {5, 5, 5}, text);    // earlier than the last
  recorder.Add(0.6, {NAN, 0, 0}, text);  // not finite
  recorder.Add(INFINITY, {0, 0, 0}, text);
  recorder.Finish(text);
  EXPECT_EQ(recorder.samples(), 1u);
  EXPECT_EQ(text.find("nan"), std::string::npos);
  EXPECT_EQ(text.find("inf"), std::string::npos);
  EXPECT_TRUE(ParseScriptText(text, "r.txt").ok()) << text;
  // A non-finite start never begins.
  PathRecorder never;
  std::string none;
  never.Begin({NAN, 0, 0}, "# h\n", none);
  EXPECT_FALSE(never.active());
  EXPECT_TRUE(none.empty());
}

}  // namespace
}  // namespace fabrik
