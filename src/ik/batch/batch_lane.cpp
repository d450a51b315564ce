// batch_lane.cpp - the per-lane scalar side of the batched solver: the cases the SIMD kernel
// hands back to one lane. Each function performs the same float and double operations, in
// the same order, as the single-chain solver (fabrik.cpp), using the same reach arithmetic
// (reach_arithmetic.h), so a lane handled here ends exactly where SolveFabrik would put that
// chain (docs/field.md: The batched solver).
#include <algorithm>
#include <cmath>
#include <glm/geometric.hpp>

#include "ik/batch/batch_block.h"
#include "ik/fabrik.h"
#include "ik/line_pose.h"
#include "ik/reach_arithmetic.h"
#include "ik/vec_util.h"

namespace fabrik::batch {
namespace {

using reach::DistanceD;
using reach::FastDistance;
using reach::kFloatMax;
using reach::ReachCareful;
using reach::Saturate;

glm::vec3 Axis(const BlockView& b, std::size_t lane) { return b.Scratch3(kScratchAxis, lane); }

void SetAxis(const BlockView& b, std::size_t lane, const glm::vec3& v) {
  float* p = b.scratch + kScratchAxis + lane;
  p[0] = v.x;
  p[kLanes] = v.y;
  p[2 * kLanes] = v.z;
}

// StraightenTowards (fabrik.cpp) on one lane.
void Straighten(const BlockView& b, std::size_t lane, const glm::vec3& target) {
  LayStraight(
      b.joint_count, [&](std::size_t i) { return b.Get(i, lane); },
      [&](std::size_t i, const glm::vec3& v) { b.Set(i, lane, v); },
      [&](std::size_t i) { return b.length(i, lane); }, target);
}

}  // namespace

bool SetupLane(const BlockView& b, std::size_t lane, float tolerance) {
  const std::size_t n = b.joint_count;
  const glm::vec3 root = b.Get(0, lane);
  const glm::vec3 target = b.Scratch3(kScratchTarget, lane);
  const float total = b.total[lane];
  b.scratch[kScratchActive + lane] = 0.0f;
  b.scratch[kScratchCanTrap + lane] = 0.0f;

  const float root_distance = FastDistance(target, root);
  const bool reachable = root_distance <= total;
  b.reachable[lane] = reachable;
  if (!reachable) {
    Straighten(b, lane, target);
    b.iterations[lane] = 1;
    const double distance = DistanceD(b.Get(n - 1, lane), target);
    b.distance[lane] = Saturate(distance);
    b.reached[lane] = distance <= kFloatMax && b.distance[lane] <= tolerance;
    return true;
  }
  const glm::vec3 effector = b.Get(n - 1, lane);
  const float distance = FastDistance(effector, target);
  b.distance[lane] = distance;
  b.iterations[lane] = 0;
  b.reached[lane] = distance <= tolerance;
  if (distance <= tolerance) return false;

  if (root_distance > 0.0f) {
    SetAxis(b, lane, SafeNormalize(target - root, glm::vec3(0.0f, 1.0f, 0.0f)));
  } else {
    RefreshAxis(b, lane);
  }
  b.scratch[kScratchActive + lane] = 1.0f;
  b.scratch[kScratchCanTrap + lane] = root_distance < total - tolerance ? 1.0f : 0.0f;
  const float eps = 1e-5f * total;
  b.scratch[kScratchEpsSq + lane] = eps * eps;
  return false;
}

void RefreshAxis(const BlockView& b, std::size_t lane) {
  const glm::vec3 root = b.Get(0, lane);
  SetAxis(b, lane,
          SafeNormalize(b.Get(b.joint_count - 1, lane) - root, glm::vec3(0.0f, 1.0f, 0.0f)));
}

void CarefulReachBackward(const BlockView& b, std::size_t lane, std::size_t i) {
  const std::size_t n = b.joint_count;
  const glm::vec3 inward = -Axis(b, lane);
  const glm::vec3 previous = i + 2 < n ? b.Get(i + 1, lane) - b.Get(i + 2, lane) : inward;
  b.Set(i, lane,
        ReachCareful(b.Get(i + 1, lane), b.Get(i, lane), b.length(i, lane), previous, inward));
}

void CarefulReachForward(const BlockView& b, std::size_t lane, std::size_t i) {
  const glm::vec3 outward = Axis(b, lane);
  const glm::vec3 previous = i >= 2 ? b.Get(i - 1, lane) - b.Get(i - 2, lane) : outward;
  b.Set(i, lane,
        ReachCareful(b.Get(i - 1, lane), b.Get(i, lane), b.length(i - 1, lane), previous, outward));
}

bool LaneIsCollinear(const BlockView& b, std::size_t lane) {
  return AllOnLine(
      b.joint_count, [&](std::size_t i) { return b.Get(i, lane); }, Axis(b, lane),
      b.scratch[kScratchEpsSq + lane]);
}

void EscapeTrap(const BlockView& b, std::size_t lane) {
  const std::size_t n = b.joint_count;
  const glm::vec3 target = b.Scratch3(kScratchTarget, lane);
  b.Set(n - 2, lane, target + AnyPerpendicular(Axis(b, lane)) * b.length(n - 2, lane));
}

float SaturatedDistance(const BlockView& b, std::size_t lane) {
  return Saturate(DistanceD(b.Get(b.joint_count - 1, lane), b.Scratch3(kScratchTarget, lane)));
}

}  // namespace fabrik::batch
