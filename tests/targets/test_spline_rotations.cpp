// Bone rotations (rotations.h) along a whole FABRIK run following the word spline, as the demo
// does it: every frame's rotations land on the segments, and no bone's frame turns between
// frames by more than the summed direction change of the bones from the root to it (plus the
// settle rate): the tentacle never twists in a jump.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include <glm/geometric.hpp>

#include "ik/chain.h"
#include "ik/fabrik.h"
#include "ik/rotations.h"
#include "lang/spline_file.h"
#include "targets/spline_follower.h"

namespace fabrik {
namespace {

float Angle(const glm::vec3& a, const glm::vec3& b) {
  return std::atan2(glm::length(glm::cross(a, b)), glm::dot(a, b));
}

TEST(SplineRotations, WordSplineRunHasNoTwistJumps) {
  Result<Spline> spline =
      LoadSplineFile(std::string(FABRIK_SOURCE_DIR) + "/assets/splines/word.txt");
  ASSERT_TRUE(spline.ok()) << spline.error();
  for (const int joints : {5, 20, 200}) {
    const std::vector<float> lengths(static_cast<std::size_t>(joints - 1),
                                     6.0f / static_cast<float>(joints - 1));
    Result<Chain> made = Chain::Straight(glm::vec3(0.0f), {0, 1, 0}, lengths);
    ASSERT_TRUE(made.ok());
    Chain chain = std::move(made).value();
    SplineFollower follower;
    follower.SetSpline(spline.value());
    follower.Play();
    RotationTracker tracker;
    std::vector<glm::quat> previous;
    std::vector<glm::vec3> previous_dirs, dirs(lengths.size());
    float worst_excess = -1.0f;
    const int frames = static_cast<int>(follower.spline().length() * 60.0f) + 1;
    for (int f = 0; f < frames; ++f) {
      const glm::vec3 target = follower.Advance(1.0 / 60.0);
      (void)SolveFabrik(chain, target, {0.01f, 10});
      const auto p = chain.joints();
      const auto q = tracker.Update(p);
      ASSERT_EQ(q.size(), lengths.size());
      for (std::size_t i = 0; i < q.size(); ++i) {
        dirs[i] = glm::normalize(p[i + 1] - p[i]);
        ASSERT_LT(glm::length(q[i] * glm::vec3(0, 1, 0) - dirs[i]), 1e-5f) << f << " " << i;
      }
      if (!previous.empty()) {
        float sum = 0.0f;
        for (std::size_t i = 0; i < q.size(); ++i) {
          sum += Angle(previous_dirs[i], dirs[i]);
          const float turned = RotationAngle(previous[i], q[i]);
          worst_excess = std::max(worst_excess, turned - (sum + RotationSettings{}.settle + 2e-4f));
        }
      }
      previous.assign(q.begin(), q.end());
      previous_dirs = dirs;
    }
    EXPECT_LE(worst_excess, 0.0f) << joints << " joints";
  }
}

}  // namespace
}  // namespace fabrik
