// fabrik_test_util.h - chain builders and invariant checks shared by the FABRIK tests.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <glm/geometric.hpp>
#include <glm/vec3.hpp>
#include <random>
#include <string>
#include <vector>

#include "chain_scenarios.h"
#include "ik/chain.h"
#include "ik/solve_types.h"

namespace fabrik::testing {

// Settings with the given tolerance and iteration cap, textbook or accelerated.
inline SolveSettings SettingsOf(float tolerance, int max_iterations, bool accelerate = false) {
  SolveSettings s;
  s.tolerance = tolerance;
  s.max_iterations = max_iterations;
  s.accelerate = accelerate;
  return s;
}

// Parameter of the tests that run on both FABRIKs: false = textbook, true = accelerated
// (SolveSettings::accelerate). Instantiate with
//   INSTANTIATE_TEST_SUITE_P(Fabrik, Suite, ::testing::Bool(), testing::VariantName);
class FabrikVariant : public ::testing::TestWithParam<bool> {
 protected:
  bool Accelerated() const { return GetParam(); }
  SolveSettings Settings(float tolerance, int max_iterations) const {
    SolveSettings s;
    s.tolerance = tolerance;
    s.max_iterations = max_iterations;
    s.accelerate = GetParam();
    return s;
  }
};

inline std::string VariantName(const ::testing::TestParamInfo<bool>& info) {
  return info.param ? "Accelerated" : "Textbook";
}

inline bool AllFinite(std::span<const glm::vec3> joints) {
  for (const glm::vec3& p : joints) {
    if (!std::isfinite(p.x) || !std::isfinite(p.y) || !std::isfinite(p.z)) return false;
  }
  return true;
}

inline bool BitwiseEqual(const glm::vec3& a, const glm::vec3& b) {
  return std::memcmp(&a, &b, sizeof(glm::vec3)) == 0;
}

inline bool BitwiseEqual(std::span<const glm::vec3> a, std::span<const glm::vec3> b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size_bytes()) == 0;
}

// Distance in double, so the check does not inherit the solver's rounding.
inline double DistanceD(const glm::vec3& a, const glm::vec3& b) {
  return glm::length(glm::dvec3(a) - glm::dvec3(b));
}

// Largest relative error of a segment length of `chain`'s current pose against the lengths
// fixed when it was created.
inline double MaxRelativeLengthError(const Chain& chain) {
  double worst = 0.0;
  for (std::size_t i = 0; i < chain.segment_count(); ++i) {
    const double l = DistanceD(chain.joints()[i + 1], chain.joints()[i]);
    const double expected = chain.lengths()[i];
    worst = std::max(worst, std::fabs(l - expected) / expected);
  }
  return worst;
}

// Every segment of `chain` within `relative` of its length plus one float ulp of the chain's
// largest coordinate (2 x 2^-24 per coordinate of each end, over 3 coordinates): what a pose
// whose joints are each rounded independently from exact positions can promise.
inline bool LengthsKeptToRounding(const Chain& chain, double relative) {
  double magnitude = 0.0;
  for (const glm::vec3& p : chain.joints()) {
    magnitude = std::max(
        {magnitude, double(std::fabs(p.x)), double(std::fabs(p.y)), double(std::fabs(p.z))});
  }
  const double rounding = 2.0 * std::sqrt(3.0) * std::ldexp(magnitude, -24);
  for (std::size_t i = 0; i < chain.segment_count(); ++i) {
    const double l = DistanceD(chain.joints()[i + 1], chain.joints()[i]);
    const double expected = chain.lengths()[i];
    if (std::fabs(l - expected) > relative * expected + rounding) return false;
  }
  return true;
}

// The worst segment length error of `chain` beyond what rounding its two end joints allows
// (4 x FLT_EPSILON of their largest coordinate), relative to the segment's length: a tiny
// segment far from a large one is held to its own scale, not the chain's.
inline double WorstLengthErrorBeyondLocalRounding(const Chain& chain) {
  double worst = 0.0;
  const auto largest = [](const glm::vec3& p) {
    return std::max({double(std::fabs(p.x)), double(std::fabs(p.y)), double(std::fabs(p.z))});
  };
  for (std::size_t i = 0; i < chain.segment_count(); ++i) {
    const glm::vec3& a = chain.joints()[i];
    const glm::vec3& b = chain.joints()[i + 1];
    const double rounding = 4.0 * std::ldexp(std::max(largest(a), largest(b)), -23);
    const double expected = chain.lengths()[i];
    const double error = std::fabs(DistanceD(b, a) - expected) - rounding;
    worst = std::max(worst, error / expected);
  }
  return worst;
}

// Largest distance of a joint from the line through the root along `dir` (a unit vector).
inline double MaxDistanceFromLine(std::span<const glm::vec3> joints, const glm::dvec3& dir) {
  double worst = 0.0;
  const glm::dvec3 root(joints.front());
  for (const glm::vec3& p : joints) {
    const glm::dvec3 v = glm::dvec3(p) - root;
    worst = std::max(worst, glm::length(v - dir * glm::dot(v, dir)));
  }
  return worst;
}

inline bool Finite(const glm::vec3& v) {
  return std::isfinite(v.x) && std::isfinite(v.y) && std::isfinite(v.z);
}

inline float Uniform(std::mt19937& rng, float lo, float hi) {
  return std::uniform_real_distribution<float>(lo, hi)(rng);
}

}  // namespace fabrik::testing
