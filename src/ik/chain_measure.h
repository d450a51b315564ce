// chain_measure.h - Chain::FromJoints's checks and measurements on a span of joints, without
// building a Chain, so that ChainBatch::FromPoses (batch_fabrik.h) fills its storage straight
// from packed poses and still accepts, refuses and measures exactly what FromJoints does.
// Internal to src/ik (not installed).
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <glm/vec3.hpp>
#include <span>

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

// Adds the length of segment `segment` (0 = the first) to the totals, in FromJoints' order.
inline void AddSegment(JointMeasure& m, std::size_t segment, float length) {
  m.total += length;
  m.max_length = std::max(m.max_length, length);
  m.min_length = segment == 0 ? length : std::min(m.min_length, length);
}

// A cheap test in float that MeasureJoints accepts every chain of `chains` (packed chain after
// chain, `joints` points each, joints >= 2): true only when every coordinate is within +-1e18
// (so finite) and each segment's float sum of squared coordinate differences is at least
// 2^-100. Then its double length lies in [2^-51, 3.5e18], far from zero and from both of
// FromJoints' limits (below FLT_MIN, above FLT_MAX), and |root| + 2 x total length stays
// below FLT_MAX for any chain that fits in memory. False does not mean refused: such chains
// (huge or tiny coordinates, coincident joints, NaN) need MeasureJoints for the decision.
inline bool PlainJoints(std::span<const glm::vec3> chains, std::size_t joints) {
  static_assert(sizeof(glm::vec3) == 3 * sizeof(float));
  constexpr std::uint32_t kMaxBits = 0x5d5e0b6bu;  // the bits of 1e18f
  const float* f = &chains[0].x;
  std::uint32_t bad = 0;
  // Integer tests on the magnitude bits (NaN and inf compare above kMaxBits): vectorises.
  for (std::size_t i = 0; i < chains.size() * 3; ++i) {
    std::uint32_t bits;
    std::memcpy(&bits, f + i, sizeof bits);
    bad |= static_cast<std::uint32_t>((bits & 0x7fffffffu) > kMaxBits);
  }
  if (bad != 0) return false;
  // Coordinates within 1e18: the squares cannot overflow.
  for (std::size_t c = 0; c < chains.size(); c += joints) {
    for (std::size_t i = c + 1; i < c + joints; ++i) {
      const glm::vec3 d = chains[i] - chains[i - 1];
      bad |= static_cast<std::uint32_t>(!(d.x * d.x + d.y * d.y + d.z * d.z >= 0x1p-100f));
    }
  }
  return bad == 0;
}

}  // namespace fabrik::detail
