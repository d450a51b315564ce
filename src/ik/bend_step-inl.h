// bend_step-inl.h - the bend-scale step of accelerated FABRIK (docs/accelerated-fabrik.md),
// written once over a lane type: Highway float vectors with masks, one chain per lane. The
// single-chain solver (fabrik_accelerated.cpp) runs it on one lane (hn::CappedTag<float, 1>),
// the batched solver (batch_accelerate-inl.h) on whole vectors of a block, so a chain takes the
// same operations in the same order in both and gets the same floats. Internal to src/ik.
//
// Per-target code (Google Highway's idiom): included by batch_kernel.cpp once per SIMD target
// and by fabrik_accelerated.cpp for the static target. Only operations that IEEE 754 defines
// exactly are used (add, subtract, multiply, divide, square root, compare, select), no fused
// multiply-add and no approximate reciprocal, and every file that includes this one is
// compiled with -ffp-contract=off (src/CMakeLists.txt): the floats do not depend on the target.
//
// The step on a chain with segment directions d_i (unit) and bends q_i (the shortest arc from
// d_{i-1} to d_i):
//   * Everything is in units of the chain's length, relative to its root: the offsets stay
//     near 1 whatever the chain's size and place.
//   * One sweep per evaluation of the factor s: R_i(s) = normalise(s + (1 - s) conj(q_i)),
//     M_0 = 1, M_i = M_{i-1} R_i, segment i points along M_i d_i; s = 1 is the current pose,
//     s = 0 the chain straight along d_0, s > 1 curled further. The effector's offset is the
//     sum of the lengths times the new directions. Directions and bends are computed once per
//     step for chains of up to BendWork::kPreSegments segments.
//   * The search for |offset(s)| = |target - root| (bracketed: curl factors beyond the current
//     pose, then inverse quadratic interpolation, secant or bisection, Brent 1973) runs per
//     lane with masks until |f| is within the goal (a quarter of the tolerance).
//   * The turn about the root (the shortest arc from the offset to the target's direction) is
//     applied to each segment's new direction when the pose is written: joint i + 1 = root +
//     the sum of length_j x turn(new direction j) for j <= i, summed with compensation
//     (TwoSum), so each joint is the float nearest to that sum: a segment keeps its length to
//     the rounding of its two joints, and a long chain's effector carries no accumulated
//     rounding. Chains longer than kPlainSumSegments segments sum the search's offsets
//     with compensation too, so their effector lands where the search put it.
//   * Safeguard: the pose is written and measured in one sweep (the lanes that fail a guard
//     get their joints back from a copy; longer chains are measured in a sweep of their own
//     before the write): applied only when the written effector's distance to the target,
//     times (1 + 2^-18), is below the current distance (both computed alike, each within 4
//     float ulps: the true distance strictly drops). Jump guard: where max_move < 2 x the
//     chain's length (else it cannot bite), the step is left out if a joint moves more than
//     max_move.

// Per-target include guard.
#if defined(FABRIK_IK_BEND_STEP_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef FABRIK_IK_BEND_STEP_INL_H_
#undef FABRIK_IK_BEND_STEP_INL_H_
#else
#define FABRIK_IK_BEND_STEP_INL_H_
#endif

#include <hwy/highway.h>

#include <cstddef>
#include <cstdint>
#include <limits>

#include "ik/bend_step.h"

HWY_BEFORE_NAMESPACE();
namespace fabrik::bend {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

template <class V>
struct V3 {
  V x, y, z;
};
template <class V>
struct Q4 {
  V w, x, y, z;
};

template <class D>
HWY_INLINE V3<hn::Vec<D>> Load3(D d, const float* p, std::size_t step) {
  return {hn::Load(d, p), hn::Load(d, p + step), hn::Load(d, p + 2 * step)};
}
template <class V>
HWY_INLINE V3<V> Sub3(const V3<V>& a, const V3<V>& b) {
  return {hn::Sub(a.x, b.x), hn::Sub(a.y, b.y), hn::Sub(a.z, b.z)};
}
template <class V>
HWY_INLINE V3<V> Scale3(const V3<V>& a, V k) {
  return {hn::Mul(a.x, k), hn::Mul(a.y, k), hn::Mul(a.z, k)};
}
template <class V>
HWY_INLINE V Dot(const V3<V>& a, const V3<V>& b) {
  return hn::Add(hn::Add(hn::Mul(a.x, b.x), hn::Mul(a.y, b.y)), hn::Mul(a.z, b.z));
}
template <class V>
HWY_INLINE V Length(const V3<V>& a) {
  return hn::Sqrt(Dot(a, a));
}
template <class V>
HWY_INLINE V3<V> Cross(const V3<V>& a, const V3<V>& b) {
  return {hn::Sub(hn::Mul(a.y, b.z), hn::Mul(b.y, a.z)),
          hn::Sub(hn::Mul(a.z, b.x), hn::Mul(b.z, a.x)),
          hn::Sub(hn::Mul(a.x, b.y), hn::Mul(b.x, a.y))};
}
template <class M, class V>
HWY_INLINE V3<V> Select(const M& m, const V3<V>& a, const V3<V>& b) {
  return {hn::IfThenElse(m, a.x, b.x), hn::IfThenElse(m, a.y, b.y), hn::IfThenElse(m, a.z, b.z)};
}

// v / |v| where v is finite and not zero, else `fallback`. A squared length outside
// [1e-30, 1e30] (subnormal, where its square root loses bits, or overflowed) is not trusted:
// such a lane is divided by its largest component first (a segment a billionth of the chain's
// length in units of that length is one). Lanes inside the range take the cheap form, so
// their floats are those of plain normalisation.
template <class D, class V = hn::Vec<D>>
HWY_INLINE V3<V> UnitOr(D d, const V3<V>& v, const V3<V>& fallback) {
  const V one = hn::Set(d, 1.0f);
  const V sq = Dot(v, v);
  V3<V> unit = Scale3(v, hn::Div(one, hn::Sqrt(sq)));
  const auto fast = hn::And(hn::Gt(sq, hn::Set(d, 1e-30f)), hn::Lt(sq, hn::Set(d, 1e30f)));
  if (HWY_LIKELY(hn::AllTrue(d, fast))) return unit;
  const V big = hn::Max(hn::Max(hn::Abs(v.x), hn::Abs(v.y)), hn::Abs(v.z));
  const auto ok = hn::And(hn::Gt(big, hn::Zero(d)),
                          hn::Lt(big, hn::Set(d, std::numeric_limits<float>::infinity())));
  // Each component divided (not multiplied by 1 / big, which overflows for a subnormal big).
  const V3<V> scaled{hn::Div(v.x, big), hn::Div(v.y, big), hn::Div(v.z, big)};
  const V3<V> careful = Scale3(scaled, hn::Div(one, Length(scaled)));
  unit = Select(fast, unit, careful);
  return Select(hn::Or(fast, ok), unit, fallback);
}

// The shortest-arc rotation taking unit a to unit b; a half turn about a perpendicular of a
// where they are (nearly) opposite.
template <class D, class V = hn::Vec<D>>
HWY_INLINE Q4<V> Arc(D d, const V3<V>& a, const V3<V>& b) {
  const V one = hn::Set(d, 1.0f), zero = hn::Zero(d);
  const V w = hn::Add(one, Dot(a, b));
  const V3<V> v = Cross(a, b);
  const V norm_sq = hn::Add(hn::Mul(w, w), Dot(v, v));
  const V inv = hn::Div(one, hn::Sqrt(norm_sq));
  Q4<V> q{hn::Mul(w, inv), hn::Mul(v.x, inv), hn::Mul(v.y, inv), hn::Mul(v.z, inv)};
  const auto opposite = hn::Not(hn::Gt(norm_sq, hn::Set(d, 1e-12f)));
  if (HWY_UNLIKELY(!hn::AllFalse(d, opposite))) {
    const auto up = hn::Lt(hn::Abs(a.y), hn::Set(d, 0.9f));
    const V3<V> helper{hn::IfThenElse(up, zero, one), hn::IfThenElse(up, one, zero), zero};
    const V3<V> axis = UnitOr(d, Cross(a, helper), V3<V>{zero, zero, one});
    q = {hn::IfThenElse(opposite, zero, q.w), hn::IfThenElse(opposite, axis.x, q.x),
         hn::IfThenElse(opposite, axis.y, q.y), hn::IfThenElse(opposite, axis.z, q.z)};
  }
  return q;
}

// The quaternion product p * q.
template <class V>
HWY_INLINE Q4<V> Mul(const Q4<V>& p, const Q4<V>& q) {
  using hn::Add, hn::Sub, hn::Mul;
  return {Sub(Sub(Sub(Mul(p.w, q.w), Mul(p.x, q.x)), Mul(p.y, q.y)), Mul(p.z, q.z)),
          Sub(Add(Add(Mul(p.w, q.x), Mul(p.x, q.w)), Mul(p.y, q.z)), Mul(p.z, q.y)),
          Sub(Add(Add(Mul(p.w, q.y), Mul(p.y, q.w)), Mul(p.z, q.x)), Mul(p.x, q.z)),
          Sub(Add(Add(Mul(p.w, q.z), Mul(p.z, q.w)), Mul(p.x, q.y)), Mul(p.y, q.x))};
}

// v rotated by unit q: v + 2 (w (u x v) + u x (u x v)), u = q's vector part.
template <class D, class V = hn::Vec<D>>
HWY_INLINE V3<V> Rotate(D d, const Q4<V>& q, const V3<V>& v) {
  const V3<V> u{q.x, q.y, q.z};
  const V3<V> uv = Cross(u, v);
  const V3<V> uuv = Cross(u, uv);
  const V two = hn::Set(d, 2.0f);
  return {hn::Add(v.x, hn::Mul(hn::Add(hn::Mul(uv.x, q.w), uuv.x), two)),
          hn::Add(v.y, hn::Mul(hn::Add(hn::Mul(uv.y, q.w), uuv.y), two)),
          hn::Add(v.z, hn::Mul(hn::Add(hn::Mul(uv.z, q.w), uuv.z), two))};
}

// Compensated summation (Knuth's TwoSum, exact in IEEE arithmetic without contraction): sum
// + v with the rounding error carried in `low`, renormalised so that `sum` is the float
// nearest to the running total.
template <class V>
HWY_INLINE void AddCompensated(V& sum, V& low, V v) {
  const V s = hn::Add(sum, v);
  const V bb = hn::Sub(s, sum);
  const V err = hn::Add(hn::Sub(sum, hn::Sub(s, bb)), hn::Sub(v, bb));
  const V l = hn::Add(low, err);
  sum = hn::Add(s, l);
  low = hn::Sub(l, hn::Sub(sum, s));
}

enum class Mode { kPrecompute, kEvaluate, kMeasure, kWriteMeasure };

// One sweep over the vectors with a lane taking part (w.take):
//   kPrecompute:  the directions d_i and conj(q_i) into w.pre;
//   kEvaluate:    the effector's offset from the root at factor w.s (units of the chain's
//                 length) into w.out[0..2];
//   kMeasure:     the pose the step writes at factor w.s with turn w.turn: joint i + 1 =
//                 root + sum over j <= i of length_j x turn(new direction j), summed with
//                 compensation (each joint the float nearest to that sum: a segment keeps its
//                 length to the rounding of its two joints). Into w.out[0] the largest squared
//                 move of a joint, into w.out[1] the new effector's distance to the target
//                 (world units);
//   kWriteMeasure: the same, and the pose stored into the lanes with w.take.
// Chains longer than kPre segments (!kPre) compute the directions and bends from the pose in
// every sweep (a write reads joint i + 1 before it overwrites it and keeps the old joint for
// the next segment): the same floats. Chains longer than kPlainSumSegments sum the evaluated
// offsets with compensation too, so that a long chain's offset carries no accumulated
// rounding.
// A SIMD kernel longer than 100 lines on purpose: the four modes are one loop over the
// segments whose running state (the frame, the compensated sum, the previous point and
// direction) lives in registers across iterations; split into functions, that state would be
// passed and returned per segment, and the modes would repeat the loop four times.
template <Mode kMode, bool kPre, class D, class Work>
void Sweep(D d, const BendChains& c, Work& w) {
  using V = hn::Vec<D>;
  constexpr std::size_t N = hn::MaxLanes(d);
  static_assert(Work::kLanes % N == 0, "whole vectors");
  constexpr std::size_t L = Work::kLanes;
  const std::size_t m = c.segments;
  constexpr bool kTurned = kMode == Mode::kMeasure || kMode == Mode::kWriteMeasure;
  const bool compensate = m > kPlainSumSegments;
  auto pre = [&](std::size_t i, std::size_t r, std::size_t o) {
    return w.pre + (i * Work::kPreRows + r) * L + o;
  };
  for (std::size_t o = 0; o < L; o += N) {
    const auto take = hn::Gt(hn::Load(d, w.take + o), hn::Zero(d));
    if (hn::AllFalse(d, take)) continue;
    const V zero = hn::Zero(d), one = hn::Set(d, 1.0f);
    const V inv_total = hn::Load(d, w.inv_total + o);
    const V s = hn::Load(d, w.s + o);
    const V t = hn::Sub(one, s);
    const V3<V> root = Load3(d, c.joints + o, c.coord_step);
    V3<V> prev_point = root;
    V3<V> prev_dir{zero, one, zero};
    V3<V> off{zero, zero, zero};
    V3<V> low{zero, zero, zero};  // the compensation of `off`
    V moved = zero;
    Q4<V> frame{one, zero, zero, zero};
    Q4<V> turn = frame;
    if constexpr (kTurned) {
      turn = {hn::Load(d, w.turn[0] + o), hn::Load(d, w.turn[1] + o), hn::Load(d, w.turn[2] + o),
              hn::Load(d, w.turn[3] + o)};
      off = root;  // kTurned sums world positions
    }
    for (std::size_t i = 0; i < m; ++i) {
      float* joint = c.joints + (i + 1) * c.joint_step + o;
      V3<V> point{zero, zero, zero};
      if (!kPre || kTurned) point = Load3(d, joint, c.coord_step);
      V3<V> dir{zero, zero, zero};
      Q4<V> cq{one, zero, zero, zero};
      if constexpr (kPre) {
        dir = {hn::Load(d, pre(i, 0, o)), hn::Load(d, pre(i, 1, o)), hn::Load(d, pre(i, 2, o))};
        if (i > 0) {
          cq = {hn::Load(d, pre(i, 3, o)), hn::Load(d, pre(i, 4, o)), hn::Load(d, pre(i, 5, o)),
                hn::Load(d, pre(i, 6, o))};
        }
      } else {
        dir = UnitOr(d, Scale3(Sub3(point, prev_point), inv_total), prev_dir);
        if (i > 0) {
          const Q4<V> q = Arc(d, prev_dir, dir);
          cq = {q.w, hn::Neg(q.x), hn::Neg(q.y), hn::Neg(q.z)};
        }
        prev_point = point;
        prev_dir = dir;
        if constexpr (kMode == Mode::kPrecompute) {
          const V parts[7] = {dir.x, dir.y, dir.z, cq.w, cq.x, cq.y, cq.z};
          for (std::size_t r = 0; r < (i > 0 ? 7u : 3u); ++r) hn::Store(parts[r], d, pre(i, r, o));
          continue;
        }
      }
      if constexpr (kMode != Mode::kPrecompute) {
        if (i > 0) {
          // R_i(s) = normalise(s + (1 - s) conj(q_i)); M_i = M_{i-1} R_i.
          const Q4<V> r{hn::Add(s, hn::Mul(t, cq.w)), hn::Mul(t, cq.x), hn::Mul(t, cq.y),
                        hn::Mul(t, cq.z)};
          const V norm_sq =
              hn::Add(hn::Add(hn::Add(hn::Mul(r.w, r.w), hn::Mul(r.x, r.x)), hn::Mul(r.y, r.y)),
                      hn::Mul(r.z, r.z));
          const V inv = hn::Div(one, hn::Sqrt(norm_sq));
          frame = Mul(frame, Q4<V>{hn::Mul(r.w, inv), hn::Mul(r.x, inv), hn::Mul(r.y, inv),
                                   hn::Mul(r.z, inv)});
        }
        const V3<V> new_dir = i > 0 ? Rotate(d, frame, dir) : dir;
        const V length = hn::Load(d, c.lengths + i * c.length_step + o);
        if constexpr (kTurned) {
          const V3<V> step = Scale3(Rotate(d, turn, new_dir), length);
          AddCompensated(off.x, low.x, step.x);
          AddCompensated(off.y, low.y, step.y);
          AddCompensated(off.z, low.z, step.z);
          if constexpr (kMode == Mode::kWriteMeasure) {
            hn::BlendedStore(off.x, take, d, joint);
            hn::BlendedStore(off.y, take, d, joint + c.coord_step);
            hn::BlendedStore(off.z, take, d, joint + 2 * c.coord_step);
          }
          const V3<V> delta = Sub3(off, point);
          moved = hn::Max(moved, Dot(delta, delta));
        } else {
          const V3<V> step = Scale3(new_dir, hn::Mul(length, inv_total));
          if (!compensate) {
            off = {hn::Add(off.x, step.x), hn::Add(off.y, step.y), hn::Add(off.z, step.z)};
          } else {
            AddCompensated(off.x, low.x, step.x);
            AddCompensated(off.y, low.y, step.y);
            AddCompensated(off.z, low.z, step.z);
          }
        }
      }
    }
    if constexpr (kMode == Mode::kEvaluate) {
      hn::Store(off.x, d, w.out[0] + o);
      hn::Store(off.y, d, w.out[1] + o);
      hn::Store(off.z, d, w.out[2] + o);
    } else if constexpr (kTurned) {
      hn::Store(moved, d, w.out[0] + o);
      hn::Store(Length(Sub3(off, Load3(d, c.target + o, c.target_step))), d, w.out[1] + o);
    }
  }
}

template <Mode kMode, class D, class Work>
void SweepAll(D d, const BendChains& c, Work& w) {
  if (c.segments <= Work::kPreSegments) {
    Sweep<kMode, true>(d, c, w);
  } else {
    Sweep<kMode, false>(d, c, w);
  }
}

// The search's states per lane, stored as floats.
constexpr float kCurl = 0.0f, kBracketed = 1.0f, kFound = 2.0f, kFailed = 3.0f;

// The next proposal of the bracketed search for the lanes in `m`: inverse quadratic
// interpolation through the last three points when it lands inside the bracket, else the
// secant of the bracket's ends, and bisection when neither is inside or the bracket has not
// halved in two steps (Brent, "Algorithms for Minimization without Derivatives", 1973, ch. 4).
// On [0, 1] the search runs in x = s^2: the straight chain is the distance's maximum, so near
// it f falls off like s^2 and is close to linear in x.
template <class D, class M, class Work>
HWY_INLINE void Propose(D d, Work& w, std::size_t o, M m) {
  using V = hn::Vec<D>;
  const V lo = hn::Load(d, w.lo + o), flo = hn::Load(d, w.flo + o);
  const V hi = hn::Load(d, w.hi + o), fhi = hn::Load(d, w.fhi + o);
  const V k = hn::Load(d, w.k + o);
  const M out_of_budget = hn::And(m, hn::Ge(k, hn::Set(d, static_cast<float>(kMaxEvaluations))));
  const M none = hn::Lt(hn::Load(d, w.best_s + o), hn::Zero(d));
  V st = hn::Load(d, w.st + o);
  st = hn::IfThenElse(out_of_budget, hn::IfThenElse(none, hn::Set(d, kFailed), hn::Set(d, kFound)),
                      st);
  const M go = hn::AndNot(out_of_budget, m);
  const V x0 = hn::Load(d, w.x0 + o), f0 = hn::Load(d, w.f0 + o);
  const V x1 = hn::Load(d, w.x1 + o), f1 = hn::Load(d, w.f1 + o);
  const V x2 = hn::Load(d, w.x2 + o), f2 = hn::Load(d, w.f2 + o);
  V x = hn::Sub(hi, hn::Div(hn::Mul(fhi, hn::Sub(hi, lo)), hn::Sub(fhi, flo)));
  const M three = hn::And(hn::Gt(hn::Load(d, w.three + o), hn::Zero(d)),
                          hn::And(hn::And(hn::Ne(f0, f1), hn::Ne(f1, f2)), hn::Ne(f0, f2)));
  if (!hn::AllFalse(d, hn::And(go, three))) {
    const V iqi = hn::Add(
        hn::Add(hn::Div(hn::Mul(hn::Mul(x0, f1), f2), hn::Mul(hn::Sub(f0, f1), hn::Sub(f0, f2))),
                hn::Div(hn::Mul(hn::Mul(x1, f0), f2), hn::Mul(hn::Sub(f1, f0), hn::Sub(f1, f2)))),
        hn::Div(hn::Mul(hn::Mul(x2, f0), f1), hn::Mul(hn::Sub(f2, f0), hn::Sub(f2, f1))));
    x = hn::IfThenElse(three, iqi, x);
  }
  const V width = hn::Abs(hn::Sub(hi, lo));
  const M inside = hn::And(hn::Gt(x, hn::Min(lo, hi)), hn::Lt(x, hn::Max(lo, hi)));
  const M slow = hn::And(hn::Ge(k, hn::Set(d, 2.0f)),
                         hn::Gt(width, hn::Mul(hn::Set(d, 0.5f), hn::Load(d, w.w1 + o))));
  x = hn::IfThenElse(hn::Or(hn::Not(inside), slow), hn::Mul(hn::Set(d, 0.5f), hn::Add(lo, hi)), x);
  hn::BlendedStore(hn::Load(d, w.w0 + o), go, d, w.w1 + o);
  hn::BlendedStore(width, go, d, w.w0 + o);
  hn::BlendedStore(x, go, d, w.x + o);
  const M squared = hn::Gt(hn::Load(d, w.squared + o), hn::Zero(d));
  hn::BlendedStore(hn::IfThenElse(squared, hn::Sqrt(hn::Max(x, hn::Zero(d))), x), go, d, w.s + o);
  st = hn::IfThenElse(go, hn::Set(d, kBracketed), st);
  hn::Store(st, d, w.st + o);
}

// Starts the bracketed search for the lanes in `m` (bracket [a, b] in w.a, w.fa, w.b, w.fb),
// then its first proposal.
template <class D, class M, class Work>
HWY_INLINE void BeginBracketed(D d, Work& w, std::size_t o, M m) {
  using V = hn::Vec<D>;
  const V a = hn::Load(d, w.a + o), fa = hn::Load(d, w.fa + o);
  const V b = hn::Load(d, w.b + o), fb = hn::Load(d, w.fb + o);
  const V zero = hn::Zero(d);
  hn::BlendedStore(hn::IfThenElseZero(hn::Eq(a, zero), hn::Set(d, 1.0f)), m, d, w.squared + o);
  hn::BlendedStore(a, m, d, w.lo + o);
  hn::BlendedStore(fa, m, d, w.flo + o);
  hn::BlendedStore(b, m, d, w.hi + o);
  hn::BlendedStore(fb, m, d, w.fhi + o);
  hn::BlendedStore(zero, m, d, w.x0 + o);
  hn::BlendedStore(zero, m, d, w.f0 + o);
  hn::BlendedStore(a, m, d, w.x1 + o);
  hn::BlendedStore(fa, m, d, w.f1 + o);
  hn::BlendedStore(b, m, d, w.x2 + o);
  hn::BlendedStore(fb, m, d, w.f2 + o);
  hn::BlendedStore(zero, m, d, w.three + o);
  hn::BlendedStore(hn::Abs(hn::Sub(b, a)), m, d, w.w0 + o);
  hn::BlendedStore(hn::Abs(hn::Sub(b, a)), m, d, w.w1 + o);
  hn::BlendedStore(zero, m, d, w.k + o);
  Propose(d, w, o, m);
}

// The curl factor number `index` (kCurlFactors).
template <class D>
HWY_INLINE hn::Vec<D> CurlFactor(D d, hn::Vec<D> index) {
  hn::Vec<D> s = hn::Set(d, kCurlFactors[0]);
  for (std::size_t c = 1; c < kCurlCount; ++c) {
    s = hn::IfThenElse(hn::Ge(index, hn::Set(d, static_cast<float>(c))),
                       hn::Set(d, kCurlFactors[c]), s);
  }
  return s;
}

// The search's response to the offsets in w.out for the pending lanes of vector o.
template <class D, class Work>
HWY_INLINE void Feed(D d, Work& w, std::size_t o) {
  using V = hn::Vec<D>;
  using M = hn::Mask<D>;
  const V st = hn::Load(d, w.st + o);
  const M pending = hn::Lt(st, hn::Set(d, 1.5f));
  if (hn::AllFalse(d, pending)) return;
  const V3<V> off{hn::Load(d, w.out[0] + o), hn::Load(d, w.out[1] + o), hn::Load(d, w.out[2] + o)};
  const V fs = hn::Sub(Length(off), hn::Load(d, w.radius + o));
  const V s = hn::Load(d, w.s + o);
  const M finite = hn::IsFinite(fs);
  hn::BlendedStore(hn::Set(d, kFailed), hn::AndNot(finite, pending), d, w.st + o);
  const M live = hn::And(pending, finite);
  const M curl = hn::And(live, hn::Eq(st, hn::Set(d, kCurl)));
  const M bracketed = hn::And(live, hn::Eq(st, hn::Set(d, kBracketed)));
  const M negative = hn::Lt(fs, hn::Zero(d));

  // Best so far: every curl evaluation, and bracketed ones that improve on it.
  const V best_f = hn::Load(d, w.best_f + o);
  const M better =
      hn::Or(curl, hn::And(bracketed, hn::Or(hn::Lt(hn::Load(d, w.best_s + o), hn::Zero(d)),
                                             hn::Lt(hn::Abs(fs), hn::Abs(best_f)))));
  hn::BlendedStore(s, better, d, w.best_s + o);
  hn::BlendedStore(fs, better, d, w.best_f + o);
  hn::BlendedStore(off.x, better, d, w.best_o[0] + o);
  hn::BlendedStore(off.y, better, d, w.best_o[1] + o);
  hn::BlendedStore(off.z, better, d, w.best_o[2] + o);

  // Curling: a sign change brackets the root; otherwise the next factor, or no bracket.
  if (!hn::AllFalse(d, curl)) {
    const M bracket = hn::And(curl, negative);
    hn::BlendedStore(s, bracket, d, w.b + o);
    hn::BlendedStore(fs, bracket, d, w.fb + o);
    const M further = hn::AndNot(negative, curl);
    hn::BlendedStore(s, further, d, w.a + o);
    hn::BlendedStore(fs, further, d, w.fa + o);
    const V next = hn::Add(hn::Load(d, w.curl + o), hn::Set(d, 1.0f));
    hn::BlendedStore(next, further, d, w.curl + o);
    const M exhausted = hn::And(further, hn::Ge(next, hn::Set(d, static_cast<float>(kCurlCount))));
    hn::BlendedStore(hn::Set(d, kFailed), exhausted, d, w.st + o);
    hn::BlendedStore(CurlFactor(d, next), hn::AndNot(exhausted, further), d, w.s + o);
    if (!hn::AllFalse(d, bracket)) BeginBracketed(d, w, o, bracket);
  }
  if (hn::AllFalse(d, bracketed)) return;
  const M found = hn::And(bracketed, hn::Le(hn::Abs(fs), hn::Load(d, w.goal + o)));
  hn::BlendedStore(hn::Set(d, kFound), found, d, w.st + o);
  const M go = hn::AndNot(found, bracketed);
  if (hn::AllFalse(d, go)) return;
  const V x = hn::Load(d, w.x + o);
  const M same_as_lo = hn::Not(hn::Xor(negative, hn::Lt(hn::Load(d, w.flo + o), hn::Zero(d))));
  hn::BlendedStore(x, hn::And(go, same_as_lo), d, w.lo + o);
  hn::BlendedStore(fs, hn::And(go, same_as_lo), d, w.flo + o);
  hn::BlendedStore(x, hn::AndNot(same_as_lo, go), d, w.hi + o);
  hn::BlendedStore(fs, hn::AndNot(same_as_lo, go), d, w.fhi + o);
  hn::BlendedStore(hn::Load(d, w.x1 + o), go, d, w.x0 + o);
  hn::BlendedStore(hn::Load(d, w.f1 + o), go, d, w.f0 + o);
  hn::BlendedStore(hn::Load(d, w.x2 + o), go, d, w.x1 + o);
  hn::BlendedStore(hn::Load(d, w.f2 + o), go, d, w.f1 + o);
  hn::BlendedStore(x, go, d, w.x2 + o);
  hn::BlendedStore(fs, go, d, w.f2 + o);
  hn::BlendedStore(hn::Set(d, 1.0f), go, d, w.three + o);
  hn::BlendedStore(hn::Add(hn::Load(d, w.k + o), hn::Set(d, 1.0f)), go, d, w.k + o);
  Propose(d, w, o, go);
}

// The start of a step for vector o: the lane's numbers in units of its length, the search's
// bracket from the straight chain (f(0) = 1 - radius) and the current pose (f(1)).
template <class D, class Work>
HWY_INLINE void Start(D d, const BendChains& c, float goal, Work& w, std::size_t o) {
  using V = hn::Vec<D>;
  using M = hn::Mask<D>;
  const V zero = hn::Zero(d), one = hn::Set(d, 1.0f);
  const V total = hn::Load(d, c.total + o);
  const M sized =
      hn::And(hn::Ge(total, hn::Set(d, kMinTotal)), hn::Le(total, hn::Set(d, kMaxTotal)));
  const M take = hn::And(sized, hn::Gt(hn::Load(d, w.take + o), zero));
  const V inv_total = hn::Div(one, total);
  hn::Store(inv_total, d, w.inv_total + o);
  const V3<V> root = Load3(d, c.joints + o, c.coord_step);
  const V3<V> target = Load3(d, c.target + o, c.target_step);
  const V3<V> effector = Load3(d, c.joints + c.segments * c.joint_step + o, c.coord_step);
  const V radius = Length(Scale3(Sub3(target, root), inv_total));
  const V reach = Length(Scale3(Sub3(effector, root), inv_total));
  hn::Store(radius, d, w.radius + o);
  hn::Store(Length(Sub3(effector, target)), d, w.current + o);
  hn::Store(hn::Mul(hn::Set(d, goal), inv_total), d, w.goal + o);
  hn::Store(hn::Set(d, -1.0f), d, w.best_s + o);
  hn::Store(zero, d, w.best_f + o);
  for (float* best : w.best_o) hn::Store(zero, d, best + o);
  const V f0 = hn::Sub(one, radius);
  const V f1 = hn::Sub(reach, radius);
  const M reachable = hn::And(take, hn::Ge(f0, zero));  // false for NaN too
  const M curl = hn::And(reachable, hn::Ge(f1, zero));
  hn::Store(hn::IfThenElse(curl, one, zero), d, w.a + o);
  hn::Store(hn::IfThenElse(curl, f1, f0), d, w.fa + o);
  hn::Store(one, d, w.b + o);
  hn::Store(f1, d, w.fb + o);
  hn::Store(zero, d, w.curl + o);
  hn::Store(hn::IfThenElse(curl, hn::Set(d, kCurl), hn::Set(d, kFailed)), d, w.st + o);
  hn::Store(CurlFactor(d, zero), d, w.s + o);
  const M bracketed = hn::AndNot(curl, reachable);
  if (!hn::AllFalse(d, bracketed)) BeginBracketed(d, w, o, bracketed);
}

// After the search, for vector o: the turn about the root that points the scaled chain's
// effector at the target (none where the target is on the root), and w.take set to the lanes
// whose search found a factor. Returns whether any did.
template <class D, class Work>
HWY_INLINE bool Aim(D d, const BendChains& c, Work& w, std::size_t o) {
  using V = hn::Vec<D>;
  using M = hn::Mask<D>;
  const V zero = hn::Zero(d), one = hn::Set(d, 1.0f);
  const M found = hn::Eq(hn::Load(d, w.st + o), hn::Set(d, kFound));
  const V inv_total = hn::Load(d, w.inv_total + o);
  const V3<V> root = Load3(d, c.joints + o, c.coord_step);
  const V3<V> target = Load3(d, c.target + o, c.target_step);
  const V3<V> up{zero, one, zero};
  const V3<V> best{hn::Load(d, w.best_o[0] + o), hn::Load(d, w.best_o[1] + o),
                   hn::Load(d, w.best_o[2] + o)};
  const V3<V> u = UnitOr(d, best, up);
  const V3<V> to = UnitOr(d, Scale3(Sub3(target, root), inv_total), up);
  Q4<V> turn = Arc(d, u, to);
  const M aim = hn::Gt(hn::Load(d, w.radius + o), zero);
  turn = {hn::IfThenElse(aim, turn.w, one), hn::IfThenElseZero(aim, turn.x),
          hn::IfThenElseZero(aim, turn.y), hn::IfThenElseZero(aim, turn.z)};
  hn::Store(turn.w, d, w.turn[0] + o);
  hn::Store(turn.x, d, w.turn[1] + o);
  hn::Store(turn.y, d, w.turn[2] + o);
  hn::Store(turn.z, d, w.turn[3] + o);
  hn::Store(hn::Load(d, w.best_s + o), d, w.s + o);
  hn::Store(hn::IfThenElseZero(found, one), d, w.take + o);
  return !hn::AllFalse(d, found);
}

// After a measuring sweep, for vector o: w.accept = the measured lanes (w.take) whose new
// effector is nearer the target (its distance times 1 + 2^-18 below the current one: both
// computed alike, each within 4 float ulps, so the true distance drops) and, where the jump
// guard can bite (max_move < 2 x the chain's length), whose joints move at most max_move.
template <class D, class Work>
HWY_INLINE void Guard(D d, const BendChains& c, Work& w, std::size_t o) {
  using V = hn::Vec<D>;
  using M = hn::Mask<D>;
  const V zero = hn::Zero(d), one = hn::Set(d, 1.0f);
  const M measured = hn::Gt(hn::Load(d, w.take + o), zero);
  const V after = hn::Load(d, w.out[1] + o);
  const M nearer = hn::And(hn::IsFinite(after), hn::Lt(hn::Mul(after, hn::Set(d, 1.0f + 0x1p-18f)),
                                                       hn::Load(d, w.current + o)));
  const V limit = hn::Load(d, c.max_move + o);
  const M guard = hn::Lt(limit, hn::Mul(hn::Set(d, 2.0f), hn::Load(d, c.total + o)));
  const M jump = hn::And(guard, hn::Not(hn::Le(hn::Load(d, w.out[0] + o), hn::Mul(limit, limit))));
  hn::Store(hn::IfThenElseZero(hn::AndNot(jump, hn::And(measured, nearer)), one), d, w.accept + o);
}

// One bend-scale step for every lane with want[k] != 0 of the chains `c` (Work::kLanes of
// them): applied[k] = 1 when it was applied (the lane's joints 1.. moved), else 0 and the lane
// is untouched. goal: how close (world units) the search brings the effector's distance from
// the root to the target's.
template <class D, class Work>
void Step(D d, const BendChains& c, const std::uint8_t* want, float goal, Work& w,
          std::uint8_t* applied) {
  using V = hn::Vec<D>;
  constexpr std::size_t N = hn::MaxLanes(d);
  constexpr std::size_t L = Work::kLanes;
  const V zero = hn::Zero(d), one = hn::Set(d, 1.0f);
  static_assert(Work::kLanes % N == 0, "whole vectors");
  bool any = false;
  for (std::size_t k = 0; k < L; ++k) {
    applied[k] = 0;
    w.take[k] = want[k] ? 1.0f : 0.0f;
    any = any || want[k];
  }
  if (!any || c.segments < 1) return;
  for (std::size_t o = 0; o < L; o += N) Start(d, c, goal, w, o);
  bool pending = true;
  if (c.segments <= Work::kPreSegments) {
    for (std::size_t o = 0; o < L; o += N) {
      hn::Store(hn::IfThenElseZero(hn::Lt(hn::Load(d, w.st + o), hn::Set(d, 1.5f)), one), d,
                w.take + o);
    }
    Sweep<Mode::kPrecompute, false>(d, c, w);
  }
  while (pending) {
    pending = false;
    for (std::size_t o = 0; o < L; o += N) {
      const auto p = hn::Lt(hn::Load(d, w.st + o), hn::Set(d, 1.5f));
      hn::Store(hn::IfThenElseZero(p, one), d, w.take + o);
      pending = pending || !hn::AllFalse(d, p);
    }
    if (!pending) break;
    SweepAll<Mode::kEvaluate>(d, c, w);
    for (std::size_t o = 0; o < L; o += N) Feed(d, w, o);
  }
  bool any_found = false;
  for (std::size_t o = 0; o < L; o += N) any_found = Aim(d, c, w, o) || any_found;
  if (!any_found) return;
  const std::size_t m = c.segments;
  if (m <= Work::kPreSegments) {
    // Written and measured in one sweep; the lanes that fail a guard get their joints back.
    for (std::size_t i = 1; i <= m; ++i) {
      for (std::size_t k = 0; k < 3; ++k) {
        const float* from = c.joints + i * c.joint_step + k * c.coord_step;
        float* to = w.backup + ((i - 1) * 3 + k) * L;
        for (std::size_t o = 0; o < L; o += N) hn::Store(hn::Load(d, from + o), d, to + o);
      }
    }
    Sweep<Mode::kWriteMeasure, true>(d, c, w);
    for (std::size_t o = 0; o < L; o += N) Guard(d, c, w, o);
    for (std::size_t lane = 0; lane < L; ++lane) {
      applied[lane] = w.accept[lane] > 0.0f;
      if (applied[lane] || !(w.take[lane] > 0.0f)) continue;
      for (std::size_t i = 1; i <= m; ++i) {
        for (std::size_t k = 0; k < 3; ++k) {
          c.joints[i * c.joint_step + k * c.coord_step + lane] =
              w.backup[((i - 1) * 3 + k) * L + lane];
        }
      }
    }
    return;
  }
  Sweep<Mode::kMeasure, false>(d, c, w);
  bool write = false;
  for (std::size_t o = 0; o < L; o += N) {
    Guard(d, c, w, o);
    const V accept = hn::Load(d, w.accept + o);
    hn::Store(accept, d, w.take + o);
    write = write || !hn::AllFalse(d, hn::Gt(accept, zero));
  }
  if (!write) return;
  Sweep<Mode::kWriteMeasure, false>(d, c, w);
  for (std::size_t k = 0; k < L; ++k) applied[k] = w.accept[k] > 0.0f;
}

}  // namespace HWY_NAMESPACE
}  // namespace fabrik::bend
HWY_AFTER_NAMESPACE();

#endif  // FABRIK_IK_BEND_STEP_INL_H_
