// Degenerate geometry, invalid input and extreme magnitudes, one case per test.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "fabrik_test_util.h"
#include "ik/fabrik.h"

namespace fabrik {
namespace {

using testing::AllFinite;
using testing::BitwiseEqual;
using testing::DistanceD;
using testing::MaxDistanceFromLine;
using testing::MaxRelativeLengthError;
using testing::StraightChain;
using testing::WorstLengthErrorBeyondLocalRounding;

constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();
constexpr float kInf = std::numeric_limits<float>::infinity();
constexpr float kMax = std::numeric_limits<float>::max();

Chain MustMake(std::vector<glm::vec3> joints) {
  Result<Chain> chain = Chain::FromJoints(std::move(joints));
  EXPECT_TRUE(chain.ok()) << chain.error();
  return std::move(chain).value();
}

// Every solver test below runs on the textbook and the accelerated FABRIK.
class FabrikDegenerate : public testing::FabrikVariant {};
class FabrikInvalid : public testing::FabrikVariant {};
class FabrikExtreme : public testing::FabrikVariant {};
class FabrikBehaviour : public testing::FabrikVariant {};

// Counts observer calls (to check that rejected input is not observed).
class CountingObserver : public SolveObserver {
 public:
  void OnBegin(std::span<const glm::vec3>, const glm::vec3&) override { ++begins; }
  void OnHalfPass(PassKind, int, std::span<const glm::vec3>) override { ++half_passes; }
  int begins = 0;
  int half_passes = 0;
};

// The invariants every solve keeps, for the geometric cases below.
void ExpectIntact(const Chain& chain, const glm::vec3& root_before, const SolveResult& r) {
  EXPECT_TRUE(r.ok);
  EXPECT_TRUE(AllFinite(chain.joints()));
  EXPECT_TRUE(std::isfinite(r.distance));
  EXPECT_TRUE(BitwiseEqual(chain.root(), root_before));
  EXPECT_LE(MaxRelativeLengthError(chain), 1e-5);
}

// Backward pass: the effector goes to (0,1,0), joint 1 reaches towards (0,-1,0) and lands
// exactly on the root, so the root (joint 0) then reaches from the point it sits on; the
// forward pass puts the root back and joint 1 again starts on it. Both reaches need the
// fallback direction.
TEST_P(FabrikDegenerate, JointLandsOnThePointItReachesFrom) {
  Chain chain = MustMake({{0, 0, 0}, {0, -1, 0}, {1, -1, 0}});
  const glm::vec3 target(0, 1, 0);
  CountingObserver observer;
  const SolveResult r = SolveFabrik(chain, target, Settings(1e-4f, 50), &observer);
  ExpectIntact(chain, glm::vec3(0.0f), r);
  EXPECT_TRUE(r.reached) << "distance " << r.distance;
  EXPECT_GE(observer.half_passes, 2);
}

TEST_P(FabrikDegenerate, TargetExactlyAtRoot) {
  // Straight (the trap) and bent starts; equal segments can close on the root.
  Chain straight = StraightChain(6, 1.0f);
  SolveResult r = SolveFabrik(straight, glm::vec3(0.0f), Settings(1e-3f, 200));
  ExpectIntact(straight, glm::vec3(0.0f), r);
  EXPECT_TRUE(r.reached) << "distance " << r.distance;

  Chain bent = MustMake({{0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {0, 1, 1}, {0, 2, 1}});
  r = SolveFabrik(bent, glm::vec3(0.0f), Settings(1e-3f, 200));
  ExpectIntact(bent, glm::vec3(0.0f), r);
  EXPECT_TRUE(r.reached) << "distance " << r.distance;
}

TEST_P(FabrikDegenerate, TargetExactlyAtAJoint) {
  const std::vector<glm::vec3> pose = {{0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {1, 1, 1}, {2, 1, 1}};
  for (std::size_t j = 1; j + 1 < pose.size(); ++j) {
    Chain chain = MustMake(pose);
    // j = 3 is the effector's parent: the very first reach starts on its anchor.
    const SolveResult r = SolveFabrik(chain, pose[j], Settings(1e-4f, 100));
    SCOPED_TRACE("target on joint " + std::to_string(j));
    ExpectIntact(chain, pose[0], r);
    EXPECT_TRUE(r.reached) << "distance " << r.distance;
  }
}

// The straight-chain trap: every reach would keep a straight chain on its own line, so it
// could never fold to reach a nearer target on that line. It must bend and reach.
TEST_P(FabrikDegenerate, StraightChainAimedAlongItsAxisAtANearerTarget) {
  for (std::size_t joints : {3u, 4u, 10u, 50u}) {
    for (float fraction : {0.1f, 0.5f, 0.9f}) {
      const glm::vec3 direction = glm::normalize(glm::vec3(1, 2, -0.5f));
      Chain chain = StraightChain(joints, 1.0f, direction);
      const glm::vec3 target = direction * chain.total_length() * fraction;
      const SolveResult r = SolveFabrik(chain, target, Settings(1e-3f, 100));
      SCOPED_TRACE(std::to_string(joints) + " joints, target at " + std::to_string(fraction));
      ExpectIntact(chain, glm::vec3(0.0f), r);
      EXPECT_TRUE(r.reached) << "distance " << r.distance;
      EXPECT_GT(MaxDistanceFromLine(chain.joints(), glm::dvec3(direction)), 0.1)
          << "the chain stayed on its line";
    }
  }
}

TEST_P(FabrikDegenerate, TargetBehindTheRootOnTheChainsAxis) {
  for (std::size_t joints : {3u, 5u, 20u}) {
    Chain chain = StraightChain(joints, 1.0f);
    const glm::vec3 target(-0.5f * chain.total_length(), 0, 0);
    const SolveResult r = SolveFabrik(chain, target, Settings(1e-3f, 100));
    SCOPED_TRACE(std::to_string(joints) + " joints");
    ExpectIntact(chain, glm::vec3(0.0f), r);
    EXPECT_TRUE(r.reached) << "distance " << r.distance;
  }
}

// A folded chain lying on the line (a zig-zag) is trapped the same way.
TEST_P(FabrikDegenerate, FoldedChainOnTheTargetLine) {
  Chain chain = MustMake({{0, 0, 0}, {2, 0, 0}, {1, 0, 0}, {3, 0, 0}});
  const SolveResult r = SolveFabrik(chain, glm::vec3(4, 0, 0), Settings(1e-3f, 100));
  ExpectIntact(chain, glm::vec3(0.0f), r);
  EXPECT_TRUE(r.reached) << "distance " << r.distance;
}

// Invalid input: ok = false with a reason, the chain bitwise unchanged, no observer calls.
void ExpectRejected(const glm::vec3& target, const SolveSettings& settings,
                    const std::string& reason_part) {
  Chain chain = MustMake({{0.5f, 0, 0}, {1, 1, 0}, {1, 2, 0.25f}});
  const std::vector<glm::vec3> before(chain.joints().begin(), chain.joints().end());
  CountingObserver observer;
  const SolveResult r = SolveFabrik(chain, target, settings, &observer);
  EXPECT_FALSE(r.ok);
  ASSERT_NE(r.error, nullptr);
  EXPECT_NE(std::string(r.error).find(reason_part), std::string::npos) << r.error;
  EXPECT_TRUE(BitwiseEqual(chain.joints(), before));
  EXPECT_EQ(r.iterations, 0);
  EXPECT_FALSE(r.reached);
  EXPECT_EQ(observer.begins + observer.half_passes, 0);
}

TEST_P(FabrikInvalid, NaNTarget) {
  ExpectRejected({kNaN, 0, 0}, Settings(0.01f, 10), "target");
  ExpectRejected({0, 0, kNaN}, Settings(0.01f, 10), "target");
}
TEST_P(FabrikInvalid, InfTarget) {
  ExpectRejected({kInf, 0, 0}, Settings(0.01f, 10), "target");
  ExpectRejected({0, -kInf, 0}, Settings(0.01f, 10), "target");
}
TEST_P(FabrikInvalid, ZeroTolerance) { ExpectRejected({1, 1, 0}, Settings(0.0f, 10), "tolerance"); }
TEST_P(FabrikInvalid, NegativeTolerance) {
  ExpectRejected({1, 1, 0}, Settings(-0.01f, 10), "tolerance");
}
TEST_P(FabrikInvalid, NaNTolerance) { ExpectRejected({1, 1, 0}, Settings(kNaN, 10), "tolerance"); }
TEST_P(FabrikInvalid, InfTolerance) { ExpectRejected({1, 1, 0}, Settings(kInf, 10), "tolerance"); }
TEST_P(FabrikInvalid, ZeroMaxIterations) {
  ExpectRejected({1, 1, 0}, Settings(0.01f, 0), "max_iterations");
  ExpectRejected({1, 1, 0}, Settings(0.01f, -5), "max_iterations");
}

// Far beyond the reach, up to the largest float: laid straight at the target, finite.
TEST_P(FabrikExtreme, HugeFiniteTargets) {
  const glm::vec3 targets[] = {{1e30f, 0, 0},      {-1e30f, 1e30f, 1e30f},
                               {kMax, kMax, kMax}, {-kMax, kMax, -kMax},
                               {0, 0, 1e38f},      {3e19f, -3e19f, 3e19f}};
  for (const glm::vec3& target : targets) {
    Chain chain = MustMake({{1, 2, 3}, {1, 3, 3}, {2, 3, 3}, {2, 3, 5}});
    const SolveResult r = SolveFabrik(chain, target, Settings(0.01f, 10));
    SCOPED_TRACE(std::to_string(target.x) + ", " + std::to_string(target.y) + ", " +
                 std::to_string(target.z));
    ExpectIntact(chain, glm::vec3(1, 2, 3), r);
    EXPECT_FALSE(r.reachable);
    EXPECT_FALSE(r.reached);
    EXPECT_GT(r.distance, 1e19f);
    const glm::dvec3 dir = glm::normalize(glm::dvec3(target) - glm::dvec3(1, 2, 3));
    EXPECT_LT(MaxDistanceFromLine(chain.joints(), dir), 1e-5);
    EXPECT_GT(glm::dot(glm::dvec3(chain.effector()) - glm::dvec3(1, 2, 3), dir), 0.0);
  }
}

// Segments so long that float squares overflow (|d|^2 > 3.4e38), and so short that they are
// subnormal: the reaches must still keep every length.
TEST_P(FabrikExtreme, HugeAndTinySegments) {
  for (float scale : {1e25f, 1e-25f, 1e-18f, 1e17f}) {
    std::vector<glm::vec3> pose = {{0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {1, 1, 1}, {0, 1, 1}};
    for (glm::vec3& p : pose) p *= scale;
    Chain chain = MustMake(pose);
    const glm::vec3 target = glm::vec3(0.5f, 1.5f, -0.5f) * scale;
    const SolveResult r = SolveFabrik(chain, target, Settings(1e-3f * scale, 100));
    SCOPED_TRACE("scale " + std::to_string(scale));
    ExpectIntact(chain, glm::vec3(0.0f), r);
    EXPECT_TRUE(r.reached) << "distance " << r.distance;
    EXPECT_NEAR(DistanceD(chain.effector(), target) / scale, r.distance / scale, 1e-5);
  }
}

// Found by the fuzzer: a reach whose two points are very close (here the root and a target
// 6e-8 from it) on a chain whose segment is huge; len / |d| overflowed float and the joint
// became NaN. Such reaches now take the careful (double) path.
TEST_P(FabrikExtreme, HugeSegmentReachingFromVeryClosePoints) {
  for (int joints : {2, 3}) {
    std::vector<glm::vec3> pose = {{-1, 1, -1}, {-1, -4.3e37f, -1}};
    if (joints == 3) pose.emplace_back(-1, 1, -1);
    Chain chain = MustMake(pose);
    const SolveResult r = SolveFabrik(chain, glm::vec3(-1, 0.99999994f, -1), Settings(1e-30f, 64));
    SCOPED_TRACE(std::to_string(joints) + " joints");
    ExpectIntact(chain, glm::vec3(-1, 1, -1), r);
  }
}

// Also found by the fuzzer: a tiny segment (3e-30) reaching towards a point far away
// scaled by len / |d| = 3e-43, a subnormal float with few bits left, and lost 0.3% of its
// length.
TEST_P(FabrikExtreme, TinySegmentNextToAHugeOne) {
  const float a = 0x1.4484cp-100f, b = 0x1.c037p+44f;
  Chain chain = MustMake({{-a, -a, -a}, {a, a, a}, {-b, -b, -b}});
  const glm::vec3 target(0x1.6c52fcp+7f, 0x1.7323bp+6f, 0x1.a2c1cep+7f);
  const SolveResult r = SolveFabrik(chain, target, Settings(0x1.a50824p+7f, 1));
  ExpectIntact(chain, glm::vec3(-a, -a, -a), r);
}

// Found by the fuzzer in the accelerated solver: segments 1e-18 and 1e-21 long beside
// segments of metres. The bend-scale step works in units of the chain's length, where such a
// segment's squared length is subnormal, and its direction lost 0.03% of its length (1.4% on
// the second chain). Both chains as the fuzzer printed them.
TEST_P(FabrikExtreme, SegmentsABillionthOfTheChainKeepTheirLengths) {
  struct Case {
    std::vector<glm::vec3> pose;
    glm::vec3 target;
    float tolerance;
    int max_iterations;
  };
  const Case cases[] = {
      {{{-0x1.bbffbap-61f, 0.0f, 0.0f},
        {-0x1.be30fcp-61f, 0x1.1904b4p-65f, -0x1.bba56p-61f},
        {-0x1.c0623ep-61f, 0x1.1904b4p-64f, -0x1.bba56p-60f},
        {0x1.d02af8p+0f, -0x1.d0d042p+3f, 0x1.6ee704p+8f},
        {-0x1.2b0d1ep-3f, -0x1.44cb9cp+3f, -0x1.45827cp+0f},
        {-0x1.2b19e6p-3f, -0x1.44cb2ap+3f, -0x1.46aec8p+0f}},
       {-0x1.8p-1f, -0x1.6f318p+7f, -0x1p-2f},
       1.0f,
       55},
      {{{0x1.16c2p-133f, -0x1.4484cp-100f, 0x1.c0014p-131f},
        {-0x1.000004p-69f, 0x1.060c04p-117f, 0x1.4484cp-100f},
        {-0x1.000004p-69f, -0x1.383ff4p-7f, -0x1.3dfadep-7f},
        {-0x1.000004p-69f, 0x1.22506cp+3f, 0x1.27a44ap+3f},
        {0x1.4484cp-100f, -0x1.3d7378p+3f, -0x1.8p+1f},
        {0x1p+0f, -0x1.3afcp-4f, 0x1.d00ep-119f}},
       {-0x1.000004p-69f, 0x1.22506cp+3f, 0x1.27a44ap+3f},
       0x1.2e09bap+3f,
       3},
  };
  for (const Case& c : cases) {
    Chain chain = MustMake(c.pose);
    const SolveResult r = SolveFabrik(chain, c.target, Settings(c.tolerance, c.max_iterations));
    SCOPED_TRACE("chain with root " + std::to_string(c.pose[0].x));
    EXPECT_TRUE(r.ok);
    EXPECT_TRUE(AllFinite(chain.joints()));
    EXPECT_TRUE(BitwiseEqual(chain.root(), c.pose[0]));
    // The long segments' joints lie hundreds of metres out: their float rounding is allowed;
    // the tiny ones near the root are held to their own length.
    EXPECT_LE(WorstLengthErrorBeyondLocalRounding(chain), 1e-5);
  }
}

// A huge root with a chain that still fits: coordinates near 1e37.
TEST_P(FabrikExtreme, ChainFarFromTheOrigin) {
  const glm::vec3 root(1e37f, -1e37f, 1e37f);
  Chain chain = MustMake({root, root + glm::vec3(1e36f, 0, 0), root + glm::vec3(1e36f, 1e36f, 0)});
  for (const glm::vec3& target : {root + glm::vec3(0, 1e36f, 0), glm::vec3(-kMax, kMax, kMax)}) {
    const SolveResult r = SolveFabrik(chain, target, Settings(1e33f, 50));
    ExpectIntact(chain, root, r);
  }
}

TEST_P(FabrikBehaviour, AlreadyWithinToleranceMovesNothing) {
  Chain chain = MustMake({{0, 0, 0}, {1, 0, 0}, {1, 1, 0}});
  const std::vector<glm::vec3> before(chain.joints().begin(), chain.joints().end());
  const SolveResult r = SolveFabrik(chain, glm::vec3(1, 1.005f, 0), Settings(0.01f, 10));
  EXPECT_TRUE(r.ok);
  EXPECT_TRUE(r.reached);
  EXPECT_EQ(r.iterations, 0);
  EXPECT_TRUE(BitwiseEqual(chain.joints(), before));
}

// A target inside the reach sphere but inside the hole no pose can reach (segments 1 and 3:
// nothing nearer the root than 2): the solve runs to the cap and says it did not reach.
TEST_P(FabrikBehaviour, UnattainableTargetRunsToTheCap) {
  Chain chain = MustMake({{0, 0, 0}, {1, 0, 0}, {1, 3, 0}});
  const SolveResult r = SolveFabrik(chain, glm::vec3(0, 0.5f, 0.5f), Settings(1e-3f, 7));
  ExpectIntact(chain, glm::vec3(0.0f), r);
  EXPECT_TRUE(r.reachable);
  EXPECT_FALSE(r.reached);
  EXPECT_EQ(r.iterations, 7);
}

TEST_P(FabrikBehaviour, OutOfReachIsOneStraighteningPass) {
  Chain chain = MustMake({{0, 0, 0}, {1, 0, 0}, {1, 2, 0}});
  CountingObserver observer;
  const SolveResult r = SolveFabrik(chain, glm::vec3(0, 0, 10), Settings(1e-3f, 7), &observer);
  ExpectIntact(chain, glm::vec3(0.0f), r);
  EXPECT_FALSE(r.reachable);
  EXPECT_EQ(r.iterations, 1);
  EXPECT_EQ(observer.begins, 1);
  EXPECT_EQ(observer.half_passes, 1);
  EXPECT_NEAR(r.distance, 7.0f, 1e-5f);
  EXPECT_NEAR(chain.effector().z, 3.0f, 1e-5f);
}

// Found by the fuzz campaign (fuzz_solver): a chain whose coordinates are ~1.25e7 (a float
// step of 1) laid straight towards a far target drifted ~10 units off the line, because each
// joint was placed from the previous one and the roundings added up. Every joint must stay
// within a few float steps of the line from the root.
TEST(FabrikFarFromOrigin, StraightenedChainStaysOnTheLine) {
  const glm::vec3 root(-4.0f, -1.6f, 1.25e7f);
  std::vector<glm::vec3> joints{root};
  for (int i = 1; i <= 80; ++i) joints.push_back(joints.back() + glm::vec3(0, 123.4567f, 0));
  Chain chain = MustMake(joints);
  const glm::vec3 target(1.04e18f, 1.04e18f, 1.04e18f);
  SolveSettings settings;
  settings.tolerance = 1e21f;
  settings.max_iterations = 31;
  const SolveResult r = SolveFabrik(chain, target, settings);
  ASSERT_TRUE(r.ok);
  ASSERT_FALSE(r.reachable);
  EXPECT_TRUE(BitwiseEqual(chain.joints().subspan(0, 1), std::vector<glm::vec3>{root}));
  const glm::dvec3 dir = glm::normalize(glm::dvec3(target) - glm::dvec3(root));
  const double step = 1.25e7 * std::numeric_limits<float>::epsilon();  // float step at 1.25e7
  for (std::size_t i = 1; i < chain.joint_count(); ++i) {
    const glm::dvec3 v = glm::dvec3(chain.joints()[i]) - glm::dvec3(root);
    EXPECT_LE(glm::length(v - dir * glm::dot(v, dir)), 2.0 * step) << "joint " << i;
    // At this magnitude a length can be kept only to about a float step.
    const double l = glm::length(glm::dvec3(chain.joints()[i]) - glm::dvec3(chain.joints()[i - 1]));
    EXPECT_NEAR(l, chain.lengths()[i - 1], 2.0 * step) << "segment " << i - 1;
  }
}

INSTANTIATE_TEST_SUITE_P(Fabrik, FabrikDegenerate, ::testing::Bool(), testing::VariantName);
INSTANTIATE_TEST_SUITE_P(Fabrik, FabrikInvalid, ::testing::Bool(), testing::VariantName);
INSTANTIATE_TEST_SUITE_P(Fabrik, FabrikExtreme, ::testing::Bool(), testing::VariantName);
INSTANTIATE_TEST_SUITE_P(Fabrik, FabrikBehaviour, ::testing::Bool(), testing::VariantName);

// ---- Chain construction ----

void ExpectChainError(const Result<Chain>& chain, const std::string& message_part) {
  ASSERT_FALSE(chain.ok());
  EXPECT_NE(chain.error().find(message_part), std::string::npos) << chain.error();
}

TEST(ChainFromJoints, RejectsFewerThanTwoJoints) {
  ExpectChainError(Chain::FromJoints({}), "at least 2 joints");
  ExpectChainError(Chain::FromJoints({{1, 2, 3}}), "at least 2 joints, got 1");
}
TEST(ChainFromJoints, RejectsCoincidentJoints) {
  const Result<Chain> chain = Chain::FromJoints({{0, 0, 0}, {1, 0, 0}, {1, 0, 0}, {2, 0, 0}});
  ASSERT_FALSE(chain.ok());
  EXPECT_EQ(chain.error(), "joints[2] coincides with joints[1]: zero-length segment");
}
TEST(ChainFromJoints, RejectsNaN) {
  ExpectChainError(Chain::FromJoints({{0, 0, 0}, {1, kNaN, 0}}), "joints[1] is not finite");
  ExpectChainError(Chain::FromJoints({{kNaN, 0, 0}, {1, 0, 0}}), "joints[0] is not finite");
}
TEST(ChainFromJoints, RejectsInf) {
  ExpectChainError(Chain::FromJoints({{0, 0, 0}, {1, 0, 0}, {0, 0, -kInf}}),
                   "joints[2] is not finite");
}
TEST(ChainFromJoints, RejectsChainsTooLargeForFloat) {
  ExpectChainError(Chain::FromJoints({{-kMax, 0, 0}, {kMax, 0, 0}}), "too large");
  ExpectChainError(Chain::FromJoints({{3e38f, 0, 0}, {3e38f, 1e38f, 0}}), "too large");
}
TEST(ChainFromJoints, RejectsSubnormalSegments) {
  ExpectChainError(Chain::FromJoints({{0, 0, 0}, {1e-39f, 0, 0}}),
                   "joints[1] is too close to joints[0]");
  ExpectChainError(Chain::Straight({0, 0, 0}, {1, 0, 0}, std::vector<float>{1.0f, 1e-40f}),
                   "too short");
  EXPECT_TRUE(Chain::FromJoints({{0, 0, 0}, {1e-37f, 0, 0}}).ok());
}
TEST(ChainFromJoints, MeasuresLongSegmentsRight) {
  // 1e20 squared overflows float; the length must still come out right.
  const Result<Chain> chain = Chain::FromJoints({{0, 0, 0}, {1e20f, 0, 0}, {1e20f, 1e20f, 0}});
  ASSERT_TRUE(chain.ok()) << chain.error();
  EXPECT_FLOAT_EQ(chain.value().lengths()[0], 1e20f);
  EXPECT_FLOAT_EQ(chain.value().total_length(), 2e20f);
}
TEST(ChainStraight, RejectsBadInput) {
  const std::vector<float> ok_lengths = {1.0f, 2.0f};
  ExpectChainError(Chain::Straight({0, 0, 0}, {1, 0, 0}, {}), "at least 1 segment");
  ExpectChainError(Chain::Straight({0, 0, 0}, {0, 0, 0}, ok_lengths), "direction");
  ExpectChainError(Chain::Straight({0, 0, 0}, {kNaN, 0, 0}, ok_lengths), "direction");
  ExpectChainError(Chain::Straight({kInf, 0, 0}, {1, 0, 0}, ok_lengths), "root");
  const std::vector<float> bad[] = {{1.0f, 0.0f}, {-1.0f}, {kNaN}, {kInf}};
  for (const std::vector<float>& lengths : bad) {
    ExpectChainError(Chain::Straight({0, 0, 0}, {1, 0, 0}, lengths), "must be finite and > 0");
  }
  // A huge (but finite) direction is normalised, not rejected.
  EXPECT_TRUE(Chain::Straight({0, 0, 0}, {1e30f, 1e30f, 0}, ok_lengths).ok());
}

// ---- SetPose ----

class ChainSetPose : public ::testing::Test {
 protected:
  Chain chain_ = MustMake({{0, 0, 0}, {1, 0, 0}, {1, 2, 0}});
  std::vector<glm::vec3> Joints() const { return {chain_.joints().begin(), chain_.joints().end()}; }
  void ExpectRejected(const std::vector<glm::vec3>& pose, const std::string& part) {
    const std::vector<glm::vec3> before = Joints();
    const Status s = chain_.SetPose(pose);
    ASSERT_FALSE(s.ok());
    EXPECT_NE(s.error().find(part), std::string::npos) << s.error();
    EXPECT_TRUE(BitwiseEqual(chain_.joints(), before));
  }
};

TEST_F(ChainSetPose, AcceptsAPoseKeepingLengths) {
  const std::vector<glm::vec3> pose = {{0, 0, 0}, {0, 1, 0}, {0, 1, 2}};
  ASSERT_TRUE(chain_.SetPose(pose).ok());
  EXPECT_TRUE(BitwiseEqual(chain_.joints(), pose));
}
TEST_F(ChainSetPose, RejectsWrongJointCount) {
  ExpectRejected({{0, 0, 0}, {1, 0, 0}}, "2 joints, chain has 3");
}
TEST_F(ChainSetPose, RejectsAMovedRoot) {
  ExpectRejected({{0, 0, 1e-3f}, {1, 0, 1e-3f}, {1, 2, 1e-3f}}, "moves the root");
}
TEST_F(ChainSetPose, RejectsChangedLengths) {
  ExpectRejected({{0, 0, 0}, {1.01f, 0, 0}, {1.01f, 2, 0}}, "length of segment 0");
  ExpectRejected({{0, 0, 0}, {1, 0, 0}, {1, 2.5f, 0}}, "length of segment 1");
}
TEST_F(ChainSetPose, RejectsNonFinitePoints) {
  ExpectRejected({{0, 0, 0}, {1, 0, 0}, {1, kNaN, 0}}, "pose[2] is not finite");
  ExpectRejected({{kNaN, 0, 0}, {1, 0, 0}, {1, 2, 0}}, "pose[0] is not finite");
  ExpectRejected({{0, 0, 0}, {kInf, 0, 0}, {1, 2, 0}}, "pose[1] is not finite");
}

}  // namespace
}  // namespace fabrik
