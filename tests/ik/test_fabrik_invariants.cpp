// The promises of fabrik.h checked on many random chains and targets: lengths kept, root
// fixed bitwise, reached => within tolerance, out of reach => straight at the target, and
// never a NaN or inf.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <sstream>
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
using testing::RandomChain;
using testing::RandomLengths;
using testing::RandomTarget;
using testing::RandomUnit;

// Largest relative segment-length error the tests accept: the figure fabrik.h promises for
// chains whose coordinates stay within ~100 segment lengths of the origin (beyond that the
// rounding of a float coordinate alone is larger; see LongChain below).
constexpr double kLengthTolerance = 1e-5;

// Checks everything SolveFabrik promises about one finished solve. Returns "" when all hold,
// otherwise the first violation.
std::string CheckSolve(const Chain& chain, const glm::vec3& root_before, const glm::vec3& target,
                       const SolveSettings& settings, const SolveResult& r,
                       double length_tolerance = kLengthTolerance) {
  std::ostringstream out;
  const std::span<const glm::vec3> p = chain.joints();
  if (!r.ok) return std::string("solve rejected valid input: ") + (r.error ? r.error : "?");
  if (!AllFinite(p)) return "a joint is not finite";
  if (!std::isfinite(r.distance)) return "distance is not finite";
  if (!BitwiseEqual(chain.root(), root_before)) return "root moved";
  const double length_error = MaxRelativeLengthError(chain);
  // The accelerated solve's bend-scale step writes every joint from its exact (double)
  // position, so a segment carries the rounding of both its ends: up to one float ulp of the
  // chain's largest coordinate (fabrik_accelerated.h), on top of the relative tolerance.
  if (settings.accelerate && !(length_error <= length_tolerance)) {
    if (!testing::LengthsKeptToRounding(chain, length_tolerance)) {
      out << "segment length changed by a relative " << length_error
          << ", beyond the rounding of the coordinates";
      return out.str();
    }
  } else if (!(length_error <= length_tolerance)) {
    out << "segment length changed by a relative " << length_error;
    return out.str();
  }
  if (r.iterations < 0 || r.iterations > settings.max_iterations) {
    out << "iterations " << r.iterations << " outside [0, " << settings.max_iterations << "]";
    return out.str();
  }
  const double actual = DistanceD(chain.effector(), target);
  if (std::fabs(actual - r.distance) > 1e-6 * std::max(1.0, actual)) {
    out << "reported distance " << r.distance << " but the effector is " << actual << " away";
    return out.str();
  }
  if (r.reached != (r.distance <= settings.tolerance)) return "reached disagrees with distance";
  if (r.reached && !(actual <= settings.tolerance * (1.0 + 1e-6))) {
    out << "reached but " << actual << " > tolerance " << settings.tolerance;
    return out.str();
  }
  const double root_distance = DistanceD(target, root_before);
  const double total = chain.total_length();
  // Exactly at the boundary float rounding may decide either way.
  if (std::fabs(root_distance - total) > 1e-6 * total && r.reachable != (root_distance <= total)) {
    return "reachable flag wrong";
  }
  if (!r.reachable) {
    const glm::dvec3 dir = (glm::dvec3(target) - glm::dvec3(root_before)) / root_distance;
    const double off_line = MaxDistanceFromLine(p, dir);
    if (off_line > 1e-5 * total) {
      out << "out of reach but a joint is " << off_line << " off the line to the target";
      return out.str();
    }
    const glm::dvec3 reach = glm::dvec3(chain.effector()) - glm::dvec3(root_before);
    if (glm::dot(reach, dir) < total * (1.0 - 1e-5)) return "out of reach but not pointing at it";
    if (r.iterations != 1) return "out of reach should take the one straightening pass";
  }
  return "";
}

// Every test here runs on the textbook and the accelerated FABRIK.
class FabrikInvariants : public testing::FabrikVariant {};

TEST_P(FabrikInvariants, RandomChainsAndTargets) {
  std::mt19937 rng(424242);
  std::uniform_int_distribution<std::size_t> joint_count(2, 60);
  std::uniform_real_distribution<float> coord(-5.0f, 5.0f);
  std::uniform_int_distribution<int> kind(0, 5);
  std::uniform_int_distribution<int> cap(1, 60);
  const float tolerances[] = {1e-4f, 1e-3f, 1e-2f};

  constexpr int kChains = 1500;
  constexpr int kTargetsPerChain = 12;
  int solves = 0, reached = 0, unreachable = 0;
  for (int c = 0; c < kChains; ++c) {
    const std::size_t n = joint_count(rng);
    const std::vector<float> lengths = RandomLengths(rng, n - 1, 0.5f, 2.0f);
    Chain chain = RandomChain(rng, glm::vec3(coord(rng), coord(rng), coord(rng)), lengths);
    for (int t = 0; t < kTargetsPerChain; ++t) {
      const glm::vec3 target = RandomTarget(rng, chain, kind(rng));
      SolveSettings settings;
      settings.accelerate = Accelerated();
      settings.tolerance = tolerances[t % 3] * chain.total_length();
      settings.max_iterations = cap(rng);
      const glm::vec3 root = chain.root();
      const SolveResult r = SolveFabrik(chain, target, settings);  // warm start from last pose
      const std::string violation = CheckSolve(chain, root, target, settings, r);
      ASSERT_EQ(violation, "") << "chain " << c << " (" << n << " joints), target " << t << " ("
                               << target.x << ", " << target.y << ", " << target.z
                               << "), tolerance " << settings.tolerance << ", cap "
                               << settings.max_iterations;
      ++solves;
      reached += r.reached;
      unreachable += !r.reachable;
    }
  }
  // The generator must exercise both branches, or the checks above prove little.
  EXPECT_GT(reached, solves / 4);
  EXPECT_GT(unreachable, solves / 10);
}

// Attainable targets (well inside the reach, and outside the hole an unequal chain cannot
// fold into) are reached, given enough iterations: FABRIK converges there.
TEST_P(FabrikInvariants, AttainableTargetsAreReached) {
  std::mt19937 rng(777);
  std::uniform_int_distribution<std::size_t> joint_count(3, 60);
  std::uniform_real_distribution<float> u(0.0f, 1.0f);
  int solves = 0, reached = 0;
  for (int c = 0; c < 2000; ++c) {
    const std::size_t n = joint_count(rng);
    Chain chain = RandomChain(rng, glm::vec3(0.0f), RandomLengths(rng, n - 1, 0.5f, 2.0f));
    const float total = chain.total_length();
    const float hole = std::max(0.0f, 2.0f * chain.max_length() - total);
    // Distance from the root between the hole's rim and 90% of the reach, with a margin.
    const float lo = hole + 0.05f * total, hi = 0.9f * total;
    if (lo >= hi) continue;
    const glm::vec3 target = RandomUnit(rng) * (lo + (hi - lo) * u(rng));
    SolveSettings settings;
    settings.accelerate = Accelerated();
    settings.tolerance = 1e-3f * total;
    settings.max_iterations = 1000;
    const glm::vec3 root = chain.root();
    const SolveResult r = SolveFabrik(chain, target, settings);
    ASSERT_EQ(CheckSolve(chain, root, target, settings, r), "") << "chain " << c;
    ++solves;
    reached += r.reached;
  }
  ASSERT_GT(solves, 1000);
  EXPECT_EQ(reached, solves);
}

// 10,000 joints. A float coordinate of magnitude |x| is only good to |x| x 2^-24, so once the
// chain spans thousands of segment lengths, the length of one segment can only be kept to a
// few ulps of its joints' coordinates, not to 1e-5 of itself. The check scales accordingly
// (bench/bench_convergence.cpp measures the relative figure).
TEST_P(FabrikInvariants, LongChain) {
  constexpr std::size_t kJoints = 10000;
  std::mt19937 rng(10000);
  Chain chain = RandomChain(rng, glm::vec3(0.0f), RandomLengths(rng, kJoints - 1, 0.5f, 2.0f));
  const float total = chain.total_length();
  // Coordinates of a solved chain stay within total_length of the root.
  const double rounding_bound = 4.0 * std::ldexp(double(total), -24) / 0.5;

  const glm::vec3 targets[] = {
      RandomUnit(rng) * total * 0.3f,  // inside
      RandomUnit(rng) * total * 0.9f,  // inside, far
      RandomUnit(rng) * total * 1.5f,  // out of reach
      glm::vec3(0.0f),                 // the root
  };
  for (const glm::vec3& target : targets) {
    SolveSettings settings;
    settings.accelerate = Accelerated();
    settings.tolerance = 1e-3f;
    settings.max_iterations = 100;
    const glm::vec3 root = chain.root();
    const SolveResult r = SolveFabrik(chain, target, settings);
    EXPECT_EQ(
        CheckSolve(chain, root, target, settings, r, std::max(kLengthTolerance, rounding_bound)),
        "");
  }
}

INSTANTIATE_TEST_SUITE_P(Fabrik, FabrikInvariants, ::testing::Bool(), testing::VariantName);

}  // namespace
}  // namespace fabrik
