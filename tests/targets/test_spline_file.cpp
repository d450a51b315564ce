// Tests for spline files (src/lang/spline_file.h): good text, and each kind of bad text
// giving its exact "file:line: message".
#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "lang/spline_file.h"

namespace fabrik {
namespace {

TEST(SplineFile, ParsesPointsCommentsBlankLinesAndDirective) {
  const std::string text =
      "# a comment\n"
      "\n"
      "   closed   # trailing comment\n"
      "0 0 0\n"
      "\t1.5  -2 3e-1  # a point with a comment\r\n"
      "-1 4 .5\n"
      "   \n";
  Result<Spline> s = ParseSplineText(text, "t.txt");
  ASSERT_TRUE(s.ok()) << s.error();
  EXPECT_TRUE(s.value().closed());
  ASSERT_EQ(s.value().points().size(), 3u);
  EXPECT_EQ(s.value().points()[1], glm::vec3(1.5f, -2.0f, 0.3f));
  EXPECT_EQ(s.value().points()[2], glm::vec3(-1.0f, 4.0f, 0.5f));
}

TEST(SplineFile, OpenIsTheDefaultAndKeywordsIgnoreCase) {
  Result<Spline> s = ParseSplineText("0 0 0\n1 1 1\n", "t.txt");
  ASSERT_TRUE(s.ok()) << s.error();
  EXPECT_FALSE(s.value().closed());
  s = ParseSplineText("CLOSED\n0 0 0\n1 0 0\n0 1 0\nClosed\n", "t.txt");
  ASSERT_TRUE(s.ok()) << s.error();
  EXPECT_TRUE(s.value().closed());
  s = ParseSplineText("Open\n0 0 0\n1 0 0\n", "t.txt");
  ASSERT_TRUE(s.ok()) << s.error();
  EXPECT_FALSE(s.value().closed());
}

TEST(SplineFile, RepeatedPointsAreDropped) {
  Result<Spline> s = ParseSplineText("0 0 0\n0 0 0\n1 0 0\n1 0 0\n2 0 0\n", "t.txt");
  ASSERT_TRUE(s.ok()) << s.error();
  EXPECT_EQ(s.value().points().size(), 3u);
}

TEST(SplineFile, BadTextNamesFileAndLine) {
  struct Case {
    std::string text;
    std::string error;
  };
  const std::vector<Case> cases = {
      {"0 0 0\n1 2\n", "x.txt:2: expected 3 numbers 'X Y Z', got '1 2'"},
      {"1 2 3 4\n", "x.txt:1: expected 3 numbers 'X Y Z', got '1 2 3 4'"},
      {"0 0 0\n\n1 2 abc\n", "x.txt:3: 'abc' is not a number (expected 3 numbers 'X Y Z')"},
      {"0 0 0\n1 nan 0\n", "x.txt:2: coordinate 'nan' is not a finite number"},
      {"0 0 0\n1 0 -inf\n", "x.txt:2: coordinate '-inf' is not a finite number"},
      {"0 0 0\n1 0 Infinity\n", "x.txt:2: coordinate 'Infinity' is not a finite number"},
      {"0 0 0\n1e7 0 0\n", "x.txt:2: coordinate '1e7' is out of range (|value| <= 1e6)"},
      {"0 0 0\n1e999 0 0\n", "x.txt:2: coordinate '1e999' is out of range (|value| <= 1e6)"},
      {"0 0 0\n1,5 0 0\n", "x.txt:2: '1,5' is not a number (expected 3 numbers 'X Y Z')"},
      {"0 0 0\n0x10 0 0\n", "x.txt:2: '0x10' is not a number (expected 3 numbers 'X Y Z')"},
      {"0 0 0\n1 +2 0\n", "x.txt:2: '+2' is not a number (expected 3 numbers 'X Y Z')"},
      {"banana\n", "x.txt:1: expected 3 numbers 'X Y Z' or 'open'/'closed', got 'banana'"},
      {"7\n", "x.txt:1: expected 3 numbers 'X Y Z', got '7'"},
      {"open\n0 0 0\nclosed\n", "x.txt:3: 'closed' conflicts with 'open' on line 1"},
      {"0 0 0 \"oops\n", "x.txt:1: unterminated quote"},
      {"", "x.txt:1: an open spline needs at least 2 distinct points, got 0"},
      {"# only a comment\n\n", "x.txt:2: an open spline needs at least 2 distinct points, got 0"},
      {"1 2 3\n", "x.txt:1: an open spline needs at least 2 distinct points, got 1"},
      {"1 2 3\n1 2 3\n", "x.txt:2: an open spline needs at least 2 distinct points, got 1"},
      {"closed\n0 0 0\n1 0 0\n# end\n",
       "x.txt:4: a closed spline needs at least 3 distinct points, got 2"},
  };
  for (const Case& c : cases) {
    Result<Spline> s = ParseSplineText(c.text, "x.txt");
    ASSERT_FALSE(s.ok()) << "accepted: " << c.text;
    EXPECT_EQ(s.error(), c.error) << "text: " << c.text;
  }
}

TEST(SplineFile, LoadReportsMissingFilesAndDirectories) {
  Result<Spline> s = LoadSplineFile("/nonexistent/dir/none.txt");
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.error().rfind("/nonexistent/dir/none.txt: cannot open file", 0), 0u) << s.error();

  const std::string dir = std::string(FABRIK_SOURCE_DIR) + "/assets/splines";
  s = LoadSplineFile(dir);
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.error(), dir + ": not a regular file");
}

TEST(SplineFile, LoadUsesThePathInErrors) {
  const std::filesystem::path path =
      std::filesystem::temp_directory_path() / "fabrik_spline_file_test.txt";
  {
    std::ofstream out(path);
    out << "0 0 0\n1 1 1\n2 2\n";
  }
  Result<Spline> s = LoadSplineFile(path.string());
  std::filesystem::remove(path);
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.error(), path.string() + ":3: expected 3 numbers 'X Y Z', got '2 2'");
}

}  // namespace
}  // namespace fabrik
