// Tests of bone rotations rebuilt from positions (rotations.h): the rest axis lands on every
// segment, twist stays continuous over long smooth paths (through -Y and fold-back), hinges
// keep their axis, trees, and degenerate input.
#include <gtest/gtest.h>

#include <cmath>
#include <numbers>
#include <random>
#include <vector>

#include <glm/geometric.hpp>
#include <glm/gtc/quaternion.hpp>

#include "fabrik_test_util.h"
#include "ik/constrained_fabrik.h"
#include "ik/constraints.h"
#include "ik/rotations.h"
#include "ik/tree.h"

namespace fabrik {
namespace {

const glm::vec3 kRotationsY(0.0f, 1.0f, 0.0f);

using testing::RandomUnit;
using testing::Uniform;

float Angle(const glm::vec3& a, const glm::vec3& b) {
  return std::atan2(glm::length(glm::cross(a, b)), glm::dot(a, b));
}

std::vector<glm::vec3> JointsFromDirections(const std::vector<glm::vec3>& dirs,
                                            const std::vector<float>& lengths) {
  std::vector<glm::vec3> j{glm::vec3(0.0f)};
  for (std::size_t i = 0; i < dirs.size(); ++i) j.push_back(j.back() + dirs[i] * lengths[i]);
  return j;
}

// Every rotation is unit and turns +Y onto its segment within 1e-5.
void ExpectAxesOnSegments(std::span<const glm::vec3> joints, std::span<const glm::quat> q,
                          std::span<const int> parent_of_segment_end = {}) {
  for (std::size_t i = 0; i < q.size(); ++i) {
    const std::size_t from =
        parent_of_segment_end.empty() ? i : static_cast<std::size_t>(parent_of_segment_end[i]);
    const glm::vec3 d = glm::normalize(joints[i + 1] - joints[from]);
    ASSERT_NEAR(glm::length(glm::vec4(q[i].w, q[i].x, q[i].y, q[i].z)), 1.0f, 1e-5f) << i;
    const glm::vec3 y = q[i] * kRotationsY;
    ASSERT_LT(glm::length(y - d), 1e-5f) << "bone " << i;
  }
}

// A smooth random direction path: a few random sinusoids per coordinate, normalised.
struct SmoothDirection {
  glm::vec3 a[3], w, phase;
  explicit SmoothDirection(std::mt19937& rng) {
    for (auto& v : a) v = RandomUnit(rng) * Uniform(rng, 0.3f, 1.0f);
    w = glm::vec3(Uniform(rng, 0.2f, 1.5f), Uniform(rng, 0.2f, 1.5f), Uniform(rng, 0.2f, 1.5f));
    phase = glm::vec3(Uniform(rng, 0, 6.28f), Uniform(rng, 0, 6.28f), Uniform(rng, 0, 6.28f));
  }
  glm::vec3 At(float t) const {
    const glm::vec3 v = a[0] * std::sin(w.x * t + phase.x) + a[1] * std::sin(w.y * t + phase.y) +
                        a[2] * std::sin(w.z * t + phase.z) + glm::vec3(0.0f, 0.05f, 0.0f);
    return glm::length(v) > 1e-4f ? glm::normalize(v) : kRotationsY;
  }
};

// The continuity bound, per step: bone i's rotation turns by at most the summed
// direction change of bones 0..i, plus the settle rate and float slack. Returns the largest
// excess over the bound seen (<= 0 when it always held).
struct ContinuityCheck {
  std::vector<glm::quat> previous;
  std::vector<glm::vec3> previous_dirs;
  float worst_excess = -1.0f;
  float settle = RotationSettings{}.settle;
  void Step(const std::vector<glm::vec3>& dirs, std::span<const glm::quat> q) {
    if (!previous.empty()) {
      float sum = 0.0f;
      for (std::size_t i = 0; i < q.size(); ++i) {
        sum += Angle(previous_dirs[i], dirs[i]);
        const float turned = RotationAngle(previous[i], q[i]);
        worst_excess = std::max(worst_excess, turned - (sum + settle + 2e-4f));
      }
    }
    previous.assign(q.begin(), q.end());
    previous_dirs = dirs;
  }
};

TEST(Rotations, RestAxisLandsOnEveryRandomSegment) {
  std::mt19937 rng(11);
  for (int trial = 0; trial < 200; ++trial) {
    const int n = 2 + trial % 30;
    std::vector<glm::vec3> dirs;
    for (int i = 0; i < n - 1; ++i) {
      // Some exact -Y, +Y and folded-back segments among the random ones.
      const int kind = static_cast<int>(rng() % 8);
      if (kind == 0)
        dirs.push_back(-kRotationsY);
      else if (kind == 1)
        dirs.push_back(kRotationsY);
      else if (kind == 2 && !dirs.empty())
        dirs.push_back(-dirs.back());
      else
        dirs.push_back(RandomUnit(rng));
    }
    const std::vector<float> lengths(dirs.size(), Uniform(rng, 0.1f, 2.0f));
    const auto joints = JointsFromDirections(dirs, lengths);
    std::vector<glm::quat> q(dirs.size()), q2(dirs.size());
    ASSERT_TRUE(ChainRotations(joints, {}, q));
    ExpectAxesOnSegments(joints, q);
    // With the previous rotations of another random pose too.
    std::vector<glm::vec3> other(dirs.size());
    for (auto& d : other) d = RandomUnit(rng);
    std::vector<glm::quat> p(dirs.size());
    ASSERT_TRUE(ChainRotations(JointsFromDirections(other, lengths), {}, p));
    ASSERT_TRUE(ChainRotations(joints, p, q2));
    ExpectAxesOnSegments(joints, q2);
  }
}

TEST(Rotations, StraightChainAlongPlusYIsIdentity) {
  const std::vector<glm::vec3> joints{{0, 0, 0}, {0, 1, 0}, {0, 3, 0}};
  std::vector<glm::quat> q(2);
  ASSERT_TRUE(ChainRotations(joints, {}, q));
  for (const glm::quat& r : q) EXPECT_LT(RotationAngle(r, glm::quat(1, 0, 0, 0)), 1e-6f);
}

TEST(Rotations, NeighboursDoNotTwistAgainstEachOther) {
  // Parallel transport: the relative rotation of consecutive bones is the smallest one, so
  // its angle equals the bend between them.
  std::mt19937 rng(5);
  std::vector<glm::vec3> dirs{RandomUnit(rng)};
  for (int i = 0; i < 40; ++i) dirs.push_back(glm::normalize(dirs.back() + RandomUnit(rng)));
  const auto joints = JointsFromDirections(dirs, std::vector<float>(dirs.size(), 1.0f));
  std::vector<glm::quat> q(dirs.size());
  ASSERT_TRUE(ChainRotations(joints, {}, q));
  for (std::size_t i = 1; i < q.size(); ++i) {
    EXPECT_NEAR(RotationAngle(q[i - 1], q[i]), Angle(dirs[i - 1], dirs[i]), 2e-4f) << i;
  }
}

// Long smooth random paths, every joint moving, with the root bone sweeping through -Y and one
// joint bending through a full fold-back: the per-step bound holds and the axes stay exact.
TEST(Rotations, TwistIsContinuousOverLongSmoothPathsThroughMinusYAndFoldBack) {
  std::mt19937 rng(2024);
  for (int trial = 0; trial < 12; ++trial) {
    const int bones = 3 + trial * 3;
    std::vector<SmoothDirection> paths;
    for (int i = 0; i < bones; ++i) paths.emplace_back(rng);
    const int fold = 1 + static_cast<int>(rng() % static_cast<unsigned>(bones - 1));
    const glm::vec3 fold_axis = RandomUnit(rng);
    const std::vector<float> lengths(static_cast<std::size_t>(bones), 1.0f);
    RotationTracker tracker;
    ContinuityCheck check;
    for (int step = 0; step < 3000; ++step) {
      const float t = static_cast<float>(step) * 0.01f;
      std::vector<glm::vec3> dirs;
      for (int i = 0; i < bones; ++i) dirs.push_back(paths[i].At(t));
      // Root bone: a great circle through -Y and +Y, wobbling out of its plane.
      dirs[0] = glm::normalize(
          glm::vec3(std::sin(0.7f * t), std::cos(0.7f * t), 0.2f * std::sin(1.3f * t)));
      // One joint whose bend passes slowly through a half turn, exactly at some step.
      const float bend = std::numbers::pi_v<float> + 0.3f * std::sin(0.25f * t);
      const glm::vec3 perp = glm::normalize(glm::cross(dirs[fold - 1], fold_axis));
      dirs[fold] = std::cos(bend) * dirs[fold - 1] + std::sin(bend) * perp;
      const auto joints = JointsFromDirections(dirs, lengths);
      const auto q = tracker.Update(joints);
      ASSERT_EQ(q.size(), dirs.size());
      ExpectAxesOnSegments(joints, q);
      check.Step(dirs, q);
    }
    EXPECT_LE(check.worst_excess, 0.0f) << "trial " << trial;
  }
}

// The check above can fail: rotations rebuilt without the previous frame (pure parallel
// transport from the base) flip when the root bone passes -Y.
TEST(Rotations, WithoutThePreviousFrameTheRootFlipsAtMinusY) {
  ContinuityCheck check;
  for (int step = 0; step < 400; ++step) {
    const float t = 2.5f + static_cast<float>(step) * 0.002f;  // passes pi
    const std::vector<glm::vec3> dirs{glm::normalize(glm::vec3(std::sin(t), std::cos(t), 0.0005f))};
    std::vector<glm::quat> q(1);
    ASSERT_TRUE(ChainRotations(JointsFromDirections(dirs, {1.0f}), {}, q));
    check.Step(dirs, q);
  }
  EXPECT_GT(check.worst_excess, 1.0f);
}

TEST(Rotations, HeldStillTheTwistSettlesToParallelTransport) {
  std::mt19937 rng(9);
  std::vector<SmoothDirection> paths;
  for (int i = 0; i < 8; ++i) paths.emplace_back(rng);
  const std::vector<float> lengths(8, 1.0f);
  RotationSettings settings;
  settings.settle = 0.05f;
  RotationTracker tracker;
  std::vector<glm::vec3> dirs(8);
  // Move (accumulating temporal twist), then hold the last pose.
  for (int step = 0; step < 2000; ++step) {
    for (int i = 0; i < 8; ++i) dirs[i] = paths[i].At(static_cast<float>(step) * 0.02f);
    tracker.Update(JointsFromDirections(dirs, lengths), settings);
  }
  const auto joints = JointsFromDirections(dirs, lengths);
  std::span<const glm::quat> q;
  for (int step = 0; step < 200; ++step) q = tracker.Update(joints, settings);
  std::vector<glm::quat> fresh(8);
  ASSERT_TRUE(ChainRotations(joints, {}, fresh));
  for (int i = 0; i < 8; ++i) EXPECT_LT(RotationAngle(q[i], fresh[i]), 1e-3f) << i;
}

TEST(Rotations, ExactFoldBackAndDegenerateInputStayFinite) {
  const std::vector<glm::vec3> folded{{0, 0, 0}, {0, 1, 0}, {0, 0, 0}, {0, -1, 0}};
  std::vector<glm::quat> q(3), q2(3);
  ASSERT_TRUE(ChainRotations(folded, {}, q));
  ExpectAxesOnSegments(folded, q);
  ASSERT_TRUE(ChainRotations(folded, q, q2));
  ExpectAxesOnSegments(folded, q2);
  // Unusable previous rotations are ignored bone by bone.
  std::vector<glm::quat> bad{glm::quat(NAN, 0, 0, 0), glm::quat(2, 0, 0, 0), q[2]};
  ASSERT_TRUE(ChainRotations(folded, bad, q2));
  ExpectAxesOnSegments(folded, q2);
  // A zero-length segment takes its parent's direction.
  const std::vector<glm::vec3> zero{{0, 0, 0}, {1, 0, 0}, {1, 0, 0}};
  std::vector<glm::quat> z(2);
  ASSERT_TRUE(ChainRotations(zero, {}, z));
  EXPECT_LT(glm::length(z[1] * kRotationsY - glm::vec3(1, 0, 0)), 1e-5f);
  // Wrong sizes: false, output untouched.
  std::vector<glm::quat> wrong(2, glm::quat(0.5f, 0.5f, 0.5f, 0.5f));
  EXPECT_FALSE(ChainRotations(folded, {}, wrong));
  EXPECT_EQ(wrong[0], glm::quat(0.5f, 0.5f, 0.5f, 0.5f));
  EXPECT_FALSE(ChainRotations(std::vector<glm::vec3>{{0, 0, 0}}, {}, std::span<glm::quat>{}));
}

TEST(Rotations, TrackerStartsAfreshWhenTheBoneCountChanges) {
  RotationTracker tracker;
  const std::vector<glm::vec3> a{{0, 0, 0}, {0, 1, 0}, {1, 1, 0}};
  const std::vector<glm::vec3> b{{0, 0, 0}, {0, -1, 0}};
  EXPECT_EQ(tracker.Update(a).size(), 2u);
  const auto q = tracker.Update(b);
  ASSERT_EQ(q.size(), 1u);
  std::vector<glm::quat> fresh(1);
  ASSERT_TRUE(ChainRotations(b, {}, fresh));
  EXPECT_LT(RotationAngle(q[0], fresh[0]), 1e-6f);
}

// Hinges keep their axis: the hinge axis in the bone's own frame never changes, whatever pose
// the constrained solver finds.
TEST(Rotations, HingeBonesKeepTheirAxis) {
  ChainConstraints c;
  c.joints = {JointConstraint::Cone(0.8f),
              JointConstraint::Hinge({1, 0, 0}, -2.0f, 2.0f, HingeSpace::kParent),
              JointConstraint::Hinge({0, 0, 1}, -1.5f, 1.5f, HingeSpace::kWorld, {0, 1, 0}),
              JointConstraint::Cone(1.0f)};
  std::mt19937 rng(77);
  Chain chain = testing::StraightChain(5, 1.0f, kRotationsY);
  RotationTracker tracker;
  glm::vec3 local_parent_axis(0.0f), local_world_axis(0.0f);
  for (int trial = 0; trial < 300; ++trial) {
    const glm::vec3 target = RandomUnit(rng) * Uniform(rng, 0.5f, 3.8f);
    (void)SolveFabrikConstrained(chain, c, target, {0.01f, 50});
    const auto joints = chain.joints();
    const auto q = tracker.Update(joints, c);
    ExpectAxesOnSegments(joints, q);
    // Solver frames: the frame of segment 0, to express the parent-space hinge axis in world.
    const Frame f0 = TransportFrame(MakeFrame(c.base), joints[1] - joints[0]);
    const glm::vec3 parent_axis_world = f0.right;  // hinge axis (1, 0, 0) in parent frame
    const glm::vec3 lp = glm::conjugate(q[1]) * parent_axis_world;
    const glm::vec3 lw = glm::conjugate(q[2]) * glm::vec3(0, 0, 1);
    if (trial == 0) {
      local_parent_axis = lp;
      local_world_axis = lw;
      EXPECT_LT(glm::length(lp - glm::vec3(1, 0, 0)), 1e-4f);
      EXPECT_LT(glm::length(lw - glm::vec3(0, 0, 1)), 1e-4f);
    }
    ASSERT_LT(glm::length(lp - local_parent_axis), 1e-3f) << trial;
    ASSERT_LT(glm::length(lw - local_world_axis), 1e-3f) << trial;
  }
}

TEST(Rotations, TreeBonesLandOnTheirSegmentsAndStayContinuous) {
  CreatureSpec spec;
  Result<Tree> built = BuildCreature(spec);
  ASSERT_TRUE(built.ok()) << built.error();
  Tree tree = std::move(built).value();
  std::vector<int> parent_of(tree.node_count() - 1);
  for (std::size_t i = 1; i < tree.node_count(); ++i) parent_of[i - 1] = tree.parent(i);
  std::mt19937 rng(3);
  std::vector<SmoothDirection> paths;
  for (std::size_t i = 1; i < tree.node_count(); ++i) paths.emplace_back(rng);
  RotationTracker tracker;
  ContinuityCheck check;
  const std::vector<glm::vec3> rest(tree.positions().begin(), tree.positions().end());
  for (int step = 0; step < 1500; ++step) {
    // Each bone bends smoothly off its rest direction (not solved: any smooth pose will do).
    std::vector<glm::vec3> pose(tree.node_count());
    std::vector<glm::vec3> dirs(tree.node_count() - 1);
    pose[0] = tree.root();
    for (std::size_t i = 1; i < pose.size(); ++i) {
      const auto p = static_cast<std::size_t>(tree.parent(i));
      const glm::vec3 rest_dir = glm::normalize(rest[i] - rest[p]);
      dirs[i - 1] = glm::normalize(rest_dir + 1.2f * paths[i - 1].At(step * 0.01f));
      pose[i] = pose[p] + dirs[i - 1] * tree.length(i);
    }
    ASSERT_TRUE(tree.SetPose(pose).ok());
    const auto q = tracker.Update(tree);
    ExpectAxesOnSegments(pose, q, parent_of);
    // The bound along each root path: sum over that node's ancestors.
    if (!check.previous.empty()) {
      std::vector<float> sum(tree.node_count(), 0.0f);
      for (std::size_t i = 1; i < pose.size(); ++i) {
        sum[i] = sum[static_cast<std::size_t>(tree.parent(i))] +
                 Angle(check.previous_dirs[i - 1], dirs[i - 1]);
        EXPECT_LE(RotationAngle(check.previous[i - 1], q[i - 1]), sum[i] + check.settle + 2e-4f)
            << "node " << i << " step " << step;
      }
    }
    check.previous.assign(q.begin(), q.end());
    check.previous_dirs = dirs;
  }
}

TEST(Rotations, TreeHingesKeepTheirAxis) {
  // root -> 1 -> 2 (sub-base, hinge about the parent's right axis) -> 3, and 2 -> 4.
  const std::vector<TreeNodeSpec> specs{
      {-1, {0, 0, 0}, {}},
      {0, {0, 1, 0}, JointConstraint::Cone(0.8f)},
      {1, {0, 2, 0}, JointConstraint::Hinge({1, 0, 0}, -1.5f, 1.5f)},
      {2, {-0.5f, 2.8f, 0}, {}},
      {2, {0.5f, 2.8f, 0}, {}}};
  Result<Tree> made = Tree::Create(specs);
  ASSERT_TRUE(made.ok()) << made.error();
  Tree tree = std::move(made).value();
  std::mt19937 rng(12);
  RotationTracker tracker;
  glm::vec3 first(0.0f);
  for (int trial = 0; trial < 200; ++trial) {
    const std::vector<EffectorTarget> targets{
        {3, RandomUnit(rng) * Uniform(rng, 0.5f, 2.6f), 1.0f},
        {4, RandomUnit(rng) * Uniform(rng, 0.5f, 2.6f), 1.0f}};
    (void)SolveTree(tree, targets, {0.01f, 30});
    const auto p = tree.positions();
    const auto q = tracker.Update(tree);
    ASSERT_EQ(q.size(), 4u);
    const Frame f1 = TransportFrame(MakeFrame(tree.base()), p[1] - p[0]);
    const glm::vec3 local = glm::conjugate(q[1]) * f1.right;  // node 2's bone is q[1]
    if (trial == 0) first = local;
    ASSERT_LT(glm::length(local - first), 1e-3f) << trial;
    ASSERT_LT(glm::length(q[1] * kRotationsY - glm::normalize(p[2] - p[1])), 1e-5f);
  }
  EXPECT_LT(glm::length(first - glm::vec3(1, 0, 0)), 1e-3f);
}

TEST(Rotations, EffectorTwistKeepsTheTargetsRoll) {
  std::mt19937 rng(4);
  for (int i = 0; i < 200; ++i) {
    const glm::quat t = glm::angleAxis(Uniform(rng, -3.0f, 3.0f), RandomUnit(rng));
    // Same direction: exactly the target.
    EXPECT_LT(RotationAngle(EffectorTwist(t, t * kRotationsY), t), 1e-3f);
    // Another direction: +Y lands on it, and the result is no farther from the target than
    // the swing between the directions.
    const glm::vec3 d = RandomUnit(rng);
    const glm::quat e = EffectorTwist(t, d);
    EXPECT_LT(glm::length(e * kRotationsY - d), 1e-5f);
    EXPECT_NEAR(RotationAngle(e, t), Angle(t * kRotationsY, d), 1e-3f);
  }
}

TEST(Rotations, EffectorTargetSetsTheLastBonesRoll) {
  const std::vector<glm::vec3> joints{{0, 0, 0}, {0, 1, 0}, {0, 2, 0}};
  const glm::quat target = glm::angleAxis(1.0f, kRotationsY);
  RotationSettings s;
  s.effector_target = &target;
  std::vector<glm::quat> q(2);
  ASSERT_TRUE(ChainRotations(joints, {}, q, s));
  EXPECT_LT(RotationAngle(q[1], target), 1e-5f);
  EXPECT_LT(RotationAngle(q[0], glm::quat(1, 0, 0, 0)), 1e-6f);
}

}  // namespace
}  // namespace fabrik
