// batch_solve.cpp - SolveFabrikBatch: validation, the per-block target transposition,
// sharing the blocks out over threads with oneTBB, and regrouping chains by iteration count
// (docs/field.md: The batched solver). The arithmetic is in batch_kernel.cpp (SIMD) and
// batch_lane.cpp (per-lane special cases).
#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>
#include <tbb/partitioner.h>
#include <tbb/task_arena.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <chrono>
#include <cstring>
#include <utility>

#include "ik/batch/batch_block.h"
#include "ik/batch/batch_threads.h"
#include "ik/batch_fabrik.h"
#include "ik/fabrik.h"
#include "ik/vec_util.h"

namespace fabrik {
namespace {

using batch::ForRange;
using batch::kLanes;

// Regroup after a solve in which fewer lane-iterations than this share were useful.
constexpr double kRegroupBelow = 0.75;
// Iteration counts are bucketed up to this many; higher counts share the last bucket.
constexpr std::size_t kBuckets = 64;

// True when no coordinate is NaN or inf: an exponent field of all ones. Integer tests on the
// bits, so the compiler can vectorise the scan (it runs on every target of every solve).
bool AllFinite(std::span<const glm::vec3> points) {
  static_assert(sizeof(glm::vec3) == 3 * sizeof(float));
  std::uint32_t bad = 0;
  const float* f = &points[0].x;
  for (std::size_t i = 0; i < points.size() * 3; ++i) {
    std::uint32_t bits;
    std::memcpy(&bits, f + i, sizeof bits);
    bad |= static_cast<std::uint32_t>((bits & 0x7f800000u) == 0x7f800000u);
  }
  return bad == 0;
}

}  // namespace

// The solver's access to ChainBatch's storage (kept out of the public interface).
struct BatchAccess {
  static batch::BlockView View(ChainBatch& b, std::size_t block) {
    const std::size_t lane0 = block * kLanes;
    ChainBatch::Lanes& l = b.lanes_;
    batch::BlockView v{};
    v.joints = l.joints.get() + block * b.joint_count_ * 3 * kLanes;
    v.lengths = l.lengths.get() + block * (b.joint_count_ - 1) * kLanes;
    v.total = l.total.get() + lane0;
    v.min_fast_sq = l.min_fast_sq.get() + lane0;
    v.scratch = b.scratch_.get() + block * batch::kScratchFloats;
    v.distance = l.distance.get() + lane0;
    v.iterations = l.iterations.get() + lane0;
    v.reached = l.reached.get() + lane0;
    v.reachable = l.reachable.get() + lane0;
    v.joint_count = b.joint_count_;
    return v;
  }

  static void SolveBlock(ChainBatch& b, std::size_t block, std::span<const glm::vec3> targets,
                         const SolveSettings& settings) {
    const batch::BlockView view = View(b, block);
    float* target = view.scratch + batch::kScratchTarget;
    for (std::size_t lane = 0; lane < kLanes; ++lane) {
      const std::size_t c = b.chain_of_[block * kLanes + lane];
      if (c >= b.chain_count_) continue;  // padding keeps its own target
      target[lane] = targets[c].x;
      target[kLanes + lane] = targets[c].y;
      target[2 * kLanes + lane] = targets[c].z;
    }
    batch::SolveBlock(view, settings.tolerance, settings.max_iterations, settings.accelerate);

    // Tally while the block is in cache. Padding lanes are the last block's last lanes.
    ChainBatch::BlockTally t;
    batch::TallyBlock(view, std::min(kLanes, b.chain_count_ - block * kLanes), t);
    b.tally_[block] = t;
  }

  static void Sum(const ChainBatch& b, BatchSolveResult& result) {
    batch::SumTallies(b.tally_, result);
  }

  // Re-packs the chains so that slots are ordered by the last solve's iteration count (a
  // stable counting sort: chains of equal count keep their relative order).
  static void Regroup(ChainBatch& b, BatchThreads threads) {
    const ChainBatch::Lanes& from = b.lanes_;
    std::array<std::size_t, kBuckets + 1> start{};
    const auto key = [&](std::size_t c) {
      const std::int32_t n = from.iterations[b.slot_of_[c]];
      return std::min<std::size_t>(static_cast<std::size_t>(std::max(n, 0)), kBuckets - 1);
    };
    for (std::size_t c = 0; c < b.chain_count_; ++c) ++start[key(c) + 1];
    for (std::size_t k = 1; k <= kBuckets; ++k) start[k] += start[k - 1];
    for (std::size_t c = 0; c < b.chain_count_; ++c) {
      b.regroup_next_[c] = static_cast<std::uint32_t>(start[key(c)]++);
    }
    // New slots 0 .. chains-1 hold the chains; the padding slots after them keep their own.
    for (std::size_t c = 0; c < b.chain_count_; ++c) {
      b.chain_of_[b.regroup_next_[c]] = static_cast<std::uint32_t>(c);
    }
    // Gathered block by block into the spare storage: each thread writes whole blocks of its
    // own (no cache line written by two threads), in storage order.
    ForRange(b.block_count_, threads, [&](std::size_t block) { GatherBlock(b, block); });
    std::swap(b.lanes_, b.spare_);
    for (std::size_t c = 0; c < b.chain_count_; ++c) b.slot_of_[c] = b.regroup_next_[c];
  }

  // Fills block `block` of the spare storage with the chains chain_of_ assigns to its slots,
  // read from their current slots (slot_of_; padding slots from themselves).
  static void GatherBlock(ChainBatch& b, std::size_t block) {
    const ChainBatch::Lanes& from = b.lanes_;
    ChainBatch::Lanes& to = b.spare_;
    const std::size_t n = b.joint_count_;
    // Per lane: the old slot, and its offsets in the joint and length arrays (lane 0 of
    // joint 0 / segment 0 of its block, plus its lane).
    std::array<std::uint32_t, kLanes> old;
    std::array<std::size_t, kLanes> joint_at, length_at;
    for (std::size_t lane = 0; lane < kLanes; ++lane) {
      const std::size_t slot = block * kLanes + lane;
      const std::size_t c = b.chain_of_[slot];
      const std::size_t o = c < b.chain_count_ ? b.slot_of_[c] : slot;
      old[lane] = static_cast<std::uint32_t>(o);
      joint_at[lane] = o / kLanes * n * 3 * kLanes + o % kLanes;
      length_at[lane] = o / kLanes * (n - 1) * kLanes + o % kLanes;
    }
    float* joints = to.joints.get() + block * n * 3 * kLanes;
    for (std::size_t row = 0; row < n * 3; ++row) {  // joint x coordinate
      const float* src = from.joints.get() + row * kLanes;
      for (std::size_t lane = 0; lane < kLanes; ++lane)
        joints[row * kLanes + lane] = src[joint_at[lane]];
    }
    float* lengths = to.lengths.get() + block * (n - 1) * kLanes;
    for (std::size_t s = 0; s + 1 < n; ++s) {
      const float* src = from.lengths.get() + s * kLanes;
      for (std::size_t lane = 0; lane < kLanes; ++lane)
        lengths[s * kLanes + lane] = src[length_at[lane]];
    }
    const std::size_t lane0 = block * kLanes;
    for (std::size_t lane = 0; lane < kLanes; ++lane) {
      const std::size_t o = old[lane];
      to.total[lane0 + lane] = from.total[o];
      to.min_fast_sq[lane0 + lane] = from.min_fast_sq[o];
      to.distance[lane0 + lane] = from.distance[o];
      to.iterations[lane0 + lane] = from.iterations[o];
      to.reached[lane0 + lane] = from.reached[o];
      to.reachable[lane0 + lane] = from.reachable[o];
    }
  }
};

namespace batch {

const char* CheckSolveInput(std::size_t chains, std::span<const glm::vec3> targets,
                            const SolveSettings& settings, std::size_t& bad_index) {
  if (const char* error = ValidateSolveInput(glm::vec3(0.0f), settings)) return error;
  if (targets.size() != chains) return "targets must hold exactly one point per chain";
  if (!AllFinite(targets)) {
    for (std::size_t c = 0;; ++c) {
      if (IsFinite(targets[c])) continue;
      bad_index = c;
      return "targets[i] is not finite (NaN or inf)";
    }
  }
  return nullptr;
}

}  // namespace batch

BatchSolveResult SolveFabrikBatch(ChainBatch& batch, std::span<const glm::vec3> targets,
                                  const SolveSettings& settings, BatchThreads threads,
                                  BatchRegroup regroup) {
  BatchSolveResult result;
  const char* error =
      batch.chain_count() == 0  // a moved-from batch
          ? "the batch holds no chains"
          : batch::CheckSolveInput(batch.chain_count(), targets, settings, result.bad_index);
  if (error != nullptr) {
    result.ok = false;
    result.error = error;
    return result;
  }

  const auto start = std::chrono::steady_clock::now();
  const std::size_t blocks = (batch.chain_count() + kLanes - 1) / kLanes;
  ForRange(blocks, threads,
           [&](std::size_t block) { BatchAccess::SolveBlock(batch, block, targets, settings); });

  BatchAccess::Sum(batch, result);
  if (regroup == BatchRegroup::kWhenRagged && result.lane_utilisation < kRegroupBelow) {
    BatchAccess::Regroup(batch, threads);
    result.regrouped = true;
  }
  result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return result;
}

}  // namespace fabrik
