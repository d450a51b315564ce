// A crowd updated on every core poses every character exactly as one thread does: each
// character's stages and each leg's solve are independent, so sharing them out over oneTBB's
// threads must change no float. Also one of the ThreadSanitizer suite's tests
// (docs/testing.md "The thread check"): the crowd's parallel loops run here on several threads.
#include <gtest/gtest.h>

#include <vector>

#include "mocap/crowd.h"
#include "mocap_test_util.h"

namespace fabrik::mocap {
namespace {

Crowd MustCrowd(const std::vector<CrowdMember>& members, const Heightmap* ground,
                BatchThreads threads) {
  auto made = Crowd::Create(members, ground, {}, threads);
  EXPECT_TRUE(made.ok()) << made.error();
  if (!made.ok()) std::abort();
  return std::move(made).value();
}

TEST(CrowdThreads, AllCoresPoseEveryCharacterBitwiseAsOneThread) {
  auto rig = testing::LoadRig(testing::kClip0101);
  ASSERT_TRUE(rig);
  auto hills = Heightmap::Flat(40.0f);
  ASSERT_TRUE(hills.ok());
  // More characters than one block of the crowd's loops (32), so the loops really split.
  std::vector<CrowdMember> members;
  for (int i = 0; i < 96; ++i) {
    members.push_back({rig, Placement{float(i % 12), float(i / 12), 0.1f * i}, 0.29f * i});
  }
  Crowd one = MustCrowd(members, &hills.value(), BatchThreads::kOne);
  Crowd all = MustCrowd(members, &hills.value(), BatchThreads::kAll);
  int compared = 0;
  for (int frame = 0; frame < 20; ++frame) {
    one.Update(1.0f / 60.0f);
    all.Update(1.0f / 60.0f);
    for (std::size_t c = 0; c < one.size(); ++c) {
      const Pose& a = one.character(c).pose();
      const Pose& b = all.character(c).pose();
      ASSERT_EQ(a.joint_count(), b.joint_count());
      for (int j = 0; j < a.joint_count(); ++j) {
        // Bitwise: the same operations in the same order, whichever thread ran them.
        ASSERT_EQ(a.positions[j], b.positions[j])
            << "frame " << frame << ", character " << c << ", joint " << j;
        ++compared;
      }
      ASSERT_EQ(one.time(c), all.time(c));
    }
  }
  EXPECT_GT(compared, 0);
  // The poses moved: a crowd frozen on both sides would compare equal too.
  const glm::vec3 before = one.character(0).animated().positions[0];
  one.Update(0.5f);
  EXPECT_NE(before, one.character(0).animated().positions[0]);
}

}  // namespace
}  // namespace fabrik::mocap
