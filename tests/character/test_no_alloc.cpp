// After setup, a character's frame allocates nothing (pose.h, cpu_skin.h, retarget.h): the
// animation sampled and put into model space, the skinning transforms, both CPU skinnings of
// every vertex, a retargeted frame of a CMU clip with its limb fits and a leg fitted again
// (Retargeter::FitLeg), and a frame of the quadruped walking (quadruped.h).
#include <gtest/gtest.h>

#include <vector>

#include "character/cpu_skin.h"
#include "character/pose.h"
#include "character/quadruped.h"
#include "character/retarget.h"
#include "character_test_util.h"
#include "mocap/clip_sample.h"
#include "support/alloc_counter.h"

namespace fabrik::character {
namespace {

TEST(CharacterNoAllocation, FramesAllocateNothing) {
  const Model m = testing::LoadOrFail(testing::kHuman);
  ASSERT_FALSE(m.animations.empty());
  Result<mocap::Clip> clip = mocap::LoadClipFile("/usr/share/assimp/models/BVH/01_01.bvh");
  ASSERT_TRUE(clip.ok()) << clip.error();
  Result<Retargeter> r = Retargeter::Create(m.skeleton, clip.value());
  ASSERT_TRUE(r.ok()) << r.error();
  const std::size_t n = m.skeleton.names.size();
  std::vector<BoneTransform> pose(n), retargeted(n);
  std::vector<DualQuat> bones(n);
  std::vector<glm::vec3> positions(m.vertices.size()), normals(m.vertices.size());
  mocap::Pose clip_pose;
  clip_pose.Resize(clip.value().joint_count());
  bool ok = true;
  long allocations = 0;
  for (int pass = 0; pass < 2; ++pass) {  // the first pass warms up, the second is counted
    fabrik::testing::AllocationWindow window;
    for (int f = 0; f < 60; ++f) {
      const float t = 0.05f * static_cast<float>(f);
      ok = ok && SampleAnimation(m.skeleton, m.animations[0], t, pose);
      ok = ok && LocalToModel(m.skeleton, pose, pose);
      ok = ok && SkinningTransforms(m.skeleton, pose, bones);
      ok = ok && SkinVertices(m.vertices, bones, SkinMethod::kLinear, positions, normals);
      ok = ok && SkinVertices(m.vertices, bones, SkinMethod::kDualQuat, positions, normals);
      mocap::SampleClip(clip.value(), t, clip_pose);
      ok = ok && r.value().Apply(clip_pose, retargeted);
      const int ankle = r.value().character_limbs().legs[mocap::kLeft].end();
      ok = ok && r.value().FitLeg(mocap::kLeft, retargeted[ankle].translation +
                                                    glm::vec3(0.02f, 0.03f, 0.0f),
                                  retargeted) >= 0.0f;
    }
    allocations = window.Close();
  }
  EXPECT_TRUE(ok);
  EXPECT_EQ(allocations, 0);
}

TEST(CharacterNoAllocation, TheQuadrupedsFramesAllocateNothing) {
  auto m = std::make_shared<const Model>(testing::LoadOrFail(testing::kQuadruped));
  Result<Heightmap> flat = Heightmap::Flat(40.0f);
  ASSERT_TRUE(flat.ok());
  Result<QuadrupedWalker> q =
      QuadrupedWalker::Create(m, std::make_shared<const Heightmap>(std::move(flat).value()));
  ASSERT_TRUE(q.ok()) << q.error();
  std::vector<DualQuat> bones(q.value().pose().size());
  long allocations = 0;
  bool ok = true;
  for (int pass = 0; pass < 2; ++pass) {  // the first pass warms up, the second is counted
    fabrik::testing::AllocationWindow window;
    for (int f = 0; f < 120; ++f) {  // walking, so feet step and the cycle plays
      ok = ok && q.value().Update(1.0f / 60.0f, glm::vec3(6.0f, 0.0f, 5.0f)).ok();
      ok = ok && SkinningTransforms(m->skeleton, q.value().pose(), bones);
    }
    allocations = window.Close();
  }
  EXPECT_TRUE(ok);
  EXPECT_GT(q.value().walker().foot_steps(), 0);
  EXPECT_EQ(allocations, 0);
}

}  // namespace
}  // namespace fabrik::character
