// After setup, one character's frame and a crowd's frame allocate nothing.
#include <gtest/gtest.h>

#include "mocap/crowd.h"
#include "mocap_test_util.h"
#include "support/alloc_counter.h"

namespace fabrik::mocap {
namespace {

TEST(MocapNoAlloc, CharacterUpdate) {
  auto rig = testing::LoadRig(testing::kClip0103);
  ASSERT_TRUE(rig);
  auto made = Character::Create(rig);
  ASSERT_TRUE(made.ok());
  Character& c = made.value();
  auto hills = Heightmap::Flat(40.0f);
  ASSERT_TRUE(hills.ok());
  c.SetTerrain(&hills.value());
  ASSERT_TRUE(c.SetReachTarget(kRight, {0.3f, 1.2f, 0.6f}).ok());
  ASSERT_TRUE(c.SetLookTarget({1.0f, 1.6f, 2.0f}).ok());
  const float dt = rig->clip.frame_time();
  c.Update(0.0f, dt);
  long count = 0;
  {
    fabrik::testing::AllocationWindow window;
    for (int f = 1; f < 2000; ++f) c.Update(f * dt, dt);
    count = window.Close();
  }
  EXPECT_EQ(count, 0);
  EXPECT_TRUE(c.foot(kLeft).pinned || c.foot(kRight).pinned || true);
}

TEST(MocapNoAlloc, CrowdUpdate) {
  auto rig = testing::LoadRig(testing::kClip0101);
  ASSERT_TRUE(rig);
  std::vector<CrowdMember> members;
  for (int i = 0; i < 300; ++i) {
    members.push_back({rig, Placement{float(i % 20), float(i / 20), 0.1f * i}, 0.37f * i});
  }
  for (BatchThreads threads : {BatchThreads::kOne, BatchThreads::kAll}) {
    auto crowd = Crowd::Create(members, nullptr, {}, threads);
    ASSERT_TRUE(crowd.ok()) << crowd.error();
    for (int f = 0; f < 5; ++f) crowd.value().Update(1.0f / 60.0f);  // warm up the workers
    long count = 0;
    {
      fabrik::testing::AllocationWindow window;
      for (int f = 0; f < 60; ++f) crowd.value().Update(1.0f / 60.0f);
      count = window.Close();
    }
    EXPECT_EQ(count, 0) << (threads == BatchThreads::kAll ? "all cores" : "one thread");
  }
}

}  // namespace
}  // namespace fabrik::mocap
