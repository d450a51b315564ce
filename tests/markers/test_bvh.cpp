// The solved skeleton as BVH (src/markers/skeleton_bvh.h): read back through Assimp by the
// project's BVH loader (src/mocap/clip.h), every joint within 0.1 mm of the solve.
#include <gtest/gtest.h>

#include "markers/csm.h"
#include "markers/skeleton_bvh.h"
#include "markers/take_solve.h"
#include "markers_test_util.h"
#include "mocap/clip.h"
#include "mocap/clip_sample.h"

namespace fabrik::markers {
namespace {

void ExpectRoundTrip(const TakeSolution& solution) {
  const BvhMotion motion = SkeletonBvh(solution);
  mocap::ClipLoadOptions options;
  options.metres_per_unit = 0.01f;
  Result<mocap::Clip> clip = mocap::LoadClipFromMemory(BvhText(motion), "solved.bvh", options);
  ASSERT_TRUE(clip.ok()) << clip.error();
  ASSERT_EQ(clip.value().frame_count(), static_cast<int>(solution.joints.size()));
  std::array<int, kNodeCount> index{};
  for (int n = 0; n < kNodeCount; ++n) {
    index[n] = -1;
    for (int j = 0; j < clip.value().joint_count(); ++j) {
      const std::string& name = clip.value().name(j);
      if (name == kNodeNames[n]) index[n] = j;
    }
  }
  for (int n = 0; n < kNodeCount; ++n) {
    if (n == kRoot || index[n] >= 0) continue;  // an end point: the End Site of its bone's joint
    const std::string end_site = "EndSite_" + std::string(kNodeNames[kNodeParents[n]]);
    for (int j = 0; j < clip.value().joint_count(); ++j) {
      const std::string& name = clip.value().name(j);
      if (name == end_site || name == end_site + "_to_" + kNodeNames[n]) {
        index[n] = j;
      }
    }
  }
  mocap::Pose pose;
  pose.Resize(clip.value().joint_count());
  double worst = 0.0;
  int worst_node = 0, worst_frame = 0;
  for (int f = 0; f < clip.value().frame_count(); ++f) {
    mocap::SampleFrame(clip.value(), f, pose);
    for (int n = 0; n < kNodeCount; ++n) {
      if (index[n] < 0) continue;
      const double e = glm::distance(pose.positions[index[n]], solution.joints[f][n]);
      if (e > worst) worst = e, worst_node = n, worst_frame = f;
    }
  }
  for (int n = 0; n < kNodeCount; ++n) {
    ASSERT_GE(index[n], 0) << kNodeNames[n];  // a joint, or an end point's End Site
  }
  mocap::SampleFrame(clip.value(), worst_frame, pose);
  const glm::vec3 got = pose.positions[index[worst_node]],
                  want = solution.joints[worst_frame][worst_node];
  EXPECT_LT(worst, 1e-4) << "at " << kNodeNames[worst_node] << ", frame " << worst_frame << ": "
                         << got.x << " " << got.y << " " << got.z << " vs " << want.x << " "
                         << want.y << " " << want.z;
}

TEST(SkeletonBvh, TheSyntheticSolveReadsBackWithinATenthOfAMillimetre) {
  const testing::Subject subject = testing::MakeSubject(400, 0.001f);
  Result<TakeSolution> solution = SolveTake(subject.take, subject.set);
  ASSERT_TRUE(solution.ok()) << solution.error();
  ExpectRoundTrip(solution.value());
}

TEST(SkeletonBvh, TheFencerReadsBackWithinATenthOfAMillimetre) {
  Result<Take> take = ReadCsmFile(testing::kThomas);
  ASSERT_TRUE(take.ok()) << take.error();
  Result<MarkerSet> set = LoadDefaultMarkerSet();
  ASSERT_TRUE(set.ok()) << set.error();
  Result<TakeSolution> solution = SolveTake(take.value(), set.value());
  ASSERT_TRUE(solution.ok()) << solution.error();
  ExpectRoundTrip(solution.value());
}

TEST(SkeletonBvh, AHandWrittenMotionHasItsChannelsAndFrames) {
  BvhMotion motion;
  motion.joints = {
      {"a", -1, {0, 0, 0}, false}, {"b", 0, {0, 1, 0}, false}, {"c", 1, {0, 0.5f, 0}, true}};
  motion.frame_time = 0.01f;
  motion.root_positions = {{0, 1, 0}, {0.1f, 1, 0}};
  motion.rotations.assign(6, glm::quat(1, 0, 0, 0));
  motion.rotations[4] = glm::angleAxis(0.5f, glm::vec3(0, 0, 1));
  const std::string text = BvhText(motion);
  EXPECT_NE(text.find("ROOT a"), std::string::npos);
  EXPECT_NE(text.find("JOINT b"), std::string::npos);
  EXPECT_NE(text.find("End Site"), std::string::npos);
  EXPECT_NE(text.find("Frames: 2"), std::string::npos);
  EXPECT_NE(text.find("28.647890 0.000000 0.000000"), std::string::npos)
      << text;  // 0.5 rad about Z
}

}  // namespace
}  // namespace fabrik::markers
