// RecordingObserver: the recorded half-passes, and the replay of a solve one reach at a time.
#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "fabrik_test_util.h"
#include "ik/fabrik.h"
#include "ik/recording_observer.h"

namespace fabrik {
namespace {

using testing::BitwiseEqual;
using testing::DistanceD;
using testing::RandomChain;
using testing::RandomUnit;
using testing::StraightChain;

// Replays every reach of `rec` and checks, step by step, that:
//   * each reach changes no joint other than the one it names (bitwise);
//   * the joint a reach moved is one segment length from the joint moved just before it in
//     the same half-pass (reach 0 of a pass has no such neighbour: it pins the effector on
//     the target or the root on its place);
//   * the last step is bitwise the pose the solve returned, and half-pass snapshots agree.
void CheckReplay(const RecordingObserver& rec, const Chain& solved) {
  const std::size_t n = rec.joint_count();
  ASSERT_EQ(n, solved.joint_count());
  std::vector<glm::vec3> previous(rec.start_pose().begin(), rec.start_pose().end());
  std::vector<glm::vec3> pose(n);
  for (std::size_t k = 0; k < rec.reach_count(); ++k) {
    ASSERT_TRUE(rec.PoseAfterReach(k, pose));
    const RecordingObserver::Reach r = rec.reach(k);
    ASSERT_LT(r.joint, n);
    ASSERT_EQ(r.joint, r.kind == PassKind::kBackward ? n - 1 - r.index : r.index);
    for (std::size_t i = 0; i < n; ++i) {
      if (i != r.joint) {
        ASSERT_TRUE(BitwiseEqual(pose[i], previous[i]))
            << "reach " << k << " (joint " << r.joint << ") also moved joint " << i;
      }
    }
    if (r.index > 0) {
      const std::size_t neighbour = r.kind == PassKind::kBackward ? r.joint + 1 : r.joint - 1;
      const std::size_t segment = std::min(r.joint, neighbour);
      const double expected = solved.lengths()[segment];
      EXPECT_NEAR(DistanceD(pose[r.joint], pose[neighbour]), expected, 1e-5 * expected)
          << "reach " << k << " did not keep segment " << segment;
    } else if (r.kind == PassKind::kBackward) {
      EXPECT_TRUE(BitwiseEqual(pose[r.joint], rec.target())) << "reach " << k;
    } else {
      EXPECT_TRUE(BitwiseEqual(pose[0], rec.start_pose()[0])) << "reach " << k;
    }
    if (r.index == n - 1) {  // end of a half-pass: must match its snapshot
      ASSERT_TRUE(BitwiseEqual(pose, rec.half_pass(r.half_pass).joints)) << "reach " << k;
    }
    previous = pose;
  }
  EXPECT_TRUE(BitwiseEqual(previous, solved.joints())) << "replay does not end at the solution";
}

TEST(RecordingObserver, RecordsStartAndEveryHalfPass) {
  Chain chain = StraightChain(5, 1.0f, glm::vec3(0, 1, 0));
  const std::vector<glm::vec3> start(chain.joints().begin(), chain.joints().end());
  RecordingObserver rec(5, 20);
  const glm::vec3 target(2.0f, 1.5f, 0.5f);
  const SolveResult r = SolveFabrik(chain, target, testing::SettingsOf(1e-4f, 20), &rec);
  ASSERT_TRUE(r.ok);
  ASSERT_TRUE(rec.recorded());
  EXPECT_FALSE(rec.truncated());
  EXPECT_EQ(rec.joint_count(), 5u);
  EXPECT_TRUE(BitwiseEqual(rec.target(), target));
  EXPECT_TRUE(BitwiseEqual(rec.start_pose(), start));
  EXPECT_NEAR(rec.start_distance(), DistanceD(start.back(), target), 1e-6);
  ASSERT_EQ(rec.half_pass_count(), 2u * r.iterations);
  for (std::size_t h = 0; h < rec.half_pass_count(); ++h) {
    const RecordingObserver::HalfPass hp = rec.half_pass(h);
    EXPECT_EQ(hp.kind, h % 2 == 0 ? PassKind::kBackward : PassKind::kForward);
    EXPECT_EQ(hp.iteration, static_cast<int>(h / 2) + 1);
    EXPECT_EQ(hp.joints.size(), 5u);
    EXPECT_NEAR(hp.distance, DistanceD(hp.joints.back(), target), 1e-6);
    if (hp.kind == PassKind::kBackward) {
      EXPECT_EQ(hp.distance, 0.0f);
    }
  }
  EXPECT_EQ(rec.half_pass(rec.half_pass_count() - 1).distance, r.distance);
  EXPECT_EQ(rec.reach_count(), rec.half_pass_count() * 5);
  CheckReplay(rec, chain);
}

TEST(RecordingObserver, ReplayEndsAtTheSolvedPoseOnRandomSolves) {
  std::mt19937 rng(99);
  std::uniform_int_distribution<std::size_t> joints(2, 30);
  std::uniform_real_distribution<float> u(0.0f, 1.0f);
  RecordingObserver rec(30, 40);
  int straightened = 0, iterated = 0;
  for (int trial = 0; trial < 400; ++trial) {
    const std::size_t n = joints(rng);
    std::vector<float> lengths(n - 1);
    for (float& l : lengths) l = 0.5f + u(rng);
    Chain chain = RandomChain(rng, glm::vec3(u(rng), u(rng), u(rng)), lengths);
    const float reach = chain.total_length() * 1.3f * u(rng);
    const glm::vec3 target = chain.root() + RandomUnit(rng) * reach;
    const SolveResult r =
        SolveFabrik(chain, target, testing::SettingsOf(1e-3f, 1 + trial % 40), &rec);
    SCOPED_TRACE("trial " + std::to_string(trial));
    ASSERT_TRUE(rec.recorded());
    ASSERT_FALSE(rec.truncated());
    if (!r.reachable) {
      ASSERT_EQ(rec.half_pass_count(), 1u);
      EXPECT_EQ(rec.half_pass(0).kind, PassKind::kStraighten);
      ++straightened;
    } else {
      ASSERT_EQ(rec.half_pass_count(), 2u * r.iterations);
      iterated += r.iterations > 0;
    }
    CheckReplay(rec, chain);
  }
  EXPECT_GT(straightened, 20);
  EXPECT_GT(iterated, 200);
}

// The sideways escape from the straight-chain trap is a reach like any other.
TEST(RecordingObserver, ReplayOfTheTrapEscape) {
  Chain chain = StraightChain(8, 1.0f);
  RecordingObserver rec(8, 50);
  const SolveResult r =
      SolveFabrik(chain, glm::vec3(3, 0, 0), testing::SettingsOf(1e-3f, 50), &rec);
  ASSERT_TRUE(r.reached);
  CheckReplay(rec, chain);
}

TEST(RecordingObserver, AlreadyReachedRecordsOnlyTheStart) {
  Chain chain = StraightChain(3, 1.0f);
  RecordingObserver rec(3, 10);
  const SolveResult r =
      SolveFabrik(chain, glm::vec3(2, 0, 0), testing::SettingsOf(1e-3f, 10), &rec);
  ASSERT_EQ(r.iterations, 0);
  EXPECT_TRUE(rec.recorded());
  EXPECT_EQ(rec.half_pass_count(), 0u);
  EXPECT_EQ(rec.reach_count(), 0u);
  std::vector<glm::vec3> out(3);
  EXPECT_FALSE(rec.PoseAfterReach(0, out));
  EXPECT_TRUE(rec.PoseAfterReach(0).empty());
}

// A solve relative to a root at the origin, recorded through an OffsetObserver, is the same
// recording moved by the offset: the start, every half-pass and the target.
TEST(OffsetObserver, RecordsTheSolveMovedByTheOffset) {
  Chain chain = StraightChain(4, 1.0f);
  RecordingObserver direct(4, 10), shifted(4, 10);
  OffsetObserver offset;
  offset.Resize(4);
  offset.inner = &shifted;
  offset.offset = glm::vec3(5.0f, -2.0f, 1.5f);
  Chain copy = chain;
  const glm::vec3 target(1.0f, 2.0f, 0.5f);
  (void)SolveFabrik(chain, target, testing::SettingsOf(1e-4f, 10), &direct);
  (void)SolveFabrik(copy, target, testing::SettingsOf(1e-4f, 10), &offset);
  ASSERT_TRUE(shifted.recorded());
  ASSERT_EQ(shifted.half_pass_count(), direct.half_pass_count());
  ASSERT_GT(direct.half_pass_count(), 0u);
  EXPECT_EQ(shifted.target(), direct.target() + offset.offset);
  for (std::size_t k = 0; k < 4; ++k) {
    EXPECT_EQ(shifted.start_pose()[k], direct.start_pose()[k] + offset.offset) << k;
  }
  for (std::size_t h = 0; h < direct.half_pass_count(); ++h) {
    for (std::size_t k = 0; k < 4; ++k) {
      EXPECT_EQ(shifted.half_pass(h).joints[k], direct.half_pass(h).joints[k] + offset.offset);
    }
  }
  // Continuing a solve (skip_begin) adds half-passes without starting a new recording.
  const std::size_t before = shifted.half_pass_count();
  offset.skip_begin = true;
  (void)SolveFabrik(copy, glm::vec3(-1.0f, 2.0f, 0.5f), testing::SettingsOf(1e-4f, 3), &offset);
  EXPECT_GT(shifted.half_pass_count(), before);
  EXPECT_EQ(shifted.start_pose()[3], direct.start_pose()[3] + offset.offset);
}

TEST(RecordingObserver, RejectsBadQueries) {
  Chain chain = StraightChain(4, 1.0f);
  RecordingObserver rec(4, 10);
  (void)SolveFabrik(chain, glm::vec3(1, 1, 0), testing::SettingsOf(1e-3f, 10), &rec);
  ASSERT_GT(rec.reach_count(), 0u);
  std::vector<glm::vec3> wrong_size(3);
  EXPECT_FALSE(rec.PoseAfterReach(0, wrong_size));
  std::vector<glm::vec3> out(4);
  EXPECT_FALSE(rec.PoseAfterReach(rec.reach_count(), out));
  EXPECT_TRUE(rec.PoseAfterReach(rec.reach_count() - 1, out));
  EXPECT_EQ(rec.PoseAfterReach(rec.reach_count() - 1).size(), 4u);
  EXPECT_EQ(rec.half_pass(rec.half_pass_count()).joints.size(), 0u);
}

TEST(RecordingObserver, TooManyJointsRecordsNothing) {
  Chain chain = StraightChain(6, 1.0f);
  RecordingObserver rec(5, 10);
  (void)SolveFabrik(chain, glm::vec3(1, 2, 0), testing::SettingsOf(1e-3f, 10), &rec);
  EXPECT_FALSE(rec.recorded());
  EXPECT_TRUE(rec.truncated());
  EXPECT_EQ(rec.joint_count(), 0u);
  EXPECT_EQ(rec.reach_count(), 0u);
  EXPECT_TRUE(rec.start_pose().empty());

  RecordingObserver empty;  // nothing reserved
  (void)SolveFabrik(chain, glm::vec3(1, 1, 0), testing::SettingsOf(1e-3f, 10), &empty);
  EXPECT_FALSE(empty.recorded());
  EXPECT_TRUE(empty.truncated());
}

TEST(RecordingObserver, TooManyHalfPassesKeepsTheFirst) {
  // Unattainable target (inside the hole): the solve runs all 10 iterations.
  Chain chain = std::move(Chain::FromJoints({{0, 0, 0}, {1, 0, 0}, {1, 3, 0}})).value();
  RecordingObserver rec(3, 2);  // room for 4 half-passes
  const SolveResult r =
      SolveFabrik(chain, glm::vec3(0, 0.5f, 0), testing::SettingsOf(1e-3f, 10), &rec);
  ASSERT_EQ(r.iterations, 10);
  EXPECT_TRUE(rec.recorded());
  EXPECT_TRUE(rec.truncated());
  EXPECT_EQ(rec.half_pass_count(), 4u);
  EXPECT_EQ(rec.half_pass(3).iteration, 2);

  // Reserving more makes the same solve fit; the next solve starts a fresh recording.
  rec.Reserve(3, 10);
  ASSERT_TRUE(chain.SetPose(std::vector<glm::vec3>{{0, 0, 0}, {1, 0, 0}, {1, 3, 0}}).ok());
  (void)SolveFabrik(chain, glm::vec3(0, 0.5f, 0), testing::SettingsOf(1e-3f, 10), &rec);
  EXPECT_FALSE(rec.truncated());
  EXPECT_EQ(rec.half_pass_count(), 20u);
  CheckReplay(rec, chain);
}

TEST(RecordingObserver, ClearForgetsTheRecording) {
  Chain chain = StraightChain(4, 1.0f);
  RecordingObserver rec(4, 10);
  (void)SolveFabrik(chain, glm::vec3(1, 1, 0), testing::SettingsOf(1e-3f, 10), &rec);
  ASSERT_TRUE(rec.recorded());
  rec.Clear();
  EXPECT_FALSE(rec.recorded());
  EXPECT_EQ(rec.half_pass_count(), 0u);
  EXPECT_EQ(rec.reach_count(), 0u);
}

}  // namespace
}  // namespace fabrik
