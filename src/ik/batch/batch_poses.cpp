// batch_poses.cpp - a ChainBatch filled from packed poses (chain after chain, root first) and
// read back into them: the path of callers that hold many chains in one array (the Python
// module's solve_batch, renderers). Block by block, so that threads write disjoint storage.
#include <algorithm>
#include <atomic>
#include <cstdint>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "ik/batch/batch_block.h"
#include "ik/batch/batch_threads.h"
#include "ik/batch_fabrik.h"
#include "ik/chain_measure.h"

namespace fabrik {

using batch::kLanes;

namespace batch {

std::string PackedSizeError(std::size_t points, std::size_t joints) {
  if (joints < 2) return "a chain needs at least 2 joints, got " + std::to_string(joints);
  if (points == 0 || points % joints != 0) {
    return "poses must hold a positive multiple of " + std::to_string(joints) + " points, got " +
           std::to_string(points);
  }
  return {};
}

}  // namespace batch

Result<ChainBatch> ChainBatch::FromPoses(std::span<const glm::vec3> poses,
                                         std::size_t joints_per_chain, BatchThreads threads) {
  ChainBatch batch;
  Status filled = batch.AssignPoses(poses, joints_per_chain, threads);
  if (!filled) return MakeError(filled.error());
  return batch;
}

Status ChainBatch::AssignPoses(std::span<const glm::vec3> poses, std::size_t joints_per_chain,
                               BatchThreads threads) {
  const std::size_t n = joints_per_chain;
  if (std::string error = batch::PackedSizeError(poses.size(), n); !error.empty()) {
    return MakeError(std::move(error));
  }
  const std::size_t chains = poses.size() / n;
  if (chains >= std::numeric_limits<std::uint32_t>::max() / 2) {
    return MakeError("too many chains for one batch");
  }
  if (chains != chain_count_ || n != joint_count_ || !lanes_.joints) {
    Allocate(chains, n);
  } else {
    // The storage is reused (no allocation, no fresh pages to fault in): only the order a
    // regrouping may have permuted and the outcomes are reset.
    ResetOrder();
    ClearOutcomes(lanes_);
  }
  Lanes& l = lanes_;
  // The lowest bad chain: blocks run in any order, so every thread lowers it.
  std::atomic<std::size_t> first_bad{chains};
  batch::ForRange(block_count_, threads, [&](std::size_t block) {
    float* joints = l.joints.get() + block * n * 3 * kLanes;
    float* lengths = l.lengths.get() + block * (n - 1) * kLanes;
    float* target = scratch_.get() + block * batch::kScratchFloats + batch::kScratchTarget;
    for (std::size_t lane = 0; lane < kLanes; ++lane) {
      const std::size_t slot = block * kLanes + lane;
      // Padding slots (past the last chain) hold a copy of the last chain, as FromChains.
      const std::size_t c = std::min(slot, chains - 1);
      const std::span<const glm::vec3> pose = poses.subspan(c * n, n);
      const Result<detail::JointMeasure> m = detail::MeasureJoints(pose, lengths + lane, kLanes);
      if (!m) {
        std::size_t seen = first_bad.load(std::memory_order_relaxed);
        while (c < seen && !first_bad.compare_exchange_weak(seen, c)) {
        }
        continue;
      }
      for (std::size_t j = 0; j < n; ++j) {
        for (std::size_t k = 0; k < 3; ++k) joints[(j * 3 + k) * kLanes + lane] = pose[j][k];
      }
      l.total[slot] = m.value().total;
      l.min_fast_sq[slot] = batch::MinFastSq(m.value().min_length, m.value().max_length);
      // A padding slot's target is its own effector: within tolerance, it never moves.
      if (slot >= chains) {
        for (std::size_t k = 0; k < 3; ++k) target[k * kLanes + lane] = pose[n - 1][k];
      }
    }
  });
  if (const std::size_t bad = first_bad.load(); bad < chains) {
    *this = ChainBatch();  // half filled: holds no chains now
    // Measured again for its message (only on failure, so the fill allocates nothing).
    std::vector<float> scratch(n - 1);
    const Result<detail::JointMeasure> m =
        detail::MeasureJoints(poses.subspan(bad * n, n), scratch.data(), 1);
    return MakeError("chains[" + std::to_string(bad) + "]: " + m.error());
  }
  return Ok{};
}

void ChainBatch::CopyAllPoses(std::span<glm::vec3> out, BatchThreads threads) const {
  // Slot order (block by block, joint by joint) reads the storage sequentially; a block's
  // chains are written by one thread.
  const std::size_t n = joint_count_;
  batch::ForRange(block_count_, threads, [&](std::size_t block) {
    const float* base = lanes_.joints.get() + block * n * 3 * kLanes;
    for (std::size_t j = 0; j < n; ++j) {
      const float* x = base + j * 3 * kLanes;
      for (std::size_t lane = 0; lane < kLanes; ++lane) {
        const std::size_t c = chain_of_[block * kLanes + lane];
        const std::size_t at = c * n + j;
        if (c < chain_count_ && at < out.size()) {
          out[at] = {x[lane], x[kLanes + lane], x[2 * kLanes + lane]};
        }
      }
    }
  });
}

}  // namespace fabrik
