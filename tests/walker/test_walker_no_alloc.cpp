// Walker::Update promises no heap allocation. The executable counts operator new calls
// (tests/support/alloc_counter.h); this test walks a spider across bumps inside an
// AllocationWindow. Direct malloc calls are not counted; the walker makes none.
#include <gtest/gtest.h>

#include "support/alloc_counter.h"
#include "walker/walker.h"
#include "walker_test_util.h"

namespace fabrik {
namespace {

using testing::AllocationWindow;

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
