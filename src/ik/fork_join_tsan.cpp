// fork_join_tsan.cpp - the ThreadSanitizer side of ForkJoin (fork_join_tsan.h); compiles to
// nothing in other builds.
#include "fork_join_tsan.h"

#ifdef FABRIK_TSAN

#include <sanitizer/tsan_interface.h>
#include <tbb/task_scheduler_observer.h>

// The runtime's dynamic-annotation entry points (declared by no header of clang 14): ignore
// this thread's reads, and its writes, until the matching End.
extern "C" {
void AnnotateIgnoreReadsBegin(const char* file, int line);
void AnnotateIgnoreReadsEnd(const char* file, int line);
void AnnotateIgnoreWritesBegin(const char* file, int line);
void AnnotateIgnoreWritesEnd(const char* file, int line);
}

namespace fabrik::tsan {
namespace {

void IgnoreBegin() {
  AnnotateIgnoreReadsBegin(__FILE__, __LINE__);
  AnnotateIgnoreWritesBegin(__FILE__, __LINE__);
}

void IgnoreEnd() {
  AnnotateIgnoreWritesEnd(__FILE__, __LINE__);
  AnnotateIgnoreReadsEnd(__FILE__, __LINE__);
}

// A oneTBB worker thread runs the scheduler's code (partly inlined from oneTBB's headers,
// partly in libtbb) whenever it is not in a body: its accesses are ignored from the moment it
// joins the arena until it leaves it, except inside bodies (ForkJoin::Body). The calling
// thread is never a worker: ForkJoin itself ignores it for the length of the loop.
class WorkerIgnore final : public tbb::task_scheduler_observer {
 public:
  WorkerIgnore() { observe(true); }
  ~WorkerIgnore() override { observe(false); }
  void on_scheduler_entry(bool is_worker) override {
    if (is_worker) IgnoreBegin();
  }
  void on_scheduler_exit(bool is_worker) override {
    if (is_worker) IgnoreEnd();
  }
};

// Made at the first loop, before any worker has joined the arena (the workers start with
// the first loop), so every worker is seen entering. A worker that had not been seen would
// end its first body's ignoring below zero, which stops the program with a ThreadSanitizer
// CHECK failure: loud, never a hidden race. Never destroyed: workers may still leave the
// arena while the program exits.
void ObserveWorkers() {
  static WorkerIgnore* const observer = new WorkerIgnore;
  (void)observer;
}

}  // namespace

// sync_[0] is the fork's address, sync_[1] the join's.
ForkJoin::ForkJoin() : sync_(new char[2]) {
  ObserveWorkers();
  __tsan_release(&sync_[0]);  // all the caller did so far happens before every body
  IgnoreBegin();
}

ForkJoin::~ForkJoin() {
  IgnoreEnd();
  __tsan_acquire(&sync_[1]);  // every body's end happens before what the caller does next
  delete[] sync_;
}

// The loop's sync_ is read while this thread's accesses are still ignored (oneTBB's code has
// just handed the body over): the read is not ordered after the fork yet.
ForkJoin::Body::Body(const ForkJoin& loop) : sync_(loop.sync_) {
  IgnoreEnd();
  __tsan_acquire(&sync_[0]);
}

ForkJoin::Body::~Body() {
  // A release merges this thread's clock into the join's: every body's end reaches it.
  __tsan_release(&sync_[1]);
  IgnoreBegin();
}

}  // namespace fabrik::tsan

#endif
