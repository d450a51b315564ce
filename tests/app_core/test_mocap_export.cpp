// The mocap scene's export (docs/mocap.md: Exporting from the demo) in the headless core: a
// short clip baked over several frames with the scene's ground, weight and targets, the file
// read back with the project's loader against a Baker given the same options; hostile paths;
// an export running while another starts, the clip changes or the scene is left; and the
// headless export --export runs (ExportScene).
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <algorithm>
#include <filesystem>

#include "core/app_state.h"
#include "core/scene_registry.h"
#include "core_test_util.h"
#include "mocap/bake.h"
#include "mocap/mocap_test_util.h"
#include "scenes/mocap/mocap_scene.h"

namespace fabrik::testing {
namespace {

using mocap::testing::TempDir;

// The first `frames` frames of the packaged clip 01_01, written as a BVH file in `dir`.
std::string ShortClip(const TempDir& dir, int frames) {
  auto clip = mocap::LoadClipFile(mocap::testing::kClip0101);
  EXPECT_TRUE(clip) << clip.error();
  mocap::BvhFrames all = mocap::ClipFrames(clip.value());
  const std::size_t kept = static_cast<std::size_t>(frames * clip.value().joint_count());
  all.frame_count = frames;
  all.rotations.resize(kept);
  all.translations.resize(kept);
  const std::string path = dir.path("short.bvh");
  const Status written = mocap::WriteBvhFile(path, mocap::ClipSkeleton(clip.value()), all);
  EXPECT_TRUE(written) << written.error();
  return path;
}

// The folder itself, without a trailing slash.
std::string Folder(const TempDir& dir) {
  return std::filesystem::path(dir.path("x")).parent_path().string();
}

// Whether one of the console's last `n` lines holds `needle`.
bool SaidLately(const Core& core, const std::string& needle, std::size_t n = 3) {
  const auto& log = core.state().console.log;
  for (std::size_t i = log.size() > n ? log.size() - n : 0; i < log.size(); ++i) {
    if (log[i].text.find(needle) != std::string::npos) return true;
  }
  return false;
}

std::vector<std::string> Names(const std::string& folder) {
  std::vector<std::string> names;
  for (const auto& e : std::filesystem::directory_iterator(folder)) {
    names.push_back(e.path().filename().string());
  }
  std::sort(names.begin(), names.end());
  return names;
}

// Runs frames until the export is no longer running (at most `limit`); returns the progress
// of each frame's state line.
std::vector<double> RunExport(Core& core, int limit) {
  std::vector<double> progress;
  for (int i = 0; i < limit; ++i) {
    const nlohmann::json e = core.Json()["mocap"]["export"];
    progress.push_back(e["progress"].get<double>());
    if (e["state"] != "running") break;
    core.Frames(1);
  }
  return progress;
}

TEST(MocapExport, BakesOverSeveralFramesAsTheBakerDoes) {
  TempDir dir;
  const int frames = 200;
  const std::string clip = ShortClip(dir, frames);
  Core core;
  core.Run("mocap load " + clip);
  ASSERT_EQ(core.state().scene.name(), "mocap") << core.LastLine();
  core.Run("reach left 0.3 1.2 0.4");
  core.Run("look -2 1.5 2");
  core.Run("ik weight 0.8");
  const std::string out = dir.path("baked.bvh");
  core.Run("mocap export " + out);
  ASSERT_TRUE(core.Json().contains("mocap")) << core.LastLine();
  const std::vector<double> progress = RunExport(core, 100);
  const nlohmann::json e = core.Json()["mocap"]["export"];
  EXPECT_EQ(e["state"], "done");
  EXPECT_EQ(e["path"], out);
  EXPECT_EQ(e["frames"], frames);
  EXPECT_EQ(progress.back(), 1.0);
  EXPECT_GE(progress.size(), static_cast<std::size_t>(frames / kExportFramesPerFrame));
  for (std::size_t i = 1; i < progress.size(); ++i) EXPECT_GT(progress[i], progress[i - 1]);
  EXPECT_EQ(core.LastLine(), "mocap export: wrote " + out + " (200 frames)");
  EXPECT_EQ(Names(Folder(dir)), (std::vector<std::string>{"baked.bvh", "short.bvh"}));

  // A Baker given what the scene held: the same ground, placement, weight and targets.
  const MocapScene& scene = *core.state().scene.As<MocapScene>();
  auto loaded = mocap::LoadClipFile(clip);
  ASSERT_TRUE(loaded);
  auto rig = mocap::MakeRig(std::move(loaded).value());
  ASSERT_TRUE(rig);
  mocap::BakeOptions options;
  options.terrain = scene.ground().get();
  options.ik_weight = 0.8f;
  options.events = {{0.0f, mocap::BakeEvent::Kind::kReach, mocap::kLeft, {0.3f, 1.2f, 0.4f}},
                    {0.0f, mocap::BakeEvent::Kind::kLook, mocap::kRight, {-2.0f, 1.5f, 2.0f}}};
  auto baker = mocap::Baker::Create(rig.value(), options);
  ASSERT_TRUE(baker) << baker.error();
  auto back = mocap::LoadClipFile(out);
  ASSERT_TRUE(back) << back.error();
  ASSERT_EQ(back.value().frame_count(), frames);
  mocap::Pose sampled;
  sampled.Resize(back.value().joint_count());
  float worst = 0.0f;
  for (int f = 0; f < frames; ++f) {
    baker.value().Step(1);
    const mocap::Character& c = baker.value().character();
    const glm::quat unturn = glm::inverse(c.placed_turn());
    mocap::SampleFrame(back.value(), f, sampled);
    for (int j = 0; j < back.value().joint_count(); ++j) {
      const glm::vec3 local = unturn * (c.pose().positions[j] - c.placed_shift());
      worst = std::max(worst, glm::distance(sampled.positions[j], local));
    }
  }
  EXPECT_LT(worst, 1e-4f);  // 0.1 mm
}

TEST(MocapExport, HostilePathsGiveOneErrorAndNoFile) {
  TempDir dir;
  const std::string clip = ShortClip(dir, 40);
  const std::string fifo = dir.path("fifo.bvh");
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  Core core;
  core.Run("mocap load " + clip);
  ASSERT_EQ(core.state().scene.name(), "mocap");
  const std::vector<std::string> before = Names(Folder(dir));
  const std::pair<std::string, std::string> bad[] = {
      {Folder(dir), "is a folder"},     {dir.path("sub/"), "names a folder"},
      {fifo, "not a regular file"},     {dir.path("missing/out.bvh"), "does not exist"},
      {clip, "is the clip being read"}, {"/dev/null", "not a regular file"}};
  for (const auto& [path, needle] : bad) {
    const std::size_t lines = core.state().console.log.size();
    core.Run("mocap export " + path);
    int errors = 0;  // the typed line is echoed; one error line follows
    for (std::size_t i = lines; i < core.state().console.log.size(); ++i) {
      errors += core.state().console.log[i].kind == ConsoleLine::Kind::kError ? 1 : 0;
    }
    EXPECT_EQ(errors, 1) << path;
    EXPECT_EQ(core.LastKind(), ConsoleLine::Kind::kError) << path;
    EXPECT_EQ(core.LastLine().rfind("mocap export: ", 0), 0u) << core.LastLine();
    EXPECT_NE(core.LastLine().find(needle), std::string::npos) << core.LastLine();
    EXPECT_FALSE(core.Json().contains("mocap")) << path;
  }
  core.Frames(5);
  EXPECT_EQ(Names(Folder(dir)), before);
}

TEST(MocapExport, OneAtATimeKeptThroughALoadCancelledByLeaving) {
  TempDir dir;
  const std::string clip = ShortClip(dir, 150);
  Core core;
  core.Run("mocap export " + dir.path("x.bvh"));  // in the chain scene
  EXPECT_EQ(core.LastLine(), "mocap export: the mocap scene is not on (type 'scene mocap')");
  core.Run("mocap load " + clip);
  core.Run("mocap export " + dir.path("a.bvh"));
  core.Run("mocap export " + dir.path("b.bvh"));  // refused: one runs
  EXPECT_EQ(core.LastKind(), ConsoleLine::Kind::kError);
  EXPECT_NE(core.LastLine().find("is running"), std::string::npos) << core.LastLine();
  EXPECT_EQ(core.Json()["mocap"]["export"]["path"], dir.path("a.bvh"));
  // Another clip meanwhile: the export goes on with the clip it started with.
  core.Run("mocap load " + std::string(mocap::testing::kClip0103));
  RunExport(core, 100);
  EXPECT_EQ(core.Json()["mocap"]["export"]["state"], "done");
  EXPECT_EQ(core.Json()["mocap"]["export"]["frames"], 150);
  // Leaving the scene cancels a running export: one error line, nothing written.
  core.Run("mocap export " + dir.path("c.bvh"));
  ASSERT_EQ(core.Json()["mocap"]["export"]["state"], "running");
  core.Run("scene chain");
  EXPECT_TRUE(SaidLately(core, "mocap export: cancelled")) << core.LastLine();
  EXPECT_EQ(Names(Folder(dir)), (std::vector<std::string>{"a.bvh", "short.bvh"}));
}

TEST(MocapExport, TheHeadlessExportWritesTheFileAtOnce) {
  TempDir dir;
  const std::string clip = ShortClip(dir, 60);
  Core chain;
  auto refused = ExportScene(chain.state(), dir.path("x.bvh"));
  ASSERT_FALSE(refused);
  EXPECT_NE(refused.error().find("chain scene has nothing to export"), std::string::npos);
  StartOptions options = FixedStep();
  options.scene = "mocap";
  options.scene_options.SetText("--bvh", clip);
  Core core(options);
  auto written = ExportScene(core.state(), dir.path("out.bvh"));
  ASSERT_TRUE(written) << written.error();
  EXPECT_EQ(written.value(), "wrote " + dir.path("out.bvh") + " (60 frames)");
  auto back = mocap::LoadClipFile(dir.path("out.bvh"));
  ASSERT_TRUE(back) << back.error();
  EXPECT_EQ(back.value().frame_count(), 60);
  EXPECT_FALSE(ExportScene(core.state(), dir.path("missing/out.bvh")));
}

}  // namespace
}  // namespace fabrik::testing
