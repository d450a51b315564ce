// SolveFabrik promises no heap allocation, textbook and accelerated. The executable counts
// operator new calls (tests/support/alloc_counter.h); these tests solve many chains inside an
// AllocationWindow. Direct malloc calls are not counted; the solver makes none.
#include <gtest/gtest.h>

#include <random>
#include <vector>

#include "fabrik_test_util.h"
#include "ik/fabrik.h"
#include "ik/free_root.h"
#include "ik/orientation_target.h"
#include "ik/recording_observer.h"
#include "ik/rotations.h"
#include "ik/solver.h"
#include "ik/tree.h"
#include "support/alloc_counter.h"

namespace fabrik {
namespace {

using testing::AllocationWindow;
using testing::RandomChain;
using testing::RandomUnit;
using testing::StraightChain;

TEST(FabrikNoAlloc, SolveNeverAllocates) {
  // Everything that allocates is made before the window opens.
  std::mt19937 rng(5);
  std::uniform_real_distribution<float> u(0.0f, 1.0f);
  std::vector<Chain> chains;
  std::vector<glm::vec3> targets;
  for (int i = 0; i < 200; ++i) {
    std::vector<float> lengths(2 + i % 40);
    for (float& l : lengths) l = 0.5f + u(rng);
    chains.push_back(RandomChain(rng, glm::vec3(0.0f), lengths));
    // Inside, near the rim, and out of reach.
    targets.push_back(RandomUnit(rng) * chains.back().total_length() * (1.5f * u(rng)));
  }
  // Degenerate ones: the straight-chain trap, target on the root and on a joint, a reach
  // from a coincident point, far and huge targets, a long chain.
  chains.push_back(StraightChain(10, 1.0f));
  targets.emplace_back(4, 0, 0);
  chains.push_back(StraightChain(10, 1.0f));
  targets.emplace_back(0, 0, 0);
  chains.push_back(StraightChain(10, 1.0f));
  targets.emplace_back(-3, 0, 0);
  chains.push_back(std::move(Chain::FromJoints({{0, 0, 0}, {0, -1, 0}, {1, -1, 0}})).value());
  targets.emplace_back(0, 1, 0);
  chains.push_back(std::move(Chain::FromJoints({{0, 0, 0}, {1, 0, 0}, {1, 1, 0}})).value());
  targets.emplace_back(1, 0, 0);
  chains.push_back(StraightChain(5, 1.0f));
  targets.emplace_back(3e38f, -3e38f, 1e30f);
  chains.push_back(StraightChain(10000, 0.5f));
  targets.emplace_back(100, 200, 300);
  RecordingObserver recorder(10000, 100);

  SolveSettings settings;
  settings.tolerance = 1e-3f;
  settings.max_iterations = 100;
  SolveSettings invalid = settings;
  invalid.tolerance = -1.0f;
  SolveSettings accelerated = settings;
  accelerated.accelerate = true;
  SolveSettings accelerated_invalid = invalid;
  accelerated_invalid.accelerate = true;

  int solves = 0, rejected = 0;
  long allocations = 0;
  {
    AllocationWindow window;
    for (std::size_t i = 0; i < chains.size(); ++i) {
      solves += SolveFabrik(chains[i], targets[i], settings).ok;
      solves += SolveFabrik(chains[i], targets[i] * 0.5f, settings, &recorder).ok;
      solves += Solve(SolverKind::kFabrik, chains[i], -targets[i], settings).ok;
      rejected += !SolveFabrik(chains[i], targets[i], invalid).ok;
      // The accelerated FABRIK (fabrik_accelerated.h), with and without an observer.
      solves += SolveFabrik(chains[i], targets[i] * 0.9f, accelerated).ok;
      solves += SolveFabrik(chains[i], targets[i] * 0.3f, accelerated, &recorder).ok;
      solves += Solve(SolverKind::kFabrik, chains[i], -targets[i], accelerated).ok;
      rejected += !SolveFabrik(chains[i], targets[i], accelerated_invalid).ok;
    }
    allocations = window.Close();
  }
  EXPECT_EQ(allocations, 0);
  EXPECT_EQ(solves, static_cast<int>(6 * chains.size()));
  EXPECT_EQ(rejected, static_cast<int>(2 * chains.size()));
  EXPECT_GT(recorder.half_pass_count(), 0u);
}

// Rotations every frame and oriented solves: no allocation once warmed up (the tracker's two
// buffers after two calls, the oriented solver's sub-chain and scratch after one solve).
TEST(FabrikNoAlloc, RotationsAndOrientedSolvesDoNotAllocateWhenWarm) {
  std::mt19937 rng(6);
  Chain chain = testing::StraightChain(12, 0.5f, glm::vec3(0, 1, 0));
  ChainConstraints cones;
  for (int i = 0; i < 6; ++i) cones.joints.push_back(JointConstraint::Cone(1.0f));
  RotationTracker tracker;
  OrientedSolver solver;
  std::vector<OrientedTarget> targets;
  for (int i = 0; i < 64; ++i) {
    targets.push_back({testing::RandomUnit(rng) * testing::Uniform(rng, 1.0f, 5.0f),
                       glm::angleAxis(testing::Uniform(rng, -3, 3), testing::RandomUnit(rng))});
  }
  const glm::quat roll = glm::angleAxis(0.5f, glm::vec3(0, 1, 0));
  RotationSettings with_target;
  with_target.effector_target = &roll;
  // Warm up with a request whose sub-target is reachable (the effector where it is, the last
  // bone as it is), so the solver builds its sub-chain copy.
  const OrientedTarget here{chain.effector(), glm::quat(1, 0, 0, 0)};
  (void)solver.Solve(chain, here, {1e-3f, 50});
  (void)solver.Solve(chain, targets[0], {1e-3f, 50}, &cones);
  tracker.Update(chain.joints());
  tracker.Update(chain.joints());
  Tree creature = BuildCreature({}).value();
  RotationTracker tree_tracker;
  tree_tracker.Update(creature);
  tree_tracker.Update(creature);
  long solves = 0;
  AllocationWindow window;
  for (const OrientedTarget& t : targets) {
    solves += solver.Solve(chain, t, {1e-3f, 50}).base.ok;
    solves += solver.Solve(chain, t, {1e-3f, 50}, &cones).base.ok;
    tracker.Update(chain.joints(), with_target);
    tracker.Update(chain.joints(), cones);
    tree_tracker.Update(creature);
  }
  const long count = window.Close();
  EXPECT_EQ(solves, 128);
  EXPECT_EQ(count, 0);
}

}  // namespace
}  // namespace fabrik

#include "ik/batch_fabrik.h"

namespace fabrik {
namespace {

// SolveFabrikBatch promises no allocation either: one thread and all threads (oneTBB's task
// objects come from its own pools, not operator new), regrouping included, and rejected
// input, textbook and accelerated. The batch, its targets and the thread pool are made (and
// warmed up) before.
void ExpectBatchSolvesNeverAllocate(bool accelerate) {
  std::mt19937 rng(9);
  std::uniform_real_distribution<float> u(0.0f, 1.0f);
  std::vector<Chain> chains;
  std::vector<glm::vec3> targets;
  for (int i = 0; i < 1000; ++i) {
    const std::vector<float> lengths = {0.5f + u(rng), 0.5f + u(rng), 0.5f + u(rng), 0.5f + u(rng),
                                        0.5f + u(rng)};
    chains.push_back(RandomChain(rng, glm::vec3(float(i), 0.0f, 0.0f), lengths));
    targets.push_back(chains.back().root() +
                      RandomUnit(rng) * chains.back().total_length() * (1.3f * u(rng)));
  }
  chains.push_back(StraightChain(6, 1.0f));  // the trap
  targets.emplace_back(3, 0, 0);
  chains.push_back(StraightChain(6, 1.0f));  // target on the root
  targets.emplace_back(0, 0, 0);
  ChainBatch batch = std::move(ChainBatch::FromChains(chains)).value();
  std::vector<glm::vec3> moved = targets;
  for (glm::vec3& t : moved) t += glm::vec3(0.05f, -0.02f, 0.01f);
  std::vector<glm::vec3> bad = targets;
  bad[17].y = std::numeric_limits<float>::quiet_NaN();
  SolveSettings settings;
  settings.tolerance = 1e-3f;
  settings.max_iterations = 60;
  settings.accelerate = accelerate;
  ASSERT_TRUE(SolveFabrikBatch(batch, targets, settings, BatchThreads::kAll).ok);  // warm-up

  int solves = 0, rejected = 0, regrouped = 0;
  long allocations = 0;
  {
    AllocationWindow window;
    for (int frame = 0; frame < 6; ++frame) {
      const std::vector<glm::vec3>& t = frame % 2 ? moved : targets;
      const BatchSolveResult one = SolveFabrikBatch(batch, t, settings, BatchThreads::kOne);
      const BatchSolveResult all = SolveFabrikBatch(batch, t, settings, BatchThreads::kAll);
      solves += one.ok + all.ok;
      regrouped += one.regrouped + all.regrouped;
      rejected += !SolveFabrikBatch(batch, bad, settings).ok;
    }
    allocations = window.Close();
  }
  EXPECT_EQ(allocations, 0);
  EXPECT_EQ(solves, 12);
  EXPECT_EQ(rejected, 6);
  EXPECT_GT(regrouped, 0);  // the regrouping path ran inside the window too
}

TEST(BatchNoAlloc, SolveNeverAllocates) { ExpectBatchSolvesNeverAllocate(false); }
TEST(BatchNoAlloc, AcceleratedSolveNeverAllocates) { ExpectBatchSolvesNeverAllocate(true); }

TEST(FabrikNoAlloc, FreeRootPullAndLayFlatDoNotAllocate) {
  std::mt19937 rng(9);
  std::vector<float> lengths(50, 0.7f);
  Chain chain = testing::RandomChain(rng, glm::vec3(0.0f), lengths);
  int reached = 0;
  long allocations = 0;
  {
    AllocationWindow window;
    for (int frame = 0; frame < 100; ++frame) {
      reached += PullChain(chain, glm::vec3(frame * 0.3f, 1.0f, -0.5f * frame)).reached;
    }
    LayChainFlat(chain);
    allocations = window.Close();
  }
  EXPECT_EQ(allocations, 0);
  EXPECT_EQ(reached, 100);
  EXPECT_EQ(chain.root().z, 0.0f);
}

}  // namespace
}  // namespace fabrik
