// race_check.cpp - a deliberate data race, built and run only in the ThreadSanitizer build
// (docs/testing.md "The thread check"). The stage expects ThreadSanitizer to report it and
// fail the program: a TSan build that no longer sees races would pass every other test.
//
// The race runs inside the batched solver's own parallel loop (fabrik::batch::ForRange,
// ik/batch/batch_threads.h), on the two blocks of one loop, so it also shows that the fork and join
// edges stated for ThreadSanitizer (ik/fork_join_tsan.h) order nothing between two bodies.
//
// Exit status: 0 when the loop ran on two threads (ThreadSanitizer then turns it into its own
// failure status on the report); 2 when this machine gives oneTBB fewer than two threads, where
// no race can happen (the ctest checks need the report and fail then).
#include <tbb/task_arena.h>

#include <atomic>
#include <cstdio>

#include "ik/batch/batch_threads.h"

namespace {

int g_shared = 0;  // written by both bodies, with nothing ordering the writes

}  // namespace

int main() {
  if (tbb::this_task_arena::max_concurrency() < 2) {
    std::fprintf(stderr, "race_check: oneTBB has one thread here, no race is possible\n");
    return 2;
  }
  // Relaxed: the count orders nothing (a release/acquire pair would be a real edge and hide
  // the race). The first body waits for the second to start, so the two blocks are sure to
  // run on two threads at once instead of one after the other on the calling thread.
  //
  // The race is run in kRounds loops, each a fresh fork and join, and ThreadSanitizer must
  // report it in one of them (halt_on_error stops the program at the first report). On a
  // heavily loaded machine one round once went unreported (the program printed its line
  // and exited 0). The cause was not found; one candidate is a oneTBB wake-up that
  // ThreadSanitizer does see (libtbb's own code is uninstrumented, the system calls it makes
  // are intercepted), ordering one body after the other's write. Several rounds keep such a
  // miss from failing the check, while a ThreadSanitizer build that sees no races at all
  // still fails it, which is what the check is for.
  constexpr int kRounds = 8;
  for (int round = 0; round < kRounds; ++round) {
    std::atomic<int> started{0};
    fabrik::batch::ForRange(2, fabrik::BatchThreads::kAll, [&](std::size_t block) {
      g_shared = static_cast<int>(block) + 1;  // the race
      started.fetch_add(1, std::memory_order_relaxed);
      while (started.load(std::memory_order_relaxed) < 2) {
      }
    });
  }
  std::printf("race_check: both blocks ran in %d rounds, g_shared = %d\n", kRounds, g_shared);
  return 0;
}
