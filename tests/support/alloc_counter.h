// alloc_counter.h - counting heap allocations in a test executable, for the tests of the
// "no heap allocation" promises (SolveFabrik and the batched solver, Walker::Update, the
// app core's steady-state frames).
//
// Linking alloc_counter.cpp into a test executable replaces the global operator new and
// delete (every form) for that whole executable with versions that count the calls of any
// thread while an AllocationWindow is open. The replacements forward to malloc/free (aligned
// forms: aligned_alloc), so under AddressSanitizer (the `asan` preset, which replaces
// operator new too) every block is still a malloc block freed by free, and ASan's checks keep
// working. Direct malloc calls are not counted.
#pragma once

namespace fabrik::testing {

// Counts the allocations made while it is open (from construction to Close() or
// destruction). Only one may be open at a time. Nothing inside the window may use gtest
// assertions (they allocate their messages): check the count after Close().
class AllocationWindow {
 public:
  AllocationWindow();   // resets the count to 0 and starts counting
  ~AllocationWindow();  // stops counting
  AllocationWindow(const AllocationWindow&) = delete;
  AllocationWindow& operator=(const AllocationWindow&) = delete;

  // Stops counting; returns the number of operator new calls (any form) since opening.
  long Close();
};

}  // namespace fabrik::testing
