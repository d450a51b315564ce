// Every solver behind Solve(kind, ...) keeps the common contract (fabrik.h, solver.h): it
// converges on easy targets, keeps lengths and the root, never produces NaN, rejects bad input
// without touching the chain, and lays the chain straight towards out-of-reach targets.
#include <algorithm>
#include <cmath>
#include <limits>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include <glm/geometric.hpp>
#include <gtest/gtest.h>

#include "ik/ccd.h"
#include "ik/chain.h"
#include "ik/jacobian.h"
#include "ik/solver.h"

namespace fabrik {
namespace {

constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();
constexpr float kInf = std::numeric_limits<float>::infinity();

// Iteration caps generous enough for each solver to converge on the easy targets below.
int GenerousCap(SolverKind kind) {
  switch (kind) {
    case SolverKind::kFabrik:
      return 100;
    case SolverKind::kCcd:
      return 500;
    case SolverKind::kJacobianTranspose:
      return 20000;
    case SolverKind::kDls:
      return 2000;
  }
  return 100;
}

Chain MakeChain(glm::vec3 root, glm::vec3 direction, std::vector<float> lengths) {
  Result<Chain> chain = Chain::Straight(root, direction, lengths);
  EXPECT_TRUE(chain.ok()) << chain.error();
  return std::move(chain).value();
}

Chain MakeChain(std::vector<glm::vec3> joints) {
  Result<Chain> chain = Chain::FromJoints(std::move(joints));
  EXPECT_TRUE(chain.ok()) << chain.error();
  return std::move(chain).value();
}

// A bent five-segment chain with unequal lengths, root away from the origin.
Chain BentChain() {
  return MakeChain({{1.5f, -2.25f, 0.75f},
                    {1.5f, -1.25f, 0.75f},
                    {2.0f, -0.5f, 0.75f},
                    {2.0f, 0.5f, 1.25f},
                    {1.25f, 1.5f, 1.25f},
                    {0.75f, 2.0f, 1.5f}});
}

bool AllFinite(const Chain& chain) {
  for (const glm::vec3& p : chain.joints()) {
    if (!std::isfinite(p.x) || !std::isfinite(p.y) || !std::isfinite(p.z)) return false;
  }
  return true;
}

// Checks every guarantee of a chain after a solve against the lengths and root it had before.
void ExpectChainIntact(const Chain& chain, const std::vector<float>& lengths, glm::vec3 root,
                       const std::string& where) {
  ASSERT_TRUE(AllFinite(chain)) << where;
  std::span<const glm::vec3> p = chain.joints();
  EXPECT_EQ(0, std::memcmp(&p[0], &root, sizeof(glm::vec3))) << where << ": the root moved";
  ASSERT_EQ(p.size(), lengths.size() + 1);
  for (std::size_t i = 0; i < lengths.size(); ++i) {
    const float l = glm::length(p[i + 1] - p[i]);
    // Relative 1e-5, unless the coordinates are so large (or the segment so short) that
    // storing the positions as floats alone costs more: a few ulps of the coordinates.
    const float magnitude =
        std::max({std::fabs(p[i + 1].x), std::fabs(p[i + 1].y), std::fabs(p[i + 1].z),
                  std::fabs(p[i].x), std::fabs(p[i].y), std::fabs(p[i].z)});
    const float allowed =
        std::max(1e-5f * lengths[i], 8.0f * std::numeric_limits<float>::epsilon() * magnitude);
    EXPECT_NEAR(l, lengths[i], allowed) << where << ": segment " << i;
  }
}

std::vector<float> LengthsOf(const Chain& chain) {
  return {chain.lengths().begin(), chain.lengths().end()};
}

class OtherSolversTest : public ::testing::TestWithParam<SolverKind> {
 protected:
  SolverKind kind() const { return GetParam(); }
  SolveResult Run(Chain& chain, glm::vec3 target, float tolerance, int max_iterations,
                  SolveObserver* observer = nullptr) {
    SolveSettings settings;
    settings.tolerance = tolerance;
    settings.max_iterations = max_iterations;
    return Solve(kind(), chain, target, settings, observer);
  }
};

TEST_P(OtherSolversTest, ConvergesOnEasyReachableTargets) {
  const std::vector<glm::vec3> targets = {{2.0f, 2.0f, 1.0f},
                                          {-1.0f, 3.0f, 0.5f},
                                          {0.5f, -1.0f, 2.0f},
                                          {3.0f, 0.0f, 0.0f},
                                          {0.0f, 1.0f, -3.5f}};
  for (const glm::vec3& target : targets) {
    Chain chain = MakeChain({0, 0, 0}, {0, 1, 0}, {1, 1, 1, 1, 1});
    const SolveResult r = Run(chain, target, 1e-3f, GenerousCap(kind()));
    ASSERT_TRUE(r.ok);
    EXPECT_TRUE(r.reachable);
    EXPECT_TRUE(r.reached) << "target " << target.x << "," << target.y << "," << target.z
                           << ": distance " << r.distance << " after " << r.iterations;
    EXPECT_LE(glm::length(chain.effector() - target), 1e-3f);
    EXPECT_NEAR(r.distance, glm::length(chain.effector() - target), 1e-6f);
    EXPECT_GE(r.iterations, 1);
    EXPECT_LE(r.iterations, GenerousCap(kind()));
  }
}

TEST_P(OtherSolversTest, ConvergesWarmStartedAlongAPath) {
  // Small target moves from a solved pose, as in spline following: few iterations each.
  Chain chain = BentChain();
  const glm::vec3 root = chain.root();
  for (int step = 0; step < 60; ++step) {
    const float a = 0.1f * static_cast<float>(step);
    const glm::vec3 target = root + glm::vec3(2.5f * std::cos(a), 2.0f, 2.5f * std::sin(a));
    const SolveResult r = Run(chain, target, 1e-3f, GenerousCap(kind()));
    ASSERT_TRUE(r.reached) << "step " << step << ": distance " << r.distance;
  }
}

TEST_P(OtherSolversTest, KeepsLengthsAndRootOverManyRandomTargets) {
  Chain chain = BentChain();
  const std::vector<float> lengths = LengthsOf(chain);
  const glm::vec3 root = chain.root();
  std::mt19937 rng(1234);
  std::uniform_real_distribution<float> coord(-6.0f, 6.0f);
  for (int i = 0; i < 200; ++i) {
    const glm::vec3 target = root + glm::vec3(coord(rng), coord(rng), coord(rng));
    const SolveResult r = Run(chain, target, 1e-3f, 50);
    ASSERT_TRUE(r.ok);
    ExpectChainIntact(chain, lengths, root, "target " + std::to_string(i));
  }
}

TEST_P(OtherSolversTest, AlreadyWithinToleranceDoesNothing) {
  Chain chain = BentChain();
  const std::vector<glm::vec3> before(chain.joints().begin(), chain.joints().end());
  const glm::vec3 target = chain.effector() + glm::vec3(0.0f, 0.0005f, 0.0f);
  const SolveResult r = Run(chain, target, 1e-3f, 100);
  EXPECT_TRUE(r.ok);
  EXPECT_TRUE(r.reached);
  EXPECT_EQ(r.iterations, 0);
  EXPECT_EQ(std::vector<glm::vec3>(chain.joints().begin(), chain.joints().end()), before);
}

TEST_P(OtherSolversTest, StraightChainAimedAlongItsAxisStillFolds) {
  // Every joint on the line root -> target: the zero-gradient singularity of CCD and the
  // Jacobians (and FABRIK's straight-chain trap). The solver must still get there.
  const std::vector<glm::vec3> axes = {{0, 1, 0}, {1, 0, 0}, {1, 1, 1}, {-0.3f, 0.2f, -0.9f}};
  for (const glm::vec3& axis : axes) {
    for (float reach : {2.5f, 0.5f, 4.0f}) {
      Chain chain = MakeChain({0.25f, -0.5f, 1.0f}, axis, {1, 1, 1, 1, 1});
      const std::vector<float> lengths = LengthsOf(chain);
      const glm::vec3 root = chain.root();
      const glm::vec3 target = root + glm::normalize(axis) * reach;
      const SolveResult r = Run(chain, target, 1e-3f, GenerousCap(kind()));
      const std::string where = "axis " + std::to_string(axis.x) + "," + std::to_string(axis.y) +
                                "," + std::to_string(axis.z) + " reach " + std::to_string(reach);
      ExpectChainIntact(chain, lengths, root, where);
      EXPECT_TRUE(r.reached) << where << ": distance " << r.distance;
    }
  }
}

TEST_P(OtherSolversTest, StraightChainPointingAwayFromTheTargetTurnsAround) {
  Chain chain = MakeChain({0, 0, 0}, {0, 0, 1}, {1, 1, 1, 1});
  const std::vector<float> lengths = LengthsOf(chain);
  const glm::vec3 target(0.0f, 0.0f, -2.0f);
  const SolveResult r = Run(chain, target, 1e-3f, GenerousCap(kind()));
  ExpectChainIntact(chain, lengths, glm::vec3(0.0f), "behind the root");
  EXPECT_TRUE(r.reached) << "distance " << r.distance;
}

TEST_P(OtherSolversTest, NeverNaNOnDegenerateGeometry) {
  struct Case {
    const char* name;
    std::vector<glm::vec3> joints;
    glm::vec3 target;
  };
  const std::vector<Case> cases = {
      {"target at the root", {{0, 0, 0}, {0, 1, 0}, {1, 1, 0}, {1, 2, 0}}, {0, 0, 0}},
      {"target on a middle joint", {{0, 0, 0}, {0, 1, 0}, {1, 1, 0}, {1, 2, 0}}, {1, 1, 0}},
      {"effector on the root (folded back)",
       {{0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {0, 0, 0}},
       {0.5f, 0.5f, 0.5f}},
      {"effector on a middle joint, target on the root",
       {{0, 0, 0}, {0, 1, 0}, {0, 2, 0}, {0, 1, 0}},
       {0, 0, 0}},
      {"joints doubling back on one line",
       {{0, 0, 0}, {1, 0, 0}, {2, 0, 0}, {1, 0, 0}},
       {1.5f, 0, 0}},
      {"one segment, target inside its sphere", {{0, 0, 0}, {0, 2, 0}}, {0, 0.5f, 0}},
      {"one segment, target at the root", {{0, 0, 0}, {0, 2, 0}}, {0, 0, 0}},
      {"long segment, target in the unreachable hole",
       {{0, 0, 0}, {0, 5, 0}, {0, 6, 0}},
       {0.5f, 0.5f, 0}},
      {"target exactly at full reach", {{0, 0, 0}, {0, 1, 0}, {1, 1, 0}}, {0, 0, 2}},
      {"huge coordinates",
       {{1e6f, 1e6f, 1e6f}, {1e6f + 1, 1e6f, 1e6f}, {1e6f + 2, 1e6f, 1e6f}},
       {1e6f + 0.5f, 1e6f + 0.5f, 1e6f}},
      {"tiny segments",
       {{0, 0, 0}, {1e-4f, 0, 0}, {2e-4f, 0, 0}, {3e-4f, 0, 0}},
       {1e-4f, 1e-4f, 0}},
  };
  for (const Case& c : cases) {
    Chain chain = MakeChain(c.joints);
    const std::vector<float> lengths = LengthsOf(chain);
    const glm::vec3 root = chain.root();
    for (float tolerance : {1e-3f, 1e-6f}) {
      const SolveResult r = Run(chain, c.target, tolerance, GenerousCap(kind()));
      ASSERT_TRUE(r.ok) << c.name;
      EXPECT_TRUE(std::isfinite(r.distance)) << c.name;
      ExpectChainIntact(chain, lengths, root, c.name);
    }
  }
}

TEST_P(OtherSolversTest, RejectsInvalidInputWithoutTouchingTheChain) {
  struct Case {
    glm::vec3 target;
    float tolerance;
    int max_iterations;
  };
  const std::vector<Case> cases = {
      {{kNaN, 0, 0}, 0.01f, 10}, {{0, kInf, 0}, 0.01f, 10}, {{0, 0, -kInf}, 0.01f, 10},
      {{1, 1, 1}, 0.0f, 10},     {{1, 1, 1}, -1.0f, 10},    {{1, 1, 1}, kNaN, 10},
      {{1, 1, 1}, kInf, 10},     {{1, 1, 1}, 0.01f, 0},     {{1, 1, 1}, 0.01f, -5},
  };
  for (std::size_t i = 0; i < cases.size(); ++i) {
    Chain chain = BentChain();
    const std::vector<glm::vec3> before(chain.joints().begin(), chain.joints().end());
    const SolveResult r = Run(chain, cases[i].target, cases[i].tolerance, cases[i].max_iterations);
    EXPECT_FALSE(r.ok) << "case " << i;
    ASSERT_NE(r.error, nullptr) << "case " << i;
    EXPECT_GT(std::strlen(r.error), 0u) << "case " << i;
    EXPECT_EQ(r.iterations, 0) << "case " << i;
    EXPECT_EQ(std::vector<glm::vec3>(chain.joints().begin(), chain.joints().end()), before)
        << "case " << i;
  }
}

TEST_P(OtherSolversTest, UnreachableTargetsStraightenTheChain) {
  const std::vector<glm::vec3> targets = {{0, 0, 9}, {-7, 7, 0.5f}, {1e30f, 0, -1e30f}};
  for (const glm::vec3& offset : targets) {
    Chain chain = BentChain();
    const glm::vec3 root = chain.root();
    const std::vector<float> lengths = LengthsOf(chain);
    const glm::vec3 target = root + offset;
    const SolveResult r = Run(chain, target, 1e-3f, 50);
    ASSERT_TRUE(r.ok);
    EXPECT_FALSE(r.reachable);
    EXPECT_FALSE(r.reached);
    EXPECT_EQ(r.iterations, 1);
    EXPECT_TRUE(std::isfinite(r.distance));
    ExpectChainIntact(chain, lengths, root, "unreachable");
    // Every joint on the ray root -> target, at its cumulative length from the root.
    const glm::vec3 dir(glm::normalize(glm::dvec3(offset)));
    float along = 0.0f;
    for (std::size_t i = 1; i < chain.joint_count(); ++i) {
      along += lengths[i - 1];
      const glm::vec3 expected = root + dir * along;
      EXPECT_LE(glm::length(chain.joints()[i] - expected), 1e-4f) << "joint " << i;
    }
    if (glm::length(offset) < 100.0f) {
      EXPECT_NEAR(r.distance, glm::length(offset) - chain.total_length(), 1e-4f);
    }
  }
}

// Counts observer calls by kind.
class CountingObserver : public SolveObserver {
 public:
  void OnBegin(std::span<const glm::vec3>, const glm::vec3&) override { ++begins; }
  void OnHalfPass(PassKind kind, int iteration, std::span<const glm::vec3> joints) override {
    if (kind == PassKind::kForward) ++forward;
    if (kind == PassKind::kBackward) ++backward;
    if (kind == PassKind::kStraighten) ++straighten;
    last_iteration = iteration;
    for (const glm::vec3& p : joints) finite = finite && std::isfinite(p.x + p.y + p.z);
  }
  int begins = 0, forward = 0, backward = 0, straighten = 0, last_iteration = 0;
  bool finite = true;
};

TEST_P(OtherSolversTest, ObserverSeesOneForwardPassPerIteration) {
  Chain chain = MakeChain({0, 0, 0}, {0, 1, 0}, {1, 1, 1, 1, 1});
  CountingObserver seen;
  const SolveResult r = Run(chain, {2.0f, 1.0f, 1.5f}, 1e-3f, GenerousCap(kind()), &seen);
  ASSERT_TRUE(r.reached);
  EXPECT_EQ(seen.begins, 1);
  EXPECT_EQ(seen.forward, r.iterations);
  EXPECT_EQ(seen.last_iteration, r.iterations);
  EXPECT_EQ(seen.backward, kind() == SolverKind::kFabrik ? r.iterations : 0);
  EXPECT_EQ(seen.straighten, 0);
  EXPECT_TRUE(seen.finite);

  CountingObserver far;
  const SolveResult u = Run(chain, {0.0f, 50.0f, 0.0f}, 1e-3f, 10, &far);
  EXPECT_FALSE(u.reachable);
  EXPECT_EQ(far.straighten, 1);
  EXPECT_EQ(far.forward + far.backward, 0);
}

TEST_P(OtherSolversTest, IterationCapIsRespected) {
  Chain chain = MakeChain({0, 0, 0}, {0, 1, 0}, {1, 1, 1, 1, 1, 1, 1, 1});
  CountingObserver seen;
  const SolveResult r = Run(chain, {3.0f, -2.0f, 2.0f}, 1e-7f, 3, &seen);
  EXPECT_LE(r.iterations, 3);
  EXPECT_EQ(seen.forward, r.iterations);
  if (!r.reached) {
    EXPECT_EQ(r.iterations, 3);
  }
}

TEST_P(OtherSolversTest, LongChainStaysIntact) {
  std::vector<float> lengths(2000, 0.01f);
  Chain chain = MakeChain({0, 0, 0}, {1, 0, 0}, lengths);
  const SolveResult r = Run(chain, {5.0f, 7.0f, -3.0f}, 1e-3f, 20);
  ASSERT_TRUE(r.ok);
  ExpectChainIntact(chain, lengths, glm::vec3(0.0f), "2000 joints");
  EXPECT_LT(r.distance, glm::length(glm::vec3(5.0f - 20.0f, 7.0f, -3.0f)));  // made progress
}

INSTANTIATE_TEST_SUITE_P(AllSolvers, OtherSolversTest, ::testing::ValuesIn(AllSolvers()),
                         [](const ::testing::TestParamInfo<SolverKind>& info) {
                           return std::string(SolverName(info.param));
                         });

TEST(SolverRegistry, NamesRoundTrip) {
  ASSERT_EQ(AllSolvers().size(), 4u);
  const char* expected[] = {"fabrik", "ccd", "jacobian_transpose", "dls"};
  for (std::size_t i = 0; i < 4; ++i) {
    EXPECT_STREQ(SolverName(AllSolvers()[i]), expected[i]);
    const std::optional<SolverKind> parsed = ParseSolverKind(expected[i]);
    ASSERT_TRUE(parsed.has_value()) << expected[i];
    EXPECT_EQ(*parsed, AllSolvers()[i]);
  }
  EXPECT_FALSE(ParseSolverKind("DLS").has_value());
  EXPECT_FALSE(ParseSolverKind("").has_value());
  EXPECT_FALSE(ParseSolverKind("jacobian").has_value());
}

// The angle between segment k's direction before and after one iteration.
std::vector<float> SegmentTurns(const std::vector<glm::vec3>& before, const Chain& after) {
  std::vector<float> turns;
  for (std::size_t k = 0; k + 1 < before.size(); ++k) {
    const glm::vec3 a = glm::normalize(before[k + 1] - before[k]);
    const glm::vec3 b = glm::normalize(after.joints()[k + 1] - after.joints()[k]);
    turns.push_back(std::atan2(glm::length(glm::cross(a, b)), glm::dot(a, b)));
  }
  return turns;
}

TEST(SolverOptions, CcdMaxJointAngleBoundsEachSweep) {
  const float limit = 0.02f;
  Chain chain = BentChain();
  const std::vector<glm::vec3> before(chain.joints().begin(), chain.joints().end());
  SolveSettings settings;
  settings.tolerance = 1e-4f;
  settings.max_iterations = 1;
  SolverOptions options;
  options.ccd.max_joint_angle = limit;
  const SolveResult r = Solve(SolverKind::kCcd, chain, chain.root() + glm::vec3(-2, 1, 2), settings,
                              nullptr, options);
  ASSERT_EQ(r.iterations, 1);
  const std::vector<float> turns = SegmentTurns(before, chain);
  // Segment k is turned by joints 0..k, each by at most `limit`.
  for (std::size_t k = 0; k < turns.size(); ++k) {
    EXPECT_LE(turns[k], limit * static_cast<float>(k + 1) + 1e-4f) << "segment " << k;
  }
  EXPECT_GT(turns.back(), 0.5f * limit);  // and it did turn
}

TEST(SolverOptions, JacobianMaxJointAngleBoundsEachStep) {
  for (SolverKind kind : {SolverKind::kJacobianTranspose, SolverKind::kDls}) {
    const float limit = 0.01f;
    Chain chain = BentChain();
    const std::vector<glm::vec3> before(chain.joints().begin(), chain.joints().end());
    SolveSettings settings;
    settings.tolerance = 1e-4f;
    settings.max_iterations = 1;
    SolverOptions options;
    options.jacobian.max_joint_angle = limit;
    const SolveResult r =
        Solve(kind, chain, chain.root() + glm::vec3(-2, 1, 2), settings, nullptr, options);
    ASSERT_EQ(r.iterations, 1);
    const std::vector<float> turns = SegmentTurns(before, chain);
    for (std::size_t k = 0; k < turns.size(); ++k) {
      EXPECT_LE(turns[k], limit * static_cast<float>(k + 1) + 1e-4f)
          << SolverName(kind) << " segment " << k;
    }
    EXPECT_GT(turns.back(), 0.1f * limit) << SolverName(kind);
  }
}

TEST(SolverOptions, DlsConvergesForAWideRangeOfDamping) {
  for (float damping : {0.01f, 0.1f, 0.5f, -1.0f /* invalid: default */}) {
    Chain chain = MakeChain({0, 0, 0}, {0, 1, 0}, {1, 1, 1, 1, 1});
    SolveSettings settings;
    settings.tolerance = 1e-3f;
    settings.max_iterations = 5000;
    JacobianOptions options;
    options.damping = damping;
    const SolveResult r = SolveDls(chain, {2.0f, 2.0f, 1.0f}, settings, nullptr, options);
    EXPECT_TRUE(r.reached) << "damping " << damping << ": distance " << r.distance;
    ExpectChainIntact(chain, {1, 1, 1, 1, 1}, glm::vec3(0.0f), "damping");
  }
}

TEST(SolverOptions, MoreDampingMeansSmallerFirstStep) {
  // Damping trades speed for steadiness: the first DLS step from the same pose is shorter.
  float previous = 1e30f;
  for (float damping : {0.05f, 0.3f, 1.0f}) {
    Chain chain = BentChain();
    const glm::vec3 start = chain.effector();
    SolveSettings settings;
    settings.tolerance = 1e-4f;
    settings.max_iterations = 1;
    JacobianOptions options;
    options.damping = damping;
    options.max_joint_angle = 3.0f;  // keep the angle clamp out of the comparison
    const SolveResult r =
        SolveDls(chain, chain.root() + glm::vec3(1.0f, 1.5f, 1.0f), settings, nullptr, options);
    ASSERT_TRUE(r.ok);
    const float moved = glm::length(chain.effector() - start);
    EXPECT_LT(moved, previous) << "damping " << damping;
    previous = moved;
  }
}

}  // namespace
}  // namespace fabrik
