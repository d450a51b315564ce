// The BVH loader: channel orders, units, End Sites, odd names, the packaged CMU clips,
// sampling between frames.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <glm/geometric.hpp>
#include <glm/gtc/quaternion.hpp>

#include "mocap/clip.h"
#include "mocap/clip_sample.h"
#include "mocap_test_util.h"

namespace fabrik::mocap {
namespace {

using testing::AngleSlot;
using testing::Humanoid;
using testing::IndexOf;
using testing::MakeBvh;
using testing::TempDir;

glm::quat Axis(char axis, float degrees) {
  const glm::vec3 v(axis == 'X', axis == 'Y', axis == 'Z');
  return glm::angleAxis(glm::radians(degrees), v);
}

float Angle(const glm::quat& a, const glm::quat& b) {
  return 2.0f * std::acos(std::min(1.0f, std::fabs(glm::dot(a, b))));
}

TEST(ClipLoad, EveryChannelOrderComposesInFileOrder) {
  TempDir dir;
  const char* orders[] = {"XYZ", "XZY", "YXZ", "YZX", "ZXY", "ZYX"};
  for (const char* order : orders) {
    std::string channels;
    for (int k = 0; k < 3; ++k) channels += std::string(k ? " " : "") + order[k] + "rotation";
    const auto joints = Humanoid();
    const float a[3] = {30.0f, -50.0f, 70.0f};
    const int slot = AngleSlot(joints, "LeftLeg");
    const std::string text = MakeBvh(
        joints, 1.0f, 1,
        [&](int, std::vector<float>& v) {
          for (int k = 0; k < 3; ++k) v[slot + k] = a[k];
        },
        channels);
    auto clip = LoadClipFile(dir.Write(std::string(order) + ".bvh", text));
    ASSERT_TRUE(clip.ok()) << clip.error();
    const glm::quat expected = Axis(order[0], a[0]) * Axis(order[1], a[1]) * Axis(order[2], a[2]);
    const int j = IndexOf(clip.value(), "LeftLeg");
    EXPECT_LT(Angle(clip.value().rotation(0, j), expected), 1e-4f) << order;
    // A wrong order would give a clearly different rotation.
    const glm::quat reversed = Axis(order[2], a[2]) * Axis(order[1], a[1]) * Axis(order[0], a[0]);
    EXPECT_GT(Angle(clip.value().rotation(0, j), reversed), 0.1f) << order;
  }
}

TEST(ClipLoad, RootTranslationAndEndSites) {
  TempDir dir;
  const auto joints = Humanoid();
  const std::string text = MakeBvh(joints, 1.0f, 3, [&](int f, std::vector<float>& v) {
    v[0] = 0.5f * f;
    v[2] = -0.25f * f;
  });
  auto clip = LoadClipFile(dir.Write("walk.bvh", text));
  ASSERT_TRUE(clip.ok()) << clip.error();
  const Clip& c = clip.value();
  EXPECT_EQ(c.joint_count(), static_cast<int>(joints.size()));
  EXPECT_EQ(c.frame_count(), 3);
  EXPECT_NEAR(c.frame_time(), 1.0f / 120.0f, 1e-6f);
  EXPECT_EQ(c.parents()[0], -1);
  for (int j = 1; j < c.joint_count(); ++j) EXPECT_LT(c.parents()[j], j);
  EXPECT_TRUE(c.has_translation(0));
  EXPECT_NEAR(c.translation(2, 0).x, 1.0f, 1e-5f);
  EXPECT_NEAR(c.translation(2, 0).z, -0.5f, 1e-5f);
  // End Sites are leaf joints named after their parent, placed by their offset.
  const int head = IndexOf(c, "Head");
  ASSERT_GE(head, 0);
  const int top = IndexOf(c, "EndSite_Head");
  ASSERT_GE(top, 0);
  EXPECT_EQ(c.parents()[top], head);
  EXPECT_EQ(c.subtree_end(top), top + 1);
  EXPECT_NEAR(c.rest_positions()[top].y - c.rest_positions()[head].y, 0.15f, 1e-5f);
  EXPECT_EQ(c.subtree_end(0), c.joint_count());
}

TEST(ClipLoad, UnitsAreDetectedFromHeight) {
  TempDir dir;
  struct Case {
    float unit;
    ScaleSource source;
  } cases[] = {{1.0f, ScaleSource::kUnitMetres},
               {0.01f, ScaleSource::kUnitCentimetres},
               {0.001f, ScaleSource::kUnitMillimetres},
               {0.0254f, ScaleSource::kUnitInches}};
  for (const Case& k : cases) {
    const std::string text = MakeBvh(Humanoid(), k.unit, 2, [](int, std::vector<float>&) {});
    auto clip = LoadClipFile(dir.Write("u.bvh", text));
    ASSERT_TRUE(clip.ok()) << clip.error();
    EXPECT_EQ(clip.value().scale_source(), k.source) << k.unit;
    EXPECT_NEAR(clip.value().scale(), k.unit, 1e-6f);
    EXPECT_NEAR(clip.value().rest_height(), 1.78f, 1e-3f);
    EXPECT_NEAR(clip.value().translation(0, 0).y, 1.0f, 1e-4f);
  }
  // No common unit fits (a 0.05 m unit makes the skeleton 35.6 units): normalised to 1.7 m.
  auto odd = LoadClipFile(
      dir.Write("odd.bvh", MakeBvh(Humanoid(), 0.05f, 2, [](int, std::vector<float>&) {})));
  ASSERT_TRUE(odd.ok()) << odd.error();
  EXPECT_EQ(odd.value().scale_source(), ScaleSource::kHeightNormalised);
  EXPECT_NEAR(odd.value().rest_height(), kDefaultHeight, 1e-4f);
  // A given scale wins.
  auto given = LoadClipFile(dir.path("odd.bvh"), ClipLoadOptions{0.05f});
  ASSERT_TRUE(given.ok()) << given.error();
  EXPECT_EQ(given.value().scale_source(), ScaleSource::kGiven);
  EXPECT_NEAR(given.value().rest_height(), 1.78f, 1e-3f);
  EXPECT_FALSE(LoadClipFile(dir.path("odd.bvh"), ClipLoadOptions{-1.0f}).ok());
  EXPECT_FALSE(LoadClipFile(dir.path("odd.bvh"), ClipLoadOptions{NAN}).ok());
}

// Long decimals (Python's str(float) writes 9.00012000000000000002), read as Assimp reads
// them: the fraction's first 15 digits.
TEST(ClipLoad, LongDecimalsAreRead) {
  TempDir dir;
  std::string text = MakeBvh(Humanoid(), 0.01f, 2, [](int, std::vector<float>&) {});
  const std::size_t at = text.find("OFFSET ") + 7;
  text.replace(at, text.find(' ', at) - at, "9.00012000000000000002");
  auto clip = LoadClipFile(dir.Write("long.bvh", text));
  ASSERT_TRUE(clip.ok()) << clip.error();
  EXPECT_NEAR(clip.value().offsets()[0].x, 0.0900012f, 1e-6f);
  // A whole part too long for the importer's 64-bit integer is still refused.
  text.replace(at, text.find(' ', at) - at, std::string(20, '9') + ".5");
  EXPECT_FALSE(LoadClipFile(dir.Write("whole.bvh", text)).ok());
}

// A UTF-8 byte-order mark is skipped, as in scripts and spline files.
TEST(ClipLoad, AByteOrderMarkIsSkipped) {
  TempDir dir;
  const std::string text = MakeBvh(Humanoid(), 0.01f, 2, [](int, std::vector<float>&) {});
  auto clip = LoadClipFile(dir.Write("bom.bvh", "\xEF\xBB\xBF" + text));
  ASSERT_TRUE(clip.ok()) << clip.error();
  EXPECT_EQ(clip.value().frame_count(), 2);
  // Line numbers stay the file's.
  std::string bad = "\xEF\xBB\xBF" + text;
  bad.insert(bad.size() - 1, " 1");
  auto refused = LoadClipFile(dir.Write("bombad.bvh", bad));
  ASSERT_FALSE(refused.ok());
  const auto lines = std::count(text.begin(), text.end(), '\n');
  EXPECT_NE(refused.error().find("line " + std::to_string(lines) + " "), std::string::npos)
      << refused.error();
}

// A Z-up skeleton (standing along +Z; a person in centimetres is 178 units tall and 17 deep)
// used to be scaled as if its 17-unit depth were its height: a 17 m giant. It is detected and
// turned: the same clip as the Y-up file, joint for joint and frame for frame.
TEST(ClipLoad, AZUpSkeletonIsTurnedToYUp) {
  TempDir dir;
  const std::vector<testing::TestJoint> y_up = Humanoid();
  std::vector<testing::TestJoint> z_up = y_up;
  for (auto& j : z_up) j.offset = glm::vec3(j.offset.x, -j.offset.z, j.offset.y);
  // Order Z X Y: about Y (yaw) in the Y-up file is about Z in the Z-up one; X stays X.
  const int hips = AngleSlot(y_up, "Hips"), knee = AngleSlot(y_up, "LeftLeg");
  const auto motion = [&](bool z) {
    return [=](int f, std::vector<float>& v) {
      v[hips + (z ? 0 : 2)] = 30.0f * f;
      v[knee + 1] = 20.0f + 5.0f * f;
      const glm::vec3 walk(0.1f * f, 0.02f * f, 0.3f * f);  // Y-up metres
      const glm::vec3 shift = z ? glm::vec3(walk.x, -walk.z, walk.y) : walk;
      for (int k = 0; k < 3; ++k) v[k] += shift[k];
    };
  };
  auto a = LoadClipFile(dir.Write("y.bvh", MakeBvh(y_up, 0.01f, 3, motion(false))));
  auto b = LoadClipFile(dir.Write("z.bvh", MakeBvh(z_up, 0.01f, 3, motion(true))));
  ASSERT_TRUE(a.ok()) << a.error();
  ASSERT_TRUE(b.ok()) << b.error();
  EXPECT_FALSE(a.value().turned_from_z_up());
  EXPECT_TRUE(b.value().turned_from_z_up());
  EXPECT_EQ(b.value().scale_source(), ScaleSource::kUnitCentimetres);
  EXPECT_NEAR(b.value().rest_height(), 1.78f, 1e-3f);
  Pose pa, pb;
  pa.Resize(a.value().joint_count());
  pb.Resize(b.value().joint_count());
  for (int f = 0; f < 3; ++f) {
    SampleFrame(a.value(), f, pa);
    SampleFrame(b.value(), f, pb);
    for (int j = 0; j < pa.joint_count(); ++j) {
      EXPECT_LT(glm::length(pa.positions[j] - pb.positions[j]), 1e-4f) << f << " " << j;
      EXPECT_LT(Angle(pa.rotations[j], pb.rotations[j]), 1e-3f) << f << " " << j;
    }
  }
  // Told the file is Y-up, it is read as it is (and is the giant the scale rule makes).
  auto kept = LoadClipFile(dir.path("z.bvh"), ClipLoadOptions{0.0f, UpAxis::kY});
  ASSERT_TRUE(kept.ok()) << kept.error();
  EXPECT_FALSE(kept.value().turned_from_z_up());
  float low = 0.0f, high = 0.0f;
  for (const glm::vec3& r : kept.value().rest_positions()) {
    low = std::min(low, r.z);
    high = std::max(high, r.z);
  }
  EXPECT_GT(high - low, 10.0f);
  // Told the Y-up file is Z-up, it is turned.
  auto turned = LoadClipFile(dir.path("y.bvh"), ClipLoadOptions{0.0f, UpAxis::kZ});
  ASSERT_TRUE(turned.ok()) << turned.error();
  EXPECT_TRUE(turned.value().turned_from_z_up());
}

TEST(ClipLoad, OddNamesAreKept) {
  TempDir dir;
  auto joints = Humanoid();
  joints[1].name = "Left-Up.Leg_001";
  joints[2].name = "\xC3\xA9paule";  // UTF-8
  joints[3].name = "j3[knee]";
  auto clip = LoadClipFile(
      dir.Write("names.bvh", MakeBvh(joints, 1.0f, 1, [](int, std::vector<float>&) {})));
  ASSERT_TRUE(clip.ok()) << clip.error();
  EXPECT_EQ(clip.value().name(1), "Left-Up.Leg_001");
  EXPECT_EQ(clip.value().name(2), "\xC3\xA9paule");
  EXPECT_EQ(clip.value().name(3), "j3[knee]");
}

TEST(ClipLoad, PackagedCmuClips) {
  struct Case {
    const char* path;
    int frames;
  } cases[] = {{testing::kClip0101, 2752}, {testing::kClip0103, 4511}};
  for (const Case& k : cases) {
    auto clip = LoadClipFile(k.path);
    ASSERT_TRUE(clip.ok()) << clip.error();
    const Clip& c = clip.value();
    EXPECT_EQ(c.frame_count(), k.frames);
    EXPECT_NEAR(c.frame_time(), 1.0f / 120.0f, 1e-6f);
    EXPECT_EQ(c.name(0), "Hips");
    EXPECT_EQ(c.scale_source(), ScaleSource::kHeightNormalised);
    EXPECT_NEAR(c.rest_height(), 1.7f, 1e-4f);
    EXPECT_GE(IndexOf(c, "EndSite_LeftToeBase"), 0);
    // The root moves: its translation differs between the first and the last frame.
    EXPECT_GT(glm::distance(c.translation(0, 0), c.translation(c.frame_count() - 1, 0)), 0.1f);
  }
}

TEST(ClipSample, InterpolatesBetweenFramesAndKeepsBones) {
  TempDir dir;
  const auto joints = Humanoid();
  const int slot = AngleSlot(joints, "LeftLeg");
  const std::string text = MakeBvh(joints, 1.0f, 2, [&](int f, std::vector<float>& v) {
    v[0] = f * 1.0f;
    v[slot + 1] = f * 60.0f;  // X rotation of the knee (order Z X Y)
  });
  auto clip = LoadClipFile(dir.Write("s.bvh", text));
  ASSERT_TRUE(clip.ok()) << clip.error();
  const Clip& c = clip.value();
  Pose pose;
  pose.Resize(c.joint_count());
  SampleClip(c, 0.5f * c.frame_time(), pose);
  EXPECT_NEAR(pose.positions[0].x, 0.5f, 1e-5f);
  const int knee = IndexOf(c, "LeftLeg");
  EXPECT_NEAR(glm::degrees(Angle(pose.rotations[knee], glm::quat(1, 0, 0, 0))), 30.0f, 0.1f);
  for (int j = 1; j < c.joint_count(); ++j) {
    const float bone = glm::distance(pose.positions[j], pose.positions[c.parents()[j]]);
    EXPECT_NEAR(bone, glm::length(c.offsets()[j]), 1e-5f);
  }
  // Past the end: the last frame; NaN: the first.
  SampleClip(c, 100.0f, pose);
  EXPECT_NEAR(pose.positions[0].x, 1.0f, 1e-6f);
  SampleClip(c, NAN, pose);
  EXPECT_NEAR(pose.positions[0].x, 0.0f, 1e-6f);
  EXPECT_NEAR(WrapClipTime(c, c.duration() * 2.5f), c.duration() * 0.5f, 1e-6f);
}

}  // namespace
}  // namespace fabrik::mocap
