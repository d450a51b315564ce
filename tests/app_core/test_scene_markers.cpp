// The markers scene in the headless core (docs/markers.md, "The markers scene"): the packaged
// take loaded and played, its state-line fields, hiding markers and a segment (the prediction
// and the hide's end), export read back by the mocap loader, and bad files and lines that
// change nothing.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <set>

#include "core/app_state.h"
#include "core/settings.h"
#include "core_test_util.h"
#include "markers/skeleton.h"
#include "mocap/clip.h"
#include "scenes/markers/markers_scene.h"

namespace fabrik::testing {
namespace {

const char* const kFencer = "/usr/share/assimp/models/CSM/ThomasFechten.csm";

// The fencer's take, loaded once per test (reading and calibrating take a moment).
class MarkersSceneTest : public ::testing::Test {
 protected:
  void SetUp() override {
    core_.Run(std::string("markers load ") + kFencer);
    ASSERT_EQ(core_.state().scene.name(), "markers") << core_.LastLine();
  }

  // The state of marker `name` on the state line.
  std::string MarkerState(const std::string& name) const {
    const nlohmann::json j = core_.Json();
    const auto& names = j["markers"]["names"];
    for (std::size_t i = 0; i < names.size(); ++i) {
      if (names[i] == name) return j["markers"]["state"][i];
    }
    ADD_FAILURE() << "no marker " << name;
    return "";
  }

  // What a refused line must leave alone.
  std::string Kept() const {
    nlohmann::json j = core_.Json();
    return nlohmann::json{{"scene", j["scene"]},
                          {"take", j["take"]},
                          {"markers", j["markers"]},
                          {"skeleton", j["skeleton"]},
                          {"playback", j["playback"]}}
        .dump();
  }

  // Runs frames until the export on the state line is no longer running (at most `limit`);
  // returns its state-line object.
  nlohmann::json ExportFinished(int limit = 400) {
    for (int i = 0; i < limit; ++i) {
      const nlohmann::json j = core_.Json();
      if (j["markers"].contains("export") && j["markers"]["export"]["state"] != "running") {
        return j["markers"]["export"];
      }
      core_.Frames(1);
    }
    ADD_FAILURE() << "the export did not finish in " << limit << " frames";
    return {};
  }

  Core core_;
};

TEST_F(MarkersSceneTest, LoadsThePackagedTakeWithEveryStateField) {
  core_.Frames(2);
  const nlohmann::json j = core_.Json();
  EXPECT_EQ(j["take"]["path"], kFencer);
  EXPECT_EQ(j["take"]["frames"], 2439);
  EXPECT_NEAR(j["take"]["rate"].get<double>(), 120.0, 1e-6);
  const nlohmann::json& m = j["markers"];
  ASSERT_EQ(m["names"].size(), 43u);
  ASSERT_EQ(m["positions"].size(), 43u);
  ASSERT_EQ(m["state"].size(), 43u);
  const std::set<std::string> known = {"seen", "predicted", "rejected", "missing"};
  for (const auto& s : m["state"]) EXPECT_TRUE(known.count(s.get<std::string>())) << s;
  const nlohmann::json& s = j["skeleton"];
  ASSERT_EQ(s["names"].size(), static_cast<std::size_t>(markers::kNodeCount));
  EXPECT_EQ(s["parents"][0], -1);
  ASSERT_EQ(s["joints"].size(), static_cast<std::size_t>(markers::kNodeCount));
  // A person: the head above the root, the feet below it, all in the take's metres.
  const double root_y = s["joints"][markers::kRoot][1].get<double>();
  EXPECT_GT(s["joints"][markers::kHeadEnd][1].get<double>(), root_y + 0.3);
  EXPECT_LT(s["joints"][markers::kAnkleL][1].get<double>(), root_y - 0.5);
  // The residuals of a real take, in metres: small but not zero.
  EXPECT_GT(j["residual_rms"].get<double>(), 0.0);
  EXPECT_LT(j["residual_rms"].get<double>(), 0.03);
  EXPECT_GE(j["residual_max"].get<double>(), j["residual_rms"].get<double>());
  EXPECT_GT(j["solve_us"].get<double>(), 0.0);
  // The top-level pose is the skeleton's.
  EXPECT_EQ(j["joints"], s["joints"]);
}

TEST_F(MarkersSceneTest, PlaysPausesAndJumps) {
  core_.Frames(30);  // half a second at 60 frames a second: 60 take frames at 120 Hz
  const int played = core_.Json()["take"]["frame"];
  EXPECT_NEAR(played, 62, 3);
  core_.Run("markers pause");
  const int paused = core_.Json()["take"]["frame"];
  core_.Frames(10);
  EXPECT_EQ(core_.Json()["take"]["frame"], paused);
  core_.Run("markers frame 1200");
  EXPECT_EQ(core_.Json()["take"]["frame"], 1200);
  core_.Run("markers frame 99999");  // clamped into the take
  EXPECT_EQ(core_.Json()["take"]["frame"], 2438);
  core_.Run("markers speed 2");
  core_.Run("markers frame 0");
  core_.Run("markers play");
  core_.Frames(30);
  EXPECT_NEAR(core_.Json()["take"]["frame"].get<int>(), 124, 4);  // 31 frames x 4
  EXPECT_EQ(core_.Json()["playback"]["speed"], 2.0);
}

TEST_F(MarkersSceneTest, AHiddenMarkerIsPredictedNearItsRecordingAndComesBack) {
  // Frame 1500: past the fencer's defective stretches; LFHD (a head marker) is seen there.
  core_.Run("markers frame 1500");
  core_.Run("markers pause");
  ASSERT_EQ(MarkerState("LFHD"), "seen");
  const nlohmann::json before = core_.Json();
  std::size_t index = 0;
  while (before["markers"]["names"][index] != "LFHD") ++index;
  const auto recorded = before["markers"]["positions"][index];

  core_.Run("markers hide LFHD for 0.5");
  EXPECT_EQ(core_.LastLine(), "markers hide LFHD for 0.5 s");
  EXPECT_EQ(MarkerState("LFHD"), "predicted");
  const nlohmann::json hidden = core_.Json();
  EXPECT_EQ(hidden["markers"]["hidden"], nlohmann::json::array({"LFHD"}));
  const auto predicted = hidden["markers"]["positions"][index];
  const double dx = predicted[0].get<double>() - recorded[0].get<double>();
  const double dy = predicted[1].get<double>() - recorded[1].get<double>();
  const double dz = predicted[2].get<double>() - recorded[2].get<double>();
  EXPECT_LT(std::sqrt(dx * dx + dy * dy + dz * dz), 0.03);  // a rigid head: within 3 cm

  // Paused, the hide stays; played past its 60 frames (0.5 s at 120 Hz), it ends.
  core_.Frames(20);
  EXPECT_EQ(MarkerState("LFHD"), "predicted");
  core_.Run("markers play");
  core_.Frames(40);  // 80 take frames
  EXPECT_EQ(MarkerState("LFHD"), "seen");
  EXPECT_TRUE(core_.Json()["markers"]["hidden"].empty());
}

TEST_F(MarkersSceneTest, ASegmentHidesAllItsMarkers) {
  core_.Run("markers frame 1500");
  core_.Run("markers pause");
  core_.Run("markers hide hand_l for 1");
  const nlohmann::json j = core_.Json();
  EXPECT_GE(j["markers"]["hidden"].size(), 2u);
  for (const auto& name : j["markers"]["hidden"]) {
    EXPECT_EQ(MarkerState(name.get<std::string>()), "predicted") << name;
  }
}

TEST_F(MarkersSceneTest, ExportWritesABvhTheMocapLoaderReadsAndATrc) {
  const std::string bvh = ::testing::TempDir() + "markers_scene_export.bvh";
  const std::string trc = ::testing::TempDir() + "markers_scene_export.trc";
  std::filesystem::remove(bvh);
  std::filesystem::remove(trc);
  core_.Run("markers export bvh " + bvh);
  EXPECT_NE(core_.LastKind(), ConsoleLine::Kind::kError) << core_.LastLine();
  // The work is spread over frames: nothing is written on the first, and the state line
  // says how far it has got.
  nlohmann::json e = core_.Json()["markers"]["export"];
  EXPECT_EQ(e["state"], "running");
  EXPECT_EQ(e["frames"], 2439);
  EXPECT_EQ(e["kind"], "bvh");
  EXPECT_FALSE(std::filesystem::exists(bvh));
  const int before = e["frames_done"];
  EXPECT_LT(before, 2439);
  core_.Frames(1);
  e = core_.Json()["markers"]["export"];
  EXPECT_EQ(e["frames_done"], before + MarkersScene::kExportFramesPerFrame);
  // A second export waits for the first.
  core_.Run("markers export trc " + trc);
  EXPECT_EQ(core_.LastKind(), ConsoleLine::Kind::kError);
  EXPECT_NE(core_.LastLine().find("is running"), std::string::npos) << core_.LastLine();
  e = ExportFinished();
  EXPECT_EQ(e["state"], "done");
  EXPECT_EQ(e["frames_done"], 2439);
  EXPECT_EQ(core_.LastLine(), "markers export: wrote " + bvh + " (2439 frames)");
  Result<mocap::Clip> clip = mocap::LoadClipFile(bvh);
  ASSERT_TRUE(clip.ok()) << clip.error();
  EXPECT_EQ(clip.value().frame_count(), 2439);
  core_.Run("markers export trc " + trc);
  EXPECT_NE(core_.LastKind(), ConsoleLine::Kind::kError) << core_.LastLine();
  EXPECT_EQ(ExportFinished()["state"], "done");
  std::ifstream in(trc);
  std::string first;
  std::getline(in, first);
  EXPECT_EQ(first.rfind("PathFileType", 0), 0u);
}

// Leaving the scene, or loading another take, stops a running export: nothing is written.
TEST_F(MarkersSceneTest, ARunningExportIsCancelledByLeavingOrLoading) {
  const std::string bvh = ::testing::TempDir() + "markers_scene_cancel.bvh";
  std::filesystem::remove(bvh);
  core_.Run("markers export bvh " + bvh);
  core_.Frames(2);
  core_.Run("scene chain");
  core_.Frames(1);
  EXPECT_FALSE(std::filesystem::exists(bvh));
  bool said = false;
  for (const auto& line : core_.state().console.log) {
    said = said || line.text.find("cancelled: the scene was left before " + bvh) !=
                       std::string::npos;
  }
  EXPECT_TRUE(said);

  core_.Run(std::string("markers load ") + kFencer);
  core_.Run("markers export bvh " + bvh);
  core_.Frames(2);
  core_.Run(std::string("markers load ") + kFencer);
  EXPECT_EQ(core_.Json()["markers"]["export"]["state"], "failed");
  EXPECT_NE(core_.Json()["markers"]["export"]["error"].get<std::string>().find(
                "another take was loaded"),
            std::string::npos);
  core_.Frames(100);
  EXPECT_FALSE(std::filesystem::exists(bvh));
}

// Files the library refuses, each with its own problem: one error line naming it, and the
// scene, take and pose as they were.
TEST_F(MarkersSceneTest, BadFilesAndLinesChangeNothing) {
  core_.Run("markers frame 700");
  core_.Run("markers pause");
  const std::string kept = Kept();
  const std::string header = "$Filename x\n$FirstFrame 1\n$LastFrame 2\n$Rate 120\n";
  const struct {
    const char* name;
    std::string text;
    const char* says;
  } files[] = {
      {"no_frames.csm", "$FirstFrame 1\n$LastFrame 0\n$Rate 120\n$Order\nA B C\n$Points\n",
       "frame"},
      {"duplicate.csm",
       header + "$Order\nA A B\n$Points\n1 1 2 3 4 5 6 7 8 9\n2 1 2 3 4 5 6 7 8 9\n", "duplicate"},
      {"nan.csm", header + "$Order\nA B C\n$Points\n1 nan 2 3 4 5 6 7 8 9\n2 1 2 3 4 5 6 7 8 9\n",
       "nan"},
      {"far.csm", header + "$Order\nA B C\n$Points\n1 1e12 2 3 4 5 6 7 8 9\n2 1 2 3 4 5 6 7 8 9\n",
       "1e12"},
      {"huge.csm", "$FirstFrame 1\n$LastFrame 100000000\n$Rate 120\n$Order\nA B C\n$Points\n",
       "100000000"},
      {"not_in_set.csm",
       header + "$Order\nA B C\n$Points\n1 1 2 3 4 5 6 7 8 9\n2 1 2 3 4 5 6 7 8 9\n", "LFHD"},
  };
  for (const auto& f : files) {
    SCOPED_TRACE(f.name);
    const std::string path = WriteTempFile(f.name, f.text);
    core_.Run("markers load " + path);
    EXPECT_EQ(core_.LastKind(), ConsoleLine::Kind::kError);
    EXPECT_NE(core_.LastLine().find("markers load: "), std::string::npos) << core_.LastLine();
    EXPECT_NE(core_.LastLine().find(f.says), std::string::npos) << core_.LastLine();
    EXPECT_EQ(Kept(), kept);
  }
  const std::string lines[] = {"markers load /nonexistent/take.csm",
                               "markers hide NOPE for 1",
                               "markers hide LFHD for 0",
                               "markers hide LFHD for 100",
                               "markers hide LFHD",
                               "markers speed 9",
                               "markers frame -1",
                               "markers export obj /tmp/x.obj",
                               "markers export bvh " + std::string(kFencer),
                               "markers export bvh /nonexistent/dir/x.bvh",
                               "markers fly"};
  for (const std::string& line : lines) {
    SCOPED_TRACE(line);
    core_.Run(line);
    EXPECT_EQ(core_.LastKind(), ConsoleLine::Kind::kError) << core_.LastLine();
    EXPECT_EQ(Kept(), kept);
  }
  // Hiding every marker of the take is refused too.
  std::string all;
  const nlohmann::json now = core_.Json();
  for (const auto& n : now["markers"]["names"]) all += n.get<std::string>() + ",";
  core_.Run("markers hide " + all + " for 1");
  EXPECT_EQ(core_.LastKind(), ConsoleLine::Kind::kError);
  EXPECT_NE(core_.LastLine().find("every marker"), std::string::npos) << core_.LastLine();
  EXPECT_EQ(Kept(), kept);
}

// A take other than the default is saved under "take" and loaded again at the next start when
// the markers scene was on; --markers wins over it.
TEST(MarkersScene, TheSettingsRestoreTheSceneAndItsTake) {
  const std::string copy = ::testing::TempDir() + "markers_settings_take.csm";
  std::filesystem::copy_file(kFencer, copy, std::filesystem::copy_options::overwrite_existing);
  Core core;
  core.Run("scene markers");
  EXPECT_FALSE(CaptureSettings(core.state(), std::nullopt, std::nullopt)
                   .Get<std::string>("take")
                   .has_value());  // the default take is not written
  core.Run("markers load " + copy);
  ASSERT_EQ(core.state().scene.name(), "markers") << core.LastLine();
  const Settings saved = CaptureSettings(core.state(), std::nullopt, std::nullopt);
  EXPECT_EQ(saved.Get<std::string>("take"), copy);
  StartOptions options = FixedStep();
  options.saved = SettingsCommands(saved);
  Core restored(options);
  restored.Frames(1);
  EXPECT_EQ(restored.state().scene.name(), "markers");
  EXPECT_EQ(restored.Json()["take"]["path"], copy);
  Settings overridden = saved;
  const std::string given[] = {"--markers"};
  DropOverridden(overridden, given);
  EXPECT_FALSE(overridden.Get<std::string>("take").has_value());
}

TEST(MarkersScene, CommandsNeedTheSceneAndABadStartTakeKeepsThePreviousScene) {
  Core core;
  core.Run("markers play");
  EXPECT_EQ(core.LastKind(), ConsoleLine::Kind::kError);
  EXPECT_EQ(core.LastLine(), "markers play: the markers scene is not on (type 'scene markers')");
  core.Run("markers load /nonexistent/take.csm");
  EXPECT_EQ(core.LastKind(), ConsoleLine::Kind::kError);
  EXPECT_EQ(core.state().scene.name(), "chain");
  // The remembered take is still the default: `scene markers` starts on the fencer.
  core.Run("scene markers");
  EXPECT_EQ(core.state().scene.name(), "markers") << core.LastLine();
  EXPECT_EQ(core.Json()["take"]["path"], kFencer);
}

TEST(MarkersScene, TheStartOptionPicksTheTake) {
  StartOptions options = FixedStep();
  options.scene_options.SetText("--markers", kFencer);
  options.scene = "markers";
  Core core(options);
  core.Frames(1);
  EXPECT_EQ(core.state().scene.name(), "markers");
  EXPECT_EQ(core.Json()["take"]["path"], kFencer);
}

}  // namespace
}  // namespace fabrik::testing
