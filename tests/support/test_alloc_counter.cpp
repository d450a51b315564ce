// The allocation counter itself, in every executable that links it: it must see allocations
// (plain, array and aligned forms, from any thread), or the zeros the no-allocation tests
// expect would prove nothing.
#include <gtest/gtest.h>

#include <atomic>
#include <new>
#include <thread>
#include <vector>

#include "support/alloc_counter.h"

namespace fabrik::testing {
namespace {

TEST(AllocationCounter, SeesAllocations) {
  static std::vector<int>* volatile escape = nullptr;
  AllocationWindow window;
  escape = new std::vector<int>(100);
  const long count = window.Close();
  delete escape;
  EXPECT_GE(count, 2);  // the vector object and its buffer
}

TEST(AllocationCounter, CountsArrayAndAlignedForms) {
  struct alignas(64) Line {
    float x[16];
  };
  static Line* volatile aligned = nullptr;
  static int* volatile array = nullptr;
  AllocationWindow window;
  aligned = new Line;
  array = new int[10];
  const long count = window.Close();
  delete aligned;
  delete[] array;
  EXPECT_EQ(count, 2);
}

TEST(AllocationCounter, CountsOtherThreads) {
  // The thread exists before the window opens (creating it allocates), allocates once inside
  // the window, and says so; the window closes after that.
  std::atomic<int> step{0};
  static int* volatile other = nullptr;
  std::thread worker([&] {
    while (step.load() != 1) std::this_thread::yield();
    other = new int(1);
    step.store(2);
  });
  AllocationWindow window;
  step.store(1);
  while (step.load() != 2) std::this_thread::yield();
  const long count = window.Close();
  worker.join();
  delete other;
  EXPECT_EQ(count, 1);
}

}  // namespace
}  // namespace fabrik::testing
