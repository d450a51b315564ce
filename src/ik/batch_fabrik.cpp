// batch_fabrik.cpp - ChainBatch storage and SolveFabrikBatch: validation, the per-block
// target transposition, and sharing the blocks out over threads with oneTBB. The arithmetic
// is in batch_kernel.cpp (SIMD) and batch_lane.cpp (per-lane special cases).
#include "ik/batch_fabrik.h"

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <glm/geometric.hpp>
#include <limits>
#include <string>

#include "ik/batch_block.h"
#include "ik/fabrik.h"
#include "ik/vec_util.h"

namespace fabrik {
namespace {

using batch::kLanes;

// fabrik.cpp's bounds for the fast reach: chains with a segment outside take the careful
// (double) path for every reach, which the kernel gets by an infinite lower bound.
constexpr float kMinFastLength = 1e-15f;
constexpr float kMaxFastLength = 1e15f;

}  // namespace

// Internal access for the solver (kept out of the public interface).
struct BatchAccess {
  static batch::BlockView View(ChainBatch& b, std::size_t block) {
    const std::size_t lane0 = block * kLanes;
    batch::BlockView v{};
    v.joints = b.joints_.get() + block * b.joint_count_ * 3 * kLanes;
    v.lengths = b.lengths_.get() + block * (b.joint_count_ - 1) * kLanes;
    v.total = b.total_.get() + lane0;
    v.min_fast_sq = b.min_fast_sq_.get() + lane0;
    v.scratch = b.scratch_.get() + block * batch::kScratchFloats;
    v.distance = b.distance_.get() + lane0;
    v.iterations = b.iterations_.get() + lane0;
    v.reached = b.reached_.data() + lane0;
    v.reachable = b.reachable_.data() + lane0;
    v.joint_count = b.joint_count_;
    return v;
  }
  static std::size_t BlockCount(const ChainBatch& b) { return b.block_count_; }
};

void ChainBatch::Allocate(std::size_t chains, std::size_t joints) {
  chain_count_ = chains;
  joint_count_ = joints;
  block_count_ = (chains + kLanes - 1) / kLanes;
  const std::size_t lanes = block_count_ * kLanes;
  joints_ = hwy::AllocateAligned<float>(lanes * joints * 3);
  lengths_ = hwy::AllocateAligned<float>(lanes * (joints - 1));
  total_ = hwy::AllocateAligned<float>(lanes);
  min_fast_sq_ = hwy::AllocateAligned<float>(lanes);
  scratch_ = hwy::AllocateAligned<float>(block_count_ * batch::kScratchFloats);
  distance_ = hwy::AllocateAligned<float>(lanes);
  iterations_ = hwy::AllocateAligned<std::int32_t>(lanes);
  std::fill_n(scratch_.get(), block_count_ * batch::kScratchFloats, 0.0f);
  std::fill_n(distance_.get(), lanes, 0.0f);
  std::fill_n(iterations_.get(), lanes, 0);
  reached_.assign(lanes, 0);
  reachable_.assign(lanes, 0);
}

ChainBatch::ChainBatch(const ChainBatch& other) { *this = other; }

ChainBatch& ChainBatch::operator=(const ChainBatch& other) {
  if (this == &other) return *this;
  if (other.chain_count_ != chain_count_ || other.joint_count_ != joint_count_ || !joints_) {
    Allocate(other.chain_count_, other.joint_count_);
  }
  const std::size_t lanes = block_count_ * kLanes;
  std::copy_n(other.joints_.get(), lanes * joint_count_ * 3, joints_.get());
  std::copy_n(other.lengths_.get(), lanes * (joint_count_ - 1), lengths_.get());
  std::copy_n(other.total_.get(), lanes, total_.get());
  std::copy_n(other.min_fast_sq_.get(), lanes, min_fast_sq_.get());
  std::copy_n(other.scratch_.get(), block_count_ * batch::kScratchFloats, scratch_.get());
  std::copy_n(other.distance_.get(), lanes, distance_.get());
  std::copy_n(other.iterations_.get(), lanes, iterations_.get());
  reached_ = other.reached_;
  reachable_ = other.reachable_;
  return *this;
}

std::size_t ChainBatch::JointIndex(std::size_t c, std::size_t j, std::size_t coord) const {
  const std::size_t block = c / kLanes;
  const std::size_t lane = c % kLanes;
  return ((block * joint_count_ + j) * 3 + coord) * kLanes + lane;
}

Result<ChainBatch> ChainBatch::FromChains(std::span<const Chain> chains) {
  if (chains.empty()) return MakeError("a batch needs at least 1 chain");
  const std::size_t joints = chains[0].joint_count();
  for (std::size_t c = 1; c < chains.size(); ++c) {
    if (chains[c].joint_count() != joints) {
      return MakeError("chains[" + std::to_string(c) + "] has " +
                       std::to_string(chains[c].joint_count()) + " joints, chains[0] has " +
                       std::to_string(joints));
    }
  }
  ChainBatch batch;
  batch.Allocate(chains.size(), joints);
  // Padding lanes of the last block hold a copy of the last chain with its own effector as
  // the target: within tolerance from the start, so they never move.
  const std::size_t lanes = batch.block_count_ * kLanes;
  for (std::size_t slot = 0; slot < lanes; ++slot) {
    const Chain& chain = chains[std::min(slot, chains.size() - 1)];
    for (std::size_t j = 0; j < joints; ++j) {
      for (std::size_t k = 0; k < 3; ++k)
        batch.joints_[batch.JointIndex(slot, j, k)] = chain.joints()[j][k];
    }
    const std::size_t block = slot / kLanes;
    const std::size_t lane = slot % kLanes;
    for (std::size_t s = 0; s + 1 < joints; ++s) {
      batch.lengths_[(block * (joints - 1) + s) * kLanes + lane] = chain.lengths()[s];
    }
    batch.total_[slot] = chain.total_length();
    const bool fast = chain.max_length() <= kMaxFastLength && chain.min_length() >= kMinFastLength;
    batch.min_fast_sq_[slot] = fast ? 1e-30f : std::numeric_limits<float>::infinity();
    if (slot >= chains.size()) {
      float* target = batch.scratch_.get() + block * batch::kScratchFloats + batch::kScratchTarget;
      for (std::size_t k = 0; k < 3; ++k) target[k * kLanes + lane] = chain.effector()[k];
    }
  }
  return batch;
}

Result<ChainBatch> ChainBatch::FromRoots(std::span<const glm::vec3> roots, glm::vec3 direction,
                                         std::span<const float> lengths) {
  if (roots.empty()) return MakeError("a batch needs at least 1 root");
  std::vector<Chain> chains;
  chains.reserve(roots.size());
  for (std::size_t c = 0; c < roots.size(); ++c) {
    Result<Chain> chain = Chain::Straight(roots[c], direction, lengths);
    if (!chain.ok()) return MakeError("roots[" + std::to_string(c) + "]: " + chain.error());
    chains.push_back(std::move(chain).value());
  }
  return FromChains(chains);
}

glm::vec3 ChainBatch::joint(std::size_t c, std::size_t j) const {
  return {joints_[JointIndex(c, j, 0)], joints_[JointIndex(c, j, 1)], joints_[JointIndex(c, j, 2)]};
}

float ChainBatch::length(std::size_t c, std::size_t s) const {
  return lengths_[((c / kLanes) * (joint_count_ - 1) + s) * kLanes + c % kLanes];
}

void ChainBatch::CopyPose(std::size_t c, std::span<glm::vec3> out) const {
  for (std::size_t j = 0; j < joint_count_ && j < out.size(); ++j) out[j] = joint(c, j);
}

void ChainBatch::CopyAllPoses(std::span<glm::vec3> out) const {
  const std::size_t n = joint_count_;
  for (std::size_t block = 0; block < block_count_; ++block) {
    const float* base = joints_.get() + block * n * 3 * kLanes;
    const std::size_t first = block * kLanes;
    const std::size_t count = std::min(kLanes, chain_count_ - first);
    for (std::size_t j = 0; j < n; ++j) {
      const float* x = base + j * 3 * kLanes;
      for (std::size_t lane = 0; lane < count; ++lane) {
        const std::size_t at = (first + lane) * n + j;
        if (at < out.size()) out[at] = {x[lane], x[kLanes + lane], x[2 * kLanes + lane]};
      }
    }
  }
}

Status ChainBatch::SetPose(std::size_t c, std::span<const glm::vec3> pose) {
  if (c >= chain_count_) return MakeError("chain " + std::to_string(c) + " is not in the batch");
  if (pose.size() != joint_count_) {
    return MakeError("pose has " + std::to_string(pose.size()) + " joints, chain has " +
                     std::to_string(joint_count_));
  }
  for (std::size_t i = 0; i < pose.size(); ++i) {
    if (!IsFinite(pose[i])) return MakeError("pose[" + std::to_string(i) + "] is not finite");
  }
  if (pose[0] != joint(c, 0)) return MakeError("pose moves the root");
  for (std::size_t i = 1; i < pose.size(); ++i) {
    const double l = glm::length(glm::dvec3(pose[i]) - glm::dvec3(pose[i - 1]));
    const double expected = length(c, i - 1);
    if (!(std::fabs(l - expected) <= 1e-4 * expected)) {
      return MakeError("pose changes the length of segment " + std::to_string(i - 1));
    }
  }
  for (std::size_t j = 0; j < joint_count_; ++j) {
    for (std::size_t k = 0; k < 3; ++k) joints_[JointIndex(c, j, k)] = pose[j][k];
  }
  return Ok{};
}

ChainOutcome ChainBatch::outcome(std::size_t c) const {
  return {iterations_[c], distance_[c], reached_[c] != 0, reachable_[c] != 0};
}

BatchSolveResult SolveFabrikBatch(ChainBatch& batch, std::span<const glm::vec3> targets,
                                  const SolveSettings& settings, BatchThreads threads) {
  BatchSolveResult result;
  if (const char* error = ValidateSolveInput(glm::vec3(0.0f), settings)) {
    result.ok = false;
    result.error = error;
    return result;
  }
  if (targets.size() != batch.chain_count()) {
    result.ok = false;
    result.error = "targets must hold exactly one point per chain";
    return result;
  }
  for (std::size_t c = 0; c < targets.size(); ++c) {
    if (!IsFinite(targets[c])) {
      result.ok = false;
      result.error = "targets[i] is not finite (NaN or inf)";
      result.bad_index = c;
      return result;
    }
  }

  const auto start = std::chrono::steady_clock::now();
  const std::size_t chains = batch.chain_count();
  const auto solve_block = [&](std::size_t block) {
    const batch::BlockView view = BatchAccess::View(batch, block);
    const std::size_t first = block * kLanes;
    const std::size_t count = std::min(kLanes, chains - first);
    float* target = view.scratch + batch::kScratchTarget;
    for (std::size_t lane = 0; lane < count; ++lane) {
      const glm::vec3& t = targets[first + lane];
      target[lane] = t.x;
      target[kLanes + lane] = t.y;
      target[2 * kLanes + lane] = t.z;
    }
    batch::SolveBlock(view, settings.tolerance, settings.max_iterations);
  };
  const std::size_t blocks = BatchAccess::BlockCount(batch);
  if (threads == BatchThreads::kAll && blocks > 1) {
    tbb::parallel_for(tbb::blocked_range<std::size_t>(0, blocks),
                      [&](const tbb::blocked_range<std::size_t>& range) {
                        for (std::size_t b = range.begin(); b != range.end(); ++b) solve_block(b);
                      });
  } else {
    for (std::size_t b = 0; b < blocks; ++b) solve_block(b);
  }

  for (std::size_t c = 0; c < chains; ++c) {
    const ChainOutcome o = batch.outcome(c);
    result.reached_count += o.reached;
    result.reachable_count += o.reachable;
    result.reached_reachable_count += o.reached && o.reachable;
    result.max_iterations_run = std::max(result.max_iterations_run, o.iterations);
  }
  result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return result;
}

}  // namespace fabrik
