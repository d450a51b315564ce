// chain_measure.h - Chain::FromJoints's checks and measurements on a span of joints, without
// building a Chain, so that ChainBatch::FromPoses (batch_fabrik.h) fills its storage straight
// from packed poses and still accepts, refuses and measures exactly what FromJoints does.
// Internal to src/ik (not installed).
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <glm/vec3.hpp>
#include <span>

#include "reach_arithmetic.h"
#include "result.h"

namespace fabrik::detail {

// What FromJoints derives from the joints: the totals as Chain::total_length(),
// max_length() and min_length() report them.
struct JointMeasure {
  float total = 0.0f;
  float max_length = 0.0f;
  float min_length = 0.0f;
};

// Checks `joints` (root first) as Chain::FromJoints does and writes segment i's length to
// lengths[i * stride] (joints.size() - 1 of them, each the float rounding of the double
// distance). On failure returns FromJoints' error (the same message) and the lengths written
// so far are meaningless; allocates only for that message.
Result<JointMeasure> MeasureJoints(std::span<const glm::vec3> joints, float* lengths,
                                   std::size_t stride);

// Segment i's length as FromJoints keeps it: the double distance rounded to float.
inline float SegmentLength(const glm::vec3& a, const glm::vec3& b) {
  return static_cast<float>(reach::DistanceD(a, b));
}

// Adds the length of segment `segment` (0 = the first) to the totals, in FromJoints' order.
inline void AddSegment(JointMeasure& m, std::size_t segment, float length) {
  m.total += length;
  m.max_length = std::max(m.max_length, length);
  m.min_length = segment == 0 ? length : std::min(m.min_length, length);
}

// MeasureJoints' lengths and totals for joints it accepts (the caller checked them with it or
// with PlainJoints): the same floats, without the checks.
inline JointMeasure MeasureAccepted(std::span<const glm::vec3> joints, float* lengths,
                                    std::size_t stride) {
  JointMeasure m;
  for (std::size_t i = 1; i < joints.size(); ++i) {
    const float l = SegmentLength(joints[i], joints[i - 1]);
    lengths[(i - 1) * stride] = l;
    AddSegment(m, i - 1, l);
  }
  return m;
}

// A cheap test in float that MeasureJoints accepts `joints` (at least 2): true only when
// every coordinate is within +-1e18 (so finite) and each segment has a coordinate that
// differs by at least 2^-60 between its ends. Then the segment's double length lies in
// [2^-61, 3.5e18], far from zero and from both of FromJoints' limits (below FLT_MIN, above
// FLT_MAX), and |root| + 2 x total length stays below FLT_MAX for any chain that fits in
// memory. False does not mean refused: such chains (huge or tiny coordinates, coincident
// joints, NaN) go to MeasureJoints for the exact decision.
inline bool PlainJoints(std::span<const glm::vec3> joints) {
  static_assert(sizeof(glm::vec3) == 3 * sizeof(float));
  constexpr std::uint32_t kMaxBits = 0x5d5e0b6bu;  // the bits of 1e18f
  const float* f = &joints[0].x;
  std::uint32_t bad = 0;
  // Integer tests on the magnitude bits (NaN and inf compare above kMaxBits), so the loop
  // vectorises.
  for (std::size_t i = 0; i < joints.size() * 3; ++i) {
    std::uint32_t bits;
    std::memcpy(&bits, f + i, sizeof bits);
    bad |= static_cast<std::uint32_t>((bits & 0x7fffffffu) > kMaxBits);
  }
  for (std::size_t i = 1; i < joints.size(); ++i) {
    const glm::vec3 d = joints[i] - joints[i - 1];
    const float apart = std::max({std::fabs(d.x), std::fabs(d.y), std::fabs(d.z)});
    bad |= static_cast<std::uint32_t>(!(apart >= 0x1p-60f));
  }
  return bad == 0;
}

}  // namespace fabrik::detail
