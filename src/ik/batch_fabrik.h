// batch_fabrik.h - FABRIK on many independent chains at once (docs/field.md: The batched solver).
//
// One FABRIK reach (subtract, dot, square root, divide) depends on the reach before it, so a
// single chain cannot use wide SIMD units. Many independent chains can: ChainBatch stores N
// chains of the same joint count in a structure-of-arrays layout (blocks of kBatchBlockLanes
// chains, each coordinate of each joint contiguous across the block), and SolveFabrikBatch
// advances every chain of a block in lock-step, one chain per SIMD lane (Google Highway,
// dispatched at run time to the best instruction set the CPU has: scalar, SSSE3, SSE4, AVX2
// or AVX-512), with the blocks shared out over all cores by oneTBB. Neither appears in this
// header: a program using it needs only GLM on its include path.
//
// Per chain the result is that of SolveFabrik (fabrik.h) on the same chain and target, to
// float rounding: same iteration count, same `reached`/`reachable`, joints equal (the kernel
// performs the scalar solver's operations in the same order without fused multiply-add, so
// the tests find the positions bitwise equal on every SIMD target). That includes
// the degenerate cases (coincident points, the straight-chain trap, extreme lengths,
// targets out of reach): lanes that meet one are handled by per-lane scalar code that
// follows fabrik.cpp exactly, inside the same solve.
// With settings.accelerate the batch runs accelerated FABRIK (fabrik_accelerated.h): the same
// textbook iterations and bend-scale steps in the same order as SolveFabrik with `accelerate`
// (each lane keeps its own schedule: a step after every textbook iteration, a growing wait
// after a step that was left out). The bend-scale step is one definition run on float SIMD
// lanes here and on one lane by SolveFabrik, the same operations in the same order, so the
// contract above holds with `accelerate` too: per chain SolveFabrik's result, joints bitwise
// (the tests find them equal on every SIMD target). The step's working memory (~150 KB per
// thread) lives on the solving thread's stack. Cold targets near full reach converge in ~2
// iterations instead of ~20, and none is left at the cap (docs/performance-batch.md has the
// figures).
// Guarantees, as for SolveFabrik: every root is fixed (bitwise), every segment keeps its
// length, no joint nor distance becomes NaN or inf, invalid input is rejected before anything
// moves, and a solve allocates nothing on the heap (the parallel path runs in oneTBB's
// scheduler, which reuses its own task storage).
#pragma once

#include <cstddef>
#include <cstdint>
#include <glm/vec3.hpp>
#include <memory>
#include <span>
#include <vector>

#include "chain.h"
#include "result.h"
#include "solve_types.h"

namespace fabrik {

// Chains per storage block: one block is solved in lock-step by one thread (8 AVX-512
// vectors, 16 AVX2 ones: independent vectors hide the latency of square root and division;
// 128 measured ~5% faster than 64 on the 10,000-chain field).
inline constexpr std::size_t kBatchBlockLanes = 128;

// How many threads a batch solve (and FromPoses, CopyAllPoses) uses.
enum class BatchThreads : std::uint8_t {
  kOne,  // the calling thread only
  kAll,  // oneTBB parallel_for over blocks, in the calling thread's task arena (all cores
         // unless the caller limits it, e.g. with tbb::task_arena or tbb::global_control)
};

// The per-chain outcome of the last solve, as SolveResult reports it for one chain.
struct ChainOutcome {
  int iterations = 0;      // 0: already within tolerance; 1 for a straightened chain
  float distance = 0.0f;   // |effector - target| after the solve, world units (saturated)
  bool reached = false;    // distance <= tolerance
  bool reachable = false;  // |target - root| <= total length
};

// N chains with the same joint count (lengths may differ per chain). Created once; solves
// move joints only. Every guarantee of Chain (chain.h) holds for each chain.
class ChainBatch {
 public:
  // Copies `chains` (at least one; all with the same joint_count()). Fails with a message
  // naming the first chain whose joint count differs.
  static Result<ChainBatch> FromChains(std::span<const Chain> chains);

  // One straight chain per root (at least one), each along `direction` (non-zero, finite)
  // with the same segment `lengths` (each finite and > 0): e.g. a field of chains rooted on a
  // grid. Fails, naming the root, where Chain::Straight would.
  static Result<ChainBatch> FromRoots(std::span<const glm::vec3> roots, glm::vec3 direction,
                                      std::span<const float> lengths);

  // Chains given as packed poses: chain c's joints (root first) are
  // poses[c * joints_per_chain, (c + 1) * joints_per_chain). Each chain is checked and
  // measured exactly as Chain::FromJoints does it, so the batch equals
  // FromChains(those chains), without building them: no allocation per chain, the storage
  // filled block by block (over threads with kAll). Fails when joints_per_chain < 2 or
  // poses.size() is not a positive multiple of it, and otherwise on the first (lowest) bad
  // chain c with "chains[c]: " followed by FromJoints' message for it.
  static Result<ChainBatch> FromPoses(std::span<const glm::vec3> poses,
                                      std::size_t joints_per_chain,
                                      BatchThreads threads = BatchThreads::kAll);

  // The same into this batch: every chain replaced by the packed poses (chain count and joint
  // count may change). When both stay the same the storage is reused, so refilling a batch
  // for call after call costs no allocation and touches no fresh memory. The outcomes are
  // reset to zero. Fails as FromPoses; a bad size leaves the batch unchanged, a bad chain
  // leaves it holding no chains (like a moved-from batch).
  Status AssignPoses(std::span<const glm::vec3> poses, std::size_t joints_per_chain,
                     BatchThreads threads = BatchThreads::kAll);

  // Deep copies (e.g. to keep a start pose to reset to). Assignment between batches of the
  // same shape reuses the storage: no allocation.
  ChainBatch(const ChainBatch& other);
  ChainBatch& operator=(const ChainBatch& other);
  // A moved-from batch holds no chains (a solve on it is rejected).
  ChainBatch(ChainBatch&& other) noexcept;
  ChainBatch& operator=(ChainBatch&& other) noexcept;
  ~ChainBatch() = default;

  std::size_t chain_count() const { return chain_count_; }
  std::size_t joint_count() const { return joint_count_; }

  // Joint j (0 = root) of chain c; c < chain_count(), j < joint_count().
  glm::vec3 joint(std::size_t c, std::size_t j) const;
  // Segment s (joining joints s and s + 1) of chain c.
  float length(std::size_t c, std::size_t s) const;
  float total_length(std::size_t c) const { return lanes_.total[slot_of_[c]]; }

  // Copies chain c's joints (root first) into `out`, which must hold joint_count() points.
  void CopyPose(std::size_t c, std::span<glm::vec3> out) const;
  // Copies every chain's joints, chain after chain (chain c starts at c x joint_count()),
  // into `out`, which must hold chain_count() x joint_count() points (points beyond `out`
  // are skipped). For renderers, and to read a solve back into packed poses (kAll: block by
  // block over threads).
  void CopyAllPoses(std::span<glm::vec3> out, BatchThreads threads = BatchThreads::kOne) const;

  // Replaces chain c's pose under the rules of Chain::SetPose (joint_count() finite points,
  // root unchanged, lengths kept within 1e-4 relative); on error the batch is unchanged.
  Status SetPose(std::size_t c, std::span<const glm::vec3> pose);

  // Chain c's outcome of the last SolveFabrikBatch (all zero before the first).
  ChainOutcome outcome(std::size_t c) const;

 private:
  friend struct BatchAccess;
  // Storage aligned for the SIMD kernel (at least 64 bytes); batch_fabrik.cpp allocates and
  // frees it.
  struct AlignedFree {
    void operator()(const void* p) const noexcept;
  };
  template <class T>
  using Aligned = std::unique_ptr<T[], AlignedFree>;
  template <class T>
  static Aligned<T> AllocateAligned(std::size_t items);

  // Everything stored per lane slot (block x kBatchBlockLanes + lane). Two of these exist so
  // that regrouping can permute the chains without allocating.
  struct Lanes {
    Aligned<float> joints;   // [block][joint][coord][lane]
    Aligned<float> lengths;  // [block][segment][lane]
    Aligned<float> total;    // [slot] total length
    // [slot] fabrik.cpp's lower bound for a fast reach (infinite for extreme lengths).
    Aligned<float> min_fast_sq;
    Aligned<float> distance;           // [slot] outcome
    Aligned<std::int32_t> iterations;  // [slot] outcome
    // Aligned like the rest, so that each block's lanes fill whole cache lines and no line is
    // written by two threads solving neighbouring blocks.
    Aligned<std::uint8_t> reached;    // [slot] outcome
    Aligned<std::uint8_t> reachable;  // [slot] outcome
  };

  ChainBatch() = default;
  void Allocate(std::size_t chains, std::size_t joints);
  void AllocateLanes(Lanes& lanes) const;
  void ClearOutcomes(Lanes& lanes) const;
  void ResetOrder();  // chain c in slot c, padding slots after the last chain
  void CopyLanes(const Lanes& from, Lanes& to) const;
  std::size_t JointIndex(std::size_t slot, std::size_t j, std::size_t coord) const;
  std::size_t LengthIndex(std::size_t slot, std::size_t s) const;
  std::size_t lane_slots() const { return block_count_ * kBatchBlockLanes; }

  std::size_t chain_count_ = 0;
  std::size_t joint_count_ = 0;
  std::size_t block_count_ = 0;
  Lanes lanes_;
  Lanes spare_;  // the target of a regrouping, then swapped in
  // Per-solve scratch, per block: target, axis, flags (see batch_block.h).
  Aligned<float> scratch_;
  // Chain c lives in slot slot_of_[c]; slot s holds chain chain_of_[s] (padding slots at the
  // end hold chain_count_). Regrouping permutes these; chain indices seen by callers never
  // change.
  std::vector<std::uint32_t> slot_of_;
  std::vector<std::uint32_t> chain_of_;
  std::vector<std::uint32_t> regroup_next_;  // scratch of the regrouping (new slot of chain c)
  // Per-block tallies of the last solve, summed into its BatchSolveResult. One cache line
  // each: neighbouring blocks solved by different threads write different lines.
  struct alignas(64) BlockTally {
    std::size_t reached = 0, reachable = 0, reached_reachable = 0;
    int max_iterations = 0;
    double useful = 0.0, run = 0.0;  // lane-iterations of iterating chains, and all run
  };
  std::vector<BlockTally> tally_;
};

// Whether a solve may regroup the chains afterwards. A SIMD vector runs until its slowest
// lane stops, so lanes that converged early idle. When chains track slowly moving targets, a
// chain's iteration count is much like its last one; kWhenRagged therefore, after a solve
// in which fewer than 3/4 of the lane-iterations were useful, re-packs the chains by that
// solve's iteration counts (a counting sort, O(chains x joints), no allocation) so that the
// next solve's vectors hold chains of like count. Invisible to callers except in speed:
// chain indices, poses and outcomes are unchanged. kNever suits unrelated solves (e.g. each
// from a reset pose with fresh random targets), where the last counts predict nothing.
enum class BatchRegroup : std::uint8_t { kNever, kWhenRagged };

// The outcome of one batch solve, summed over its chains.
struct BatchSolveResult {
  // False when the input was rejected; then nothing moved and the outcomes are unchanged.
  bool ok = true;
  // Static text naming what was rejected, or nullptr. Never allocated.
  const char* error = nullptr;
  // With error "targets[i] is not finite": that i.
  std::size_t bad_index = 0;
  std::size_t reached_count = 0;            // chains with reached
  std::size_t reachable_count = 0;          // chains with reachable
  std::size_t reached_reachable_count = 0;  // chains with both
  int max_iterations_run = 0;               // the largest per-chain iteration count
  // Share of the lane-iterations run that belonged to a chain still iterating (1 = no lane
  // idled), counted in groups of 16 lanes (one AVX-512 vector).
  double lane_utilisation = 1.0;
  bool regrouped = false;  // the chains were re-packed after this solve
  double seconds = 0.0;    // wall time of the solve (steady clock), for readouts
};

// Solves every chain of `batch` towards its own target (targets[c] for chain c; exactly
// chain_count() targets) with the same settings, each from its current pose, as SolveFabrik
// would (settings.accelerate included: see the top of this file). Rejected, with nothing moved:
// settings invalid as in ValidateSolveInput, a non-finite target (error names the first,
// bad_index), a target count that differs from chain_count(), or an empty (moved-from) batch. A
// chain that has converged stops changing; a block stops when all its chains have converged or hit
// the cap. Per-chain results: batch.outcome(c).
BatchSolveResult SolveFabrikBatch(ChainBatch& batch, std::span<const glm::vec3> targets,
                                  const SolveSettings& settings,
                                  BatchThreads threads = BatchThreads::kAll,
                                  BatchRegroup regroup = BatchRegroup::kWhenRagged);

// Where SolveFabrikPacked writes each chain's outcome: entry c of each span for chain c. An
// empty span is not written; any other must hold exactly one entry per chain.
struct PackedOutcomes {
  std::span<std::int32_t> iterations{};  // ChainOutcome::iterations
  std::span<float> distance{};           // ChainOutcome::distance, world units
  std::span<bool> reached{};
  std::span<bool> reachable{};
};

// Solves chains held as packed poses in the caller's memory, in place: chain c's joints (root
// first) are poses[c * joints_per_chain, (c + 1) * joints_per_chain), for example an
// (N, n+1, 3) float array. Per chain the result is exactly that of ChainBatch::FromPoses,
// SolveFabrikBatch (BatchRegroup::kNever, the same `threads`) and CopyAllPoses
// back: SolveFabrik's, to float rounding (see the top of this file). Cheaper than that
// sequence: 128 chains at a time are moved into the SIMD layout in the solving thread's own
// block storage (a few tens of KB for short chains, allocated per call), solved while in
// cache and written back, so no batch-sized storage is filled or read.
// Everything is checked before anything is written; refused with a message, nothing written:
// joints_per_chain < 2 or poses.size() not a positive multiple of it; settings invalid as in
// ValidateSolveInput; targets.size() not the chain count; a non-finite target ("targets[c] is
// not finite"); an outcome span neither empty nor of the chain count; a chain that
// Chain::FromJoints refuses ("chains[c]: " and its message, c the lowest such chain).
// On success the sums of BatchSolveResult (regrouped false, seconds the whole call's).
Result<BatchSolveResult> SolveFabrikPacked(std::span<glm::vec3> poses, std::size_t joints_per_chain,
                                           std::span<const glm::vec3> targets,
                                           const SolveSettings& settings,
                                           const PackedOutcomes& outcomes = {},
                                           BatchThreads threads = BatchThreads::kAll);

// Name of the SIMD instruction set the batched solver dispatches to on this CPU (e.g.
// "AVX3" for AVX-512, "AVX2"), for benchmark and readout labels.
const char* BatchSimdTarget();

}  // namespace fabrik
