// Limb detection from the hierarchy's shape: CMU names, numbered names, other units, mirrored.
#include <gtest/gtest.h>

#include <regex>

#include "mocap/limbs.h"
#include "mocap_test_util.h"

namespace fabrik::mocap {
namespace {

using testing::IndexOf;
using testing::TempDir;

// The CMU hierarchy of `path` with every joint renamed j00, j01, ... and every OFFSET
// multiplied by `factor`, with one frame of zeros.
std::string RenamedRescaled(const std::string& path, float factor) {
  std::string text = testing::ReadText(path);
  text.resize(text.find("MOTION"));
  std::string out;
  std::istringstream in(text);
  std::string line;
  int n = 0, channels = 0;
  while (std::getline(in, line)) {
    std::smatch m;
    if (std::regex_search(line, m, std::regex(R"(^(\s*)(ROOT|JOINT)\s+\S+)"))) {
      char name[16];
      std::snprintf(name, sizeof name, "j%02d", n++);
      out += m[1].str() + m[2].str() + " " + name + "\n";
    } else if (std::regex_search(line, m, std::regex(R"(^(\s*)OFFSET\s+(\S+)\s+(\S+)\s+(\S+))"))) {
      out += m[1].str() + "OFFSET " + std::to_string(std::stof(m[2]) * factor) + " " +
             std::to_string(std::stof(m[3]) * factor) + " " +
             std::to_string(std::stof(m[4]) * factor) + "\n";
    } else {
      if (std::regex_search(line, m, std::regex(R"(CHANNELS\s+(\d+))")))
        channels += std::stoi(m[1]);
      out += line + "\n";
    }
  }
  out += "MOTION\nFrames: 1\nFrame Time: 0.0083333\n";
  for (int c = 0; c < channels; ++c) out += c ? " 0" : "0";
  return out + "\n";
}

struct Named {
  std::string hip, knee, ankle, toe_tip, shoulder, elbow, wrist, head, neck;
};

void ExpectLimbs(const Clip& clip, const Limbs& limbs, const Named& left, const Named& right) {
  const auto name = [&](int j) { return j >= 0 ? clip.name(j) : std::string("none"); };
  for (int side : {kLeft, kRight}) {
    const Named& n = side == kLeft ? left : right;
    const Limb& leg = limbs.legs[side];
    EXPECT_EQ(name(leg.chain.front()), n.hip);
    EXPECT_EQ(name(leg.chain[leg.middle]), n.knee);
    EXPECT_EQ(name(leg.end()), n.ankle);
    EXPECT_EQ(name(leg.tip), n.toe_tip);
    ASSERT_TRUE(limbs.has_arms);
    const Limb& arm = limbs.arms[side];
    EXPECT_EQ(name(arm.chain.front()), n.shoulder);
    EXPECT_EQ(name(arm.chain[arm.middle]), n.elbow);
    EXPECT_EQ(name(arm.end()), n.wrist);
  }
  ASSERT_TRUE(limbs.has_head);
  EXPECT_EQ(name(limbs.head), left.head);
  EXPECT_EQ(name(limbs.neck), left.neck);
}

TEST(Limbs, CmuSkeleton) {
  auto clip = LoadClipFile(testing::kClip0101);
  ASSERT_TRUE(clip.ok()) << clip.error();
  auto limbs = FindLimbs(clip.value());
  ASSERT_TRUE(limbs.ok()) << limbs.error();
  ExpectLimbs(clip.value(), limbs.value(),
              {"LeftUpLeg", "LeftLeg", "LeftFoot", "EndSite_LeftToeBase", "LeftArm", "LeftForeArm",
               "LeftHand", "Head", "Neck1"},
              {"RightUpLeg", "RightLeg", "RightFoot", "EndSite_RightToeBase", "RightArm",
               "RightForeArm", "RightHand", "Head", "Neck1"});
  EXPECT_EQ(clip.value().name(limbs.value().pelvis), "Hips");
}

TEST(Limbs, RenamedAndRescaledSkeletonGivesTheSameJoints) {
  auto reference = LoadClipFile(testing::kClip0101);
  ASSERT_TRUE(reference.ok());
  auto expected = FindLimbs(reference.value());
  ASSERT_TRUE(expected.ok());
  TempDir dir;
  for (float factor : {1.0f, 2.54f, 0.01f, 100.0f}) {
    auto clip = LoadClipFile(dir.Write("j.bvh", RenamedRescaled(testing::kClip0101, factor)));
    ASSERT_TRUE(clip.ok()) << clip.error();
    EXPECT_EQ(clip.value().name(1), "j01");
    auto limbs = FindLimbs(clip.value());
    ASSERT_TRUE(limbs.ok()) << limbs.error();
    for (int side : {kLeft, kRight}) {
      EXPECT_EQ(limbs.value().legs[side].chain, expected.value().legs[side].chain) << factor;
      EXPECT_EQ(limbs.value().legs[side].middle, expected.value().legs[side].middle);
      EXPECT_EQ(limbs.value().arms[side].chain, expected.value().arms[side].chain) << factor;
    }
    EXPECT_EQ(limbs.value().head, expected.value().head);
    EXPECT_EQ(limbs.value().neck, expected.value().neck);
  }
}

TEST(Limbs, TestHumanoidNumberedAndMirrored) {
  TempDir dir;
  for (bool numbered : {false, true}) {
    auto joints = testing::Humanoid(numbered);
    auto clip = LoadClipFile(
        dir.Write("h.bvh", testing::MakeBvh(joints, 0.01f, 1, [](int, std::vector<float>&) {})));
    ASSERT_TRUE(clip.ok()) << clip.error();
    auto limbs = FindLimbs(clip.value());
    ASSERT_TRUE(limbs.ok()) << limbs.error();
    const Clip& c = clip.value();
    // Left is +X in the rest pose.
    EXPECT_GT(c.rest_positions()[limbs.value().legs[kLeft].end()].x, 0.0f);
    EXPECT_LT(c.rest_positions()[limbs.value().legs[kRight].end()].x, 0.0f);
    EXPECT_GT(c.rest_positions()[limbs.value().arms[kLeft].end()].x, 0.0f);
    if (!numbered) {
      ExpectLimbs(c, limbs.value(),
                  {"LeftUpLeg", "LeftLeg", "LeftFoot", "EndSite_LeftToe", "LeftShoulder",
                   "LeftForeArm", "LeftHand", "Head", "Neck"},
                  {"RightUpLeg", "RightLeg", "RightFoot", "EndSite_RightToe", "RightShoulder",
                   "RightForeArm", "RightHand", "Head", "Neck"});
    }
  }
  // Mirrored (every x negated, names kept): the joint named Left is now on the right.
  auto joints = testing::Humanoid();
  for (auto& j : joints) j.offset.x = -j.offset.x;
  auto clip = LoadClipFile(
      dir.Write("m.bvh", testing::MakeBvh(joints, 1.0f, 1, [](int, std::vector<float>&) {})));
  ASSERT_TRUE(clip.ok());
  auto limbs = FindLimbs(clip.value());
  ASSERT_TRUE(limbs.ok()) << limbs.error();
  EXPECT_EQ(clip.value().name(limbs.value().legs[kLeft].end()), "RightFoot");
}

TEST(Limbs, NoLegsIsAnError) {
  TempDir dir;
  // Only a spine and head.
  std::vector<testing::TestJoint> joints = {
      {"a", -1, {0, 1, 0}}, {"b", 0, {0, 0.5f, 0}}, {"", 1, {0, 0.3f, 0}, true}};
  auto clip = LoadClipFile(
      dir.Write("s.bvh", testing::MakeBvh(joints, 1.0f, 1, [](int, std::vector<float>&) {})));
  ASSERT_TRUE(clip.ok()) << clip.error();
  auto limbs = FindLimbs(clip.value());
  ASSERT_FALSE(limbs.ok());
  EXPECT_NE(limbs.error().find("no legs"), std::string::npos) << limbs.error();
}

}  // namespace
}  // namespace fabrik::mocap
