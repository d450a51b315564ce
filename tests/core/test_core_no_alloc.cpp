// The app core promises no heap allocation per frame in steady state (drag, spline and
// script modes): a frame's commands, script, target and solve reuse their storage. This
// file replaces the global operator new and delete (every form) for the whole test
// executable with versions that count calls while g_counting is set, warms a headless core
// up, then counts over hundreds of frames. The state line (--state-out, JSON text) is output
// built on request and is not part of the frame.
#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <new>

#include "core_test_util.h"

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

long CountFrames(testing::Core& core, int frames, void (*each)(testing::Core&, int)) {
  g_allocations = 0;
  g_counting = true;
  for (int i = 0; i < frames; ++i) {
    if (each != nullptr) each(core, i);
    core.Frames(1);
  }
  g_counting = false;
  return g_allocations.load();
}

// The cursor sweeping across the scene: one drag move per frame.
void Sweep(testing::Core& core, int i) {
  const float x = -2.0f + 4.0f * static_cast<float>(i % 100) / 100.0f;
  core.Send(app::DragMove{Ray{{x, 2.0f, 10.0f}, {0.0f, 0.0f, -1.0f}}});
}

TEST(AppNoAlloc, DragModeFramesAllocateNothing) {
  testing::Core core;
  core.Send(app::DragStart{{Grab::Kind::kTarget, -1}, core.state().target(), {0, 0, -1}});
  for (int i = 0; i < 120; ++i) {
    Sweep(core, i);
    core.Frames(1);
  }
  ASSERT_TRUE(core.state().drag.dragging);
  EXPECT_EQ(CountFrames(core, 300, Sweep), 0);
}

TEST(AppNoAlloc, SplineModeFramesAllocateNothing) {
  testing::Core core;
  core.Run("spline load assets/splines/trefoil.txt");
  core.Frames(120);
  EXPECT_EQ(CountFrames(core, 300, nullptr), 0);
  EXPECT_EQ(core.state().mode, TargetMode::kSpline);
}

TEST(AppNoAlloc, OrientedSplineFramesWithRotationsAllocateNothing) {
  // The oriented solve, the rotations of every bone and the skin and axes switches (README:
  // Rotations, orientation target and skinning), in the chain, the arm and the creature.
  for (const char* scene : {"chain", "arm", "creature"}) {
    testing::Core core;
    core.Run(std::string("scene ") + scene);
    core.Run("spline load assets/splines/trefoil.txt");
    core.Run("orient 30 100 0");
    core.Run("skin on");
    core.Run("axes on");
    core.Frames(120);
    EXPECT_EQ(CountFrames(core, 300, nullptr), 0) << scene;
    EXPECT_TRUE(core.Json()["rotations"].is_array()) << scene;
  }
}

TEST(AppNoAlloc, ScriptModeFramesBetweenLinesAllocateNothing) {
  // Glides a second long and three seconds apart: the frames counted are between lines.
  const std::string path = testing::WriteTempFile(
      "glides.txt", "at 0 target 1 2 0 over 1\nat 10 target -1 2 1 over 1\n");
  testing::Core core;
  core.Run("script run " + path);
  core.Frames(30);
  EXPECT_EQ(CountFrames(core, 300, nullptr), 0);  // frames 31 to 330: gliding, then holding
  EXPECT_TRUE(core.state().script.running);
}

TEST(AppNoAlloc, FieldFramesAllocateNothing) {
  // The field scene owns its batch, targets and pose buffer: a frame that moves the target
  // and solves 1,000 chains reuses them all.
  StartOptions options = testing::FixedStep();
  options.chains = 1000;
  testing::Core core(options);
  core.Run("scene field");
  core.Run("spline load assets/splines/trefoil.txt");
  core.Frames(60);
  EXPECT_EQ(CountFrames(core, 200, nullptr), 0);
  EXPECT_EQ(core.state().scene.name(), "field");
}

TEST(AppNoAlloc, TheCounterSeesAllocations) {
  // The test can fail: a frame that rebuilds the chain allocates, and is counted.
  testing::Core core;
  core.Frames(10);
  EXPECT_GT(CountFrames(core, 1, [](testing::Core& c, int) { c.Type("joints 12"); }), 0);
}

}  // namespace
}  // namespace fabrik
