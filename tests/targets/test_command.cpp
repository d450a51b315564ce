// Tests for the console/script command language (src/lang/command.h).
#include <gtest/gtest.h>
#include <unistd.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <string>
#include <type_traits>
#include <vector>

#include "lang/command.h"
#include "lang/script.h"
#include "project_context.h"

namespace fabrik {
namespace {

// What a test gets back when parsing failed (the failure is already reported).
template <class T>
T Fallback() {
  if constexpr (std::is_default_constructible_v<T>) {
    return T{};
  } else {
    return T{"", "", Spline::Create({{0, 0, 0}, {1, 0, 0}}, false).value()};  // SplineLoad
  }
}

template <class T>
T Parsed(std::string_view line, const CommandContext& context = {}) {
  Result<Command> r = ParseCommand(line, context);
  EXPECT_TRUE(r.ok()) << line << ": " << r.error();
  if (!r.ok()) return Fallback<T>();
  const T* value = std::get_if<T>(&r.value());
  EXPECT_NE(value, nullptr) << line << " parsed to the wrong command";
  return value ? *value : Fallback<T>();
}

std::string ErrorOf(std::string_view line, const CommandContext& context = {}) {
  Result<Command> r = ParseCommand(line, context);
  EXPECT_FALSE(r.ok()) << "accepted: " << line;
  return r.error();
}

// A temporary file removed at scope exit.
struct TempFile {
  explicit TempFile(const std::string& name, const std::string& contents)
      : path((std::filesystem::temp_directory_path() / name).string()) {
    std::ofstream(path) << contents;
  }
  ~TempFile() { std::filesystem::remove(path); }
  std::string path;
};

TEST(Command, BlankAndCommentLinesAreNothing) {
  for (const char* line : {"", "   ", "\t", "# a comment", "   # indented comment", "#"}) {
    Result<Command> r = ParseCommand(line);
    ASSERT_TRUE(r.ok()) << line;
    EXPECT_TRUE(std::holds_alternative<cmd::Nothing>(r.value())) << line;
  }
}

TEST(Command, EveryCommandParsesWithItsValues) {
  EXPECT_EQ(Parsed<cmd::Target>("target 1 -2.5 3e-1").position, glm::vec3(1.0f, -2.5f, 0.3f));
  EXPECT_EQ(Parsed<cmd::Target>("target 1 2 3 # comment").position, glm::vec3(1, 2, 3));
  EXPECT_EQ(Parsed<cmd::Target>("target 1e+1 2 3").position, glm::vec3(10, 2, 3));
  EXPECT_EQ(Parsed<cmd::Target>("target 1e6 -1e6 0").position, glm::vec3(1e6f, -1e6f, 0));
  EXPECT_FALSE(Parsed<cmd::Target>("target 1 2 3").angles_deg.has_value());
  const cmd::Target oriented = Parsed<cmd::Target>("target 1 2 3 90 -45 3600");
  EXPECT_EQ(oriented.position, glm::vec3(1, 2, 3));
  ASSERT_TRUE(oriented.angles_deg.has_value());
  EXPECT_EQ(*oriented.angles_deg, glm::vec3(90.0f, -45.0f, 3600.0f));
  EXPECT_EQ(Parsed<cmd::Mode>("mode drag").mode, TargetMode::kDrag);
  EXPECT_EQ(Parsed<cmd::Mode>("mode spline").mode, TargetMode::kSpline);
  EXPECT_EQ(Parsed<cmd::Mode>("mode console").mode, TargetMode::kConsole);
  EXPECT_EQ(Parsed<cmd::Mode>("mode script").mode, TargetMode::kScript);
  EXPECT_EQ(Parsed<cmd::Joints>("joints 2").count, 2);
  EXPECT_EQ(Parsed<cmd::Joints>("joints 10000").count, 10000);
  EXPECT_EQ(Parsed<cmd::Length>("length 0.25").length, 0.25f);
  EXPECT_EQ(Parsed<cmd::Length>("length 1000").length, 1000.0f);
  EXPECT_EQ(Parsed<cmd::Length>("length 0.0001").length, 0.0001f);
  // A byte-order mark at the start of a line is not part of the command.
  EXPECT_EQ(Parsed<cmd::Length>("\xEF\xBB\xBFlength 2").length, 2.0f);
  EXPECT_EQ(Parsed<cmd::Lengths>("lengths 1 2 3 1").lengths, (std::vector<float>{1, 2, 3, 1}));
  EXPECT_EQ(Parsed<cmd::Lengths>("lengths 0.5").lengths, (std::vector<float>{0.5f}));
  EXPECT_EQ(Parsed<cmd::Moe>("moe 0.001").tolerance, 0.001f);
  EXPECT_EQ(Parsed<cmd::Moe>("moe 100").tolerance, 100.0f);
  EXPECT_EQ(Parsed<cmd::Iterations>("iterations 1").max_iterations, 1);
  EXPECT_EQ(Parsed<cmd::Iterations>("iterations 100000").max_iterations, 100000);
  EXPECT_EQ(Parsed<cmd::SplineSpeed>("spline speed 2.5").speed, 2.5f);
  EXPECT_EQ(Parsed<cmd::SplineSpeed>("spline speed 1000").speed, 1000.0f);
  EXPECT_EQ(Parsed<cmd::SplinePlayback>("spline play").action, cmd::Playback::kPlay);
  EXPECT_EQ(Parsed<cmd::SplinePlayback>("spline pause").action, cmd::Playback::kPause);
  EXPECT_EQ(Parsed<cmd::SplinePlayback>("spline restart").action, cmd::Playback::kRestart);
  EXPECT_EQ(Parsed<cmd::SplineEnd>("spline loop").behavior, EndBehavior::kLoop);
  EXPECT_EQ(Parsed<cmd::SplineEnd>("spline pingpong").behavior, EndBehavior::kPingPong);
  EXPECT_EQ(Parsed<cmd::ScriptPlayback>("script play").action, cmd::Playback::kPlay);
  EXPECT_EQ(Parsed<cmd::ScriptPlayback>("script pause").action, cmd::Playback::kPause);
  EXPECT_EQ(Parsed<cmd::ScriptPlayback>("script restart").action, cmd::Playback::kRestart);
  EXPECT_EQ(Parsed<cmd::ScriptPlayback>("script stop").action, cmd::Playback::kStop);
  Parsed<cmd::CameraReset>("camera reset");
  Parsed<cmd::State>("state");
  Parsed<cmd::Clear>("clear");
  EXPECT_EQ(Parsed<cmd::Help>("help").topic, "");
  EXPECT_EQ(Parsed<cmd::Help>("help joints").topic, "joints");
  EXPECT_EQ(Parsed<cmd::Help>("help SPLINE").topic, "spline");
  for (std::string_view s : SolverNames()) {
    EXPECT_EQ(Parsed<cmd::Solver>("solver " + std::string(s)).name, s);
  }
  EXPECT_EQ(Parsed<cmd::Solver>("solver DLS").name, "dls");
  // Without the app's scene registry (tests/app_core checks every registered name) the
  // language takes any word that can be a scene's name, lower-cased.
  EXPECT_EQ(Parsed<cmd::Scene>("scene walker").name, "walker");
  EXPECT_EQ(Parsed<cmd::Scene>("scene Field").name, "field");
}

TEST(Command, KeywordsIgnoreCaseAndSpacing) {
  EXPECT_EQ(Parsed<cmd::Joints>("  JOINTS\t 7  ").count, 7);
  EXPECT_EQ(Parsed<cmd::Mode>("Mode Spline").mode, TargetMode::kSpline);
  EXPECT_EQ(Parsed<cmd::SplineEnd>("SPLINE PingPong").behavior, EndBehavior::kPingPong);
  Parsed<cmd::CameraReset>("Camera RESET");
}

TEST(Command, BadLinesGiveOneSpecificError) {
  struct Case {
    const char* line;
    const char* error;
  };
  const std::vector<Case> cases = {
      {"jionts 5", "unknown command 'jionts' (type 'help' for the list)"},
      {"42", "unknown command '42' (type 'help' for the list)"},
      {"at 3 joints 4", "'at T COMMAND' belongs in script files; type the command by itself"},
      {"target 1 2",
       "target: expected 3 or 6 arguments (usage: target X Y Z [YAW PITCH ROLL]), got 2"},
      {"target 1 2 3 4",
       "target: expected 3 or 6 arguments (usage: target X Y Z [YAW PITCH ROLL]), got 4"},
      {"target 1 two 3", "target Y: expected a number from -1e6 to 1e6, got 'two'"},
      // No leading '+' anywhere (docs/language.md: Numbers); an exponent's sign is fine.
      {"target 1 +2 3", "target Y: expected a number from -1e6 to 1e6, got '+2'"},
      {"target 1 2 ++3", "target Z: expected a number from -1e6 to 1e6, got '++3'"},
      {"joints +5", "joints: expected an integer from 2 to 10000, got '+5'"},
      {"target 1 2 3 4 5",
       "target: expected 3 or 6 arguments (usage: target X Y Z [YAW PITCH ROLL]), got 5"},
      {"target 1 2 3 0 x 0",
       "target PITCH: expected an angle in degrees from -3600 to 3600, got 'x'"},
      {"target 1 2 3 0 0 nan",
       "target ROLL: expected an angle in degrees from -3600 to 3600, got 'nan' (not a finite "
       "number)"},
      {"target nan 0 0",
       "target X: expected a number from -1e6 to 1e6, got 'nan' (not a finite number)"},
      {"target 0 0 -inf",
       "target Z: expected a number from -1e6 to 1e6, got '-inf' (not a finite number)"},
      {"target 0 2e6 0", "target Y: expected a number from -1e6 to 1e6, got '2e6' (out of range)"},
      {"mode", "mode: expected 1 argument (usage: mode drag|spline|console|script), got 0"},
      {"mode fly", "mode: expected drag, spline, console or script, got 'fly'"},
      {"joints", "joints: expected 1 argument (usage: joints N), got 0"},
      {"joints abc", "joints: expected an integer from 2 to 10000, got 'abc'"},
      {"joints 1", "joints: expected an integer from 2 to 10000, got '1' (out of range)"},
      {"joints 10001", "joints: expected an integer from 2 to 10000, got '10001' (out of range)"},
      {"joints 2.5", "joints: expected an integer from 2 to 10000, got '2.5' (not an integer)"},
      {"joints -3", "joints: expected an integer from 2 to 10000, got '-3' (out of range)"},
      {"joints 99999999999999999999999",
       "joints: expected an integer from 2 to 10000, got '99999999999999999999999' (out of "
       "range)"},
      {"joints nan",
       "joints: expected an integer from 2 to 10000, got 'nan' (not a finite number)"},
      {"joints 4 5", "joints: expected 1 argument (usage: joints N), got 2"},
      {"length 0", "length: expected a length from 0.0001 to 1000, got '0' (out of range)"},
      {"length -1", "length: expected a length from 0.0001 to 1000, got '-1' (out of range)"},
      {"length 1000.5",
       "length: expected a length from 0.0001 to 1000, got '1000.5' (out of range)"},
      {"length 1e-50", "length: expected a length from 0.0001 to 1000, got '1e-50' (out of range)"},
      {"length 1e-40", "length: expected a length from 0.0001 to 1000, got '1e-40' (out of range)"},
      {"length 0.00009",
       "length: expected a length from 0.0001 to 1000, got '0.00009' (out of range)"},
      {"lengths 1 1e-40 1",
       "lengths: length 2: expected a length from 0.0001 to 1000, got '1e-40' (out of range)"},
      {"target 1\"2\"3", "a quote inside a word: '1\"'"},
      {"spline load \"a\"b", "a quoted word must end at a space: 'spline load \"a\"b'"},
      {"length inf",
       "length: expected a length from 0.0001 to 1000, got 'inf' (not a finite number)"},
      {"length 1,5", "length: expected a length from 0.0001 to 1000, got '1,5'"},
      {"lengths", "lengths: expected at least 1 length (usage: lengths A B C ...)"},
      {"lengths 1 2 0 4",
       "lengths: length 3: expected a length from 0.0001 to 1000, got '0' (out of range)"},
      {"lengths 1 x", "lengths: length 2: expected a length from 0.0001 to 1000, got 'x'"},
      {"moe 0", "moe: expected a number > 0 and <= 100, got '0' (out of range)"},
      {"moe 101", "moe: expected a number > 0 and <= 100, got '101' (out of range)"},
      {"moe NaN", "moe: expected a number > 0 and <= 100, got 'NaN' (not a finite number)"},
      {"iterations 0", "iterations: expected an integer from 1 to 100000, got '0' (out of range)"},
      {"iterations 100001",
       "iterations: expected an integer from 1 to 100000, got '100001' (out of range)"},
      {"iterations 1e3",
       "iterations: expected an integer from 1 to 100000, got '1e3' (not an integer)"},
      {"spline",
       "spline: missing subcommand (usage: spline load PATH|speed V|play|pause|restart|"
       "loop|pingpong|ik on|off)"},
      {"spline jump",
       "spline: expected load, speed, play, pause, restart, loop, pingpong or ik, got 'jump'"},
      {"spline ik on", "spline ik: spline IK is the demo's (not in this context)"},
      {"spline speed", "spline speed: expected 1 argument (usage: spline speed V), got 0"},
      {"spline speed 0", "spline speed: expected a number > 0 and <= 1000, got '0' (out of range)"},
      {"spline speed 5000",
       "spline speed: expected a number > 0 and <= 1000, got '5000' (out of range)"},
      {"spline speed fast", "spline speed: expected a number > 0 and <= 1000, got 'fast'"},
      {"spline play now", "spline play: expected no arguments, got 1"},
      {"spline load", "spline load: expected 1 argument (usage: spline load PATH), got 0"},
      {"spline load a b", "spline load: expected 1 argument (usage: spline load PATH), got 2"},
      {"spline load \"\"", "spline load: the path is empty"},
      {"script", "script: missing subcommand (usage: script run PATH|play|pause|restart|stop)"},
      {"script go", "script: expected run, play, pause, restart or stop, got 'go'"},
      {"script stop 1", "script stop: expected no arguments, got 1"},
      {"script run", "script run: expected 1 argument (usage: script run PATH), got 0"},
      {"camera", "camera: expected 1 argument (usage: camera reset), got 0"},
      {"camera spin", "camera: expected reset, got 'spin'"},
      {"state now", "state: expected no arguments, got 1"},
      {"clear all", "clear: expected no arguments, got 1"},
      {"help me please", "help: expected at most 1 argument (usage: help [COMMAND]), got 2"},
      {"help jump", "help: unknown command 'jump'"},
      {"solver",
       "solver: expected 1 argument (usage: solver fabrik|ccd|jacobian_transpose|dls|two_bone), "
       "got 0"},
      {"solver newton",
       "solver: unknown solver 'newton' (known: fabrik, ccd, jacobian_transpose, dls, two_bone)"},
      {"scene fo/rest", "scene: expected a scene name, got 'fo/rest'"},
      {"scene", "scene: expected 1 argument (usage: scene NAME), got 0"},
      {"target \"1 2 3", "unterminated quote"},
  };
  ASSERT_GE(cases.size(), 25u);
  for (const Case& c : cases) EXPECT_EQ(ErrorOf(c.line), c.error) << "line: " << c.line;
}

TEST(Command, ErrorEchoIsShortAndPrintable) {
  const std::string long_word(300, 'x');
  const std::string e = ErrorOf("joints " + long_word);
  EXPECT_LT(e.size(), 120u);
  EXPECT_NE(e.find("...'"), std::string::npos);
  const std::string ctrl = ErrorOf(std::string("mode \"a\x01\x7f") + "b\"");
  EXPECT_EQ(ctrl, "mode: expected drag, spline, console or script, got 'a??b'");
}

TEST(Command, TooManyLengthsIsAnError) {
  std::string line = "lengths";
  for (int i = 0; i < kMaxJoints; ++i) line += " 1";
  EXPECT_EQ(ErrorOf(line), "lengths: at most 9999 lengths (10000 joints), got 10000");
  line.resize(line.size() - 2);
  EXPECT_EQ(Parsed<cmd::Lengths>(line).lengths.size(), 9999u);
}

TEST(Command, SplineLoadParsesTheFileNow) {
  // Relative to the project root through the search roots, from any working directory.
  const auto load =
      Parsed<cmd::SplineLoad>("spline load assets/splines/loop.txt", ProjectContext());
  EXPECT_EQ(load.path, "assets/splines/loop.txt");
  EXPECT_TRUE(std::filesystem::exists(load.resolved_path));
  EXPECT_TRUE(load.spline.closed());
  EXPECT_EQ(load.spline.points().size(), 10u);

  // Absolute paths and quoted paths with spaces.
  TempFile spaced("fabrik spline with spaces.txt", "0 0 0\n1 0 0\n");
  const auto quoted = Parsed<cmd::SplineLoad>("spline load \"" + spaced.path + "\"");
  EXPECT_EQ(quoted.path, spaced.path);
  EXPECT_FALSE(quoted.spline.closed());
}

TEST(Command, SplineLoadErrorsNameFileAndLine) {
  TempFile bad("fabrik_bad_spline.txt", "0 0 0\n1 1 1\n# note\n1 2\n");
  EXPECT_EQ(ErrorOf("spline load " + bad.path),
            bad.path + ":4: expected 3 numbers 'X Y Z', got '1 2'");
  EXPECT_EQ(ErrorOf("spline load no/such/file.txt", ProjectContext()),
            std::string("spline load: cannot find 'no/such/file.txt' (looked in the working "
                        "directory, ") +
                FABRIK_SOURCE_DIR + ")");
  EXPECT_EQ(ErrorOf("spline load /"), "spline load: /: not a regular file");
}

TEST(Command, ScriptRunParsesTheScriptNow) {
  const auto run = Parsed<cmd::ScriptRun>("script run assets/scripts/square.txt", ProjectContext());
  ASSERT_NE(run.script, nullptr);
  EXPECT_GT(run.script->lines().size(), 4u);
  EXPECT_EQ(run.script->source_name(), "assets/scripts/square.txt");

  TempFile bad("fabrik_bad_script.txt", "at 0 joints 5\nat 1 joints 1\n");
  EXPECT_EQ(ErrorOf("script run " + bad.path),
            bad.path + ":2: joints: expected an integer from 2 to 10000, got '1' (out of range)");

  CommandContext in_script;
  in_script.in_script = true;
  EXPECT_EQ(ErrorOf("script run " + bad.path, in_script),
            "script run: a script cannot run another script");
  TempFile nested("fabrik_nested_script.txt", "at 0 script run " + bad.path + "\n");
  EXPECT_EQ(ErrorOf("script run " + nested.path),
            nested.path + ":1: script run: a script cannot run another script");
}

TEST(Command, FormatCommandRoundTrips) {
  const std::vector<std::string> lines = {"target 0.1 -2.5 3.33333333",
                                          "target 1 2 3 -90 45.5 0.25",
                                          "mode drag",
                                          "mode spline",
                                          "mode console",
                                          "mode script",
                                          "joints 17",
                                          "length 0.123456789",
                                          "lengths 1 0.5 0.25 3",
                                          "moe 0.001",
                                          "iterations 250",
                                          "spline speed 2.75",
                                          "spline play",
                                          "spline pause",
                                          "spline restart",
                                          "spline loop",
                                          "spline pingpong",
                                          "script play",
                                          "script pause",
                                          "script restart",
                                          "script stop",
                                          "camera reset",
                                          "state",
                                          "help",
                                          "help moe",
                                          "solver ccd",
                                          "scene arm",
                                          "clear",
                                          "spline load assets/splines/word.txt",
                                          "script run assets/scripts/tour.txt",
                                          "scene walker"};
  const CommandContext context = ProjectContext();
  for (const std::string& line : lines) {
    Result<Command> first = ParseCommand(line, context);
    ASSERT_TRUE(first.ok()) << line << ": " << first.error();
    const std::string text = FormatCommand(first.value());
    Result<Command> second = ParseCommand(text, context);
    ASSERT_TRUE(second.ok()) << text << ": " << second.error();
    EXPECT_EQ(FormatCommand(second.value()), text);
    EXPECT_EQ(first.value().index(), second.value().index()) << line;
    EXPECT_EQ(text.substr(0, CommandName(first.value()).size()), CommandName(first.value()));
  }
  EXPECT_EQ(FormatCommand(Command(cmd::Target{{0.1f, -2.5f, 3.0f}, std::nullopt})),
            "target 0.100000001 -2.5 3");
  EXPECT_EQ(FormatCommand(Command(cmd::Nothing{})), "");
}

TEST(Command, HelpListsEveryCommand) {
  const std::vector<std::string> all = HelpLines();
  ASSERT_EQ(all.size(), CommandList().size() + 1);
  for (const char* name :
       {"target", "mode", "joints", "length", "lengths", "moe", "iterations", "spline", "script",
        "camera", "state", "help", "solver", "scene", "clear"}) {
    bool found = false;
    for (const CommandInfo& info : CommandList()) found = found || info.name == name;
    EXPECT_TRUE(found) << name;
    // Every listed name is accepted as a help topic.
    EXPECT_EQ(Parsed<cmd::Help>(std::string("help ") + name).topic, name);
    const std::vector<std::string> one = HelpLines(name);
    ASSERT_GE(one.size(), 2u);
    EXPECT_EQ(one[0].rfind("usage: " + std::string(name), 0), 0u) << one[0];
  }
  const std::vector<std::string> spline = HelpLines("spline");
  bool mentions_pingpong = false;
  for (const std::string& l : spline) mentions_pingpong |= l.find("pingpong") != std::string::npos;
  EXPECT_TRUE(mentions_pingpong);
  EXPECT_EQ(HelpLines("nope"), std::vector<std::string>{"help: unknown command 'nope'"});
}

TEST(Command, CompletionOffersWholeLines) {
  using V = std::vector<std::string>;
  EXPECT_EQ(CompleteCommand("sp"), V{"spline "});
  EXPECT_EQ(CompleteCommand("s"), (V{"scene ", "script ", "solver ", "spline ", "state", "step "}));
  EXPECT_EQ(CompleteCommand("le"), (V{"length ", "lengths "}));
  EXPECT_EQ(CompleteCommand("cl"), V{"clear"});
  EXPECT_EQ(CompleteCommand("spline p"), (V{"spline pause", "spline pingpong", "spline play"}));
  EXPECT_EQ(CompleteCommand("spline l"), (V{"spline load ", "spline loop"}));
  EXPECT_EQ(CompleteCommand("mode s"), (V{"mode script", "mode spline"}));
  EXPECT_EQ(CompleteCommand("mode "),
            (V{"mode console", "mode drag", "mode script", "mode spline"}));
  EXPECT_EQ(CompleteCommand("help jo"), V{"help joints"});
  EXPECT_EQ(CompleteCommand("solver j"), V{"solver jacobian_transpose"});
  // Scene names come from the app's context (its registry); without one, none are offered.
  CommandContext scenes;
  scenes.scene_names = {"chain", "arm", "creature"};
  EXPECT_EQ(CompleteCommand("scene c", scenes), (V{"scene chain", "scene creature"}));
  EXPECT_TRUE(CompleteCommand("scene c").empty());
  EXPECT_EQ(CompleteCommand("camera "), V{"camera reset"});
  EXPECT_EQ(CompleteCommand("script r"), (V{"script restart", "script run "}));
  EXPECT_EQ(CompleteCommand("  Mode Sc"), V{"  Mode script"});
  EXPECT_TRUE(CompleteCommand("xyz").empty());
  EXPECT_TRUE(CompleteCommand("joints 1").empty());
  EXPECT_TRUE(CompleteCommand("# mo").empty());
  EXPECT_EQ(CompleteCommand("").size(), CommandList().size());
  // Every completed command name parses as a command (with arguments when it needs them).
  for (const std::string& c : CompleteCommand("")) {
    EXPECT_EQ(CompleteCommand(c.substr(0, 2)).empty(), false) << c;
  }
}

TEST(Command, CompletionOfPathsUsesSearchRoots) {
  const CommandContext context = ProjectContext();
  using V = std::vector<std::string>;
  EXPECT_EQ(CompleteCommand("spline load assets/spl", context), V{"spline load assets/splines/"});
  const V words = CompleteCommand("spline load assets/splines/wo", context);
  EXPECT_EQ(words, V{"spline load assets/splines/word.txt"});
  EXPECT_EQ(CompleteCommand("script run assets/scripts/to", context),
            V{"script run assets/scripts/tour.txt"});
  EXPECT_TRUE(CompleteCommand("spline load assets/spl").empty() ||
              std::filesystem::exists("assets"));  // no context: no file lookup
  EXPECT_EQ(CommonPrefix(V{"spline load ", "spline loop"}), "spline lo");
  EXPECT_EQ(CommonPrefix(V{}), "");
  EXPECT_EQ(CommonPrefix(V{"abc"}), "abc");
}

TEST(Command, ResolveDataPathSearchesRootsInOrder) {
  // Two roots of this test's own, and a relative name found in neither the working directory
  // nor anywhere else, so the result does not depend on where the test runs.
  namespace fs = std::filesystem;
  const fs::path base = fs::temp_directory_path() /
                        ("fabrik-resolve-" + std::to_string(static_cast<long>(::getpid())));
  const fs::path first = base / "first", second = base / "second";
  const std::string name = "resolve-probe/data.txt";
  fs::create_directories(first / "resolve-probe");
  fs::create_directories(second / "resolve-probe");
  std::ofstream(second / name) << "second\n";
  const std::vector<std::string> roots = {"/nonexistent-root", first.string(), second.string()};
  EXPECT_EQ(ResolveDataPath(name, roots), (second / name).string());
  std::ofstream(first / name) << "first\n";
  EXPECT_EQ(ResolveDataPath(name, roots), (first / name).string());  // the earlier root wins
  EXPECT_EQ(ResolveDataPath("no/such.txt", roots), "no/such.txt");
  EXPECT_EQ(ResolveDataPath("/abs/none.txt", roots), "/abs/none.txt");
  EXPECT_EQ(ResolveDataPath("", roots), "");
  fs::remove_all(base);
}

TEST(Command, ValidateCommandAcceptsParsedAndRejectsOutOfRange) {
  for (const char* line : {"target 1 2 3", "joints 2", "lengths 1 2", "moe 100", "iterations 1",
                           "spline speed 1000", "help state", "solver dls", "scene arm", ""}) {
    Result<Command> c = ParseCommand(line);
    ASSERT_TRUE(c.ok()) << c.error();
    EXPECT_TRUE(ValidateCommand(c.value()).ok()) << line;
  }
  const std::vector<Command> bad = {cmd::Target{{0, std::nanf(""), 0}, std::nullopt},
                                    cmd::Target{{2e6f, 0, 0}, std::nullopt},
                                    cmd::Target{{0, 0, 0}, glm::vec3(0, 4000, 0)},
                                    cmd::Joints{1},
                                    cmd::Joints{10001},
                                    cmd::Length{0.0f},
                                    cmd::Length{1001.0f},
                                    cmd::Lengths{},
                                    cmd::Lengths{{1.0f, -1.0f}},
                                    cmd::Moe{0.0f},
                                    cmd::Moe{INFINITY},
                                    cmd::Iterations{0},
                                    cmd::Iterations{100001},
                                    cmd::SplineSpeed{0.0f},
                                    cmd::SplineSpeed{1e4f},
                                    cmd::SplinePlayback{cmd::Playback::kStop},
                                    cmd::ScriptRun{},
                                    cmd::Help{"nope"},
                                    cmd::Solver{"newton"},
                                    cmd::Scene{"fo rest"},
                                    cmd::Scene{""}};
  for (const Command& c : bad) {
    EXPECT_FALSE(ValidateCommand(c).ok()) << FormatCommand(c);
  }
  EXPECT_EQ(ValidateCommand(Command(cmd::Joints{1})).error(),
            "joints: count 1 is outside 2..10000");
}

TEST(Command, ModeNames) {
  EXPECT_EQ(ModeName(TargetMode::kDrag), "drag");
  EXPECT_EQ(ModeName(TargetMode::kSpline), "spline");
  EXPECT_EQ(ModeName(TargetMode::kConsole), "console");
  EXPECT_EQ(ModeName(TargetMode::kScript), "script");
}

}  // namespace
}  // namespace fabrik

namespace fabrik {
namespace {

TEST(Command, StepRaceAndQuit) {
  auto step = ParseCommand("step next 12");
  ASSERT_TRUE(step.ok()) << step.error();
  const auto* s = std::get_if<cmd::Step>(&step.value());
  ASSERT_NE(s, nullptr);
  EXPECT_EQ(s->action, cmd::StepAction::kNext);
  EXPECT_EQ(s->count, 12);
  EXPECT_EQ(FormatCommand(step.value()), "step next 12");
  auto on = ParseCommand("STEP on");
  ASSERT_TRUE(on.ok());
  EXPECT_EQ(std::get<cmd::Step>(on.value()).action, cmd::StepAction::kOn);
  auto race = ParseCommand("race off");
  ASSERT_TRUE(race.ok());
  EXPECT_FALSE(std::get<cmd::Race>(race.value()).on);
  EXPECT_TRUE(std::holds_alternative<cmd::Quit>(ParseCommand("quit").value()));
  for (const char* bad : {"step", "step sideways", "step next 0", "step next x", "step on 3",
                          "step next 1 2", "race", "race maybe", "quit now"}) {
    auto r = ParseCommand(bad);
    EXPECT_FALSE(r.ok()) << bad;
    EXPECT_FALSE(r.error().empty()) << bad;
  }
  EXPECT_EQ(CompleteCommand("step p"),
            (std::vector<std::string>{"step pass", "step pause", "step play", "step prev"}));
}

// The language's one on/off parser, and an app's flag (an on/off extension) parsed without
// the app: the same words, the same error texts. (The app's own flags, accelerate among them,
// are tested in tests/app_core/test_command_table.cpp.)
TEST(Command, OnOffFlags) {
  const std::vector<std::string> on = {"ON"};
  ASSERT_TRUE(ParseOnOff("x", on).ok());
  EXPECT_TRUE(ParseOnOff("x", on).value());
  const std::vector<std::string> off = {"off"};
  EXPECT_FALSE(ParseOnOff("x", off).value());
  const std::vector<std::string> maybe = {"maybe"};
  EXPECT_EQ(ParseOnOff("x", maybe).error(), "x: expected on or off, got 'maybe' (usage: x on|off)");
  EXPECT_EQ(ParseOnOff("x", {}).error(),
            "x: expected on or off, got 0 arguments (usage: x on|off)");

  constexpr std::string_view kOnOff[] = {"on", "off"};
  const CommandExtension flag{
      .name = "glow", .usage = "glow on|off", .summary = "s", .keywords = kOnOff, .on_off = true};
  CommandContext context;
  context.extensions = std::span<const CommandExtension>(&flag, 1);
  for (const char* line : {"glow on", "GLOW On"}) {
    auto r = ParseCommand(line, context);
    ASSERT_TRUE(r.ok()) << r.error();
    EXPECT_EQ(FormatCommand(r.value()), "glow on");
    EXPECT_EQ(std::get<cmd::Extension>(r.value()).args, std::vector<std::string>{"on"});
  }
  auto r = ParseCommand("glow off", context);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(CommandName(r.value()), "glow");
  EXPECT_EQ(FormatCommand(r.value()), "glow off");
  EXPECT_EQ(ParseCommand("glow maybe", context).error(),
            "glow: expected on or off, got 'maybe' (usage: glow on|off)");
  EXPECT_FALSE(ParseCommand("glow", context).ok());
  EXPECT_FALSE(ParseCommand("glow on now", context).ok());
  EXPECT_EQ(CompleteCommand("glow o", context), (std::vector<std::string>{"glow off", "glow on"}));
  // The same error texts from a built-in on/off command.
  EXPECT_EQ(ParseCommand("race maybe").error(),
            "race: expected on or off, got 'maybe' (usage: race on|off)");
}

}  // namespace
}  // namespace fabrik
