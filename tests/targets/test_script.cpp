// Tests for script files and the ScriptPlayer (src/lang/script.h, src/targets/script_player.h).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <glm/geometric.hpp>
#include <string>
#include <vector>

#include "project_context.h"
#include "targets/script_player.h"

namespace fabrik {
namespace {

std::shared_ptr<const Script> MustParse(const std::string& text,
                                        const CommandContext& context = {}) {
  Result<Script> s = ParseScriptText(text, "s.txt", context);
  EXPECT_TRUE(s.ok()) << s.error();
  if (!s.ok()) return std::make_shared<const Script>();
  return std::make_shared<const Script>(std::move(s).value());
}

std::string Fmt(double v) {
  char buffer[40];
  std::snprintf(buffer, sizeof(buffer), "%.17g", v);
  return buffer;
}

TEST(ScriptText, ParsesTimesCommandsGlidesAndComments) {
  const auto s = MustParse(
      "# header\n"
      "\n"
      "at 0 joints 5        # a comment after a command\n"
      "AT 0   mode script\n"
      "at 1.5 target 1 2 3\n"
      "at 2 target 4 5 6 OVER 2.5\n"
      "at 2 moe 0.5\r\n"
      "   # indented comment\n"
      "at 10 state\n");
  ASSERT_EQ(s->lines().size(), 6u);
  const std::vector<ScriptLine>& l = s->lines();
  EXPECT_EQ(l[0].time, 0.0);
  EXPECT_EQ(std::get<cmd::Joints>(l[0].command).count, 5);
  EXPECT_EQ(l[0].source_line, 3u);
  EXPECT_EQ(l[0].text, "at 0 joints 5");
  EXPECT_EQ(std::get<cmd::Mode>(l[1].command).mode, TargetMode::kScript);
  EXPECT_EQ(l[2].time, 1.5);
  EXPECT_EQ(std::get<cmd::Target>(l[2].command).position, glm::vec3(1, 2, 3));
  EXPECT_EQ(l[2].glide_seconds, 0.0);
  EXPECT_EQ(std::get<cmd::Target>(l[3].command).position, glm::vec3(4, 5, 6));
  EXPECT_EQ(l[3].glide_seconds, 2.5);
  EXPECT_EQ(l[4].source_line, 7u);
  EXPECT_EQ(l[5].source_line, 9u);
  EXPECT_EQ(s->duration(), 10.0);
  EXPECT_EQ(s->source_name(), "s.txt");
}

TEST(ScriptText, DurationIncludesTheLastGlide) {
  EXPECT_EQ(MustParse("at 1 target 0 0 0 over 8\nat 3 state\n")->duration(), 9.0);
  EXPECT_EQ(MustParse("")->duration(), 0.0);
  EXPECT_TRUE(MustParse("# nothing\n\n")->lines().empty());
}

TEST(ScriptText, SplineLoadResolvesAgainstSearchRoots) {
  const auto s = MustParse("at 0 spline load assets/splines/word.txt\n", ProjectContext());
  ASSERT_EQ(s->lines().size(), 1u);
  const auto& load = std::get<cmd::SplineLoad>(s->lines()[0].command);
  EXPECT_FALSE(load.spline.closed());
  EXPECT_GT(load.spline.length(), 20.0f);
}

TEST(ScriptText, BadTextNamesFileAndLine) {
  struct Case {
    std::string text;
    std::string error;
  };
  const std::vector<Case> cases = {
      {"at 0 joints 5\njoints 6\n", "s.txt:2: expected 'at T COMMAND', got 'joints 6'"},
      {"at\n", "s.txt:1: at: missing time and command (usage: at T COMMAND)"},
      {"at 3\n", "s.txt:1: at 3: missing command"},
      {"at 3 # only a comment\n", "s.txt:1: at 3: missing command"},
      {"at soon state\n", "s.txt:1: at: expected seconds from 0 to 1e6, got 'soon'"},
      {"at -1 state\n", "s.txt:1: at: expected seconds from 0 to 1e6, got '-1' (out of range)"},
      {"at nan state\n",
       "s.txt:1: at: expected seconds from 0 to 1e6, got 'nan' (not a finite number)"},
      {"at inf state\n",
       "s.txt:1: at: expected seconds from 0 to 1e6, got 'inf' (not a finite number)"},
      {"at 2e6 state\n", "s.txt:1: at: expected seconds from 0 to 1e6, got '2e6' (out of range)"},
      {"at 5 state\n\nat 3 state\n",
       "s.txt:3: time 3 is earlier than the previous line's time (line 1); times must not "
       "decrease"},
      {"at 1 jump\n", "s.txt:1: unknown command 'jump' (type 'help' for the list)"},
      {"at 1 joints 1\n",
       "s.txt:1: joints: expected an integer from 2 to 10000, got '1' (out of range)"},
      {"at 1 target 1 2 3 over\n",
       "s.txt:1: target ... over: expected one duration D after 'over' (usage: at T target X Y "
       "Z over D)"},
      {"at 1 target 1 2 3 over 2 3\n",
       "s.txt:1: target ... over: expected one duration D after 'over' (usage: at T target X Y "
       "Z over D)"},
      {"at 1 target 1 2 3 over -2\n",
       "s.txt:1: over: expected seconds from 0 to 1e6, got '-2' (out of range)"},
      {"at 1 target 1 2 3 over inf\n",
       "s.txt:1: over: expected seconds from 0 to 1e6, got 'inf' (not a finite number)"},
      {"at 1 target 1 2 over 3\n",
       "s.txt:1: target: expected 3 or 6 arguments (usage: target X Y Z [YAW PITCH ROLL]), "
       "got 2"},
      {"at 1 joints 5 over 3\n", "s.txt:1: joints: expected 1 argument (usage: joints N), got 3"},
      {"at 1 script run assets/scripts/tour.txt\n",
       "s.txt:1: script run: a script cannot run another script"},
      {"at 1 spline load \"no/such.txt\n", "s.txt:1: unterminated quote"},
      {"at 1 spline load no/such.txt\n",
       "s.txt:1: spline load: cannot find 'no/such.txt' (looked in the working directory)"},
  };
  for (const Case& c : cases) {
    Result<Script> s = ParseScriptText(c.text, "s.txt");
    ASSERT_FALSE(s.ok()) << "accepted: " << c.text;
    EXPECT_EQ(s.error(), c.error) << "text: " << c.text;
  }
}

TEST(ScriptText, BoundsWhatOneScriptHolds) {
  // One line past the line bound.
  std::string many;
  for (std::size_t i = 0; i <= Script::kMaxLines; ++i) many += "at 0 moe 0.5\n";
  Result<Script> lines = ParseScriptText(many, "s.txt", {});
  ASSERT_FALSE(lines.ok());
  EXPECT_EQ(lines.error(), "s.txt:" + std::to_string(Script::kMaxLines + 1) +
                               ": too many lines: a script holds at most 100000 timed lines");

  // Eleven loads of a 10,000-point spline pass the spline-point bound on the eleventh.
  const std::string path = testing::TempDir() + "/fabrik_script_big_spline.txt";
  {
    std::FILE* f = std::fopen(path.c_str(), "w");
    ASSERT_NE(f, nullptr);
    for (int i = 0; i < 10000; ++i) std::fprintf(f, "%d %d 0\n", i % 97, i / 97);
    std::fclose(f);
  }
  std::string loads;
  for (int i = 0; i < 11; ++i) loads += "at 0 spline load " + path + "\n";
  Result<Script> splines = ParseScriptText(loads, "s.txt", {});
  ASSERT_FALSE(splines.ok());
  EXPECT_NE(splines.error().find("s.txt:11: too many spline points"), std::string::npos)
      << splines.error();
  std::remove(path.c_str());
}

TEST(ScriptText, AByteOrderMarkIsIgnored) {
  const auto s = MustParse(
      "\xEF\xBB\xBF"
      "at 0 moe 0.5\n");
  ASSERT_EQ(s->lines().size(), 1u);
  Result<Script> bad = ParseScriptText(
      "\xEF\xBB\xBF"
      "at x moe 0.5\n",
      "s.txt", {});
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.error().find("\xEF"), std::string::npos) << bad.error();
}

TEST(ScriptText, LoadMissingFile) {
  Result<Script> s = LoadScriptFile("/no/such/script.txt");
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.error().rfind("/no/such/script.txt: cannot open file", 0), 0u) << s.error();
}

// ---- player ---------------------------------------------------------------------------

// Runs `steps` fixed steps and records, for each step, the names of the commands it gave.
std::vector<std::vector<std::string>> RunSteps(ScriptPlayer& player, int steps, double dt) {
  std::vector<std::vector<std::string>> out;
  glm::vec3 target(0.0f);
  for (int i = 0; i < steps; ++i) {
    ScriptStep step = player.Advance(dt, target);
    if (step.target) target = *step.target;
    std::vector<std::string> names;
    for (const Command& c : step.commands) names.push_back(FormatCommand(c));
    out.push_back(names);
  }
  return out;
}

TEST(ScriptPlayer, ACommandAtKDtFiresOnceOnStepK) {
  for (double dt : {1.0 / 60.0, 1.0 / 144.0, 0.1, 1.0 / 3.0, 0.05, 0.016}) {
    for (int k : {1, 3, 7, 60, 100, 599}) {
      // T written with full precision, as k * dt in double.
      const double t = k * dt;
      ScriptPlayer player;
      player.SetScript(MustParse("at " + Fmt(t) + " state\n"));
      player.Start();
      const auto steps = RunSteps(player, k + 50, dt);
      int fired = 0;
      for (int i = 0; i < static_cast<int>(steps.size()); ++i) {
        if (!steps[i].empty()) {
          ++fired;
          EXPECT_EQ(i + 1, k) << "dt=" << dt << " T=" << t << " fired on step " << i + 1;
        }
      }
      EXPECT_EQ(fired, 1) << "dt=" << dt << " T=" << t;
    }
  }
}

TEST(ScriptPlayer, DecimalTimesFireOnTheRightStep) {
  // "at 1" with dt = 1/60: 60 additions of 1/60 in double give 0.99999999999999989, which
  // must still count as time 1.
  ScriptPlayer player;
  player.SetScript(MustParse("at 0 joints 3\nat 1 joints 4\nat 2.5 joints 5\n"));
  player.Start();
  const auto steps = RunSteps(player, 400, 1.0 / 60.0);
  std::vector<int> fired_at;
  for (int i = 0; i < 400; ++i) {
    for (size_t j = 0; j < steps[i].size(); ++j) fired_at.push_back(i + 1);
  }
  EXPECT_EQ(fired_at, (std::vector<int>{1, 60, 150}));
}

TEST(ScriptPlayer, SameTimeCommandsComeInFileOrderAndTargetsAreNotCommands) {
  ScriptPlayer player;
  player.SetScript(
      MustParse("at 0.5 joints 3\nat 0.5 target 1 2 3\nat 0.5 moe 0.5\n"
                "at 0.5 spline pause\n"));
  player.Start();
  ScriptStep step = player.Advance(0.25, glm::vec3(0.0f));
  EXPECT_TRUE(step.commands.empty());
  EXPECT_FALSE(step.target.has_value());
  step = player.Advance(0.25, glm::vec3(0.0f));
  ASSERT_EQ(step.commands.size(), 3u);
  EXPECT_EQ(FormatCommand(step.commands[0]), "joints 3");
  EXPECT_EQ(FormatCommand(step.commands[1]), "moe 0.5");
  EXPECT_EQ(FormatCommand(step.commands[2]), "spline pause");
  ASSERT_TRUE(step.target.has_value());
  EXPECT_EQ(*step.target, glm::vec3(1, 2, 3));
  EXPECT_FALSE(step.gliding);
  // The scripted target persists afterwards.
  step = player.Advance(0.25, glm::vec3(9.0f));
  ASSERT_TRUE(step.target.has_value());
  EXPECT_EQ(*step.target, glm::vec3(1, 2, 3));
}

// A cost model for the budget tests: `joints` lines are heavy (4 units), others cost 1.
std::size_t JointsAreHeavy(const Command& c) {
  return std::holds_alternative<cmd::Joints>(c) ? 4 : 1;
}

TEST(ScriptPlayer, ABudgetRunsDueLinesOverLaterStepsInFileOrder) {
  ScriptPlayer player;
  std::string text;
  for (int k = 0; k < 10; ++k) text += "at 0 joints " + std::to_string(k + 2) + "\n";
  text += "at 0 moe 0.5\nat 0 moe 0.25\nat 0.05 spline pause\n";
  player.SetScript(MustParse(text));
  player.Start();
  const ScriptBudget budget{4, JointsAreHeavy};
  std::vector<std::string> ran;
  std::vector<std::size_t> per_step;
  for (int i = 0; i < 20 && !player.finished(); ++i) {
    const ScriptStep step = player.Advance(0.01, glm::vec3(0.0f), budget);
    per_step.push_back(step.commands.size());
    for (const Command& c : step.commands) ran.push_back(FormatCommand(c));
    if (i == 0) {
      EXPECT_EQ(player.next_source_line(), 2u);  // one heavy line a step
      EXPECT_EQ(player.due_lines(), 11u);
    }
  }
  // Every line ran once, in file order; one heavy line per step, then the two cheap lines
  // share a step with the next due line.
  ASSERT_EQ(ran.size(), 13u);
  for (int k = 0; k < 10; ++k) EXPECT_EQ(ran[k], "joints " + std::to_string(k + 2));
  EXPECT_EQ(ran[10], "moe 0.5");
  EXPECT_EQ(ran[11], "moe 0.25");
  EXPECT_EQ(ran[12], "spline pause");
  EXPECT_EQ(per_step, (std::vector<std::size_t>{1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 3}));
  EXPECT_TRUE(player.finished());
  EXPECT_EQ(player.due_lines(), 0u);
}

TEST(ScriptPlayer, LinesHeldBackByTheBudgetStillRunWhilePaused) {
  ScriptPlayer player;
  player.SetScript(MustParse("at 0 joints 3\nat 0 joints 4\nat 0 joints 5\n"));
  player.Start();
  const ScriptBudget budget{4, JointsAreHeavy};
  EXPECT_EQ(player.Advance(0.01, glm::vec3(0.0f), budget).commands.size(), 1u);
  player.Pause();
  EXPECT_EQ(player.Advance(0.01, glm::vec3(0.0f), budget).commands.size(), 1u);
  EXPECT_EQ(player.time(), 0.01);  // time stood still
  EXPECT_EQ(player.Advance(0.0, glm::vec3(0.0f), budget).commands.size(), 1u);
  EXPECT_EQ(player.due_lines(), 0u);
  EXPECT_TRUE(player.Advance(0.01, glm::vec3(0.0f), budget).commands.empty());
}

TEST(ScriptPlayer, GlideStartsWhereTheTargetIsAndArrivesAtTPlusD) {
  ScriptPlayer player;
  player.SetScript(MustParse("at 1 target 2 0 0 over 2\n"));
  player.Start();
  const glm::vec3 start(0.0f, 1.0f, 0.0f);
  const double dt = 0.25;
  std::vector<glm::vec3> seen;
  for (int i = 1; i <= 16; ++i) {
    ScriptStep step = player.Advance(dt, start);  // the app's target has not moved yet
    if (i < 4) {
      EXPECT_FALSE(step.target.has_value()) << i;
      continue;
    }
    ASSERT_TRUE(step.target.has_value()) << i;
    const double t = i * dt;
    const double f = std::min(1.0, (t - 1.0) / 2.0);
    const glm::vec3 want = start + (glm::vec3(2, 0, 0) - start) * static_cast<float>(f);
    EXPECT_LT(glm::distance(*step.target, want), 1e-6f) << "step " << i;
    EXPECT_EQ(step.gliding, t < 3.0) << "step " << i;
    if (i >= 12) {
      EXPECT_EQ(*step.target, glm::vec3(2, 0, 0)) << "exact end, step " << i;
    }
  }
}

TEST(ScriptPlayer, TargetAnglesComeOutOnceWhenTheLineFires) {
  ScriptPlayer player;
  player.SetScript(
      MustParse("at 0.5 target 1 2 3 30 -40 20 over 1\nat 1 target 2 2 2\n"
                "at 1.5 target 0 1 0 -90 0 0\n"));
  player.Start();
  std::vector<int> fired_on;
  std::vector<glm::vec3> angles;
  for (int i = 1; i <= 12; ++i) {
    const ScriptStep step = player.Advance(0.25, glm::vec3(0.0f));
    if (step.target_angles_deg) {
      fired_on.push_back(i);
      angles.push_back(*step.target_angles_deg);
    }
  }
  // Steps 2 (t = 0.5) and 6 (t = 1.5); the plain target at t = 1 brings none.
  EXPECT_EQ(fired_on, (std::vector<int>{2, 6}));
  ASSERT_EQ(angles.size(), 2u);
  EXPECT_EQ(angles[0], glm::vec3(30.0f, -40.0f, 20.0f));
  EXPECT_EQ(angles[1], glm::vec3(-90.0f, 0.0f, 0.0f));
}

TEST(ScriptPlayer, GlideEndIsExactWithAwkwardDt) {
  ScriptPlayer player;
  player.SetScript(MustParse("at 0.1 target 1 1 1 over 0.7\n"));
  player.Start();
  const double dt = 0.1;  // 0.1 + ... accumulates rounding
  ScriptStep step;
  for (int i = 0; i < 8; ++i) step = player.Advance(dt, glm::vec3(0.0f));
  ASSERT_TRUE(step.target.has_value());
  EXPECT_EQ(*step.target, glm::vec3(1, 1, 1));  // reached at 0.8 = 0.1 + 0.7
  EXPECT_FALSE(step.gliding);
  EXPECT_TRUE(player.finished());
}

TEST(ScriptPlayer, NewGlideDuringAGlideStartsFromTheGlidePosition) {
  ScriptPlayer player;
  player.SetScript(
      MustParse("at 0 target 0 0 0\nat 0 target 4 0 0 over 4\n"
                "at 2 target 2 2 0 over 1\n"));
  player.Start();
  const glm::vec3 app_target(100.0f, 100.0f, 100.0f);  // stale: the script owns the target
  ScriptStep step = player.Advance(1.0, app_target);
  ASSERT_TRUE(step.target.has_value());
  EXPECT_LT(glm::distance(*step.target, glm::vec3(1, 0, 0)), 1e-6f);
  step = player.Advance(1.5, *step.target);  // t = 2.5: second glide is halfway from (2,0,0)
  EXPECT_LT(glm::distance(*step.target, glm::vec3(2, 1, 0)), 1e-6f);
  step = player.Advance(0.5, *step.target);
  EXPECT_EQ(*step.target, glm::vec3(2, 2, 0));
}

TEST(ScriptPlayer, PausePlayStopRestart) {
  ScriptPlayer player;
  EXPECT_FALSE(player.has_script());
  player.Start();  // no script: nothing happens
  EXPECT_FALSE(player.playing());
  EXPECT_TRUE(player.Advance(1.0, glm::vec3(0)).commands.empty());

  player.SetScript(MustParse("at 1 joints 3\nat 2 joints 4\n"));
  EXPECT_FALSE(player.playing());  // loaded but not started
  EXPECT_TRUE(player.Advance(5.0, glm::vec3(0)).commands.empty());
  EXPECT_EQ(player.next_source_line(), 1u);

  player.Start();
  EXPECT_EQ(player.Advance(1.0, glm::vec3(0)).commands.size(), 1u);
  EXPECT_EQ(player.next_line_index(), 1u);
  EXPECT_EQ(player.next_source_line(), 2u);
  player.Pause();
  EXPECT_TRUE(player.Advance(5.0, glm::vec3(0)).commands.empty());
  EXPECT_EQ(player.time(), 1.0);
  player.Play();
  EXPECT_EQ(player.Advance(1.0, glm::vec3(0)).commands.size(), 1u);
  EXPECT_TRUE(player.finished());
  EXPECT_EQ(player.next_source_line(), 0u);

  player.Restart();  // fires everything again
  EXPECT_FALSE(player.finished());
  EXPECT_EQ(player.Advance(3.0, glm::vec3(0)).commands.size(), 2u);

  player.Stop();
  EXPECT_FALSE(player.playing());
  EXPECT_FALSE(player.finished());
  EXPECT_EQ(player.time(), 0.0);
  player.Play();  // after a stop, play starts from the beginning
  EXPECT_EQ(player.Advance(3.0, glm::vec3(0)).commands.size(), 2u);
}

TEST(ScriptPlayer, BadDtDoesNothingAndEmptyScriptFinishes) {
  ScriptPlayer player;
  player.SetScript(MustParse("at 1 state\n"));
  player.Start();
  for (double dt : {-1.0, 0.0, std::nan(""), static_cast<double>(INFINITY)}) {
    EXPECT_TRUE(player.Advance(dt, glm::vec3(0)).commands.empty());
    EXPECT_EQ(player.time(), 0.0);
  }
  EXPECT_EQ(player.Advance(1e300, glm::vec3(0)).commands.size(), 1u);  // capped, fires
  EXPECT_TRUE(std::isfinite(player.time()));

  ScriptPlayer empty;
  empty.SetScript(MustParse("# nothing\n"));
  EXPECT_FALSE(empty.finished());
  empty.Start();
  EXPECT_TRUE(empty.finished());
}

TEST(ScriptPlayer, IsDeterministic) {
  const auto script = MustParse(
      "at 0 target 1 1 1 over 0.37\nat 0.2 joints 4\nat 0.5 target -1 2 0 over 1.13\n"
      "at 1.1 target 3 0 1 over 0.01\nat 1.4 state\n");
  ScriptPlayer a, b;
  a.SetScript(script);
  b.SetScript(script);
  a.Start();
  b.Start();
  glm::vec3 ta(0.5f), tb(0.5f);
  for (int i = 0; i < 300; ++i) {
    const double dt = 0.003 + (i % 5) * 0.002;
    const ScriptStep sa = a.Advance(dt, ta);
    const ScriptStep sb = b.Advance(dt, tb);
    ASSERT_EQ(sa.commands.size(), sb.commands.size());
    ASSERT_EQ(sa.target.has_value(), sb.target.has_value());
    if (sa.target) {
      ASSERT_EQ(*sa.target, *sb.target);
      ta = *sa.target;
      tb = *sb.target;
    }
  }
}

}  // namespace
}  // namespace fabrik
