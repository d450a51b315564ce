// batch_packed.cpp - SolveFabrikPacked (batch_fabrik.h): chains solved straight from the
// caller's packed poses, one block of kBatchBlockLanes chains at a time in the solving
// thread's own block storage. The block kernel is the batch's (batch_kernel.cpp); this file
// checks the input, moves chains in and out of the kernel's layout and sums the outcomes.
//
// Why not ChainBatch::FromPoses, SolveFabrikBatch and CopyAllPoses: those fill a batch-sized
// layout (12 MB for 100,000 chains of 10 joints, plus as much again for regrouping), solve it,
// and read it all back, three passes over memory that no cache holds. Here a block goes in,
// is solved and goes out while its ~20 KB stay in the core's cache.
#include <hwy/aligned_allocator.h>
#include <tbb/enumerable_thread_specific.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "ik/batch/batch_block.h"
#include "ik/batch/batch_threads.h"
#include "ik/batch_fabrik.h"
#include "ik/chain_measure.h"
#include "ik/vec_util.h"

namespace fabrik {
namespace {

using batch::kLanes;

// The tallies of the blocks one thread solved (batch::TallyBlock's members).
struct Tally {
  std::size_t reached = 0, reachable = 0, reached_reachable = 0;
  int max_iterations = 0;
  double useful = 0.0, run = 0.0;
};

// One block in the kernel's layout (batch_block.h), owned by one thread for one call.
struct BlockStore {
  explicit BlockStore(std::size_t joint_count)
      : joints(hwy::AllocateAligned<float>(joint_count * 3 * kLanes)),
        lengths(hwy::AllocateAligned<float>((joint_count - 1) * kLanes)),
        lane_floats(hwy::AllocateAligned<float>(3 * kLanes)),
        scratch(hwy::AllocateAligned<float>(batch::kScratchFloats)),
        iterations(hwy::AllocateAligned<std::int32_t>(kLanes)),
        flags(hwy::AllocateAligned<std::uint8_t>(2 * kLanes)) {
    std::fill_n(scratch.get(), batch::kScratchFloats, 0.0f);
    view.joints = joints.get();
    view.lengths = lengths.get();
    view.total = lane_floats.get();
    view.min_fast_sq = lane_floats.get() + kLanes;
    view.distance = lane_floats.get() + 2 * kLanes;
    view.scratch = scratch.get();
    view.iterations = iterations.get();
    view.reached = flags.get();
    view.reachable = flags.get() + kLanes;
    view.joint_count = joint_count;
  }

  hwy::AlignedFreeUniquePtr<float[]> joints;       // [joint][coord][lane]
  hwy::AlignedFreeUniquePtr<float[]> lengths;      // [segment][lane]
  hwy::AlignedFreeUniquePtr<float[]> lane_floats;  // total, min_fast_sq, distance: [lane] each
  hwy::AlignedFreeUniquePtr<float[]> scratch;
  hwy::AlignedFreeUniquePtr<std::int32_t[]> iterations;
  hwy::AlignedFreeUniquePtr<std::uint8_t[]> flags;  // reached, reachable: [lane] each
  batch::BlockView view{};
  Tally tally;
};

struct Call {
  glm::vec3* poses;
  std::size_t chains;
  std::size_t joints;  // per chain
  std::span<const glm::vec3> targets;
  const SolveSettings& settings;
  const PackedOutcomes& out;
};

std::span<const glm::vec3> Pose(const Call& call, std::size_t c) {
  return {call.poses + c * call.joints, call.joints};
}

// The lowest chain of block `block` that Chain::FromJoints refuses, or call.chains. The cheap
// float test passes nearly every block whole; otherwise chain by chain, and the chains it
// does not pass get the exact checks (lengths written to
// the block's storage, which is refilled before it is solved).
std::size_t FirstBadChain(const Call& call, std::size_t block, BlockStore& store) {
  const std::size_t end = std::min(call.chains, (block + 1) * kLanes);
  const std::size_t n = call.joints;
  if (detail::PlainJoints({call.poses + block * kLanes * n, (end - block * kLanes) * n}, n)) {
    return call.chains;
  }
  for (std::size_t c = block * kLanes; c < end; ++c) {
    if (detail::PlainJoints(Pose(call, c), n)) continue;
    if (!detail::MeasureJoints(Pose(call, c), store.lengths.get(), kLanes)) return c;
  }
  return call.chains;
}

// The lengths and totals of the chains in the store's joints, lane by lane as
// detail::MeasureJoints computes them for one chain (the same double operations in the
// same order, so the same floats), with the lanes in the inner loops so that they vectorise
// (this file is compiled without math errno and without contraction: src/CMakeLists.txt).
void MeasureBlock(BlockStore& store) {
  const std::size_t n = store.view.joint_count;
  const float* joints = store.joints.get();
  float* total = store.lane_floats.get();
  alignas(64) float longest[kLanes];
  alignas(64) float shortest[kLanes];
  for (std::size_t s = 0; s + 1 < n; ++s) {
    const float* a = joints + (s + 1) * 3 * kLanes;  // joint s + 1 minus joint s
    const float* b = joints + s * 3 * kLanes;
    float* length = store.lengths.get() + s * kLanes;
    for (std::size_t lane = 0; lane < kLanes; ++lane) {
      const double dx = double(a[lane]) - double(b[lane]);
      const double dy = double(a[kLanes + lane]) - double(b[kLanes + lane]);
      const double dz = double(a[2 * kLanes + lane]) - double(b[2 * kLanes + lane]);
      length[lane] = static_cast<float>(std::sqrt(dx * dx + dy * dy + dz * dz));
    }
    for (std::size_t lane = 0; lane < kLanes; ++lane) {
      const float l = length[lane];
      total[lane] = s == 0 ? l : total[lane] + l;
      longest[lane] = s == 0 ? l : std::max(longest[lane], l);
      shortest[lane] = s == 0 ? l : std::min(shortest[lane], l);
    }
  }
  for (std::size_t lane = 0; lane < kLanes; ++lane) {
    store.lane_floats[kLanes + lane] = batch::MinFastSq(shortest[lane], longest[lane]);
  }
}

// Moves block `block`'s chains into the store (padding lanes: copies of its last chain with
// its own effector as the target, so they never move), solves them, and writes them back.
void SolveBlockOfPoses(const Call& call, std::size_t block, BlockStore& store) {
  const std::size_t n = call.joints;
  const std::size_t first = block * kLanes;
  const std::size_t count = std::min(kLanes, call.chains - first);
  const batch::BlockView& v = store.view;
  float* joints = store.joints.get();
  float* target = v.scratch + batch::kScratchTarget;
  for (std::size_t lane = 0; lane < kLanes; ++lane) {
    const std::size_t c = first + std::min(lane, count - 1);
    const std::span<const glm::vec3> pose = Pose(call, c);
    for (std::size_t j = 0; j < n; ++j) {
      for (std::size_t k = 0; k < 3; ++k) joints[(j * 3 + k) * kLanes + lane] = pose[j][k];
    }
    const glm::vec3 goal = lane < count ? call.targets[c] : pose[n - 1];
    for (std::size_t k = 0; k < 3; ++k) target[k * kLanes + lane] = goal[k];
  }
  MeasureBlock(store);
  std::fill_n(v.distance, kLanes, 0.0f);
  std::fill_n(v.iterations, kLanes, 0);
  std::fill_n(store.flags.get(), 2 * kLanes, std::uint8_t{0});
  batch::SolveBlock(v, call.settings.tolerance, call.settings.max_iterations,
                    call.settings.accelerate);

  for (std::size_t lane = 0; lane < count; ++lane) {
    glm::vec3* pose = call.poses + (first + lane) * n;
    for (std::size_t j = 0; j < n; ++j) {
      const float* p = joints + j * 3 * kLanes + lane;
      pose[j] = {p[0], p[kLanes], p[2 * kLanes]};
    }
  }
  const PackedOutcomes& out = call.out;
  for (std::size_t lane = 0; lane < count; ++lane) {
    const std::size_t c = first + lane;
    if (!out.iterations.empty()) out.iterations[c] = v.iterations[lane];
    if (!out.distance.empty()) out.distance[c] = v.distance[lane];
    if (!out.reached.empty()) out.reached[c] = v.reached[lane] != 0;
    if (!out.reachable.empty()) out.reachable[c] = v.reachable[lane] != 0;
  }
  batch::TallyBlock(v, count, store.tally);
}

template <typename T>
bool WrongSize(std::span<T> s, std::size_t chains) {
  return !s.empty() && s.size() != chains;
}

}  // namespace

Result<BatchSolveResult> SolveFabrikPacked(std::span<glm::vec3> poses, std::size_t joints_per_chain,
                                           std::span<const glm::vec3> targets,
                                           const SolveSettings& settings,
                                           const PackedOutcomes& outcomes, BatchThreads threads) {
  const auto start = std::chrono::steady_clock::now();
  const std::size_t n = joints_per_chain;
  if (std::string error = batch::PackedSizeError(poses.size(), n); !error.empty()) {
    return MakeError(std::move(error));
  }
  const std::size_t chains = poses.size() / n;
  BatchSolveResult result;
  if (const char* error = batch::CheckSolveInput(chains, targets, settings, result.bad_index)) {
    if (result.bad_index < targets.size() && !IsFinite(targets[result.bad_index])) {
      return MakeError("targets[" + std::to_string(result.bad_index) +
                       "] is not finite (NaN or inf)");
    }
    return MakeError(error);
  }
  if (WrongSize(outcomes.iterations, chains) || WrongSize(outcomes.distance, chains) ||
      WrongSize(outcomes.reached, chains) || WrongSize(outcomes.reachable, chains)) {
    return MakeError("each outcome span must be empty or hold one entry per chain (" +
                     std::to_string(chains) + ")");
  }

  const Call call{poses.data(), chains, n, targets, settings, outcomes};
  const std::size_t blocks = (chains + kLanes - 1) / kLanes;
  tbb::enumerable_thread_specific<BlockStore> stores([n] { return BlockStore(n); });
  // Every chain is checked before any is written. Blocks run in any order: each lowers the
  // lowest bad chain seen.
  std::atomic<std::size_t> first_bad{chains};
  batch::ForRange(blocks, threads, [&](std::size_t block) {
    const std::size_t bad = FirstBadChain(call, block, stores.local());
    std::size_t seen = first_bad.load(std::memory_order_relaxed);
    while (bad < seen && !first_bad.compare_exchange_weak(seen, bad)) {
    }
  });
  if (const std::size_t bad = first_bad.load(); bad < chains) {
    const Result<detail::JointMeasure> m =
        detail::MeasureJoints(Pose(call, bad), stores.local().lengths.get(), kLanes);
    return MakeError("chains[" + std::to_string(bad) + "]: " + m.error());
  }

  batch::ForRange(blocks, threads,
                  [&](std::size_t block) { SolveBlockOfPoses(call, block, stores.local()); });
  std::vector<Tally> tallies;
  for (const BlockStore& store : stores) tallies.push_back(store.tally);
  batch::SumTallies(tallies, result);
  result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return result;
}

}  // namespace fabrik
