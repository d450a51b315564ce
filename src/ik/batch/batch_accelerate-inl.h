// batch_accelerate-inl.h - accelerated FABRIK's schedule per lane for the batched solver's
// kernel: which iteration is a textbook one and which a bend-scale step (the one definition
// of bend_step-inl.h, on the block's float vectors), the back-off after a step that was left
// out, and the distance each lane reports. Internal to the batched solver; per-target code
// (Google Highway), included by batch_kernel.cpp once per SIMD target and compiled, like it,
// without floating-point contraction.

// Per-target include guard (Highway's idiom: the file is compiled once per target).
#if defined(FABRIK_IK_BATCH_ACCELERATE_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef FABRIK_IK_BATCH_ACCELERATE_INL_H_
#undef FABRIK_IK_BATCH_ACCELERATE_INL_H_
#else
#define FABRIK_IK_BATCH_ACCELERATE_INL_H_
#endif

#include <hwy/highway.h>

#include <cstddef>
#include <cstdint>

#include "ik/batch/batch_block.h"
#include "ik/bend_step-inl.h"
#include "ik/bend_step.h"
#include "ik/solver.h"

HWY_BEFORE_NAMESPACE();
namespace fabrik::batch {
namespace HWY_NAMESPACE {

// SolveFabrikAccelerated's schedule for every lane of a block. Its solve is one textbook
// iteration, then rounds of [bend-scale step, textbook iteration] - a round after a step that
// was left out skips the step while the lane waits (1, 2, 4, ... rounds) - each kind counting
// one iteration. In the kernel every lane does one of the two per iteration, so the lanes stay
// in lock-step by iteration count while each follows its own schedule.
class AccelerateLanes {
 public:
  // Leaves the working memory uninitialised (~150 KB per block: zeroing it would cost more
  // than the steps); Begin sets what is read.
  AccelerateLanes() {}  // NOLINT(modernize-use-equals-default): = default would zero it
  // At the start of a solve, after the kernel's setup marked the lanes that iterate
  // (kScratchActive): the jump guard from each lane's starting distance, measured as
  // SolveFabrikAccelerated measures it.
  void Begin(const BlockView& b, float tolerance) {
    goal_ = 0.25f * tolerance;
    const std::size_t n = b.joint_count;
    for (std::size_t lane = 0; lane < kLanes; ++lane) {
      gap_[lane] = wait_[lane] = 0;
      after_bend_[lane] = 0;
      applied_[lane] = want_[lane] = on_root_[lane] = 0;
      bend_[lane] = 0.0f;
      max_move_[lane] = 0.0f;
      if (!(b.scratch[kScratchActive + lane] > 0.0f)) continue;
      on_root_[lane] = b.Get(0, lane) == b.Scratch3(kScratchTarget, lane);
      max_move_[lane] =
          bend::kMaxMoveFactor * SafeDistance(b.Get(n - 1, lane), b.Scratch3(kScratchTarget, lane));
    }
  }

  // For an iteration after the first: which of the lanes still iterating (active[lane] > 0)
  // take a bend-scale step now (bend()[lane] = 1) rather than a textbook iteration. Returns
  // whether any does. Each textbook iteration is a solve of its own in SolveFabrikAccelerated,
  // which takes its axis afresh: for a target on the root, from the current effector.
  bool Plan(const BlockView& b, const float* active) {
    bool any = false;
    for (std::size_t lane = 0; lane < kLanes; ++lane) {
      bool bend = false;
      if (active[lane] > 0.0f) {
        if (after_bend_[lane]) {
          after_bend_[lane] = 0;
        } else if (wait_[lane] > 0) {
          --wait_[lane];
        } else {
          bend = true;
          after_bend_[lane] = 1;
        }
      }
      if (active[lane] > 0.0f && !bend && on_root_[lane]) RefreshAxis(b, lane);
      bend_[lane] = bend ? 1.0f : 0.0f;
      want_[lane] = bend;
      any = any || bend;
    }
    return any;
  }
  const float* bend() const { return bend_; }

  // The bend-scale steps Plan chose; a lane whose step was left out waits before the next.
  void Step(const BlockView& b) {
    const bend::BendChains chains{
        b.joints, 3 * kLanes, kLanes,    b.lengths,        kLanes, b.scratch + kScratchTarget,
        kLanes,   b.total,    max_move_, b.joint_count - 1};
    bend::HWY_NAMESPACE::Step(hwy::HWY_NAMESPACE::ScalableTag<float>(), chains, want_, goal_, work_,
                              applied_);
    for (std::size_t lane = 0; lane < kLanes; ++lane) {
      if (!want_[lane]) continue;
      if (applied_[lane]) {
        gap_[lane] = 0;
      } else {
        gap_[lane] = gap_[lane] == 0 ? 1 : 2 * gap_[lane];
        wait_[lane] = gap_[lane];
      }
    }
  }

  // The distance the solve reports after this iteration, for lanes [o, o + count): `distance`
  // holds the kernel's (fabrik.cpp's stopping test); a lane whose step was applied reports
  // |effector - target| in double as SolveFabrikAccelerated does, unless that is not within
  // tolerance while the kernel's is: then the textbook iteration that would follow stops at
  // once (0 iterations) with its own.
  void Distances(const BlockView& b, std::size_t o, std::size_t count, float* distance, bool at_cap,
                 float tolerance) const {
    const std::size_t n = b.joint_count;
    for (std::size_t k = 0; k < count; ++k) {
      const std::size_t lane = o + k;
      if (!want_[lane] || !applied_[lane]) continue;
      const float safe = SafeDistance(b.Get(n - 1, lane), b.Scratch3(kScratchTarget, lane));
      if (safe <= tolerance || at_cap) distance[k] = safe;
    }
  }
  bool AnyApplied(std::size_t o, std::size_t count) const {
    for (std::size_t k = 0; k < count; ++k) {
      if (want_[o + k] && applied_[o + k]) return true;
    }
    return false;
  }

 private:
  float goal_ = 0.0f;
  alignas(64) float bend_[kLanes];
  alignas(64) float max_move_[kLanes];
  std::int32_t gap_[kLanes], wait_[kLanes];
  std::uint8_t after_bend_[kLanes], want_[kLanes], applied_[kLanes];
  std::uint8_t on_root_[kLanes];  // the target is on the root
  bend::BendWork<kLanes, kBendPreSegments> work_;
};

}  // namespace HWY_NAMESPACE
}  // namespace fabrik::batch
HWY_AFTER_NAMESPACE();

#endif  // FABRIK_IK_BATCH_ACCELERATE_INL_H_
