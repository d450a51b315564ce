// Hostile files: each gets one error naming the problem, nothing crashes or allocates wildly.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>

#include "mocap/clip.h"
#include "mocap_test_util.h"

namespace fabrik::mocap {
namespace {

using testing::Humanoid;
using testing::MakeBvh;
using testing::TempDir;

std::string Small(int frames = 2) {
  return MakeBvh(Humanoid(), 1.0f, frames, [](int, std::vector<float>&) {});
}

void ExpectError(const Result<Clip>& r, const std::string& words) {
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().find(words), std::string::npos) << "message: " << r.error();
}

TEST(HostileClips, TruncatedFile) {
  TempDir dir;
  const std::string full = testing::ReadText(testing::kClip0101);
  // Cut in the middle of a frame line: that line is short.
  ExpectError(LoadClipFile(dir.Write("half.bvh", full.substr(0, full.size() / 2))), "values");
  // Cut after a whole frame line: the frames are fewer than declared.
  const std::size_t whole = full.rfind('\n', full.size() / 2) + 1;
  ExpectError(LoadClipFile(dir.Write("whole.bvh", full.substr(0, whole))), "frame lines");
  // Far too short for its claim: refused before Assimp.
  ExpectError(LoadClipFile(dir.Write("tenth.bvh", full.substr(0, full.size() / 10))), "frame");
  // Cut inside the hierarchy.
  ExpectError(LoadClipFile(dir.Write("head.bvh", full.substr(0, full.rfind('\n', 900)))), "MOTION");
}

TEST(HostileClips, AMillionFramesClaimed) {
  TempDir dir;
  std::string text = Small(2);
  text.replace(text.find("Frames: 2"), 9, "Frames: 1000000");
  ExpectError(LoadClipFile(dir.Write("million.bvh", text)), "1000000 frames");
  // A one-joint skeleton passes the sample limit: the file is too short for the claim.
  const std::string one =
      "HIERARCHY\nROOT r\n{\nOFFSET 0 0 0\nCHANNELS 3 Xrotation Yrotation "
      "Zrotation\nEnd Site\n{\nOFFSET 0 1 0\n}\n}\nMOTION\nFrames: 1000000\n"
      "Frame Time: 0.01\n0 0 0\n0 0 0\n";
  ExpectError(LoadClipFile(dir.Write("million1.bvh", one)),
              "declares 1000000 frames (\"Frames:\") but holds 2 frame lines");
  text.replace(text.find("Frames: 1000000"), 15, "Frames: 4000000000");
  ExpectError(LoadClipFile(dir.Write("billions.bvh", text)), "limit");
}

TEST(HostileClips, AHundredThousandJoints) {
  TempDir dir;
  // Nested (Assimp would recurse once per level) and flat.
  std::string nested =
      "HIERARCHY\nROOT r\n{\nOFFSET 0 0 0\nCHANNELS 3 Xrotation Yrotation Zrotation\n";
  std::string closing;
  for (int i = 0; i < 100000; ++i) {
    nested += "JOINT j" + std::to_string(i) +
              "\n{\nOFFSET 0 1 0\nCHANNELS 3 Xrotation Yrotation Zrotation\n";
    closing += "}\n";
  }
  nested += closing + "}\nMOTION\nFrames: 1\nFrame Time: 0.01\n0 0 0\n";
  ExpectError(LoadClipFile(dir.Write("nested.bvh", nested)), "more than 1000 joints");
  std::string flat =
      "HIERARCHY\nROOT r\n{\nOFFSET 0 0 0\nCHANNELS 3 Xrotation Yrotation Zrotation\n";
  for (int i = 0; i < 100000; ++i) flat += "JOINT j" + std::to_string(i) + "\n{\nOFFSET 0 1 0\n}\n";
  flat += "}\nMOTION\nFrames: 1\nFrame Time: 0.01\n0 0 0\n";
  ExpectError(LoadClipFile(dir.Write("flat.bvh", flat)), "more than 1000 joints");
}

TEST(HostileClips, NonFiniteChannels) {
  TempDir dir;
  // nan and inf are no numbers to the guard (naming the line); 1e39 is one, beyond a float.
  for (const char* bad : {"nan", "inf", "-inf", "1e39"}) {
    std::string text = Small(2);
    const std::size_t last_line = text.rfind('\n', text.size() - 2) + 1;
    const std::size_t angle = text.find(' ', text.find(' ', text.find(' ', last_line) + 1) + 1) + 1;
    text.replace(angle, 1, bad);  // the root's first rotation value
    auto r = LoadClipFile(dir.Write("nan.bvh", text));
    ExpectError(r, std::string(bad) == "1e39"
                       ? "not finite"
                       : "value \"" + std::string(bad) + "\" is not a number");
  }
  // A NaN root position.
  std::string text = Small(2);
  const std::size_t last_line = text.rfind('\n', text.size() - 2) + 1;
  text.replace(last_line, text.find(' ', last_line) - last_line, "nan");
  ExpectError(LoadClipFile(dir.Write("nanpos.bvh", text)), "is not a number");
  text.replace(last_line, 3, "1e39");
  ExpectError(LoadClipFile(dir.Write("bigpos.bvh", text)), "not finite");
}

TEST(HostileClips, ADirectoryAMissingFileAndEmptyOnes) {
  TempDir dir;
  std::filesystem::create_directories(dir.path("clip.bvh"));
  ExpectError(LoadClipFile(dir.path("clip.bvh")), "directory");
  ExpectError(LoadClipFile(dir.path("none.bvh")), "no such file");
  ExpectError(LoadClipFile(dir.Write("empty.bvh", "")), "empty");
  ExpectError(LoadClipFile(dir.Write("junk.bvh", "\x89PNG\r\n\x1a\n binary")), "HIERARCHY");
}

TEST(HostileClips, NoSkeletonNoFramesBadFrameTime) {
  TempDir dir;
  ExpectError(LoadClipFile(dir.Write("noroot.bvh", "HIERARCHY\nMOTION\nFrames: 1\n")),
              "no skeleton");
  std::string zero = Small(2);
  zero.replace(zero.find("Frames: 2"), 9, "Frames: 0");
  ExpectError(LoadClipFile(dir.Write("zero.bvh", zero)), "no frames");
  std::string nomotion = Small(2);
  nomotion.resize(nomotion.find("MOTION"));
  ExpectError(LoadClipFile(dir.Write("nomotion.bvh", nomotion)), "no frames");
  std::string time = Small(2);
  time.replace(time.find("Frame Time: "), 12, "Frame Time: -");
  ExpectError(LoadClipFile(dir.Write("time.bvh", time)), "frame time");
  std::string channels = Small(2);
  channels.replace(channels.find("CHANNELS 3"), 10, "CHANNELS 99999999");
  ExpectError(LoadClipFile(dir.Write("channels.bvh", channels)), "channel count");
}

TEST(HostileClips, BadHierarchyWordsAndAssimpErrors) {
  TempDir dir;
  std::string text = Small(2);
  text.replace(text.find("Xrotation"), 9, "Qrotation");
  ExpectError(LoadClipFile(dir.Write("q.bvh", text)), "unknown channel");
  text = Small(2);
  text.replace(text.find("OFFSET"), 6, "OFF");
  ExpectError(LoadClipFile(dir.Write("off.bvh", text)), "unexpected word \"OFF\"");
  text = Small(2);
  text.replace(text.find("OFFSET ") + 7, 1, "x");
  ExpectError(LoadClipFile(dir.Write("offx.bvh", text)), "not a number");
  text = Small(2);
  text.replace(text.find("OFFSET ") + 7, 1, std::string(40, '8'));
  ExpectError(LoadClipFile(dir.Write("long.bvh", text)), "not a number");
  // A value in the motion data that is not a number: refused before Assimp, naming the line.
  text = Small(2);
  text.insert(text.rfind('\n', text.size() - 2) + 1, "x1 ");
  const auto line_of_last = std::count(text.begin(), text.end(), '\n');
  ExpectError(LoadClipFile(dir.Write("motion.bvh", text)),
              "line " + std::to_string(line_of_last) + ": value \"x1\" is not a number");
}

// The importer reads motion values as words, whatever the lines: a value too many on one
// frame line would shift every later frame by one value. Refused, naming the line.
TEST(HostileClips, AValueTooManyOrTooFewOnAFrameLineNamesTheLine) {
  TempDir dir;
  const std::string text = Small(3);
  const std::size_t last = text.rfind('\n', text.size() - 2);  // end of frame 2's line
  const std::size_t second = text.rfind('\n', last - 1);       // end of frame 1's line
  const auto line_of = [&](std::size_t pos) {
    return std::to_string(1 + std::count(text.begin(), text.begin() + pos, '\n'));
  };
  std::string extra = text;
  extra.insert(second, " 7");  // frame 1 gets one value more, frame 2 one ... as it reads
  ExpectError(LoadClipFile(dir.Write("extra.bvh", extra)),
              "line " + line_of(second) + " (frame 1) has 67 values; the skeleton has 66 channels");
  std::string fewer = text;
  fewer.erase(fewer.rfind(' ', second), second - fewer.rfind(' ', second));
  ExpectError(LoadClipFile(dir.Write("fewer.bvh", fewer)),
              "line " + line_of(second) + " (frame 1) has 65 values");
  // Values after the frame time, on its own line.
  std::string after = text;
  after.insert(after.find('\n', after.find("Frame Time:")), " 0");
  ExpectError(LoadClipFile(dir.Write("after.bvh", after)), "after the frame time");
}

// More frame lines than "Frames:" declares (the rest used to be dropped silently) and fewer:
// both counts named.
TEST(HostileClips, MoreOrFewerFramesThanDeclaredNameBothCounts) {
  TempDir dir;
  std::string twice = Small(4);
  twice.replace(twice.find("Frames: 4"), 9, "Frames: 2");
  ExpectError(LoadClipFile(dir.Write("twice.bvh", twice)),
              "declares 2 frames (\"Frames:\") but holds 4 frame lines");
  std::string fewer = Small(4);
  fewer.replace(fewer.find("Frames: 4"), 9, "Frames: 5");
  ExpectError(LoadClipFile(dir.Write("fewer.bvh", fewer)),
              "declares 5 frames (\"Frames:\") but holds 4 frame lines");
  // Exactly one line more than declared (an exporter's off-by-one, as in Debian's packaged
  // Boxing_Toes.bvh) is read as the declared frames.
  std::string one_more = Small(4);
  one_more.replace(one_more.find("Frames: 4"), 9, "Frames: 3");
  const Result<Clip> read = LoadClipFile(dir.Write("one_more.bvh", one_more));
  ASSERT_TRUE(read.ok()) << read.error();
  EXPECT_EQ(read.value().frame_count(), 3);
  // Blank lines between frames and at the end are not frames.
  std::string blanks = Small(4);
  blanks.insert(blanks.rfind('\n', blanks.size() - 2) + 1, "\n  \r\n");
  blanks += "\n\n";
  EXPECT_TRUE(LoadClipFile(dir.Write("blanks.bvh", blanks)).ok());
}

}  // namespace
}  // namespace fabrik::mocap
