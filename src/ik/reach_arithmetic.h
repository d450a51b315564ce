// reach_arithmetic.h - the float arithmetic of one FABRIK reach and of a distance, shared by
// the single-chain solver (fabrik.cpp) and the batched solver's per-lane code
// (batch_lane.cpp), so that both compute the same floats. Internal to src/ik; every file that
// includes it is compiled without floating-point contraction (src/CMakeLists.txt).
#pragma once

#include <algorithm>
#include <cmath>
#include <limits>

#include <glm/geometric.hpp>
#include <glm/vec3.hpp>

namespace fabrik::reach {

constexpr float kFloatMax = std::numeric_limits<float>::max();

// The fast reach trusts a squared length only inside this range: above it the square may
// have overflowed, below it the square is (or is near) subnormal and its square root loses
// bits, which would show up as segment-length error. Everything outside takes the
// double-precision path, which is exact enough for any pair of float points.
constexpr float kMinFastSq = 1e-30f;
constexpr float kMaxFastSq = 1e30f;

// |a - b| computed in double: never overflows for float inputs.
inline double DistanceD(const glm::vec3& a, const glm::vec3& b) {
  return glm::length(glm::dvec3(a) - glm::dvec3(b));
}

// A double distance as the float SolveResult reports: saturated to FLT_MAX, so a finite input
// always gives a finite answer.
inline float Saturate(double d) {
  return static_cast<float>(std::min(d, static_cast<double>(kFloatMax)));
}

// |a - b| as a float (saturated), cheaply: the float fast path is the common case; the
// double fallback covers squares that overflowed or went subnormal. Used for the stopping
// test, so the loop's test and the reported distance are the same number.
inline float FastDistance(const glm::vec3& a, const glm::vec3& b) {
  const glm::vec3 d = a - b;
  const float sq = glm::dot(d, d);
  if (sq > kMinFastSq && sq < kMaxFastSq) return std::sqrt(sq);
  return Saturate(DistanceD(a, b));
}

// The careful form of one reach: the point at distance `length` from `anchor` on the ray
// towards `moving`, in double. When the two points coincide the ray is undefined; then
// `fallback` (any non-zero vector; normalised here) gives the direction instead, or, when it
// too is zero (quantised away at huge coordinates), `last_resort` (a unit vector).
inline glm::vec3 ReachCareful(const glm::vec3& anchor, const glm::vec3& moving, float length,
                              const glm::vec3& fallback, const glm::vec3& last_resort) {
  glm::dvec3 d = glm::dvec3(moving) - glm::dvec3(anchor);
  double r = glm::length(d);
  if (!(r > 0.0)) {
    d = glm::dvec3(fallback);
    r = glm::length(d);
    if (!(r > 0.0)) {
      d = glm::dvec3(last_resort);
      r = glm::length(d);
    }
  }
  return glm::vec3(glm::dvec3(anchor) + d * (static_cast<double>(length) / r));
}

}  // namespace fabrik::reach
