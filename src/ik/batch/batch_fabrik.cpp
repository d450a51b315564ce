// batch_fabrik.cpp - ChainBatch storage: creation, the structure-of-arrays layout, copies and
// per-chain access (docs/field.md: The batched solver). Solving is in batch_solve.cpp; packed
// poses in and out in batch_poses.cpp.
#include "ik/batch_fabrik.h"

#include <hwy/aligned_allocator.h>

#include <algorithm>
#include <cmath>
#include <glm/geometric.hpp>
#include <limits>
#include <string>
#include <utility>

#include "ik/batch/batch_block.h"
#include "ik/vec_util.h"

namespace fabrik {
namespace {

using batch::kLanes;

}  // namespace

void ChainBatch::AlignedFree::operator()(const void* p) const noexcept {
  hwy::FreeAlignedBytes(p, nullptr, nullptr);
}

// Highway's aligned storage, held by a pointer the public header names without Highway.
template <class T>
ChainBatch::Aligned<T> ChainBatch::AllocateAligned(std::size_t items) {
  return Aligned<T>(hwy::AllocateAligned<T>(items).release());
}

void ChainBatch::AllocateLanes(Lanes& l) const {
  const std::size_t slots = lane_slots();
  l.joints = AllocateAligned<float>(slots * joint_count_ * 3);
  l.lengths = AllocateAligned<float>(slots * (joint_count_ - 1));
  l.total = AllocateAligned<float>(slots);
  l.min_fast_sq = AllocateAligned<float>(slots);
  l.distance = AllocateAligned<float>(slots);
  l.iterations = AllocateAligned<std::int32_t>(slots);
  l.reached = AllocateAligned<std::uint8_t>(slots);
  l.reachable = AllocateAligned<std::uint8_t>(slots);
  ClearOutcomes(l);
}

void ChainBatch::ClearOutcomes(Lanes& l) const {
  const std::size_t slots = lane_slots();
  std::fill_n(l.distance.get(), slots, 0.0f);
  std::fill_n(l.iterations.get(), slots, 0);
  std::fill_n(l.reached.get(), slots, std::uint8_t{0});
  std::fill_n(l.reachable.get(), slots, std::uint8_t{0});
}

void ChainBatch::ResetOrder() {
  for (std::size_t s = 0; s < lane_slots(); ++s) {
    chain_of_[s] = static_cast<std::uint32_t>(std::min(s, chain_count_));
    if (s < chain_count_) slot_of_[s] = static_cast<std::uint32_t>(s);
  }
}

void ChainBatch::CopyLanes(const Lanes& from, Lanes& to) const {
  const std::size_t slots = lane_slots();
  std::copy_n(from.joints.get(), slots * joint_count_ * 3, to.joints.get());
  std::copy_n(from.lengths.get(), slots * (joint_count_ - 1), to.lengths.get());
  std::copy_n(from.total.get(), slots, to.total.get());
  std::copy_n(from.min_fast_sq.get(), slots, to.min_fast_sq.get());
  std::copy_n(from.distance.get(), slots, to.distance.get());
  std::copy_n(from.iterations.get(), slots, to.iterations.get());
  std::copy_n(from.reached.get(), slots, to.reached.get());
  std::copy_n(from.reachable.get(), slots, to.reachable.get());
}

void ChainBatch::Allocate(std::size_t chains, std::size_t joints) {
  chain_count_ = chains;
  joint_count_ = joints;
  block_count_ = (chains + kLanes - 1) / kLanes;
  AllocateLanes(lanes_);
  AllocateLanes(spare_);
  scratch_ = AllocateAligned<float>(block_count_ * batch::kScratchFloats);
  std::fill_n(scratch_.get(), block_count_ * batch::kScratchFloats, 0.0f);
  slot_of_.resize(chains);
  chain_of_.resize(lane_slots());
  regroup_next_.resize(chains);
  tally_.resize(block_count_);
  ResetOrder();
}

ChainBatch::ChainBatch(const ChainBatch& other) { *this = other; }

ChainBatch& ChainBatch::operator=(const ChainBatch& other) {
  if (this == &other) return *this;
  if (other.chain_count_ == 0) return *this = ChainBatch();  // copying an empty batch
  if (other.chain_count_ != chain_count_ || other.joint_count_ != joint_count_ || !lanes_.joints) {
    Allocate(other.chain_count_, other.joint_count_);
  }
  CopyLanes(other.lanes_, lanes_);
  std::copy_n(other.scratch_.get(), block_count_ * batch::kScratchFloats, scratch_.get());
  std::copy(other.slot_of_.begin(), other.slot_of_.end(), slot_of_.begin());
  std::copy(other.chain_of_.begin(), other.chain_of_.end(), chain_of_.begin());
  return *this;
}

ChainBatch::ChainBatch(ChainBatch&& other) noexcept { *this = std::move(other); }

ChainBatch& ChainBatch::operator=(ChainBatch&& other) noexcept {
  if (this == &other) return *this;
  chain_count_ = std::exchange(other.chain_count_, 0);
  joint_count_ = std::exchange(other.joint_count_, 0);
  block_count_ = std::exchange(other.block_count_, 0);
  lanes_ = std::move(other.lanes_);
  spare_ = std::move(other.spare_);
  scratch_ = std::move(other.scratch_);
  slot_of_ = std::move(other.slot_of_);
  chain_of_ = std::move(other.chain_of_);
  regroup_next_ = std::move(other.regroup_next_);
  tally_ = std::move(other.tally_);
  other.slot_of_.clear();
  other.chain_of_.clear();
  other.regroup_next_.clear();
  other.tally_.clear();
  return *this;
}

std::size_t ChainBatch::JointIndex(std::size_t slot, std::size_t j, std::size_t coord) const {
  return ((slot / kLanes * joint_count_ + j) * 3 + coord) * kLanes + slot % kLanes;
}

std::size_t ChainBatch::LengthIndex(std::size_t slot, std::size_t s) const {
  return (slot / kLanes * (joint_count_ - 1) + s) * kLanes + slot % kLanes;
}

Result<ChainBatch> ChainBatch::FromChains(std::span<const Chain> chains) {
  if (chains.empty()) return MakeError("a batch needs at least 1 chain");
  if (chains.size() >= std::numeric_limits<std::uint32_t>::max() / 2) {
    return MakeError("too many chains for one batch");
  }
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
  Lanes& l = batch.lanes_;
  // Padding slots of the last block hold a copy of the last chain with its own effector as
  // the target: within tolerance from the start, so they never move.
  for (std::size_t slot = 0; slot < batch.lane_slots(); ++slot) {
    const Chain& chain = chains[std::min(slot, chains.size() - 1)];
    for (std::size_t j = 0; j < joints; ++j) {
      for (std::size_t k = 0; k < 3; ++k) {
        l.joints[batch.JointIndex(slot, j, k)] = chain.joints()[j][k];
      }
    }
    for (std::size_t s = 0; s + 1 < joints; ++s) {
      l.lengths[batch.LengthIndex(slot, s)] = chain.lengths()[s];
    }
    l.total[slot] = chain.total_length();
    l.min_fast_sq[slot] = batch::MinFastSq(chain.min_length(), chain.max_length());
    if (slot >= chains.size()) {
      float* target = batch.scratch_.get() + slot / kLanes * batch::kScratchFloats +
                      batch::kScratchTarget + slot % kLanes;
      for (std::size_t k = 0; k < 3; ++k) target[k * kLanes] = chain.effector()[k];
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
  const std::size_t slot = slot_of_[c];
  return {lanes_.joints[JointIndex(slot, j, 0)], lanes_.joints[JointIndex(slot, j, 1)],
          lanes_.joints[JointIndex(slot, j, 2)]};
}

float ChainBatch::length(std::size_t c, std::size_t s) const {
  return lanes_.lengths[LengthIndex(slot_of_[c], s)];
}

void ChainBatch::CopyPose(std::size_t c, std::span<glm::vec3> out) const {
  for (std::size_t j = 0; j < joint_count_ && j < out.size(); ++j) out[j] = joint(c, j);
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
  const std::size_t slot = slot_of_[c];
  for (std::size_t j = 0; j < joint_count_; ++j) {
    for (std::size_t k = 0; k < 3; ++k) lanes_.joints[JointIndex(slot, j, k)] = pose[j][k];
  }
  return Ok{};
}

ChainOutcome ChainBatch::outcome(std::size_t c) const {
  const std::size_t slot = slot_of_[c];
  return {lanes_.iterations[slot], lanes_.distance[slot], lanes_.reached[slot] != 0,
          lanes_.reachable[slot] != 0};
}

}  // namespace fabrik
