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

#include "batch_fabrik.h"
#include "fabrik_accelerated.h"

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

// The bend-scale step works on groups of this many lanes (a few double vectors: enough
// independent work to hide latency, little enough memory for the precomputed bends).
constexpr std::size_t kBendGroup = 32;
// Chains of up to this many segments keep their segment directions and bends across one
// step's sweeps; longer ones compute them in every sweep (the same doubles, more work).
constexpr std::size_t kBendMaxPreSegments = 64;

// Working memory of the bend-scale step over one block's lanes (batch_bend-inl.h), per lane:
// the search, and the SIMD sweep's inputs, outputs and running state. ~170 KB, on the stack of
// the thread solving the block (no heap allocation).
struct BendScratch {
  // Leaves the arrays uninitialised (the step writes before it reads); value-initialising
  // would zero all of it first.
  BendScratch() {}  // NOLINT(modernize-use-equals-default): = default would zero it
  static constexpr std::size_t kPreRows = 7;  // direction x, y, z and bend w, x, y, z
  // [segment][row][lane of the group]
  alignas(64) double pre[kBendMaxPreSegments * kPreRows * kBendGroup];
  static constexpr std::size_t kStateRows = 17;  // point, direction, frame, offset, x, moved
  alignas(64) double s[kLanes];                  // the factor each lane sweeps at
  alignas(64) double take[kLanes];               // 1: the lane takes part in the sweep
  alignas(64) float take_f[kLanes];              // the same, as floats (for the masked store)
  alignas(64) double turn[4][kLanes];            // w, x, y, z of the turn about the root
  alignas(64) double out[3][kLanes];             // the effector's offset, or [0]: largest move
  alignas(64) double state[kStateRows * kLanes];
  alignas(64) double radius[kLanes];   // |target - root|
  alignas(64) double current[kLanes];  // |effector - target| before the step
  detail::BendSearch search[kLanes];
};

// The float bend-scale step (batch_bend_float-inl.h) keeps the segment directions and bends
// of chains of up to this many segments across one step's sweeps.
constexpr std::size_t kBendFloatPreSegments = 32;

// Whether the float bend-scale step resolves a chain's search goal: its sweep carries a few
// float ulps of the chain's length per segment, so a goal well above that is met in float;
// other chains (long ones, or very small tolerances) take the double step.
inline bool BendFloatResolves(float goal, float total, std::size_t segments) {
  return double(goal) >=
         8.0 * double(segments) * double(std::numeric_limits<float>::epsilon()) * double(total);
}

// Working memory of the float bend-scale step over one block's lanes (batch_bend_float-inl.h):
// per lane, the search's state and the sweeps' inputs and outputs, all floats.
// ~190 KB, on the stack of the thread solving the block.
struct BendScratchF {
  static constexpr std::size_t kPreRows = 7;  // direction x, y, z and conj(bend) w, x, y, z
  // [segment][row][lane]
  alignas(64) float pre[kBendFloatPreSegments * kPreRows * kLanes];
  // Per lane: which lanes a sweep serves, its factor, the turn, the outputs.
  alignas(64) float take[kLanes], s[kLanes], turn[4][kLanes], out[3][kLanes];
  // Per lane, in units of the chain's length: 1 / length, |target - root|, |effector -
  // target| before the step, the search's goal.
  alignas(64) float inv_total[kLanes], radius[kLanes], current[kLanes], goal[kLanes];
  alignas(64) float accept[kLanes], check[kLanes];
  // A copy of joints 1.. of the block while a step writes and measures at once.
  alignas(64) float backup[kBendFloatPreSegments * 3 * kLanes];
  // The search (detail::BendSearch's members, per lane).
  alignas(64) float st[kLanes], x[kLanes], best_s[kLanes], best_f[kLanes], best_o[3][kLanes];
  alignas(64) float a[kLanes], fa[kLanes], b[kLanes], fb[kLanes], curl[kLanes];
  alignas(64) float lo[kLanes], flo[kLanes], hi[kLanes], fhi[kLanes];
  alignas(64) float x0[kLanes], f0[kLanes], x1[kLanes], f1[kLanes], x2[kLanes], f2[kLanes];
  alignas(64) float w0[kLanes], w1[kLanes], squared[kLanes], three[kLanes], k[kLanes];
};

// Solves one block (SIMD, dispatched to the best target): see batch_kernel.cpp. With
// `accelerate`, accelerated FABRIK (fabrik_accelerated.h): textbook iterations and bend-scale
// steps per lane exactly as SolveFabrikAccelerated schedules them; the steps in double
// (bitwise SolveFabrik's) unless `float_steps` (BatchBendStep::kFloat).
void SolveBlock(const BlockView& block, float tolerance, int max_iterations, bool accelerate,
                bool float_steps);

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
