// batch_block.h - one block of a ChainBatch as the SIMD kernel sees it, and the per-lane
// scalar code for the cases the kernel does not vectorise. Internal to src/ik.
//
// Layout (all arrays 64-byte aligned, kBatchBlockLanes lanes, one chain per lane):
//   joints  [joint][coord][lane]   coord 0..2 = x, y, z
//   lengths [segment][lane]
//   per-lane arrays [lane]
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <glm/vec3.hpp>
#include <limits>
#include <span>
#include <string>
#include <vector>

#include "ik/batch_fabrik.h"

namespace fabrik::batch {

constexpr std::size_t kLanes = kBatchBlockLanes;

// Scratch floats per block: target (3 x lanes), axis (3 x lanes), active, can_trap, eps_sq.
constexpr std::size_t kScratchTarget = 0;
constexpr std::size_t kScratchAxis = 3 * kLanes;
constexpr std::size_t kScratchActive = 6 * kLanes;
constexpr std::size_t kScratchCanTrap = 7 * kLanes;
constexpr std::size_t kScratchEpsSq = 8 * kLanes;
constexpr std::size_t kScratchFloats = 9 * kLanes;

struct BlockView {
  float* joints;
  const float* lengths;
  const float* total;
  const float* min_fast_sq;
  float* scratch;  // target, axis, active, can_trap, eps_sq as above
  float* distance;
  std::int32_t* iterations;
  std::uint8_t* reached;
  std::uint8_t* reachable;
  std::size_t joint_count;

  float* coord(std::size_t joint, std::size_t c) const { return joints + (joint * 3 + c) * kLanes; }
  glm::vec3 Get(std::size_t joint, std::size_t lane) const {
    const float* p = joints + joint * 3 * kLanes + lane;
    return {p[0], p[kLanes], p[2 * kLanes]};
  }
  void Set(std::size_t joint, std::size_t lane, const glm::vec3& v) const {
    float* p = joints + joint * 3 * kLanes + lane;
    p[0] = v.x;
    p[kLanes] = v.y;
    p[2 * kLanes] = v.z;
  }
  glm::vec3 Scratch3(std::size_t offset, std::size_t lane) const {
    const float* p = scratch + offset + lane;
    return {p[0], p[kLanes], p[2 * kLanes]};
  }
  float length(std::size_t segment, std::size_t lane) const {
    return lengths[segment * kLanes + lane];
  }
};

// fabrik.cpp's bounds for the fast reach: a chain with a segment outside takes the careful
// (double) path for every reach, which the kernel gets from an infinite lower bound for the
// squared distance (BlockView::min_fast_sq).
inline float MinFastSq(float min_length, float max_length) {
  const bool fast = max_length <= 1e15f && min_length >= 1e-15f;
  return fast ? 1e-30f : std::numeric_limits<float>::infinity();
}

// Chains of up to this many segments keep their segment directions and bends across one
// bend-scale step's sweeps (bend_step.h: BendWork); longer ones compute them in every sweep.
constexpr std::size_t kBendPreSegments = 32;

// Solves one block (SIMD, dispatched to the best target): see batch_kernel.cpp. With
// `accelerate`, accelerated FABRIK (fabrik_accelerated.h): textbook iterations and bend-scale
// steps per lane exactly as SolveFabrikAccelerated schedules them, bitwise its floats.
void SolveBlock(const BlockView& block, float tolerance, int max_iterations, bool accelerate);

// The SIMD targets compiled into the kernel that this CPU supports (Highway's target bits,
// best first): what a test switches between with hwy::SetSupportedTargetsForTest. The
// sanitizer builds compile fewer than Release (src/CMakeLists.txt), so a test asks the kernel
// rather than its own translation unit.
std::vector<std::int64_t> CompiledSimdTargets();

// The size checks of packed poses (ChainBatch::FromPoses, SolveFabrikPacked): `points` points
// of `joints` per chain. The error, or an empty string.
std::string PackedSizeError(std::size_t points, std::size_t joints);

// SolveFabrikBatch's checks of its input (batch_fabrik.h), for `chains` chains: the static
// error text, or nullptr when all is well. A non-finite target sets bad_index.
const char* CheckSolveInput(std::size_t chains, std::span<const glm::vec3> targets,
                            const SolveSettings& settings, std::size_t& bad_index);

// Adds a solved block's outcomes to `t` (ChainBatch's per-block tally, or any struct with its
// members): lanes [0, chains) hold chains, the rest is padding. Lane-iterations run are
// counted per group of kTallyGroup lanes (one AVX-512 vector of floats; on narrower targets a
// group is several vectors, so the measure is a lower bound) as the group's largest count.
constexpr std::size_t kTallyGroup = 16;
template <typename Tally>
void TallyBlock(const BlockView& v, std::size_t chains, Tally& t) {
  for (std::size_t g = 0; g < kLanes; g += kTallyGroup) {
    std::int32_t most = 0;
    for (std::size_t lane = g; lane < g + kTallyGroup; ++lane) {
      const std::int32_t it = v.iterations[lane];
      most = std::max(most, it);
      if (lane >= chains) continue;
      t.useful += it;
      t.max_iterations = std::max(t.max_iterations, static_cast<int>(it));
      t.reached += v.reached[lane];
      t.reachable += v.reachable[lane];
      t.reached_reachable += v.reached[lane] & v.reachable[lane];
    }
    t.run += static_cast<double>(most) * kTallyGroup;
  }
}

// The blocks' tallies summed into `result` (counts, largest iteration count, utilisation).
template <typename Tallies>
void SumTallies(const Tallies& tallies, BatchSolveResult& result) {
  double useful = 0.0, run = 0.0;
  for (const auto& t : tallies) {
    result.reached_count += t.reached;
    result.reachable_count += t.reachable;
    result.reached_reachable_count += t.reached_reachable;
    result.max_iterations_run = std::max(result.max_iterations_run, t.max_iterations);
    useful += t.useful;
    run += t.run;
  }
  result.lane_utilisation = run > 0.0 ? useful / run : 1.0;
}

// ---- per-lane scalar code (batch_lane.cpp), each following fabrik.cpp exactly

// The whole start of a solve for one lane: reachability, straightening when out of reach,
// the starting distance, the axis and trap flags (into scratch), and the outcome of a lane
// that needs no iteration. Used for lanes whose numbers leave the float fast range and for
// lanes out of reach. Returns true when the lane was out of reach (laid straight).
bool SetupLane(const BlockView& block, std::size_t lane, float tolerance);

// The careful (double) reach of joint `joint` in a backward (towards the root) or forward pass.
void CarefulReachBackward(const BlockView& block, std::size_t lane, std::size_t joint);
void CarefulReachForward(const BlockView& block, std::size_t lane, std::size_t joint);

// The axis of a lane whose target is on its root, from its current effector (SetupLane's).
void RefreshAxis(const BlockView& block, std::size_t lane);

// True when all of the lane's joints lie on its root-target axis (the straight-chain trap).
bool LaneIsCollinear(const BlockView& block, std::size_t lane);

// Places joint n-2 of a trapped lane sideways from the target.
void EscapeTrap(const BlockView& block, std::size_t lane);

// |effector - target| of a lane, in double, saturated to FLT_MAX.
float SaturatedDistance(const BlockView& block, std::size_t lane);

}  // namespace fabrik::batch
