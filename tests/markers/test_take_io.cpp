// Readers and writers of marker takes (src/markers/trc.h, csm.h, marker_set.h) and the bad
// input each refuses with one message.
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <string>

#include "markers/csm.h"
#include "markers/marker_set.h"
#include "markers/take_edit.h"
#include "markers/trc.h"
#include "markers_test_util.h"

namespace fabrik::markers {
namespace {

Take SmallTake() {
  Take take;
  take.source = "small";
  take.names = {"A", "B", "C"};
  take.frame_count = 4;
  take.rate = 100.0f;
  take.first_frame = 1;
  for (int f = 0; f < 4; ++f) {
    for (int m = 0; m < 3; ++m) {
      take.positions.push_back(glm::vec3(0.1f * f + m, 1.5f - 0.01f * m, -0.25f * m + 0.001f * f));
      take.seen.push_back(!(f == 2 && m == 1));
    }
  }
  return take;
}

void ExpectSameTake(const Take& a, const Take& b, float tolerance) {
  ASSERT_EQ(a.names, b.names);
  ASSERT_EQ(a.frame_count, b.frame_count);
  EXPECT_FLOAT_EQ(a.rate, b.rate);
  EXPECT_EQ(a.first_frame, b.first_frame);
  for (std::size_t i = 0; i < a.positions.size(); ++i) {
    ASSERT_EQ(a.seen[i], b.seen[i]) << i;
    if (a.seen[i]) {
      EXPECT_LT(glm::distance(a.positions[i], b.positions[i]), tolerance) << i;
    }
  }
}

TEST(TrcFile, WrittenThenReadGivesTheSameTakeWithItsGaps) {
  const Take take = SmallTake();
  Result<Take> back = ReadTrcText(TrcText(take), "back.trc");
  ASSERT_TRUE(back.ok()) << back.error();
  ExpectSameTake(take, back.value(), 1e-6f);
  EXPECT_EQ(back.value().unit, "mm");
}

TEST(TrcFile, ReadsUnitsAndAZUpFileIntoTheWorld) {
  const std::string text =
      "PathFileType\t4\t(X/Y/Z)\tz.trc\n"
      "DataRate\tCameraRate\tNumFrames\tNumMarkers\tUnits\tUpAxis\n"
      "60\t60\t2\t2\tcm\tZ\n"
      "Frame#\tTime\tP\t\t\tQ\t\t\n"
      "\t\tX1\tY1\tZ1\tX2\tY2\tZ2\n"
      "\n"
      "1\t0\t10\t20\t30\t\t\t\n"
      "2\t0.0166\t1\t2\t3\t4\t5\t6\n";
  Result<Take> take = ReadTrcText(text, "z.trc");
  ASSERT_TRUE(take.ok()) << take.error();
  EXPECT_FALSE(take.value().is_seen(0, 1));
  const glm::vec3 p = take.value().position(0, 0);  // (10, 20, 30) cm, Z up
  EXPECT_NEAR(p.x, 0.1f, 1e-6f);
  EXPECT_NEAR(p.y, 0.3f, 1e-6f);
  EXPECT_NEAR(p.z, -0.2f, 1e-6f);
}

TEST(TrcFile, WrittenToDiskAndReadBack) {
  const Take take = SmallTake();
  const std::string path = ::testing::TempDir() + "markers_small.trc";
  ASSERT_TRUE(WriteTrcFile(take, path).ok());
  Result<Take> back = ReadTrcFile(path);
  ASSERT_TRUE(back.ok()) << back.error();
  ExpectSameTake(take, back.value(), 1e-6f);
}

TEST(CsmFile, ThePackagedTakeReadsThroughAssimp) {
  Result<Take> take = ReadCsmFile(testing::kThomas);
  ASSERT_TRUE(take.ok()) << take.error();
  const Take& t = take.value();
  EXPECT_EQ(t.marker_count(), 43);
  EXPECT_EQ(t.frame_count, 2439);
  EXPECT_FLOAT_EQ(t.rate, 120.0f);
  EXPECT_EQ(t.first_frame, 1);
  EXPECT_EQ(t.names.front(), "LFHD");
  EXPECT_EQ(t.names.back(), "RMT5");
  // Frame 1's LFHD is (26.327553, 157.341293, 1656.915527) mm with Z up.
  const glm::vec3 p = t.position(0, 0);
  EXPECT_NEAR(p.x, 0.026327553f, 1e-6f);
  EXPECT_NEAR(p.y, 1.656915527f, 1e-6f);
  EXPECT_NEAR(p.z, -0.157341293f, 1e-6f);
  // Every marker of the packaged CMU set is in the take.
  Result<MarkerSet> set = LoadDefaultMarkerSet();
  ASSERT_TRUE(set.ok()) << set.error();
  Result<BoundSet> bound = BindMarkerSet(set.value(), t);
  ASSERT_TRUE(bound.ok()) << bound.error();
  for (int home : bound.value().home) EXPECT_GE(home, 0);
}

TEST(CsmFile, WrittenThenReadThroughAssimpKeepsDropouts) {
  Take take = SmallTake();
  take.unit = "mm";
  Result<Take> back = ReadCsmText(CsmText(take), "back.csm");
  ASSERT_TRUE(back.ok()) << back.error();
  ExpectSameTake(take, back.value(), 2e-6f);
}

TEST(CsmFile, ASingleFrameTakeReads) {  // Assimp's own reserve would overrun here
  const std::string text =
      "$FirstFrame 5\n$LastFrame 5\n$Rate 60\n$Order\nA B\n$Points\n5 1 2 3 4 5 6\n";
  Result<Take> take = ReadCsmText(text, "one.csm");
  ASSERT_TRUE(take.ok()) << take.error();
  EXPECT_EQ(take.value().frame_count, 1);
  EXPECT_EQ(take.value().first_frame, 5);
}

struct Hostile {
  const char* name;
  std::string text;
  const char* expected;  // part of the one message
};

TEST(CsmFile, HostileFilesGetOneMessageNamingTheProblem) {
  const std::string head = "$FirstFrame 1\n$LastFrame 2\n$Rate 120\n$Order\nA B\n$Points\n";
  const Hostile cases[] = {
      {"no frames", "$FirstFrame 1\n$LastFrame 0\n$Rate 120\n$Order\nA\n$Points\n", "no frames"},
      {"huge claim",
       "$FirstFrame 1\n$LastFrame 100000000\n$Rate 120\n$Order\nA\n$Points\n1 1 2 3\n",
       "above the limit"},
      {"duplicate", "$FirstFrame 1\n$LastFrame 1\n$Rate 120\n$Order\nA A\n$Points\n1 1 2 3 4 5 6\n",
       "named twice"},
      {"nan", head + "1 1 2 3 4 5 6\n2 nan 2 3 4 5 6\n", "not a plain number"},
      {"absurd", head + "1 1 2 3 4 5 6\n2 1e12 2 3 4 5 6\n", "within 1000 m"},
      {"short line", head + "1 1 2 3 4 5\n2 1 2 3 4 5 6\n", "too few values"},
      {"all missing", head + "1 DROPOUT DROPOUT\n2 1 2 3 4 5 6\n", "every marker is missing"},
      {"frame gap", head + "1 1 2 3 4 5 6\n3 1 2 3 4 5 6\n", "comes next"},
      {"truncated", head + "1 1 2 3 4 5 6\n", "claim 2 frames but the file has 1"},
      {"no points", "$Order\nA\n", "no $Points"},
      {"no rate", "$FirstFrame 1\n$LastFrame 1\n$Order\nA\n$Points\n1 1 2 3\n", "required"},
  };
  for (const Hostile& c : cases) {
    Result<Take> take = ReadCsmText(c.text, "bad.csm");
    ASSERT_FALSE(take.ok()) << c.name;
    EXPECT_NE(take.error().find(c.expected), std::string::npos) << c.name << ": " << take.error();
    EXPECT_EQ(take.error().find('\n'), std::string::npos) << c.name;
    EXPECT_EQ(take.error().rfind("bad.csm", 0), 0u) << c.name;
  }
}

TEST(TrcFile, HostileFilesGetOneMessageNamingTheProblem) {
  auto trc = [](const std::string& values, const std::string& names, const std::string& data) {
    return "PathFileType\t4\t(X/Y/Z)\tx\nDataRate\tCameraRate\tNumFrames\tNumMarkers\tUnits\n" +
           values + "\nFrame#\tTime" + names + "\n\t\tX1\n\n" + data;
  };
  const Hostile cases[] = {
      {"not trc", "hello\n1\n2\n3\n4\n", "not a TRC file"},
      {"no frames", trc("120\t120\t0\t1\tmm", "\tA\t\t", ""), "no frames"},
      {"huge claim", trc("120\t120\t100000000\t1\tmm", "\tA\t\t", "1\t0\t1\t2\t3\n"), "NumFrames"},
      {"duplicate", trc("120\t120\t1\t2\tmm", "\tA\t\t\tA\t\t", "1\t0\t1\t2\t3\t4\t5\t6\n"),
       "named twice"},
      {"unit", trc("120\t120\t1\t1\tfurlong", "\tA\t\t", "1\t0\t1\t2\t3\n"), "unknown Units"},
      {"nan", trc("120\t120\t1\t1\tmm", "\tA\t\t", "1\t0\tnan\t2\t3\n"), "not a finite number"},
      {"absurd", trc("120\t120\t1\t1\tmm", "\tA\t\t", "1\t0\t1e12\t2\t3\n"), "beyond 1000 m"},
      {"partial", trc("120\t120\t1\t1\tmm", "\tA\t\t", "1\t0\t1\t\t3\n"), "partial"},
      {"all missing", trc("120\t120\t1\t1\tmm", "\tA\t\t", "1\t0\t\t\t\n"),
       "every marker is missing"},
      {"count", trc("120\t120\t2\t1\tmm", "\tA\t\t", "1\t0\t1\t2\t3\n"), "data lines"},
      {"names", trc("120\t120\t1\t2\tmm", "\tA\t\t", "1\t0\t1\t2\t3\n"), "marker names"},
      {"rate", trc("0\t120\t1\t1\tmm", "\tA\t\t", "1\t0\t1\t2\t3\n"), "DataRate"},
  };
  for (const Hostile& c : cases) {
    Result<Take> take = ReadTrcText(c.text, "bad.trc");
    ASSERT_FALSE(take.ok()) << c.name;
    EXPECT_NE(take.error().find(c.expected), std::string::npos) << c.name << ": " << take.error();
    EXPECT_EQ(take.error().find('\n'), std::string::npos) << c.name;
  }
}

TEST(TakeFiles, MissingFoldersAndEmptyFilesAreRefused) {
  EXPECT_NE(ReadTrcFile("nope.trc").error().find("no such file"), std::string::npos);
  EXPECT_NE(ReadCsmFile(".").error().find("is a directory"), std::string::npos);
  const std::string empty = ::testing::TempDir() + "markers_empty.csm";
  std::ofstream(empty).close();
  EXPECT_NE(ReadCsmFile(empty).error().find("empty"), std::string::npos);
}

TEST(MarkerSet, ThePackagedSetListsEverySegment) {
  Result<MarkerSet> set = LoadDefaultMarkerSet();
  ASSERT_TRUE(set.ok()) << set.error();
  for (int s = 0; s < kSegmentCount; ++s) EXPECT_FALSE(set.value().segments[s].empty()) << s;
  EXPECT_EQ(set.value().segments[kPelvis].size(), 6u);
}

TEST(MarkerSet, BadSetsAreRefusedNamingTheLine) {
  std::string full;
  for (int s = 1; s < kSegmentCount; ++s)
    full += std::string(kSegmentNames[s]) + ": M" + std::to_string(s) + "\n";
  const Hostile cases[] = {
      {"unknown segment", "tail: A B C\n", "line 1: unknown segment"},
      {"missing segment", "pelvis: A B C\n", "is missing"},
      {"twice", "pelvis: A B C\npelvis: D E F\n", "listed twice"},
      {"few", "pelvis: A B\n", "at least 3"},
      {"not adjacent", "pelvis: A B C\nhead: A\n", "do not meet"},
      {"no colon", "pelvis A B C\n", "SEGMENT: MARKERS"},
  };
  for (const Hostile& c : cases) {
    Result<MarkerSet> set = ParseMarkerSet(c.text, "bad.txt");
    ASSERT_FALSE(set.ok()) << c.name;
    EXPECT_NE(set.error().find(c.expected), std::string::npos) << c.name << ": " << set.error();
  }
  EXPECT_TRUE(ParseMarkerSet("pelvis: A B C # a comment\n" + full, "ok.txt").ok());
}

TEST(MarkerSet, ASetNamingMarkersTheTakeLacksIsRefused) {
  Result<MarkerSet> set = LoadDefaultMarkerSet();
  ASSERT_TRUE(set.ok());
  Result<BoundSet> bound = BindMarkerSet(set.value(), SmallTake());
  ASSERT_FALSE(bound.ok());
  EXPECT_NE(bound.error().find("lacks: LFWT"), std::string::npos) << bound.error();
}

TEST(TakeEdit, HideSpecsAndTheirErrors) {
  Result<HideSpec> spec = ParseHideSpec("A,C:1-2");
  ASSERT_TRUE(spec.ok()) << spec.error();
  Take take = SmallTake();
  ASSERT_TRUE(HideMarkers(take, spec.value()).ok());
  EXPECT_FALSE(take.is_seen(0, 0));
  EXPECT_FALSE(take.is_seen(1, 2));
  EXPECT_TRUE(take.is_seen(3, 0));
  EXPECT_FALSE(ParseHideSpec("A:3-2").ok());
  EXPECT_FALSE(ParseHideSpec("A:x-2").ok());
  EXPECT_FALSE(ParseHideSpec("A2-3").ok());
  Take again = SmallTake();
  EXPECT_NE(HideMarkers(again, {{"Z"}, 1, 2}).error().find("no marker Z"), std::string::npos);
  EXPECT_NE(HideMarkers(again, {{"A"}, 1, 9}).error().find("outside"), std::string::npos);
  const Status all = HideMarkers(again, {{"A", "B", "C"}, 1, 1});
  EXPECT_NE(all.error().find("every marker is missing"), std::string::npos);
  EXPECT_TRUE(again.is_seen(0, 0));  // unchanged after an error
}

TEST(TakeEdit, NoiseIsSeededAndSized) {
  Take a = SmallTake(), b = SmallTake();
  ASSERT_TRUE(AddNoise(a, 1.0, 5).ok());
  ASSERT_TRUE(AddNoise(b, 1.0, 5).ok());
  EXPECT_EQ(a.positions, b.positions);
  double sum = 0;
  int count = 0;
  const Take clean = SmallTake();
  for (std::size_t i = 0; i < a.positions.size(); ++i) {
    if (!a.seen[i]) continue;
    const glm::vec3 d = a.positions[i] - clean.positions[i];
    sum += glm::dot(d, d), count += 3;
  }
  EXPECT_GT(sum, 0.0);
  EXPECT_LT(std::sqrt(sum / count), 0.004);
  EXPECT_FALSE(AddNoise(a, -1.0, 1).ok());
}

}  // namespace
}  // namespace fabrik::markers
