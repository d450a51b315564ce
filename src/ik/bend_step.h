// bend_step.h - what the bend-scale step of accelerated FABRIK (docs/accelerated-fabrik.md)
// works on: the chains, its constants and its working memory. Internal to src/ik (not
// installed). The step itself is bend_step-inl.h, written once over a lane type: one float for
// the single-chain solver (fabrik_accelerated.cpp), a SIMD vector of floats for the batched
// solver (batch_accelerate-inl.h), the same operations in the same order on every lane, so a
// chain's step gives the same floats in both.
#pragma once

#include <cstddef>
#include <cstdint>

namespace fabrik::bend {

// The jump guard of a solve: a bend-scale step may move no joint farther than this many times
// the effector's distance from the target when the solve began.
inline constexpr float kMaxMoveFactor = 3.0f;
// Search budget of one step: the bracketed search converges superlinearly on the smooth
// |effector(s) - root| - |target - root|; the cap only bounds the cost of a pathological pose.
inline constexpr int kMaxEvaluations = 16;
// Curl factors tried, in order, when the effector is farther from the root than the target.
// Fine steps first: a nearly folded joint passes its fold (where the distance dips) within a
// small increase of s; long, gently bent chains need large factors.
inline constexpr float kCurlFactors[] = {1.25f, 1.5f, 2.0f, 3.0f, 5.0f, 9.0f, 17.0f};
inline constexpr std::size_t kCurlCount = sizeof(kCurlFactors) / sizeof(kCurlFactors[0]);
// Chains of more than this many segments sum the search's offsets with compensation (their
// plain float sums would carry rounding of the order of the tolerance at 1,000 joints).
inline constexpr std::size_t kPlainSumSegments = 32;
// The step is tried only on chains whose total length lies in [kMinTotal, kMaxTotal] (it works
// in units of the chain's length); others leave it out.
inline constexpr float kMinTotal = 1e-15f;
inline constexpr float kMaxTotal = 1e15f;

// The chains one step works on, `lanes` of them side by side. Lane k of joint j, coordinate c
// is joints[j * joint_step + c * coord_step + k] (a block of the batch: one chain per lane;
// a single chain: joint_step 3, coord_step 1, one lane); likewise segment i's length
// lengths[i * length_step + k] and the target's coordinate c target[c * coord_step + k]
// (target_step). total[k]: the chain's length (its float lengths summed from the root);
// max_move[k]: the jump guard, world units. All lanes have `segments` segments (>= 1).
struct BendChains {
  float* joints;
  std::size_t joint_step, coord_step;
  const float* lengths;
  std::size_t length_step;
  const float* target;
  std::size_t target_step;
  const float* total;
  const float* max_move;
  std::size_t segments;
};

// Working memory of one step over kCount lanes; chains of up to kPre segments keep their
// segment directions and bends across the step's sweeps (longer ones compute them again in
// each sweep: the same floats, more work). Leaves its arrays uninitialised (the step writes
// before it reads).
template <std::size_t kCount, std::size_t kPre>
struct BendWork {
  BendWork() {}  // NOLINT(modernize-use-equals-default): = default would zero it
  static constexpr std::size_t kLanes = kCount;
  static constexpr std::size_t kPreSegments = kPre;
  static constexpr std::size_t kPreRows = 7;  // direction x, y, z and conj(bend) w, x, y, z
  // [segment][row][lane]
  alignas(64) float pre[kPre * kPreRows * kCount];
  // Per lane: which lanes a sweep serves, its factor, the turn, the sweep's outputs.
  alignas(64) float take[kCount], s[kCount], turn[4][kCount], out[3][kCount];
  // Per lane: 1 / length, and in units of the chain's length |target - root| and the goal;
  // |effector - target| before the step in world units.
  alignas(64) float inv_total[kCount], radius[kCount], current[kCount], goal[kCount];
  alignas(64) float accept[kCount];
  // A copy of joints 1.. (chains of up to kPre segments) while a step writes and measures.
  alignas(64) float backup[kPre * 3 * kCount];
  // The search (Brent-style, bracketed), per lane.
  alignas(64) float st[kCount], x[kCount], best_s[kCount], best_f[kCount], best_o[3][kCount];
  alignas(64) float a[kCount], fa[kCount], b[kCount], fb[kCount], curl[kCount];
  alignas(64) float lo[kCount], flo[kCount], hi[kCount], fhi[kCount];
  alignas(64) float x0[kCount], f0[kCount], x1[kCount], f1[kCount], x2[kCount], f2[kCount];
  alignas(64) float w0[kCount], w1[kCount], squared[kCount], three[kCount], k[kCount];
};

}  // namespace fabrik::bend
