// Saved settings (docs/settings.md): round trip through the file,
// options and --exec lines overriding them, hostile files, --no-settings.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include "core/command_table.h"
#include "core/screenshot.h"
#include "core/settings.h"
#include "core_test_util.h"

namespace fabrik {
namespace {

using testing::Core;
using testing::FixedStep;

std::string FreshFolder(const std::string& name) {
  // The process id keeps runs side by side (other checkouts, ctest -j) apart.
  const std::string dir =
      ::testing::TempDir() + "fabrik-settings-" + name + "-" + std::to_string(::getpid());
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  return dir;
}

// A core whose state differs from the defaults in every saved field.
void ChangeEverything(Core& core) {
  for (const char* line :
       {"length 0.75", "lengths 0.5 1 0.001", "moe 0.002", "iterations 33", "solver ccd",
        "accelerate off", "spline load assets/splines/loop.txt", "scene arm", "mode console"}) {
    core.Run(line);
    ASSERT_NE(core.LastKind(), ConsoleLine::Kind::kError) << line << ": " << core.LastLine();
  }
  core.Send(app::CameraOrbit{{120.0f, -40.0f}});
  core.Send(app::CameraZoom{2.0f});
  core.Frames(1);
}

// Saves `core`, reads the text back and starts a new core from it with `options`.
std::unique_ptr<Core> Restart(const Core& core, StartOptions options = FixedStep(),
                              std::span<const std::string> given = {}) {
  const std::string text =
      SettingsJson(CaptureSettings(core.state(), glm::ivec2(900, 700), glm::ivec2(30, 40)));
  SettingsRead read = ParseSettings(text, "test");
  EXPECT_EQ(read.problem, "");
  DropOverridden(read.settings, given);
  options.saved = SettingsCommands(read.settings);
  return std::make_unique<Core>(options);
}

TEST(Settings, RoundTripRestoresEverySavedField) {
  Core first;
  ChangeEverything(first);
  const auto second = Restart(first);
  const AppState& a = first.state();
  const AppState& b = second->state();
  EXPECT_EQ(b.scene.name(), "arm");
  EXPECT_EQ(b.mode, TargetMode::kConsole);
  EXPECT_EQ(b.scene.chain_lengths, (std::vector<float>{0.5f, 1.0f, 0.001f}));
  EXPECT_EQ(b.uniform_length, 0.75f);
  EXPECT_EQ(b.settings.tolerance, 0.002f);
  EXPECT_EQ(b.settings.max_iterations, 33);
  EXPECT_EQ(b.solver, SolverKind::kCcd);
  EXPECT_FALSE(b.settings.accelerate);
  // Saved as written, or absolute when the working directory holds it.
  EXPECT_TRUE(b.spline.path.ends_with("assets/splines/loop.txt")) << b.spline.path;
  EXPECT_TRUE(b.spline.follower.has_spline());
  EXPECT_EQ(b.view.camera.pivot(), a.view.camera.pivot());
  EXPECT_FLOAT_EQ(b.view.camera.yaw(), a.view.camera.yaw());
  EXPECT_FLOAT_EQ(b.view.camera.pitch(), a.view.camera.pitch());
  EXPECT_FLOAT_EQ(b.view.camera.distance(), a.view.camera.distance());
  // The camera really moved, so the comparison above means something.
  EXPECT_NE(a.view.camera.distance(), Core().state().view.camera.distance());
}

TEST(Settings, TheFileRoundTripsThroughDiskWithTheWindow) {
  const std::string dir = FreshFolder("disk");
  Core first;
  ChangeEverything(first);
  const std::string path = dir + "/sub/settings.json";
  ASSERT_TRUE(WriteSettingsFile(
      path, CaptureSettings(first.state(), glm::ivec2(900, 700), glm::ivec2(-20, 40))));
  const SettingsRead read = ReadSettingsFile(path);
  EXPECT_EQ(read.problem, "");
  ASSERT_TRUE(read.settings.window_size && read.settings.window_position);
  EXPECT_EQ(*read.settings.window_size, glm::ivec2(900, 700));
  EXPECT_EQ(*read.settings.window_position, glm::ivec2(-20, 40));
  EXPECT_EQ(read.settings.Get<std::vector<float>>("lengths"),
            (std::vector<float>{0.5f, 1.0f, 0.001f}));
  // No temporary file is left beside it.
  int files = 0;
  for (const auto& e : std::filesystem::directory_iterator(dir + "/sub")) files += !!e.exists();
  EXPECT_EQ(files, 1);
}

TEST(Settings, OptionsAndExecLinesOverrideTheSavedOnes) {
  Core first;
  ChangeEverything(first);
  StartOptions options = FixedStep();
  options.moe = 0.05f;
  options.exec = {"iterations 7"};
  const std::vector<std::string> given = {"--moe", "--scene", "--spline"};
  const auto second = Restart(first, options, given);
  const AppState& b = second->state();
  EXPECT_EQ(b.settings.tolerance, 0.05f);        // --moe
  EXPECT_EQ(b.settings.max_iterations, 7);       // --exec runs after the saved lines
  EXPECT_EQ(b.scene.name(), "chain");            // --scene (default chain) wins
  EXPECT_FALSE(b.spline.follower.has_spline());  // --spline drops the saved spline and mode
  EXPECT_EQ(b.mode, TargetMode::kDrag);
  EXPECT_EQ(b.solver, SolverKind::kCcd);  // not overridden: restored
  EXPECT_EQ(b.lengths, (std::vector<float>{0.5f, 1.0f, 0.001f}));
}

TEST(Settings, ACorruptFileIsOneLineAndTheDefaultsStay) {
  const Core plain;
  for (const std::string& text :
       {std::string("{\"moe\": 0.5, "), std::string("[1, 2]"), std::string("\"moe\""),
        std::string(2 << 20, ' '), std::string(100000, '[') + std::string(100000, ']'),
        std::string("{\"window\": {\"size\": [[[[[[1]]]]]]}}"), std::string("\xff\xfe{}", 4),
        // The settings' numbers are JSON numbers, whose grammar has no leading '+' either
        // (docs/language.md: Numbers): not a number, so not a settings file.
        std::string("{\"moe\": +5}")}) {
    const SettingsRead read = ParseSettings(text, "bad.json");
    SCOPED_TRACE(read.problem);
    EXPECT_NE(read.problem.find("settings: bad.json "), std::string::npos);
    EXPECT_EQ(read.problem.find('\n'), std::string::npos);
    EXPECT_NE(read.problem.find("ignored it"), std::string::npos);
    StartOptions options = FixedStep();
    options.saved = SettingsCommands(read.settings);
    EXPECT_TRUE(options.saved.empty());
    options.settings_problem = read.problem;
    Core core(options);
    EXPECT_EQ(core.Fingerprint(), plain.Fingerprint());
    // The problem is in the console as an error line.
    bool found = false;
    for (const ConsoleLine& l : core.state().console.log) {
      found |= l.text == read.problem && l.kind == ConsoleLine::Kind::kError;
    }
    EXPECT_TRUE(found);
  }
}

TEST(Settings, BadFieldsAreIgnoredOneByOneAndTheRestKept) {
  const std::string text = R"({
    "moe": "small", "max_iterations": 1e12, "lengths": [1, -2], "scene": 5, "mode": "fly",
    "camera": {"pivot": [1e30, 0, 0], "yaw": 0, "pitch": 0, "distance": 10},
    "window": {"size": [10, 10], "position": [5, 6]}, "accelerate": "yes", "length": null,
    "spline": "a\"b", "solver": "ccd", "iterations": 4, "unknown": {"x": 1}})";
  const SettingsRead read = ParseSettings(text, "mixed.json");
  EXPECT_EQ(read.problem.find('\n'), std::string::npos);
  for (const char* field : {"moe (", "max_iterations (", "lengths (", "scene (", "mode (",
                            "camera (", "size (", "accelerate (", "length (", "spline ("}) {
    EXPECT_NE(read.problem.find(field), std::string::npos) << field << " in " << read.problem;
  }
  EXPECT_NE(read.problem.find("kept the rest"), std::string::npos);
  const Settings& s = read.settings;
  for (const char* key :
       {"moe", "max_iterations", "lengths", "scene", "mode", "length", "spline"}) {
    EXPECT_FALSE(s.values.count(key)) << key;
  }
  for (const CommandEntry& e : CommandRegistry()) {
    if (e.is_flag()) {
      EXPECT_FALSE(s.values.count(e.language.name)) << e.language.name;
    }
  }
  EXPECT_FALSE(s.camera || s.window_size);
  EXPECT_EQ(s.Get<std::string>("solver"), "ccd");
  EXPECT_EQ(s.window_position, glm::ivec2(5, 6));
  StartOptions options = FixedStep();
  options.saved = SettingsCommands(s);
  Core core(options);
  EXPECT_EQ(core.state().solver, SolverKind::kCcd);
  EXPECT_EQ(core.state().settings.tolerance, StartOptions{}.moe);
}

// Found by tests/fuzz/fuzz_settings.cpp: a margin of error of 1e-50 passed the "> 0" check as
// a double and became 0 as a float, a value the next start (and the console) refuses.
TEST(Settings, ANumberThatRoundsOutOfItsRangeAsAFloatIsIgnored) {
  const SettingsRead read = ParseSettings(
      R"({"moe": 1e-50, "length": 0.25, "camera": {"pivot": [1e-45, 0, 0], "yaw": 5e-324,
          "pitch": 0, "distance": 1}})",
      "tiny.json");
  EXPECT_NE(read.problem.find("moe ("), std::string::npos) << read.problem;
  EXPECT_FALSE(read.settings.Get<float>("moe"));
  EXPECT_EQ(read.settings.Get<float>("length"), 0.25f);
  ASSERT_TRUE(read.settings.camera);  // tiny values that stay in range as floats are kept
  EXPECT_EQ(read.settings.camera->yaw, 0.0f);
  // The smallest moe a float holds is kept, and reads back the same.
  const SettingsRead least = ParseSettings(R"({"moe": 1.5e-45})", "least.json");
  ASSERT_TRUE(least.settings.Get<float>("moe")) << least.problem;
  EXPECT_GT(*least.settings.Get<float>("moe"), 0.0f);
  const SettingsRead again = ParseSettings(SettingsJson(least.settings), "again.json");
  EXPECT_EQ(again.problem, "");
  EXPECT_EQ(again.settings.Get<float>("moe"), least.settings.Get<float>("moe"));
}

TEST(Settings, ASavedFileThatNoLongerLoadsReportsAndTheStartGoesOn) {
  Settings s;
  s.Set("spline", "/nonexistent/spline.txt");
  s.Set("moe", 0.25f);
  StartOptions options = FixedStep();
  options.saved = SettingsCommands(s);
  Core core(options);
  EXPECT_FALSE(core.state().spline.follower.has_spline());
  EXPECT_EQ(core.state().settings.tolerance, 0.25f);
}

TEST(Settings, NoSettingsNeitherReadsNorWrites) {
  const std::string dir = FreshFolder("xdg");
  ASSERT_EQ(setenv("XDG_CONFIG_HOME", dir.c_str(), 1), 0);
  ASSERT_EQ(SettingsFolder(), dir + "/fabrik-demo");
  std::filesystem::create_directories(dir + "/fabrik-demo");
  std::ofstream(dir + "/fabrik-demo/settings.json") << R"({"moe": 0.5, "iterations": 3})";

  StartOptions off = FixedStep();
  const SettingsSession none = LoadStartSettings(false, {}, off);
  EXPECT_FALSE(none.file);
  EXPECT_TRUE(off.saved.empty());
  Core core(off);
  EXPECT_EQ(SaveSettings(none, core.state(), std::nullopt, std::nullopt), "");

  StartOptions on = FixedStep();
  const SettingsSession session = LoadStartSettings(true, {}, on);
  ASSERT_TRUE(session.file);
  EXPECT_EQ(Core(on).state().settings.tolerance, 0.5f);
  // The file is still the one written above: --no-settings did not touch it.
  EXPECT_EQ(ReadSettingsFile(*session.file).settings.Get<float>("moe"), 0.5f);

  // With settings on, the exit writes the state back.
  core.Run("moe 0.125");
  EXPECT_EQ(SaveSettings(session, core.state(), glm::ivec2(800, 600), std::nullopt), "");
  EXPECT_EQ(ReadSettingsFile(*session.file).settings.Get<float>("moe"), 0.125f);

  // A relative XDG_CONFIG_HOME is not used (XDG Base Directory Specification).
  ASSERT_EQ(setenv("XDG_CONFIG_HOME", "relative", 1), 0);
  ASSERT_EQ(setenv("HOME", dir.c_str(), 1), 0);
  EXPECT_EQ(SettingsFolder(), dir + "/.config/fabrik-demo");
  unsetenv("XDG_CONFIG_HOME");
}

TEST(Settings, AFifoOrAFolderIsNotReadAndIsOneLine) {
  const std::string dir = FreshFolder("fifo");
  const std::string fifo = dir + "/settings.json";
  ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);  // reading it would block the start
  const SettingsRead read = ReadSettingsFile(fifo);
  EXPECT_NE(read.problem.find("not a regular file"), std::string::npos) << read.problem;
  std::filesystem::create_directories(dir + "/folder.json");
  EXPECT_NE(ReadSettingsFile(dir + "/folder.json").problem.find("not a regular file"),
            std::string::npos);
  EXPECT_EQ(ReadSettingsFile(dir + "/missing.json").problem, "");
}

TEST(Settings, AnUnwritableFolderIsOneLine) {
  const std::string dir = FreshFolder("unwritable");
  std::ofstream(dir + "/file") << "x";
  Core core;
  const Status written =
      WriteSettingsFile(dir + "/file/settings.json", CaptureSettings(core.state(), {}, {}));
  ASSERT_FALSE(written);
  EXPECT_NE(written.error().find("settings: cannot"), std::string::npos);
  EXPECT_EQ(written.error().find('\n'), std::string::npos);
}

std::string ReadText(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

TEST(Settings, AFileThatCouldNotBeReadIsKeptAsABackupNotReplaced) {
  const std::string dir = FreshFolder("unread");
  const std::string file = dir + "/settings.json";
  std::ofstream(file) << "{\"scene\": \"arm\", oops";  // hand-edited, broken
  const SettingsRead read = ReadSettingsFile(file);
  EXPECT_NE(read.problem.find(".bak"), std::string::npos) << read.problem;
  ASSERT_TRUE(read.unread);
  Core core;
  for (int i = 0; i < 2; ++i) {  // the autosave and the final save
    const Status written =
        WriteSettingsFile(file, CaptureSettings(core.state(), {}, {}), read.unread);
    ASSERT_TRUE(written) << written.error();
  }
  EXPECT_EQ(ReadText(file + ".bak"), "{\"scene\": \"arm\", oops");
  EXPECT_EQ(ParseSettings(ReadText(file), file).problem, "");
}

TEST(Settings, ASymlinkedFileIsWrittenThroughAndStaysALink) {
  const std::string dir = FreshFolder("symlink");
  std::filesystem::create_directories(dir + "/dotfiles");
  std::ofstream(dir + "/dotfiles/fabrik.json") << "{}";
  std::filesystem::create_symlink(dir + "/dotfiles/fabrik.json", dir + "/settings.json");
  Core core;
  core.Run("moe 0.003");
  ASSERT_TRUE(WriteSettingsFile(dir + "/settings.json", CaptureSettings(core.state(), {}, {})));
  EXPECT_TRUE(std::filesystem::is_symlink(dir + "/settings.json"));
  const SettingsRead back = ReadSettingsFile(dir + "/dotfiles/fabrik.json");
  ASSERT_TRUE(back.settings.Get<float>("moe"));
  EXPECT_FLOAT_EQ(*back.settings.Get<float>("moe"), 0.003f);
}

TEST(Settings, ASavedScriptThatQuitsIsRestoredPaused) {
  const std::string script = testing::WriteTempFile("quits.txt", "at 0.05 quit\n");
  Core first;
  first.Run("script run " + script);
  ASSERT_NE(first.LastKind(), ConsoleLine::Kind::kError) << first.LastLine();
  const auto second = Restart(first);
  second->Frames(30);  // half a second: the quit line would be due at 0.05 s
  EXPECT_FALSE(second->state().quit_requested);
  EXPECT_EQ(second->state().mode, TargetMode::kScript);
  EXPECT_TRUE(second->state().script.player.has_script());
  // Played by hand, it still does what it says.
  second->Run("script play");
  second->Frames(10);
  EXPECT_TRUE(second->state().quit_requested);
}

TEST(Settings, AWindowSizeOrPlaceTheNextStartWouldRefuseIsNeverSaved) {
  Core core;
  const std::string text = SettingsJson(
      CaptureSettings(core.state(), glm::ivec2(20000, 100), glm::ivec2(-300000, 65536)));
  const SettingsRead read = ParseSettings(text, "test");
  EXPECT_EQ(read.problem, "");
  ASSERT_TRUE(read.settings.window_size);
  EXPECT_EQ(*read.settings.window_size, glm::ivec2(kMaxWindowSize.x, kMinWindowSize.y));
  ASSERT_TRUE(read.settings.window_position);
  EXPECT_EQ(*read.settings.window_position, glm::ivec2(-100000, 65536));
}

TEST(Settings, AutosaveWritesOnceAPeriodAndOnlyWhatChanged) {
  const std::string dir = FreshFolder("autosave");
  SettingsSession session;
  session.file = dir + "/settings.json";
  const auto read = [&] { return ReadSettingsFile(*session.file).settings; };
  Core core;
  SettingsAutosave autosave(2.0);
  // The first call starts the clock; nothing is due before a whole period.
  EXPECT_FALSE(autosave.Due(100.0));
  EXPECT_FALSE(autosave.Due(101.9));
  ASSERT_TRUE(autosave.Due(102.0));
  EXPECT_EQ(autosave.Save(session, core.state(), glm::ivec2(800, 600), glm::ivec2(1, 2)), "");
  ASSERT_TRUE(std::filesystem::exists(*session.file));
  EXPECT_EQ(read().Get<int>("max_iterations"),
            std::optional<int>(core.state().settings.max_iterations));

  // Nothing changed: nothing is written (the removed file stays removed).
  std::filesystem::remove(*session.file);
  EXPECT_FALSE(autosave.Due(103.0));
  ASSERT_TRUE(autosave.Due(104.5));
  EXPECT_EQ(autosave.Save(session, core.state(), glm::ivec2(800, 600), glm::ivec2(1, 2)), "");
  EXPECT_FALSE(std::filesystem::exists(*session.file));

  // A change is written at the next period.
  core.Run("iterations 42");
  ASSERT_TRUE(autosave.Due(107.0));
  EXPECT_EQ(autosave.Save(session, core.state(), glm::ivec2(800, 600), glm::ivec2(1, 2)), "");
  ASSERT_TRUE(std::filesystem::exists(*session.file));
  EXPECT_EQ(read().Get<int>("max_iterations"), std::optional<int>(42));
  // So is a moved window.
  std::filesystem::remove(*session.file);
  ASSERT_TRUE(autosave.Due(110.0));
  EXPECT_EQ(autosave.Save(session, core.state(), glm::ivec2(800, 600), glm::ivec2(5, 6)), "");
  EXPECT_TRUE(std::filesystem::exists(*session.file));

  // A failing write is reported once, not every period, and again after a success.
  core.Run("iterations 43");
  SettingsSession blocked;
  std::ofstream(dir + "/file") << "x";
  blocked.file = dir + "/file/settings.json";
  const std::string first = autosave.Save(blocked, core.state(), std::nullopt, std::nullopt);
  EXPECT_NE(first.find("settings: cannot"), std::string::npos) << first;
  EXPECT_EQ(autosave.Save(blocked, core.state(), std::nullopt, std::nullopt), "");
  EXPECT_EQ(autosave.Save(session, core.state(), std::nullopt, std::nullopt), "");
  core.Run("iterations 44");
  EXPECT_NE(autosave.Save(blocked, core.state(), std::nullopt, std::nullopt), "");

  // Without a file (--no-settings) nothing is ever written; a NaN clock is never due.
  SettingsSession none;
  EXPECT_EQ(autosave.Save(none, core.state(), std::nullopt, std::nullopt), "");
  EXPECT_FALSE(autosave.Due(std::nan("")));
}

TEST(Settings, CameraPoseIsClampedAndNonFiniteChangesNothing) {
  Core core;
  const float before = core.state().view.camera.distance();
  core.Send(app::CameraPose{glm::vec3(0.0f), 0.0f, 0.0f, std::nanf("")});
  core.Frames(1);
  EXPECT_EQ(core.state().view.camera.distance(), before);
  core.Send(app::CameraPose{glm::vec3(5000.0f), 100.0f, 9.0f, 1e9f});
  core.Frames(1);
  EXPECT_EQ(core.state().view.camera.pivot(), glm::vec3(OrbitCamera::kMaxPivot));
  EXPECT_EQ(core.state().view.camera.pitch(), OrbitCamera::kMaxPitch);
  EXPECT_EQ(core.state().view.camera.distance(), OrbitCamera::kMaxDistance);
  EXPECT_LT(std::abs(core.state().view.camera.yaw()), 6.3f);
}

}  // namespace
}  // namespace fabrik

namespace fabrik {
namespace {

TEST(Screenshot, NamesCarryTheTimeAndNeverRepeatWithinASecond) {
  const std::string dir = ::testing::TempDir() + "fabrik-shots-" + std::to_string(::getpid());
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  std::tm when{};
  when.tm_year = 2026 - 1900;
  when.tm_mon = 10;
  when.tm_mday = 22;
  when.tm_hour = 15;
  when.tm_min = 30;
  when.tm_sec = 12;
  when.tm_isdst = -1;
  const std::time_t t = std::mktime(&when);
  const std::string first = ScreenshotPath(dir, t);
  EXPECT_EQ(first, dir + "/fabrik-2026-11-22-153012.png");
  std::ofstream(first) << "x";
  EXPECT_EQ(ScreenshotPath(dir, t), dir + "/fabrik-2026-11-22-153012-2.png");
}

TEST(Screenshot, TheRequestAndTheShellsReportReachTheState) {
  testing::Core core;
  EXPECT_TRUE(core.Json()["last_screenshot"].is_null());
  EXPECT_FALSE(core.Json()["help_open"].get<bool>());
  core.Run("screenshot");
  const std::string pending = core.state().screenshot_pending;
  EXPECT_NE(pending.find("/fabrik-"), std::string::npos);
  core.Send(app::ScreenshotDone{pending, ""});
  core.Send(app::HelpOverlay{true});
  core.Frames(1);
  EXPECT_TRUE(core.state().screenshot_pending.empty());
  EXPECT_EQ(core.Json()["last_screenshot"], pending);
  EXPECT_TRUE(core.Json()["help_open"].get<bool>());
  EXPECT_EQ(core.LastLine(), "screenshot: " + pending);
  // A failed write is one error line and keeps the last good path.
  core.Run("screenshot");
  core.Send(app::ScreenshotDone{core.state().screenshot_pending, "could not write PNG 'x'"});
  core.Frames(1);
  EXPECT_EQ(core.LastKind(), ConsoleLine::Kind::kError);
  EXPECT_EQ(core.Json()["last_screenshot"], pending);
  core.Run("screenshot now");
  EXPECT_EQ(core.LastKind(), ConsoleLine::Kind::kError);
  EXPECT_TRUE(core.state().screenshot_pending.empty());
}

}  // namespace
}  // namespace fabrik
