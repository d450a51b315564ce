// chain_measure.h - Chain::FromJoints's checks and measurements on a span of joints, without
// building a Chain, so that ChainBatch::FromPoses (batch_fabrik.h) fills its storage straight
// from packed poses and still accepts, refuses and measures exactly what FromJoints does.
// Internal to src/ik (not installed).
#pragma once

#include <cstddef>
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

}  // namespace fabrik::detail
