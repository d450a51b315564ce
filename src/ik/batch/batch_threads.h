// batch_threads.h - how the batched solver shares blocks out over threads (oneTBB): for the
// solve (batch_solve.cpp) and for filling and reading a batch (batch_poses.cpp). Internal to
// src/ik (not installed).
#pragma once

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>
#include <tbb/partitioner.h>
#include <tbb/task_arena.h>

#include <algorithm>
#include <atomic>
#include <cstddef>

#include "ik/batch_fabrik.h"
#include "ik/fork_join_tsan.h"

namespace fabrik::batch {

// Runs f(0) .. f(count - 1), on the calling thread alone or shared out over oneTBB's pool
// (as many threads as the calling thread's task arena allows).
// Shared out, the blocks are dealt one at a time from a counter rather than split in halves
// up front: the calling thread starts at once while a sleeping worker takes tens of
// microseconds to wake (docs/field.md: The batched solver), and with halves the caller would finish
// its own and then wait for the late worker's; from a counter, whoever is free takes the
// next block, so a late worker only takes what is left.
template <typename F>
void ForRange(std::size_t count, BatchThreads threads, const F& f) {
  const std::size_t workers =
      threads == BatchThreads::kAll
          ? std::min(count,
                     static_cast<std::size_t>(std::max(1, tbb::this_task_arena::max_concurrency())))
          : 1;
  if (workers <= 1) {
    for (std::size_t i = 0; i < count; ++i) f(i);
    return;
  }
  alignas(64) std::atomic<std::size_t> next{0};
  // oneTBB's fork and join, stated for ThreadSanitizer builds; the join is at the end of scope.
  const tsan::ForkJoin edges;
  tbb::parallel_for(
      tbb::blocked_range<std::size_t>(0, workers, 1),
      [&](const tbb::blocked_range<std::size_t>&) {
        const tsan::ForkJoin::Body checked(edges);
        for (std::size_t i = next.fetch_add(1, std::memory_order_relaxed); i < count;
             i = next.fetch_add(1, std::memory_order_relaxed)) {
          f(i);
        }
      },
      tbb::simple_partitioner());
}

}  // namespace fabrik::batch
