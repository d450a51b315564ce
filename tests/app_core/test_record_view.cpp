// Record and replay, the free root and the 2D view (docs/settings.md: Record and replay;
// docs/scenes.md: Free root, The 2D view), driven headless at a fixed time step.
#include <cmath>
#include <filesystem>
#include <fstream>
#include <glm/geometric.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "camera/unproject.h"
#include "core_test_util.h"
#include "lang/script.h"
#include "targets/path_recorder.h"

namespace fabrik {
namespace {

using testing::Core;
using testing::kDt;

std::string ReadFile(const std::string& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// Replays `path` and checks that from the lead-in on the target follows `recorded` (the target
// at record time k * kDt) at the same times, within the recorder's tolerance.
void ExpectReplayMatches(Core& core, const std::string& path,
                         const std::vector<glm::vec3>& recorded) {
  core.Run("script run " + path);
  ASSERT_TRUE(core.state().script.running) << core.LastLine();
  double worst = 0.0;
  int compared = 0;
  for (int frame = 0; frame < 2000 && core.state().script.running; ++frame) {
    const double t = core.state().script.player.time() - PathRecorder::kLeadIn;
    const long k = std::lround(t / kDt);
    if (t > -1e-9 && k < static_cast<long>(recorded.size())) {
      worst =
          std::max(worst, double(glm::distance(core.state().target(), recorded[std::size_t(k)])));
      ++compared;
    }
    core.Frames(1);
  }
  EXPECT_GE(compared, static_cast<int>(recorded.size()) - 2);
  EXPECT_LE(worst, PathRecorder::kTolerance * 1.01);
}

TEST(RecordReplay, AFileWhoseFolderWasDeletedIsNotReportedWritten) {
  // The folder of a running recording is deleted: `record stop` must say the lines are lost,
  // never "written" for a file that no longer exists.
  const std::string folder = ::testing::TempDir() + "/takes-deleted";
  std::filesystem::create_directories(folder);
  const std::string path = folder + "/path.txt";
  Core core;
  core.Run("record start " + path);
  ASSERT_TRUE(core.state().recording.active()) << core.LastLine();
  core.Run("target 1 2 1");
  core.Frames(30);
  std::filesystem::remove_all(folder);
  core.Run("record stop");
  EXPECT_EQ(core.LastKind(), ConsoleLine::Kind::kError);
  EXPECT_NE(core.LastLine().find("removed or replaced"), std::string::npos) << core.LastLine();
  EXPECT_EQ(core.LastLine().find("script lines; replay"), std::string::npos) << core.LastLine();
  EXPECT_FALSE(core.state().recording.active());
}

TEST(RecordReplay, ASplineTargetIsRecordedAndReplayedAlongTheSamePath) {
  const std::string path = ::testing::TempDir() + "recorded_spline.txt";
  Core core;
  core.Run("spline load assets/splines/loop.txt");
  core.Frames(60);
  core.Run("record start " + path);
  ASSERT_TRUE(core.state().recording.active()) << core.LastLine();
  EXPECT_EQ(core.Json()["recording"], path);
  std::vector<glm::vec3> recorded = {core.state().target()};
  for (int i = 0; i < 180; ++i) {
    core.Frames(1);
    recorded.push_back(core.state().target());
  }
  core.Type("record stop");
  ApplyCommands(core.state(), core.queue());  // stop before the next sample
  EXPECT_FALSE(core.state().recording.active());
  EXPECT_TRUE(core.Json()["recording"].is_null());
  const std::string text = ReadFile(path);
  ASSERT_TRUE(ParseScriptText(text, path).ok()) << text;
  EXPECT_NE(text.find(" over "), std::string::npos);
  // Smaller than one line per frame: samples the glides reproduce are dropped.
  EXPECT_LT(std::count(text.begin(), text.end(), '\n'), 180);
  ExpectReplayMatches(core, path, recorded);
}

TEST(RecordReplay, ADragIsRecordedAndReplayed) {
  const std::string path = ::testing::TempDir() + "recorded_drag.txt";
  Core core;
  core.Frames(30);
  core.Run("record start " + path);
  core.Send(app::DragStart{{Grab::Kind::kTarget, -1}, core.state().target(), {0, 0, -1}});
  std::vector<glm::vec3> recorded = {core.state().target()};
  for (int i = 0; i < 120; ++i) {
    const float x = 2.0f * std::sin(i * 0.05f), y = 3.0f + std::cos(i * 0.08f);
    core.Send(app::DragMove{Ray{{x, y, 10.0f}, {0.0f, 0.0f, -1.0f}}});
    core.Frames(1);
    recorded.push_back(core.state().target());
  }
  core.Send(app::DragEnd{});
  core.Type("record stop");
  ApplyCommands(core.state(), core.queue());
  ExpectReplayMatches(core, path, recorded);
}

// Frame times that vary like a real frame loop's (between 1/144 s and 1/24 s), the same on
// every run: a fixed linear congruential sequence.
class VaryingDt {
 public:
  explicit VaryingDt(unsigned seed) : x_(seed) {}
  float Next() {
    x_ = x_ * 1664525u + 1013904223u;
    const float u = static_cast<float>(x_ >> 8) / static_cast<float>(1u << 24);
    return 1.0f / 144.0f + u * (1.0f / 24.0f - 1.0f / 144.0f);
  }

 private:
  unsigned x_;
};

// The recorded target at `t` seconds into the recording: the straight line between the
// samples either side (the frames saw nothing in between).
glm::vec3 RecordedAt(const std::vector<std::pair<double, glm::vec3>>& samples, double t) {
  if (t <= samples.front().first) return samples.front().second;
  for (std::size_t i = 1; i < samples.size(); ++i) {
    if (t <= samples[i].first) {
      const auto& [t0, p0] = samples[i - 1];
      const auto& [t1, p1] = samples[i];
      const float f = static_cast<float>((t - t0) / (t1 - t0));
      return p0 + (p1 - p0) * f;
    }
  }
  return samples.back().second;
}

TEST(RecordReplay, TheReplayKeepsTimeWithVaryingFrameTimes) {
  // No fixed time step: each frame's simulated time is its own (varying) frame time, while
  // recording and again, with other frame times, while replaying.
  const std::string path = ::testing::TempDir() + "recorded_varying.txt";
  Core core(StartOptions{});
  core.Run("spline load assets/splines/loop.txt");
  core.Frames(20);
  core.Run("record start " + path);
  ASSERT_TRUE(core.state().recording.active()) << core.LastLine();
  const double t0 = core.state().timing.time;
  std::vector<std::pair<double, glm::vec3>> recorded = {{0.0, core.state().target()}};
  VaryingDt record_dt(7);
  for (int i = 0; i < 150; ++i) {
    SimulateFrame(core.state(), core.queue(), record_dt.Next());
    recorded.emplace_back(core.state().timing.time - t0, core.state().target());
  }
  core.Type("record stop");
  ApplyCommands(core.state(), core.queue());
  ASSERT_FALSE(core.state().recording.active());

  core.Run("script run " + path);
  ASSERT_TRUE(core.state().script.running) << core.LastLine();
  VaryingDt replay_dt(12345);
  double worst = 0.0;
  int compared = 0;
  while (core.state().script.running && compared < 10000) {
    SimulateFrame(core.state(), core.queue(), replay_dt.Next());
    // Compared at the replay's own frame times, which fall between recorded frames.
    const double t = core.state().script.player.time() - PathRecorder::kLeadIn;
    if (t < 0.0 || t > recorded.back().first) continue;
    const glm::vec3 want = RecordedAt(recorded, t);
    worst = std::max(worst, double(glm::distance(core.state().target(), want)));
    ++compared;
  }
  EXPECT_GT(compared, 50);
  EXPECT_LE(worst, PathRecorder::kTolerance * 1.01);
}

TEST(RecordReplay, RefusedWhileAScriptPlays) {
  Core core;
  core.Run("script run assets/scripts/square.txt");
  const std::string path = ::testing::TempDir() + "refused.txt";
  std::filesystem::remove(path);
  core.Run("record start " + path);
  EXPECT_EQ(core.LastKind(), ConsoleLine::Kind::kError);
  EXPECT_NE(core.LastLine().find("script"), std::string::npos);
  EXPECT_FALSE(core.state().recording.active());
  EXPECT_FALSE(std::filesystem::exists(path));
}

TEST(RecordReplay, AnUnwritablePathIsOneErrorAndChangesNothing) {
  Core core;
  core.Frames(10);
  const std::string before = core.Fingerprint();
  const std::size_t lines = core.state().console.log.size();
  const std::string bad = ::testing::TempDir() + "no/such/folder/rec.txt";
  core.Type("record start " + bad);
  ApplyCommands(core.state(), core.queue());
  ASSERT_EQ(core.state().console.log.size(), lines + 2);  // the echo and one error
  EXPECT_EQ(core.LastKind(), ConsoleLine::Kind::kError);
  EXPECT_NE(core.LastLine().find("cannot write"), std::string::npos);
  EXPECT_EQ(core.Fingerprint(), before);
  EXPECT_FALSE(std::filesystem::exists(bad));
  // A folder is not writable as a file either.
  core.Run("record start " + ::testing::TempDir());
  EXPECT_EQ(core.LastKind(), ConsoleLine::Kind::kError);
  EXPECT_FALSE(core.state().recording.active());
  // Stopping when not recording is an error too.
  core.Run("record stop");
  EXPECT_EQ(core.LastKind(), ConsoleLine::Kind::kError);
}

TEST(RecordReplay, AFailedWriteIsReportedOnceAndStopsTheRecording) {
  Core core;
  // A device that fails every write with ENOSPC: the start succeeds, the first sample (the
  // same frame) fails and stops the recording.
  core.Run("record start /dev/full");
  EXPECT_FALSE(core.state().recording.active());
  core.Run("mode console");
  core.Run("target 1 2 0.5");
  core.Frames(120);
  EXPECT_FALSE(core.state().recording.active());
  int errors = 0;
  for (const ConsoleLine& line : core.state().console.log) {
    if (line.kind == ConsoleLine::Kind::kError &&
        line.text.find("/dev/full") != std::string::npos) {
      ++errors;
      EXPECT_NE(line.text.find("No space left"), std::string::npos) << line.text;
    }
  }
  EXPECT_EQ(errors, 1);
}

TEST(RecordReplay, AFifoIsRefusedWithoutBlocking) {
  const std::string fifo = ::testing::TempDir() + "rec-fifo-" + std::to_string(::getpid());
  std::filesystem::remove(fifo);
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  Core core;
  core.Run("record start " + fifo);  // nobody reads it: an open that blocked would hang here
  EXPECT_EQ(core.LastKind(), ConsoleLine::Kind::kError);
  EXPECT_NE(core.LastLine().find("FIFO"), std::string::npos) << core.LastLine();
  EXPECT_FALSE(core.state().recording.active());
  std::filesystem::remove(fifo);
}

TEST(RecordReplay, TheFileIsCompletedWhenTheAppEnds) {
  const std::string path = ::testing::TempDir() + "recorded_exit.txt";
  {
    Core core;
    core.Run("target 2 2 0");
    core.Run("record start " + path);
    core.Run("target -2 3 1");
    core.Frames(90);
  }  // the state is destroyed here, as on the demo's exit
  const std::string text = ReadFile(path);
  auto script = ParseScriptText(text, path);
  ASSERT_TRUE(script.ok()) << script.error();
  // The last glide arrives where the target ended: at (-2, 3, 1).
  const ScriptLine& last = script.value().lines().back();
  const auto* target = std::get_if<cmd::Target>(&last.command);
  ASSERT_NE(target, nullptr);
  EXPECT_LT(glm::distance(target->position, glm::vec3(-2, 3, 1)), 1e-4f);
}

TEST(FreeRoot, TheHeadIsOnTheTargetLengthsAreKeptAndTheRootFollows) {
  Core core;
  core.Run("root free");
  EXPECT_TRUE(core.Json()["root_free"]);
  core.Run("target 30 5 0");  // far beyond the reach of 7
  core.Frames(60);
  const Chain& chain = core.state().chain;
  EXPECT_EQ(chain.effector(), core.state().target());
  EXPECT_LT(glm::distance(core.state().target(), glm::vec3(30, 5, 0)), 1e-4f);
  for (std::size_t i = 0; i + 1 < chain.joint_count(); ++i) {
    EXPECT_NEAR(glm::distance(chain.joints()[i], chain.joints()[i + 1]), chain.lengths()[i], 1e-4f);
  }
  EXPECT_GT(chain.root().x, 20.0f);  // the root came along
  EXPECT_TRUE(core.state().last.reached);
  EXPECT_GT(core.state().root.trail_count, 10u);
  // The state line's root is joints[0].
  EXPECT_FLOAT_EQ(core.Json()["joints"][0][0].get<float>(), chain.root().x);
  // Fixed again: the root is pinned where it is and the solver takes over from there.
  const glm::vec3 pinned = chain.root();
  core.Run("root fixed");
  core.Run("target 27 6 0");
  core.Frames(60);
  EXPECT_EQ(core.state().chain.root(), pinned);
  EXPECT_TRUE(core.state().last.reached);
  EXPECT_FALSE(core.Json()["root_free"]);
}

TEST(FreeRoot, FreeingTheRootEndsTheStepViewAndTheRace) {
  Core core;
  core.Run("race on");
  core.Run("step on");
  core.Run("root free");
  EXPECT_FALSE(core.state().step.active);
  EXPECT_FALSE(core.state().race.active);
}

TEST(View2d, AnOrthographicCameraDownMinusZWithTargetsAtZeroAndAFlatChain) {
  Core core;
  core.Run("target 1 3 2");
  core.Frames(60);
  core.Run("view 2d");
  const nlohmann::json j = core.Json();
  EXPECT_EQ(j["view_mode"], "2d");
  // Column-major projection: orthographic (no w from z), view looking down -Z with +Y up.
  EXPECT_EQ(j["projection"][11].get<float>(), 0.0f);
  EXPECT_EQ(j["projection"][15].get<float>(), 1.0f);
  EXPECT_NEAR(j["view"][10].get<float>(), 1.0f, 1e-6f);  // world Z -> eye Z
  EXPECT_NEAR(j["view"][5].get<float>(), 1.0f, 1e-6f);   // world Y -> eye Y
  for (const auto& p : j["joints"]) EXPECT_EQ(p[2].get<float>(), 0.0f);
  EXPECT_EQ(core.state().target().z, 0.0f);
  // Typed targets stay in the plane, and the chain with them.
  core.Run("target -2 2 5");
  core.Frames(60);
  EXPECT_EQ(core.state().target(), glm::vec3(-2, 2, 0));
  for (const glm::vec3& p : core.state().chain.joints()) EXPECT_EQ(p.z, 0.0f);
  // Orbit does nothing; zoom does.
  const glm::mat4 view = core.state().view.view;
  core.Send(app::CameraOrbit{{200.0f, 100.0f}});
  core.Frames(1);
  EXPECT_EQ(core.state().view.view, view);
  const float distance = core.state().view.camera.distance();
  core.Send(app::CameraZoom{2.0f});
  core.Frames(1);
  EXPECT_LT(core.state().view.camera.distance(), distance);
  // Back to 3D: perspective.
  core.Run("view 3d");
  EXPECT_EQ(core.Json()["view_mode"], "3d");
  EXPECT_EQ(core.Json()["projection"][11].get<float>(), -1.0f);
}

TEST(View2d, TheStepViewAndTheRaceStartAgainFromTheFlatChain) {
  Core core;
  core.Run("target 1 3 2");
  core.Frames(60);
  core.Run("race on");
  core.Run("step on");
  core.Run("view 2d");
  ASSERT_TRUE(core.state().step.active);
  ASSERT_TRUE(core.state().race.active);
  for (const glm::vec3& p : core.state().step.recorded_from) EXPECT_EQ(p.z, 0.0f);
  EXPECT_EQ(core.state().step.recorded_target.z, 0.0f);
  core.Run("step end");
  for (const glm::vec3& p : core.state().step.pose) EXPECT_EQ(p.z, 0.0f);
  for (const RaceEntry& e : core.state().race.entries) {
    ASSERT_TRUE(e.chain);
    for (const glm::vec3& p : e.chain->joints()) EXPECT_NEAR(p.z, 0.0f, 1e-6f);
  }
}

TEST(View2d, DragsStayOnZeroUnderTheCursor) {
  Core core;
  core.Run("view 2d");
  core.Frames(2);
  const AppState& s = core.state();
  const glm::vec2 window(1280.0f, 800.0f);
  const glm::vec2 cursor(700.0f, 300.0f);
  const auto ray = ScreenRay(cursor, window, window, s.view.view, s.view.projection);
  ASSERT_TRUE(ray);
  // Grabbed at a point off the plane: the drag still runs on z = 0.
  core.Send(app::DragStart{
      {Grab::Kind::kTarget, -1}, s.target() + glm::vec3(0, 0, 0.7f), s.view.camera.forward()});
  core.Send(app::DragMove{*ray});
  core.Frames(2);
  const glm::vec3 expected =
      *ScreenToPlaneZ(cursor, window, window, s.view.view, s.view.projection);
  EXPECT_EQ(s.target().z, 0.0f);
  EXPECT_LT(glm::distance(s.target(), expected), 1e-4f);
}

class RecordViewBadLine : public ::testing::TestWithParam<const char*> {};

TEST_P(RecordViewBadLine, PrintsOneErrorAndChangesNothing) {
  Core core;
  core.Frames(30);
  const std::string before = core.Fingerprint();
  const std::size_t lines = core.state().console.log.size();
  core.Type(GetParam());
  ApplyCommands(core.state(), core.queue());
  ASSERT_EQ(core.state().console.log.size(), lines + 2) << GetParam();
  EXPECT_EQ(core.LastKind(), ConsoleLine::Kind::kError) << GetParam();
  EXPECT_EQ(core.LastLine().find('\n'), std::string::npos);
  EXPECT_EQ(core.Fingerprint(), before) << GetParam();
}

INSTANTIATE_TEST_SUITE_P(RecordView, RecordViewBadLine,
                         ::testing::Values("record", "record start", "record play x",
                                           "record start a b", "record stop now", "record stop",
                                           "root", "root loose", "root free fixed", "view 4d",
                                           "view", "view 2d 3d"));

}  // namespace
}  // namespace fabrik
