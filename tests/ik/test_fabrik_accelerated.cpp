// What fabrik_accelerated.h promises beyond SolveFabrik's contract (which the parameterised
// invariant, degenerate, allocation and fuzz tests check on both FABRIKs): the safeguard (a
// bend-scale step never raises the error, and a rejected one leaves the pose bitwise alone),
// what the observer sees, iteration counting, and fast, jump-free convergence near full reach.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <glm/geometric.hpp>
#include <random>
#include <utility>
#include <vector>

#include "fabrik_test_util.h"
#include "ik/constrained_fabrik.h"
#include "ik/fabrik.h"
#include "ik/fabrik_accelerated.h"
#include "ik/recording_observer.h"

namespace fabrik {
namespace {

using testing::BitwiseEqual;
using testing::DistanceD;
using testing::RandomChain;
using testing::RandomUnit;
using testing::StraightChain;

SolveSettings Accelerated(float tolerance, int max_iterations) {
  SolveSettings s;
  s.tolerance = tolerance;
  s.max_iterations = max_iterations;
  s.accelerate = true;
  return s;
}

// The safeguard, step by step: on random chains and targets (inside the reach, near its rim,
// near the root), every BendScaleStep either lowers the effector's distance strictly or
// returns false with the pose bitwise unchanged; lengths and root are kept either way.
TEST(FabrikAccelerated, BendScaleStepNeverRaisesTheError) {
  std::mt19937 rng(31);
  std::uniform_real_distribution<float> u(0.0f, 1.0f);
  std::uniform_int_distribution<std::size_t> joints(2, 80);
  int applied = 0, rejected = 0;
  for (int c = 0; c < 3000; ++c) {
    std::vector<float> lengths(joints(rng) - 1);
    for (float& l : lengths) l = 0.2f + 2.0f * u(rng);
    Chain chain = RandomChain(rng, glm::vec3(u(rng), u(rng), u(rng)), lengths);
    const float fraction = c % 3 == 0 ? 0.95f + 0.05f * u(rng) : c % 3 == 1 ? u(rng) : 0.1f;
    const glm::vec3 target = chain.root() + RandomUnit(rng) * chain.total_length() * fraction;
    const std::vector<glm::vec3> before(chain.joints().begin(), chain.joints().end());
    const double distance_before = DistanceD(chain.effector(), target);
    const bool done = BendScaleStep(chain, target, 1e-4f);
    if (done) {
      ++applied;
      ASSERT_LT(DistanceD(chain.effector(), target), distance_before) << "chain " << c;
    } else {
      ++rejected;
      ASSERT_TRUE(BitwiseEqual(chain.joints(), before)) << "chain " << c;
    }
    ASSERT_TRUE(BitwiseEqual(chain.root(), before[0]));
    ASSERT_TRUE(testing::LengthsKeptToRounding(chain, 1e-5)) << "chain " << c;
  }
  // Both branches must be exercised, or the checks above prove little.
  EXPECT_GT(applied, 1000);
  EXPECT_GT(rejected, 10);
}

// The safeguard inside whole solves, as the observer sees it: every kBendScale half-pass ends
// no farther from the target than the pose before it. Also checks the observer's protocol:
// iteration numbers run 1, 2, ... without gaps, a textbook iteration is kBackward + kForward,
// a bend-scale step one kBendScale, the last number is result.iterations, and replaying every
// reach ends exactly at the returned pose.
TEST(FabrikAccelerated, ObserverSeesEveryStepAndTheErrorNeverRisesAtOne) {
  std::mt19937 rng(32);
  std::uniform_real_distribution<float> u(0.0f, 1.0f);
  RecordingObserver recorder(64, 60);
  std::vector<glm::vec3> replay;
  int bend_steps = 0;
  for (int c = 0; c < 800; ++c) {
    std::vector<float> lengths(2 + c % 60);
    for (float& l : lengths) l = 0.5f + u(rng);
    Chain chain = RandomChain(rng, glm::vec3(0.0f), lengths);
    const glm::vec3 target = RandomUnit(rng) * chain.total_length() * std::cbrt(u(rng));
    const SolveResult r = SolveFabrik(chain, target, Accelerated(1e-4f, 60), &recorder);
    ASSERT_TRUE(r.ok);
    ASSERT_TRUE(recorder.recorded() && !recorder.truncated());
    int expected_iteration = 0;
    float previous_distance = recorder.start_distance();
    for (std::size_t h = 0; h < recorder.half_pass_count(); ++h) {
      const RecordingObserver::HalfPass pass = recorder.half_pass(h);
      if (pass.kind == PassKind::kForward) {
        ASSERT_EQ(pass.iteration, expected_iteration) << "forward pass without its backward";
      } else {
        ASSERT_EQ(pass.iteration, ++expected_iteration) << "chain " << c << " half-pass " << h;
      }
      if (pass.kind == PassKind::kBendScale) {
        ++bend_steps;
        ASSERT_LE(pass.distance, previous_distance) << "chain " << c << " half-pass " << h;
      }
      previous_distance = pass.distance;
    }
    ASSERT_EQ(expected_iteration, r.iterations) << "chain " << c;
    if (recorder.reach_count() > 0) {
      replay = recorder.PoseAfterReach(recorder.reach_count() - 1);
      ASSERT_TRUE(BitwiseEqual(replay, chain.joints())) << "chain " << c;
    }
  }
  EXPECT_GT(bend_steps, 300);
}

// Found by the fuzzer: a root 9e15 away from the rest of the chain (a huge first segment).
// Joints written as root + offset lost the small segments to the rounding of that sum (one
// came out 10.50 instead of 11.36); they are now stepped from joint to joint.
TEST(FabrikAccelerated, HugeFirstSegmentKeepsTheSmallOnes) {
  Result<Chain> made = Chain::FromJoints({{-0x1.4484cp-100f, 0x1.05feb4p+53f, 0x1.040404p-53f},
                                          {1.0f, 1.0f, 10.0f},
                                          {-1.0f, -1.0f, -1.0f}});
  ASSERT_TRUE(made.ok());
  Chain chain = std::move(made).value();
  const glm::vec3 root = chain.root();
  const SolveResult r = SolveFabrik(chain, glm::vec3(-1.0f, 10.0f, -1.0f), Accelerated(1.0f, 56));
  ASSERT_TRUE(r.ok);
  EXPECT_TRUE(BitwiseEqual(chain.root(), root));
  EXPECT_NEAR(DistanceD(chain.joints()[2], chain.joints()[1]), chain.lengths()[1], 1e-4);
}

// Out of reach, already there, invalid: exactly what the textbook solve does.
TEST(FabrikAccelerated, TrivialCasesMatchTheTextbook) {
  const glm::vec3 targets[] = {{0, 0, 20}, {0, 4, 0}, {0.0f, 4.0005f, 0.0f}};
  for (const glm::vec3& target : targets) {
    Chain textbook = StraightChain(5, 1.0f, glm::vec3(0, 1, 0));
    Chain accelerated = textbook;
    SolveSettings settings = Accelerated(1e-3f, 10);
    const SolveResult a = SolveFabrik(accelerated, target, settings);
    settings.accelerate = false;
    const SolveResult t = SolveFabrik(textbook, target, settings);
    EXPECT_EQ(a.iterations, t.iterations);
    EXPECT_EQ(a.reached, t.reached);
    EXPECT_EQ(a.reachable, t.reachable);
    EXPECT_TRUE(BitwiseEqual(accelerated.joints(), textbook.joints()));
  }
}

// Cold solves near full reach, where the textbook passes crawl: every target is reached, in
// few iterations, and the solve is exact to the tolerance at 1,000 joints too (computed in
// double, so float noise does not pile up along the chain).
TEST(FabrikAccelerated, ReachesNearFullReachInFewIterations) {
  std::mt19937 rng(33);
  std::uniform_real_distribution<float> u(0.0f, 1.0f);
  for (std::size_t joints : {10u, 100u, 1000u}) {
    const Chain start = StraightChain(joints, 1.0f, glm::vec3(0, 1, 0));
    int worst = 0, missed = 0;
    for (int i = 0; i < 40; ++i) {
      const glm::vec3 target = RandomUnit(rng) * start.total_length() * (0.9f + 0.0999f * u(rng));
      Chain chain = start;
      const SolveResult r = SolveFabrik(chain, target, Accelerated(1e-3f, 100));
      worst = std::max(worst, r.iterations);
      missed += !r.reached;
    }
    EXPECT_EQ(missed, 0) << joints << " joints";
    EXPECT_LE(worst, 6) << joints << " joints";
  }
}

// The jump guard at its edge: a step whose largest joint move is D is applied with max_move a
// hair above D and left out (pose bitwise unchanged) a hair below; with max_move = 0 every
// step that would move a joint is left out.
TEST(FabrikAccelerated, JumpGuardBitesExactlyAtItsBound) {
  std::mt19937 rng(77);
  int checked = 0;
  for (int c = 0; c < 200; ++c) {
    const std::vector<float> lengths(9, 1.0f);
    const Chain start = RandomChain(rng, glm::vec3(0.5f, -1.0f, 2.0f), lengths);
    const glm::vec3 target = start.root() + RandomUnit(rng) * (9.0f * 0.8f);
    Chain free = start;
    if (!BendScaleStep(free, target, 1e-4f)) continue;
    double most = 0.0;
    for (std::size_t j = 0; j < lengths.size() + 1; ++j) {
      most = std::max(most, DistanceD(free.joints()[j], start.joints()[j]));
    }
    ASSERT_GT(most, 0.0);
    Chain above = start, below = start, none = start;
    EXPECT_TRUE(BendScaleStep(above, target, 1e-4f, 0, float(most * (1.0 + 1e-5))));
    EXPECT_TRUE(BitwiseEqual(above.joints(), free.joints()));
    EXPECT_FALSE(BendScaleStep(below, target, 1e-4f, 0, float(most * (1.0 - 1e-5))));
    EXPECT_TRUE(BitwiseEqual(below.joints(), start.joints()));
    EXPECT_FALSE(BendScaleStep(none, target, 1e-4f, 0, 0.0f));
    EXPECT_TRUE(BitwiseEqual(none.joints(), start.joints()));
    ++checked;
  }
  EXPECT_GT(checked, 150);
}

// The safeguard's edges, each left out (false, the pose bitwise unchanged): a target on the
// root (|effector(s) - root| = 0 has no bracket: no curl folds a chain onto its root), a chain
// already on its target (nothing to gain), a target beyond the reach (no bracket), and chains
// whose length is outside the step's range. A target inside the reach, for comparison, is
// mostly approached, strictly.
TEST(FabrikAccelerated, SafeguardEdgeCases) {
  std::mt19937 rng(78);
  const std::vector<float> lengths(6, 1.0f);
  int applied = 0;
  for (int c = 0; c < 100; ++c) {
    const Chain start = RandomChain(rng, glm::vec3(1.0f, 2.0f, 3.0f), lengths);
    const std::vector<std::pair<glm::vec3, bool>> cases = {
        {start.root(), true},                            // on the root
        {start.effector(), true},                        // already there
        {start.root() + RandomUnit(rng) * 7.0f, true},   // out of reach
        {start.root() + RandomUnit(rng) * 3.0f, false},  // inside: may be applied
    };
    for (const auto& [target, never] : cases) {
      Chain chain = start;
      const double before = DistanceD(chain.effector(), target);
      if (BendScaleStep(chain, target, 1e-4f)) {
        EXPECT_FALSE(never) << "chain " << c;
        EXPECT_LT(DistanceD(chain.effector(), target), before);
        ++applied;
      } else {
        EXPECT_TRUE(BitwiseEqual(chain.joints(), start.joints()));
      }
    }
  }
  EXPECT_GT(applied, 50);
  for (float scale : {1e-17f, 1e17f}) {
    const std::vector<float> tiny_or_huge(4, scale);
    const Chain start = RandomChain(rng, glm::vec3(0.0f), tiny_or_huge);
    Chain chain = start;
    EXPECT_FALSE(
        BendScaleStep(chain, start.root() + glm::vec3(0.0f, 2.0f * scale, 0.0f), 1e-4f * scale));
    EXPECT_TRUE(BitwiseEqual(chain.joints(), start.joints()));
  }
}

// Warm tracking near full reach (TrackNearReach: 20 joints, the target swinging between 60%
// and 97% of the reach, 0.5% of the reach per solve). Every frame is reached in at most 10
// iterations and no joint moves more than 3 times as far as the target moved (no jumps).
TEST(FabrikAccelerated, WarmTrackingNearFullReachHasNoJumps) {
  const testing::NearReachTracking run = testing::TrackNearReach(true);
  EXPECT_GT(run.frames, 500);
  EXPECT_EQ(run.missed, 0);
  EXPECT_LE(run.worst_iterations, 10);
  EXPECT_LE(run.worst_move_ratio, 3.0);
}

}  // namespace
}  // namespace fabrik

namespace fabrik {
namespace {

// Constrained FABRIK with settings.accelerate (constrained_fabrik.h): the bend-scale step is
// kept only inside the limits, so every guarantee of the constrained solve holds, and on a
// cone-limited chain near full reach it needs far fewer iterations than without.
TEST(FabrikAcceleratedConstrained, KeepsLimitsAndNeedsFewerIterations) {
  std::mt19937 rng(34);
  std::uniform_real_distribution<float> u(0.0f, 1.0f);
  ChainConstraints cones;
  cones.joints.resize(9);
  for (std::size_t i = 1; i < 9; ++i) cones.joints[i] = JointConstraint::Cone(0.6f);
  const Chain start = StraightChain(10, 1.0f, glm::vec3(0, 1, 0));
  long iterations[2] = {0, 0};
  int reached[2] = {0, 0};
  constexpr int kTargets = 300;
  for (int i = 0; i < kTargets; ++i) {
    const glm::vec3 target = RandomUnit(rng) * start.total_length() * (0.6f + 0.39f * u(rng));
    for (int accelerate = 0; accelerate < 2; ++accelerate) {
      Chain chain = start;
      SolveSettings settings = Accelerated(1e-3f, 100);
      settings.accelerate = accelerate == 1;
      const ConstrainedSolveResult r = SolveFabrikConstrained(chain, cones, target, settings);
      ASSERT_TRUE(r.base.ok);
      ASSERT_LE(r.max_violation, 1e-4f) << "target " << i;
      ASSERT_TRUE(testing::LengthsKeptToRounding(chain, 1e-5)) << "target " << i;
      ASSERT_TRUE(BitwiseEqual(chain.root(), start.root()));
      ASSERT_NEAR(DistanceD(chain.effector(), target), r.base.distance, 1e-5);
      iterations[accelerate] += r.base.iterations;
      reached[accelerate] += r.base.reached;
    }
  }
  EXPECT_GE(reached[1], reached[0]);
  EXPECT_LT(iterations[1] * 3, iterations[0]);
}

}  // namespace
}  // namespace fabrik
