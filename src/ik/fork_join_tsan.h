// fork_join_tsan.h - tells ThreadSanitizer the happens-before edges of a oneTBB parallel loop.
// Internal to the project (not installed); every call is a no-op unless the build has
// -fsanitize=thread (the thread check of docs/testing.md).
//
// oneTBB promises that what the calling thread did before tbb::parallel_for happens before
// every body, and that every body happens before parallel_for returns. Debian's libtbb is not
// built with ThreadSanitizer, so the synchronisation keeping that promise runs where TSan
// cannot see it: every result a worker writes would be reported as racing with the caller's
// read after the loop. ForkJoin states exactly those two edges and no others: two bodies are
// never ordered by them, so a race between bodies (two workers writing the same memory) is
// still reported.
//
// It also leaves oneTBB's own work out of the check, as its library is: a thread's memory
// accesses are ignored while it runs oneTBB's scheduling code (the caller between the fork and
// the join, outside its bodies; a worker whenever it is not in a body: see fork_join_tsan.cpp),
// since that code's other half, inside libtbb, is invisible and the half TSan sees would
// be reported against it. Every body, and everything outside the loop, stays fully checked.
//
//   {
//     const tsan::ForkJoin edges;  // the fork: on the calling thread, just before the loop
//     tbb::parallel_for(..., [&](...) {
//       const tsan::ForkJoin::Body body(edges);  // first in each body
//       ...
//     });
//   }  // the join: when edges goes out of scope, after the loop has returned
#pragma once

#if defined(__SANITIZE_THREAD__)
#define FABRIK_TSAN 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define FABRIK_TSAN 1
#endif
#endif

namespace fabrik::tsan {

#ifdef FABRIK_TSAN

class ForkJoin {
 public:
  ForkJoin();   // the fork edge; then ignores the caller's accesses outside bodies
  ~ForkJoin();  // checks the caller again; the join edge (every body's end happens before)
  ForkJoin(const ForkJoin&) = delete;
  ForkJoin& operator=(const ForkJoin&) = delete;

  // One body's run, on whichever thread oneTBB gives it: checked, after the fork edge.
  class Body {
   public:
    explicit Body(const ForkJoin& loop);
    ~Body();
    Body(const Body&) = delete;
    Body& operator=(const Body&) = delete;

   private:
    char* const sync_;
  };

 private:
  // Two addresses of one heap block: bodies acquire only the fork's, so no body is ordered
  // after another. On the heap, not in the object: freeing the block drops the two
  // synchronisation records, so nothing later at a reused stack address inherits them.
  char* const sync_;
};

#else

class ForkJoin {
 public:
  class Body {
   public:
    explicit Body(const ForkJoin&) {}
  };
};

#endif

}  // namespace fabrik::tsan
