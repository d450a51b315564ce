// batch_kernel.cpp - the SIMD kernel of the batched solver: one block of chains, one chain per
// lane, in lock-step (docs/field.md: The batched solver).
//
// Google Highway compiles this file once per x86 target (SSE2 emulation, SSSE3, SSE4, AVX2,
// AVX-512, ...; hwy/foreach_target.h) and HWY_DYNAMIC_DISPATCH picks the best one the CPU
// supports on the first call, so one binary runs on any x86-64.
//
// The arithmetic is FABRIK's reach (Aristidou & Lasenby 2011, algorithm 1) written exactly as
// fabrik.cpp writes it - d = p - q, r2 = (dx dx + dy dy) + dz dz, p' = q + d (len / sqrt r2) -
// with IEEE square root and division, and this file is compiled without floating-point
// contraction (no fused multiply-add), so a lane computes the same floats as SolveFabrik.
// Lanes whose numbers leave the float fast range, lanes out of reach, and lanes caught in
// the straight-chain trap are handed to the per-lane scalar code (batch_lane.cpp) at the
// exact point where fabrik.cpp takes its special path.
//
// Latency: one reach is a chain of ~40 cycles (square root, then division, then the update),
// and the next joint needs its result. The joint loop is therefore outside the loop over the
// block's vectors: a 128-lane block is 8 independent AVX-512 vectors (16 AVX2 ones) whose
// reaches overlap in the out-of-order core.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "ik/batch/batch_kernel.cpp"
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>

// Accelerated FABRIK's per-lane schedule and bend-scale step, per target like this file.
#include <bitset>
#include <cstdint>
#include <cstring>
#include <new>
#include <type_traits>
#include <vector>

#include "ik/batch/batch_accelerate-inl.h"
#include "ik/batch/batch_block.h"

HWY_BEFORE_NAMESPACE();
namespace fabrik::batch {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// Calls f(lane) for every lane set in mask m of the vector starting at lane `base`.
template <class D, class M, class F>
HWY_INLINE void ForEachLane(D d, M m, std::size_t base, F&& f) {
  if (HWY_LIKELY(hn::AllFalse(d, m))) return;  // the common case: one mask test
  std::uint8_t bytes[8] = {};
  hn::StoreMaskBits(d, m, bytes);
  std::uint64_t bits;
  std::memcpy(&bits, bytes, sizeof(bits));
  while (bits != 0) {
    f(base + static_cast<std::size_t>(__builtin_ctzll(bits)));
    bits &= bits - 1;
  }
}

// One vector of FABRIK reaches (fabrik.cpp's fast reach): joint i of the lanes in `go` slides
// towards joint `anchor` (its child in the backward pass, its parent in the forward pass)
// until it is segment `seg`'s length from it. Lanes whose squared distance leaves the float
// fast range are left alone here and handed to `careful(lane)`, the scalar reach.
template <class D, class M, class V, class F>
HWY_INLINE void ReachVector(D d, const BlockView& b, std::size_t i, std::size_t anchor,
                            std::size_t seg, std::size_t o, M go, V max_sq, F&& careful) {
  float* px = b.coord(i, 0) + o;
  float* py = b.coord(i, 1) + o;
  float* pz = b.coord(i, 2) + o;
  const float* qx = b.coord(anchor, 0) + o;
  const auto x = hn::Load(d, px);
  const auto y = hn::Load(d, py);
  const auto z = hn::Load(d, pz);
  const auto ax = hn::Load(d, qx);
  const auto ay = hn::Load(d, qx + kLanes);
  const auto az = hn::Load(d, qx + 2 * kLanes);
  const auto dx = hn::Sub(x, ax);
  const auto dy = hn::Sub(y, ay);
  const auto dz = hn::Sub(z, az);
  const auto sq = hn::Add(hn::Add(hn::Mul(dx, dx), hn::Mul(dy, dy)), hn::Mul(dz, dz));
  const auto s = hn::Div(hn::Load(d, b.lengths + seg * kLanes + o), hn::Sqrt(sq));
  const M fast = hn::And(hn::Gt(sq, hn::Load(d, b.min_fast_sq + o)), hn::Lt(sq, max_sq));
  const M update = hn::And(go, fast);
  hn::Store(hn::IfThenElse(update, hn::Add(ax, hn::Mul(dx, s)), x), d, px);
  hn::Store(hn::IfThenElse(update, hn::Add(ay, hn::Mul(dy, s)), y), d, py);
  hn::Store(hn::IfThenElse(update, hn::Add(az, hn::Mul(dz, s)), z), d, pz);
  ForEachLane(d, hn::AndNot(fast, go), o, careful);
}

// fabrik.cpp's fast range for squared lengths: outside it a lane takes the scalar path.
constexpr float kMinFastSquare = 1e-30f;
constexpr float kMaxFastSquare = 1e30f;

// The squared length of (x, y, z), summed in fabrik.cpp's order.
template <class V>
HWY_INLINE V SquaredLength(V x, V y, V z) {
  return hn::Add(hn::Add(hn::Mul(x, x), hn::Mul(y, y)), hn::Mul(z, z));
}

// The start of the vector of lanes at offset o: reachability, starting distance, axis, trap
// flags; lanes outside the fast range or out of reach are set up by SetupLane (which marks in
// `straightened` those it laid straight). Returns the lanes that iterate; `can_trap` those of
// them that can fall into the straight-chain trap.
template <class D>
HWY_INLINE hn::Mask<D> StartVector(D d, const BlockView& b, std::size_t o, float tolerance,
                                   std::bitset<kLanes>& straightened, hn::Mask<D>& can_trap) {
  using M = hn::Mask<D>;
  const hn::RebindToSigned<D> di;
  const std::size_t n = b.joint_count;
  const auto tol = hn::Set(d, tolerance);
  const auto min_sq = hn::Set(d, kMinFastSquare);
  const auto max_sq = hn::Set(d, kMaxFastSquare);
  const float* t = b.scratch + kScratchTarget + o;
  float* axis = b.scratch + kScratchAxis + o;
  const auto gx = hn::Load(d, t);
  const auto gy = hn::Load(d, t + kLanes);
  const auto gz = hn::Load(d, t + 2 * kLanes);
  const auto ax = hn::Sub(gx, hn::Load(d, b.coord(0, 0) + o));
  const auto ay = hn::Sub(gy, hn::Load(d, b.coord(0, 1) + o));
  const auto az = hn::Sub(gz, hn::Load(d, b.coord(0, 2) + o));
  const auto sq_root = SquaredLength(ax, ay, az);
  const auto sq_eff = SquaredLength(hn::Sub(hn::Load(d, b.coord(n - 1, 0) + o), gx),
                                    hn::Sub(hn::Load(d, b.coord(n - 1, 1) + o), gy),
                                    hn::Sub(hn::Load(d, b.coord(n - 1, 2) + o), gz));
  const auto total = hn::Load(d, b.total + o);
  const auto root_distance = hn::Sqrt(sq_root);
  const auto distance = hn::Sqrt(sq_eff);
  const M normal = hn::And(hn::And(hn::And(hn::Gt(sq_root, min_sq), hn::Lt(sq_root, max_sq)),
                                   hn::And(hn::Gt(sq_eff, min_sq), hn::Lt(sq_eff, max_sq))),
                           hn::Le(root_distance, total));
  const M go = hn::And(normal, hn::Gt(distance, tol));
  hn::Store(hn::Div(ax, root_distance), d, axis);
  hn::Store(hn::Div(ay, root_distance), d, axis + kLanes);
  hn::Store(hn::Div(az, root_distance), d, axis + 2 * kLanes);
  const auto eps = hn::Mul(hn::Set(d, 1e-5f), total);
  hn::Store(hn::Mul(eps, eps), d, b.scratch + kScratchEpsSq + o);
  const auto one = hn::Set(d, 1.0f);
  hn::Store(hn::IfThenElseZero(go, one), d, b.scratch + kScratchActive + o);
  hn::Store(hn::IfThenElseZero(hn::Lt(root_distance, hn::Sub(total, tol)), one), d,
            b.scratch + kScratchCanTrap + o);
  hn::BlendedStore(distance, normal, d, b.distance + o);
  hn::BlendedStore(hn::Zero(di), hn::RebindMask(di, normal), di, b.iterations + o);
  ForEachLane(d, hn::Not(normal), o, [&](std::size_t lane) {
    if (SetupLane(b, lane, tolerance)) straightened.set(lane);
  });
  const M active = hn::Gt(hn::Load(d, b.scratch + kScratchActive + o), hn::Zero(d));
  can_trap = hn::And(active, hn::Gt(hn::Load(d, b.scratch + kScratchCanTrap + o), hn::Zero(d)));
  return active;
}

// The straight-chain trap (fabrik.cpp): lanes of `m` whose joint 1 is on the axis are checked
// in full by the scalar code (LaneIsCollinear); those entirely on it are set in `trapped`.
template <class D>
HWY_INLINE void FindTrapped(D d, const BlockView& b, std::size_t o, hn::Mask<D> m,
                            std::bitset<kLanes>& trapped) {
  if (hn::AllFalse(d, m)) return;
  const float* axis = b.scratch + kScratchAxis + o;
  const auto px = hn::Sub(hn::Load(d, b.coord(1, 0) + o), hn::Load(d, b.coord(0, 0) + o));
  const auto py = hn::Sub(hn::Load(d, b.coord(1, 1) + o), hn::Load(d, b.coord(0, 1) + o));
  const auto pz = hn::Sub(hn::Load(d, b.coord(1, 2) + o), hn::Load(d, b.coord(0, 2) + o));
  const auto qx = hn::Load(d, axis);
  const auto qy = hn::Load(d, axis + kLanes);
  const auto qz = hn::Load(d, axis + 2 * kLanes);
  const auto cx = hn::Sub(hn::Mul(py, qz), hn::Mul(qy, pz));
  const auto cy = hn::Sub(hn::Mul(pz, qx), hn::Mul(qz, px));
  const auto cz = hn::Sub(hn::Mul(px, qy), hn::Mul(qx, py));
  const auto off = SquaredLength(cx, cy, cz);
  const auto on_line = hn::And(m, hn::Le(off, hn::Load(d, b.scratch + kScratchEpsSq + o)));
  ForEachLane(d, on_line, o, [&](std::size_t lane) {
    if (LaneIsCollinear(b, lane)) trapped.set(lane);
  });
}

// The textbook passes on the vectors `moving` (each lane of go[v]): backward, effector onto
// the target, then joints n-2 .. 1 towards it (joint 0's backward position is never used: the
// forward pass puts the root back), with the trap's escape at joint n-2; forward, the root
// stays and joints 1 .. n-1 go towards their parents.
template <class D>
HWY_INLINE void TextbookPasses(D d, const BlockView& b, const std::size_t* moving,
                               std::size_t moving_count, const hn::Mask<D>* go,
                               const hn::Mask<D>* can_trap) {
  constexpr std::size_t N = hn::MaxLanes(d);
  const std::size_t n = b.joint_count;
  const auto max_sq = hn::Set(d, kMaxFastSquare);
  const float* target = b.scratch + kScratchTarget;
  std::bitset<kLanes> trapped;
  for (std::size_t k = 0; k < moving_count; ++k) {
    const std::size_t v = moving[k];
    const std::size_t o = v * N;
    for (std::size_t c = 0; c < 3; ++c) {
      float* p = b.coord(n - 1, c) + o;
      hn::Store(hn::IfThenElse(go[v], hn::Load(d, target + c * kLanes + o), hn::Load(d, p)), d, p);
    }
    FindTrapped(d, b, o, hn::And(go[v], can_trap[v]), trapped);
  }
  for (std::size_t i = n - 1; i-- > 1;) {
    for (std::size_t k = 0; k < moving_count; ++k) {
      const std::size_t v = moving[k];
      ReachVector(d, b, i, i + 1, i, v * N, go[v], max_sq,
                  [&](std::size_t lane) { CarefulReachBackward(b, lane, i); });
    }
    if (i == n - 2) {
      for (std::size_t lane = 0; trapped.any() && lane < kLanes; ++lane) {
        if (trapped.test(lane)) EscapeTrap(b, lane);
      }
    }
  }
  for (std::size_t i = 1; i < n; ++i) {
    for (std::size_t k = 0; k < moving_count; ++k) {
      const std::size_t v = moving[k];
      ReachVector(d, b, i, i - 1, i - 1, v * N, go[v], max_sq,
                  [&](std::size_t lane) { CarefulReachForward(b, lane, i); });
    }
  }
}

// The stopping test of the vector at offset o after `iteration`: lanes within tolerance, or
// every lane at the cap, record their distance and iterations and leave `active`, which is
// returned. Lanes outside the fast range measure their distance in double
// (SaturatedDistance); lanes whose bend-scale step was applied take its distance (acc).
template <class D>
HWY_INLINE hn::Mask<D> StopVector(D d, const BlockView& b, std::size_t o, hn::Mask<D> active,
                                  int iteration, bool at_cap, float tolerance,
                                  AccelerateLanes* acc) {
  using M = hn::Mask<D>;
  constexpr std::size_t N = hn::MaxLanes(d);
  const hn::RebindToSigned<D> di;
  const std::size_t n = b.joint_count;
  const float* t = b.scratch + kScratchTarget + o;
  const auto sq =
      SquaredLength(hn::Sub(hn::Load(d, b.coord(n - 1, 0) + o), hn::Load(d, t)),
                    hn::Sub(hn::Load(d, b.coord(n - 1, 1) + o), hn::Load(d, t + kLanes)),
                    hn::Sub(hn::Load(d, b.coord(n - 1, 2) + o), hn::Load(d, t + 2 * kLanes)));
  auto distance = hn::Sqrt(sq);
  const M odd = hn::AndNot(
      hn::And(hn::Gt(sq, hn::Set(d, kMinFastSquare)), hn::Lt(sq, hn::Set(d, kMaxFastSquare))),
      active);
  const bool applied = acc != nullptr && acc->AnyApplied(o, N);
  if (!hn::AllFalse(d, odd) || applied) {
    HWY_ALIGN float lanes[N];
    hn::Store(distance, d, lanes);
    ForEachLane(d, odd, o, [&](std::size_t lane) { lanes[lane - o] = SaturatedDistance(b, lane); });
    if (applied) acc->Distances(b, o, N, lanes, at_cap, tolerance);
    distance = hn::Load(d, lanes);
  }
  const M stop = at_cap ? active : hn::And(active, hn::Le(distance, hn::Set(d, tolerance)));
  hn::BlendedStore(distance, stop, d, b.distance + o);
  hn::BlendedStore(hn::Set(di, iteration), hn::RebindMask(di, stop), di, b.iterations + o);
  return hn::AndNot(stop, active);
}

// The whole block in lock-step: each iteration runs the textbook passes on the lanes that
// take them (accelerated FABRIK: a bend-scale step on the others, bend_step-inl.h), then the
// stopping test; vectors whose lanes have all stopped are skipped from then on.
void SolveBlockImpl(const BlockView& b, float tolerance, int max_iterations, bool accelerate) {
  constexpr hn::ScalableTag<float> d;
  constexpr std::size_t N = hn::MaxLanes(d);
  constexpr std::size_t kVecs = kLanes / N;
  static_assert(kLanes % N == 0 && N <= 64, "a block is a whole number of vectors");
  using M = hn::Mask<decltype(d)>;

  std::bitset<kLanes> straightened;
  M active[kVecs];
  M can_trap[kVecs];
  for (std::size_t v = 0; v < kVecs; ++v) {
    active[v] = StartVector(d, b, v * N, tolerance, straightened, can_trap[v]);
  }

  // Accelerated FABRIK's per-lane schedule (constructed only when used: its working memory is
  // ~150 KB). Default-initialised in place: std::optional's emplace() value-initialises, which
  // would zero the whole working memory per block, more than a cold block's bend steps cost.
  static_assert(std::is_trivially_destructible_v<AccelerateLanes>);
  alignas(AccelerateLanes) unsigned char acc_storage[sizeof(AccelerateLanes)];
  AccelerateLanes* acc = nullptr;
  if (accelerate) {
    acc = new (acc_storage) AccelerateLanes;
    acc->Begin(b, tolerance);
  }
  HWY_ALIGN float active_flags[kLanes];
  M go[kVecs];

  for (int iteration = 1;; ++iteration) {
    std::size_t live[kVecs];
    std::size_t live_count = 0;
    for (std::size_t v = 0; v < kVecs; ++v) {
      if (!hn::AllFalse(d, active[v])) live[live_count++] = v;
    }
    if (live_count == 0) break;
    // After the first iteration each lane of an accelerated solve takes either a textbook
    // iteration (go) or a bend-scale step.
    bool bending = false;
    if (accelerate && iteration >= 2) {
      for (std::size_t v = 0; v < kVecs; ++v) {
        hn::Store(hn::IfThenElseZero(active[v], hn::Set(d, 1.0f)), d, active_flags + v * N);
      }
      bending = acc->Plan(b, active_flags);
    }
    // The vectors with a lane taking the textbook passes: in an iteration where every lane of
    // a vector takes a bend-scale step, its passes are skipped rather than run fully masked.
    std::size_t moving[kVecs];
    std::size_t moving_count = 0;
    for (std::size_t k = 0; k < live_count; ++k) {
      const std::size_t v = live[k];
      go[v] = bending ? hn::AndNot(hn::Gt(hn::Load(d, acc->bend() + v * N), hn::Zero(d)), active[v])
                      : active[v];
      if (!hn::AllFalse(d, go[v])) moving[moving_count++] = v;
    }
    TextbookPasses(d, b, moving, moving_count, go, can_trap);
    if (bending) acc->Step(b);
    const bool at_cap = iteration >= max_iterations;
    for (std::size_t k = 0; k < live_count; ++k) {
      const std::size_t v = live[k];
      active[v] =
          StopVector(d, b, v * N, active[v], iteration, at_cap, tolerance, bending ? acc : nullptr);
    }
  }

  for (std::size_t lane = 0; lane < kLanes; ++lane) {
    if (straightened.test(lane)) continue;
    b.reachable[lane] = 1;
    b.reached[lane] = b.distance[lane] <= tolerance;
  }
}

}  // namespace HWY_NAMESPACE
}  // namespace fabrik::batch
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace fabrik::batch {

HWY_EXPORT(SolveBlockImpl);

void SolveBlock(const BlockView& block, float tolerance, int max_iterations, bool accelerate) {
  HWY_DYNAMIC_DISPATCH(SolveBlockImpl)(block, tolerance, max_iterations, accelerate);
}

std::vector<std::int64_t> CompiledSimdTargets() {
  std::vector<std::int64_t> targets;
  // Highway's better targets have lower bits: the lowest set bit first.
  for (std::int64_t bits = hwy::SupportedTargets() & HWY_TARGETS; bits != 0; bits &= bits - 1) {
    targets.push_back(bits & -bits);
  }
  return targets;
}

}  // namespace fabrik::batch

namespace fabrik {

const char* BatchSimdTarget() {
  // The best target both compiled here and supported by this CPU: the lowest set bit.
  const std::int64_t usable = hwy::SupportedTargets() & HWY_TARGETS;
  return hwy::TargetName(usable & -usable);
}

}  // namespace fabrik
#endif  // HWY_ONCE
