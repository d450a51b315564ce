// Walker::Update promises no heap allocation. This file replaces the global operator new and
// delete (every form) for the whole test executable with versions that count calls while
// g_counting is set, then walks a spider across bumps inside that window.
//
// The replacements forward to malloc/free (aligned forms: aligned_alloc), so under
// AddressSanitizer every block is still a malloc block freed by free, and ASan's checks keep
// working. Direct malloc calls are not counted; the walker makes none.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <new>

#include "walker/walker.h"
#include "walker_test_util.h"

namespace {

std::atomic<bool> g_counting{false};
std::atomic<long> g_allocations{0};

void* CountedAlloc(std::size_t size) {
  if (g_counting.load(std::memory_order_relaxed)) {
    g_allocations.fetch_add(1, std::memory_order_relaxed);
  }
  void* p = std::malloc(size == 0 ? 1 : size);
  return p;
}

void* CountedAlignedAlloc(std::size_t size, std::align_val_t align) {
  if (g_counting.load(std::memory_order_relaxed)) {
    g_allocations.fetch_add(1, std::memory_order_relaxed);
  }
  const std::size_t a = static_cast<std::size_t>(align);
  const std::size_t rounded = (std::max<std::size_t>(size, 1) + a - 1) / a * a;
  return std::aligned_alloc(a, rounded);
}

// Not inlined into the operator delete replacements: GCC would otherwise pair the free()
// with the operator new it sees at the call site and warn (-Wmismatched-new-delete).
[[gnu::noinline]] void CountedFree(void* p) noexcept { std::free(p); }

}  // namespace

void* operator new(std::size_t size) {
  if (void* p = CountedAlloc(size)) return p;
  throw std::bad_alloc();
}
void* operator new[](std::size_t size) {
  if (void* p = CountedAlloc(size)) return p;
  throw std::bad_alloc();
}
void* operator new(std::size_t size, const std::nothrow_t&) noexcept { return CountedAlloc(size); }
void* operator new[](std::size_t size, const std::nothrow_t&) noexcept {
  return CountedAlloc(size);
}
void* operator new(std::size_t size, std::align_val_t align) {
  if (void* p = CountedAlignedAlloc(size, align)) return p;
  throw std::bad_alloc();
}
void* operator new[](std::size_t size, std::align_val_t align) {
  if (void* p = CountedAlignedAlloc(size, align)) return p;
  throw std::bad_alloc();
}
void* operator new(std::size_t size, std::align_val_t align, const std::nothrow_t&) noexcept {
  return CountedAlignedAlloc(size, align);
}
void* operator new[](std::size_t size, std::align_val_t align, const std::nothrow_t&) noexcept {
  return CountedAlignedAlloc(size, align);
}
void operator delete(void* p) noexcept { CountedFree(p); }
void operator delete[](void* p) noexcept { CountedFree(p); }
void operator delete(void* p, std::size_t) noexcept { CountedFree(p); }
void operator delete[](void* p, std::size_t) noexcept { CountedFree(p); }
void operator delete(void* p, const std::nothrow_t&) noexcept { CountedFree(p); }
void operator delete[](void* p, const std::nothrow_t&) noexcept { CountedFree(p); }
void operator delete(void* p, std::align_val_t) noexcept { CountedFree(p); }
void operator delete[](void* p, std::align_val_t) noexcept { CountedFree(p); }
void operator delete(void* p, std::size_t, std::align_val_t) noexcept { CountedFree(p); }
void operator delete[](void* p, std::size_t, std::align_val_t) noexcept { CountedFree(p); }
void operator delete(void* p, std::align_val_t, const std::nothrow_t&) noexcept { CountedFree(p); }
void operator delete[](void* p, std::align_val_t, const std::nothrow_t&) noexcept {
  CountedFree(p);
}

namespace fabrik {
namespace {

class AllocationWindow {
 public:
  AllocationWindow() {
    g_allocations.store(0);
    g_counting.store(true);
  }
  ~AllocationWindow() { g_counting.store(false); }
  long Close() {
    g_counting.store(false);
    return g_allocations.load();
  }
};

TEST(WalkerNoAlloc, CounterSeesAllocations) {
  static std::vector<int>* volatile escape = nullptr;
  AllocationWindow window;
  escape = new std::vector<int>(100);
  const long count = window.Close();
  delete escape;
  EXPECT_GE(count, 2);
}

// Walking, stepping, turning and recording one leg's solves: no heap allocation once the
// walker exists (only a refused call allocates, for its message). No gtest assertion inside the
// window (they allocate).
TEST(WalkerNoAlloc, UpdateNeverAllocates) {
  for (int legs : {4, 6}) {
    Result<Walker> made = Walker::Create(testing::MakeBumpyGround().map,
                                         WalkerSettings::Spider(legs), {-5.0f, 2.0f}, 1.0f);
    ASSERT_TRUE(made.ok()) << made.error();
    Walker& w = made.value();
    w.SetRecordedLeg(1);
    int steps = 0;
    bool refused = true;
    AllocationWindow window;
    for (int k = 0; k < 900; ++k) {
      const Result<int> r = w.Update(1.0f / 60.0f, {6.0f, 0.0f, -4.0f});
      steps += r.ok() ? r.value() : 0;
    }
    const long allocations = window.Close();
    refused = !w.Update(0.0f, {1.0f, 0.0f, 1.0f}).ok();  // its message is allocated
    EXPECT_EQ(allocations, 0) << legs << " legs";
    EXPECT_EQ(steps, 900);
    EXPECT_GT(w.foot_steps(), 10);
    EXPECT_TRUE(w.recording().recorded());
    EXPECT_TRUE(refused);
  }
}

}  // namespace
}  // namespace fabrik
