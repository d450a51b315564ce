// Every shipped spline and script parses, and each keeps the promises its header makes.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <glm/geometric.hpp>
#include <set>
#include <string>
#include <vector>

#include "lang/spline_file.h"
#include "project_context.h"
#include "targets/script_player.h"

namespace fabrik {
namespace {

namespace fs = std::filesystem;

std::vector<fs::path> TextFiles(const std::string& folder) {
  std::vector<fs::path> out;
  for (const auto& entry : fs::directory_iterator(fs::path(FABRIK_SOURCE_DIR) / folder)) {
    if (entry.is_regular_file() && entry.path().extension() == ".txt") out.push_back(entry.path());
  }
  std::sort(out.begin(), out.end());
  return out;
}

TEST(Assets, ExpectedFilesAreShipped) {
  std::set<std::string> splines, scripts;
  for (const auto& p : TextFiles("assets/splines")) splines.insert(p.filename().string());
  for (const auto& p : TextFiles("assets/scripts")) scripts.insert(p.filename().string());
  for (const char* name : {"loop.txt", "helix.txt", "trefoil.txt", "uneven.txt", "word.txt"}) {
    EXPECT_TRUE(splines.count(name)) << name;
  }
  for (const char* name : {"tour.txt", "square.txt"}) EXPECT_TRUE(scripts.count(name)) << name;
}

TEST(Assets, EverySplineParsesAndStaysWithinReach) {
  const auto files = TextFiles("assets/splines");
  ASSERT_FALSE(files.empty());
  for (const fs::path& path : files) {
    Result<Spline> s = LoadSplineFile(path.string());
    ASSERT_TRUE(s.ok()) << s.error();
    const std::vector<glm::vec3> drawn = s.value().Tessellate(32);
    int below = 0;
    for (const glm::vec3& p : drawn) {
      ASSERT_TRUE(std::isfinite(p.x) && std::isfinite(p.y) && std::isfinite(p.z));
      // A ~5-unit chain rooted at the origin: curves stay within ~4.5 of it.
      EXPECT_LT(glm::length(p), 4.6f) << path.filename() << " at " << p.x << " " << p.y;
      if (p.y < 0.0f) ++below;
    }
    EXPECT_EQ(below, 0) << path.filename() << " dips below y = 0";
  }
}

TEST(Assets, EveryFileStartsWithAHeaderComment) {
  for (const char* folder : {"assets/splines", "assets/scripts"}) {
    for (const fs::path& path : TextFiles(folder)) {
      std::ifstream in(path);
      std::string first;
      std::getline(in, first);
      EXPECT_EQ(first.rfind("# " + path.filename().string() + " - ", 0), 0u) << path;
    }
  }
}

TEST(Assets, ShapesAreWhatTheirNamesSay) {
  const std::string dir = std::string(FABRIK_SOURCE_DIR) + "/assets/splines/";
  EXPECT_TRUE(LoadSplineFile(dir + "loop.txt").value().closed());
  EXPECT_TRUE(LoadSplineFile(dir + "trefoil.txt").value().closed());
  EXPECT_FALSE(LoadSplineFile(dir + "helix.txt").value().closed());
  EXPECT_FALSE(LoadSplineFile(dir + "uneven.txt").value().closed());
  const Spline word = LoadSplineFile(dir + "word.txt").value();
  EXPECT_FALSE(word.closed());
  float min_x = 1e9f, max_x = -1e9f;
  for (const glm::vec3& p : word.points()) {
    EXPECT_EQ(p.z, 0.0f);  // in the X-Y plane
    min_x = std::min(min_x, p.x);
    max_x = std::max(max_x, p.x);
  }
  EXPECT_GT(max_x - min_x, 6.0f);  // six letters side by side
}

TEST(Assets, EveryScriptParses) {
  const auto files = TextFiles("assets/scripts");
  ASSERT_FALSE(files.empty());
  for (const fs::path& path : files) {
    Result<Script> s = LoadScriptFile(path.string(), ProjectContext());
    ASSERT_TRUE(s.ok()) << s.error();
    EXPECT_FALSE(s.value().lines().empty()) << path;
  }
}

TEST(Assets, TourTouchesEverything) {
  Result<Script> s =
      LoadScriptFile(std::string(FABRIK_SOURCE_DIR) + "/assets/scripts/tour.txt", ProjectContext());
  ASSERT_TRUE(s.ok()) << s.error();
  EXPECT_GE(s.value().duration(), 40.0);
  EXPECT_LE(s.value().duration(), 60.0);
  std::set<TargetMode> modes;
  std::set<std::string> kinds;
  bool glide = false, word = false;
  for (const ScriptLine& line : s.value().lines()) {
    if (const auto* m = std::get_if<cmd::Mode>(&line.command)) modes.insert(m->mode);
    if (const auto* l = std::get_if<cmd::SplineLoad>(&line.command)) {
      word = word || l->path == "assets/splines/word.txt";
    }
    glide = glide || line.glide_seconds > 0.0;
    kinds.insert(FormatCommand(line.command).substr(0, FormatCommand(line.command).find(' ')));
  }
  EXPECT_EQ(modes.size(), 4u);
  EXPECT_TRUE(glide);
  EXPECT_TRUE(word);
  for (const char* k : {"joints", "length", "lengths", "moe", "iterations", "camera", "target"}) {
    EXPECT_TRUE(kinds.count(k)) << k;
  }
}

TEST(Assets, ScriptsRunToTheEndWithFixedDt) {
  for (const fs::path& path : TextFiles("assets/scripts")) {
    Result<Script> s = LoadScriptFile(path.string(), ProjectContext());
    ASSERT_TRUE(s.ok()) << s.error();
    ScriptPlayer player;
    player.SetScript(std::make_shared<const Script>(std::move(s).value()));
    player.Start();
    glm::vec3 target(0.0f, 2.0f, 0.0f);
    std::size_t fired = 0;
    const int steps = static_cast<int>(std::ceil(player.duration() * 60.0)) + 1;
    for (int i = 0; i < steps; ++i) {
      ScriptStep step = player.Advance(1.0 / 60.0, target);
      fired += step.commands.size();
      if (step.target) target = *step.target;
    }
    EXPECT_TRUE(player.finished()) << path;
    EXPECT_EQ(player.next_line_index(), player.script().lines().size()) << path;
    EXPECT_GT(fired, 0u);
  }
}

}  // namespace
}  // namespace fabrik
