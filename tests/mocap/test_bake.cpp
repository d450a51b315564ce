// The BVH writer and the bake: skeletons refused with one message, every channel order and
// unit kept, the bake's round trip through Assimp and the loader (within 0.1 mm of the IK's
// poses), and hostile export paths (a FIFO, a folder, a character device, a full disk): one
// error, no file left behind.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/stat.h>

#include <csignal>
#include <filesystem>
#include <glm/geometric.hpp>

#include "mocap/bake.h"
#include "mocap/bvh_write.h"
#include "mocap_test_util.h"
#include "terrain/heightmap_png.h"

namespace fabrik::mocap {
namespace {

namespace fs = std::filesystem;
using testing::TempDir;

std::vector<std::string> Names(const TempDir& dir) {
  std::vector<std::string> out;
  for (const auto& e : fs::directory_iterator(fs::path(dir.path("x")).parent_path())) {
    out.push_back(e.path().filename().string());
  }
  std::sort(out.begin(), out.end());
  return out;
}

// A two-joint skeleton with one frame per given rotation of the child.
BvhSkeleton TwoJoints(std::vector<BvhChannel> child_channels) {
  BvhSkeleton s;
  s.joints.push_back({"root",
                      -1,
                      {0, 1, 0},
                      {BvhChannel::kXposition, BvhChannel::kYposition, BvhChannel::kZposition,
                       BvhChannel::kZrotation, BvhChannel::kXrotation, BvhChannel::kYrotation}});
  s.joints.push_back({"child", 0, {0, 0.5f, 0}, std::move(child_channels)});
  BvhJoint end;
  end.parent = 1;
  end.offset = {0, 0.3f, 0};
  end.end_site = true;
  s.joints.push_back(end);
  return s;
}

BvhFrames Frames(const BvhSkeleton& s, const std::vector<glm::quat>& child) {
  BvhFrames f;
  f.frame_count = static_cast<int>(child.size());
  f.frame_time = 0.01f;
  for (const glm::quat& q : child) {
    f.rotations.insert(f.rotations.end(), {glm::quat(1, 0, 0, 0), q, glm::quat(1, 0, 0, 0)});
    f.translations.insert(f.translations.end(),
                          {s.joints[0].offset, s.joints[1].offset, s.joints[2].offset});
  }
  return f;
}

TEST(BvhWrite, EveryRotationOrderReadsBackThroughAssimp) {
  TempDir dir;
  const std::vector<glm::quat> turns = {
      glm::angleAxis(0.3f, glm::normalize(glm::vec3(1, 2, 3))),
      glm::angleAxis(2.9f, glm::normalize(glm::vec3(-1, 0.2f, 0.5f))),
      glm::angleAxis(1.5707f, glm::vec3(0, 1, 0)) * glm::angleAxis(1.5707f, glm::vec3(1, 0, 0))};
  const std::vector<std::vector<BvhChannel>> orders = {
      {BvhChannel::kXrotation, BvhChannel::kYrotation, BvhChannel::kZrotation},
      {BvhChannel::kYrotation, BvhChannel::kZrotation, BvhChannel::kXrotation},
      {BvhChannel::kZrotation, BvhChannel::kYrotation, BvhChannel::kXrotation},
      {BvhChannel::kXrotation, BvhChannel::kZrotation, BvhChannel::kYrotation}};
  for (const auto& order : orders) {
    const BvhSkeleton s = TwoJoints(order);
    const std::string path = dir.path("order.bvh");
    ASSERT_TRUE(WriteBvhFile(path, s, Frames(s, turns)));
    Result<Clip> clip = LoadClipFile(path, ClipLoadOptions{1.0f});
    ASSERT_TRUE(clip) << clip.error();
    ASSERT_EQ(clip.value().frame_count(), 3);
    EXPECT_EQ(clip.value().name(1), "child");
    for (int f = 0; f < 3; ++f) {
      const glm::quat r = clip.value().rotation(f, 1);
      EXPECT_GT(std::fabs(glm::dot(r, turns[static_cast<std::size_t>(f)])), 1.0f - 1e-6f) << f;
    }
  }
}

TEST(BvhWrite, RefusesWhatItCannotWriteWithOneMessage) {
  BvhSkeleton s = TwoJoints({BvhChannel::kXrotation});
  // One rotation channel holds a turn about X, not about Y.
  EXPECT_TRUE(FormatBvh(s, Frames(s, {glm::angleAxis(0.5f, glm::vec3(1, 0, 0))})));
  Result<std::string> r = FormatBvh(s, Frames(s, {glm::angleAxis(0.5f, glm::vec3(0, 1, 0))}));
  ASSERT_FALSE(r);
  EXPECT_NE(r.error().find("frame 0, joint child"), std::string::npos) << r.error();

  s = TwoJoints({BvhChannel::kXrotation, BvhChannel::kYrotation, BvhChannel::kZrotation});
  s.joints[1].name = "two words";
  EXPECT_FALSE(FormatBvh(s, Frames(s, {glm::quat(1, 0, 0, 0)})));
  s.joints[1].name = "child";
  s.joints[2].parent = 5;
  EXPECT_FALSE(FormatBvh(s, Frames(s, {glm::quat(1, 0, 0, 0)})));
  s.joints[2].parent = 1;
  BvhFrames f = Frames(s, {glm::quat(1, 0, 0, 0)});
  f.translations[0].x = NAN;
  EXPECT_FALSE(FormatBvh(s, f));
  f = Frames(s, {glm::quat(1, 0, 0, 0)});
  f.rotations.pop_back();
  EXPECT_FALSE(FormatBvh(s, f));
  f = Frames(s, {glm::quat(1, 0, 0, 0)});
  f.frame_time = 0.0f;
  EXPECT_FALSE(FormatBvh(s, f));
  EXPECT_FALSE(ParseBvhChannels("Xrotation Xrotation"));
  EXPECT_FALSE(ParseBvhChannels("Wrotation"));
}

// Bakes `rig` with a reach and a look target switched on and off, frame by frame, and checks
// the file against the poses the IK produced, in the clip's frame and replayed in the world.
void CheckRoundTrip(const std::shared_ptr<const Rig>& rig, const Heightmap* ground,
                    Placement placement, int frames_checked, float max_lift) {
  TempDir dir;
  BakeOptions options;
  options.terrain = ground;
  options.placement = placement;
  const glm::vec3 root(placement.x, 1.2f, placement.z);
  options.events = {{0.2f, BakeEvent::Kind::kReach, kRight, root + glm::vec3(0.3f, 0.3f, 0.4f)},
                    {0.3f, BakeEvent::Kind::kLook, kRight, root + glm::vec3(-2, 0.5f, 2)},
                    {0.9f, BakeEvent::Kind::kReachOff},
                    {1.2f, BakeEvent::Kind::kLookOff}};
  Result<Baker> made = Baker::Create(rig, options);
  ASSERT_TRUE(made) << made.error();
  Baker& baker = made.value();
  const Clip& clip = rig->clip;
  const int n = std::min(frames_checked, clip.frame_count());
  std::vector<Pose> world(static_cast<std::size_t>(n)), local(static_cast<std::size_t>(n));
  ASSERT_FALSE(baker.Write(dir.path("early.bvh")));  // not finished: refused
  for (int f = 0; f < n; ++f) {
    baker.Step(1);
    world[f] = baker.character().pose();
    local[f] = world[f];
    const glm::quat unturn = glm::inverse(baker.character().placed_turn());
    for (glm::vec3& p : local[f].positions) p = unturn * (p - baker.character().placed_shift());
  }
  EXPECT_TRUE(baker.Step(clip.frame_count()));
  const std::string path = dir.path("baked.bvh");
  ASSERT_TRUE(baker.Write(path));
  EXPECT_EQ(Names(dir), std::vector<std::string>{"baked.bvh"});

  Result<Clip> back = LoadClipFile(path);  // the scale rule, as for the original
  ASSERT_TRUE(back) << back.error();
  const Clip& b = back.value();
  ASSERT_EQ(b.joint_count(), clip.joint_count());
  ASSERT_EQ(b.frame_count(), clip.frame_count());
  EXPECT_FLOAT_EQ(b.frame_time(), clip.frame_time());
  EXPECT_NEAR(b.scale(), clip.scale(), 1e-6f * clip.scale());
  for (int j = 0; j < clip.joint_count(); ++j) {
    EXPECT_EQ(b.name(j), clip.name(j));
    EXPECT_EQ(b.channel_layout(j), clip.channel_layout(j));
  }
  Pose sampled;
  sampled.Resize(b.joint_count());
  float worst = 0.0f;
  for (int f = 0; f < n; ++f) {
    SampleFrame(b, f, sampled);
    for (int j = 0; j < b.joint_count(); ++j) {
      worst = std::max(worst, glm::distance(sampled.positions[j], local[f].positions[j]));
    }
  }
  EXPECT_LT(worst, 1e-4f) << "clip frame";

  // Replayed with IK weight 0 at the same place: the IK's world poses, up to the constant
  // the bake reports.
  Result<Clip> again = LoadClipFile(path);
  ASSERT_TRUE(again);
  auto replay_rig = MakeRig(std::move(again.value()));
  ASSERT_TRUE(replay_rig) << replay_rig.error();
  auto replay = Character::Create(replay_rig.value());
  ASSERT_TRUE(replay);
  Character& c = replay.value();
  c.SetTerrain(ground);
  c.SetPlacement(placement);
  ASSERT_TRUE(c.SetIkWeight(0.0f));
  const glm::vec3 lift(0.0f, -baker.replay_lift(), 0.0f);
  worst = 0.0f;
  for (int f = 0; f < n; ++f) {
    c.Update(f * clip.frame_time(), clip.frame_time());
    for (int j = 0; j < b.joint_count(); ++j) {
      worst = std::max(worst, glm::distance(c.pose().positions[j], world[f].positions[j] + lift));
    }
  }
  EXPECT_LT(worst, 1e-4f) << "replayed";
  // On flat ground the IK keeps the lowest foot point nearly where the clip has it; on hills
  // the feet follow the slopes, so the baked clip's own floor differs.
  EXPECT_LT(std::fabs(baker.replay_lift()), max_lift);
}

TEST(Bake, RoundTripThroughAssimpOnFlatGround) {
  auto rig = testing::LoadRig(testing::kClip0101);
  ASSERT_TRUE(rig);
  // 01_01's floor (its lowest foot point) is set by frames 2029-2030 alone, where the IK's
  // foot, laid between its pins, is higher; the IK's lowest foot point is 3.5 cm above the
  // floor (frame 2036). It was 0.9 cm while a fading pin held a foot on the ground
  // as the clip lifted it (frame 2633; docs/mocap.md: One character, Pelvis).
  CheckRoundTrip(rig, nullptr, Placement{}, 600, 0.04f);
}

TEST(Bake, RoundTripThroughAssimpOnHillsRenamedInCentimetres) {
  // Boxing_Toes in centimetres (its own unit) with every joint renamed.
  std::string text = testing::ReadText(testing::kClipBoxing);
  ASSERT_FALSE(text.empty());
  text = testing::RenameJoints(text);
  Result<Clip> clip = LoadClipFromMemory(text, "renamed", ClipLoadOptions{0.01f});
  ASSERT_TRUE(clip) << clip.error();
  auto rig = MakeRig(std::move(clip.value()));
  ASSERT_TRUE(rig) << rig.error();
  auto hills =
      LoadHeightmapPng(std::string(FABRIK_SOURCE_DIR) + "/assets/terrain/hills.png", 40.0f, 3.0f);
  ASSERT_TRUE(hills) << hills.error();
  CheckRoundTrip(rig.value(), &hills.value(), Placement{12.0f, -12.0f, 0.7f}, 500, 0.3f);
}

TEST(Bake, RefusesBadEventsBeforeAnyWork) {
  auto rig = testing::LoadRig(testing::kClip0101);
  ASSERT_TRUE(rig);
  BakeOptions options;
  options.events = {{0.5f, BakeEvent::Kind::kReach, kLeft, glm::vec3(NAN, 0, 0)}};
  Result<Baker> b = Baker::Create(rig, options);
  ASSERT_FALSE(b);
  EXPECT_NE(b.error().find("0.5"), std::string::npos) << b.error();
  options.events = {{0.5f, BakeEvent::Kind::kWeight, kLeft, glm::vec3(0), 2.0f}};
  EXPECT_FALSE(Baker::Create(rig, options));
  options.events.clear();
  options.ik_weight = -1.0f;
  EXPECT_FALSE(Baker::Create(rig, options));
}

// A short bake for the hostile-path tests.
std::shared_ptr<const Rig> ShortRig() {
  const auto joints = testing::Humanoid();
  const std::string text = testing::MakeBvh(joints, 0.01f, 30, [](int, std::vector<float>&) {});
  Result<Clip> clip = LoadClipFromMemory(text, "short");
  EXPECT_TRUE(clip) << clip.error();
  auto rig = MakeRig(std::move(clip.value()));
  EXPECT_TRUE(rig) << rig.error();
  return rig.value();
}

TEST(Bake, HostileExportPathsGiveOneErrorAndNoFile) {
  TempDir dir;
  const auto rig = ShortRig();
  // A FIFO nobody reads: refused without blocking.
  const std::string fifo = dir.path("pipe.bvh");
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  Status s = BakeClip(rig, {}, fifo);
  ASSERT_FALSE(s);
  EXPECT_NE(s.error().find("FIFO"), std::string::npos) << s.error();
  // A folder.
  fs::create_directory(dir.path("folder.bvh"));
  s = BakeClip(rig, {}, dir.path("folder.bvh"));
  ASSERT_FALSE(s);
  EXPECT_NE(s.error().find("folder"), std::string::npos) << s.error();
  // A character device that fails every write (/dev/full) is never replaced.
  s = BakeClip(rig, {}, "/dev/full");
  ASSERT_FALSE(s);
  EXPECT_NE(s.error().find("/dev/full"), std::string::npos) << s.error();
  EXPECT_TRUE(fs::is_character_file("/dev/full"));
  // A missing folder.
  s = BakeClip(rig, {}, dir.path("no/such/folder.bvh"));
  ASSERT_FALSE(s);
  EXPECT_NE(s.error().find("no/such"), std::string::npos) << s.error();
  // A full disk: a file-size limit makes the writes fail part way, as ENOSPC does.
  const std::string full = dir.path("full.bvh");
  testing::WriteText(full, "the old clip");
  {
    const auto old_signal = std::signal(SIGXFSZ, SIG_IGN);
    rlimit old{};
    ::getrlimit(RLIMIT_FSIZE, &old);
    rlimit lower = old;
    lower.rlim_cur = 1024;
    ::setrlimit(RLIMIT_FSIZE, &lower);
    s = BakeClip(rig, {}, full);
    ::setrlimit(RLIMIT_FSIZE, &old);
    std::signal(SIGXFSZ, old_signal);
  }
  ASSERT_FALSE(s);
  EXPECT_NE(s.error().find("full.bvh"), std::string::npos) << s.error();
  EXPECT_EQ(testing::ReadText(full), "the old clip");
  EXPECT_EQ(Names(dir), (std::vector<std::string>{"folder.bvh", "full.bvh", "pipe.bvh"}));
  // And a good path works.
  EXPECT_TRUE(BakeClip(rig, {}, dir.path("good.bvh")));
  EXPECT_TRUE(LoadClipFile(dir.path("good.bvh")));
}

}  // namespace
}  // namespace fabrik::mocap
