// fork_join_tsan.h - tells ThreadSanitizer the happens-before edges of a oneTBB parallel loop.
// Internal to the project (not installed); no-ops unless the build has -fsanitize=thread.
//
// oneTBB promises that what the calling thread did before tbb::parallel_for happens before
// every body, and that every body happens before parallel_for returns. Debian's libtbb is not
// built with ThreadSanitizer, so the synchronisation keeping that promise runs where TSan
// cannot see it, and every result a worker writes would be reported as racing with the
// caller's read after the loop. These calls state exactly those two edges and no others: two
// bodies are never ordered by them, so a race between bodies (two workers writing the same
// memory) is still reported.
//
//   tsan::ForkJoin edges;            // on the calling thread, before the loop
//   tbb::parallel_for(..., [&](...) {
//     edges.BodyStart();             // first in each body
//     ...
//     edges.BodyEnd();               // last in each body
//   });
//   edges.Join();                    // after the loop
#pragma once

#if defined(__SANITIZE_THREAD__)
#define FABRIK_TSAN 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define FABRIK_TSAN 1
#endif
#endif

#ifdef FABRIK_TSAN
#include <sanitizer/tsan_interface.h>
#endif

namespace fabrik::tsan {

class ForkJoin {
 public:
#ifdef FABRIK_TSAN
  ForkJoin() { __tsan_release(&fork_); }
  void BodyStart() const { __tsan_acquire(const_cast<char*>(&fork_)); }
  // Release merges this thread's clock into join_'s: every body's end reaches Join().
  void BodyEnd() const { __tsan_release(const_cast<char*>(&join_)); }
  void Join() const { __tsan_acquire(const_cast<char*>(&join_)); }

 private:
  // Two addresses: bodies acquire only the fork's, so no body is ordered after another.
  char fork_ = 0;
  char join_ = 0;
#else
  void BodyStart() const {}
  void BodyEnd() const {}
  void Join() const {}
#endif
};

}  // namespace fabrik::tsan
