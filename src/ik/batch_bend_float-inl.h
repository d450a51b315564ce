// batch_bend_float-inl.h - the bend-scale step of accelerated FABRIK (fabrik_accelerated.h)
// for the lanes of one block in float SIMD: the sweeps, the 1-D search, the turn and both
// guards all vectorised, one chain per float lane. Internal to the batched solver.
//
// Per-target code (Google Highway): included (through batch_accelerate-inl.h) by
// batch_kernel.cpp once per SIMD target and compiled, like it, without floating-point
// contraction.
//
// What it computes: the step BendScaleStep takes (same family of poses, same search, same
// guards), in float rather than double, so a lane lands on the factor the single-chain solver
// finds to within the search goal rather than bitwise on its pose (docs/performance-batch.md).
// The differences from the double step, and why they are cheap:
//   * One sweep per evaluation, ~60 float operations a joint: with M_0 the identity and
//     R_i(s) = normalise(s + (1 - s) conj(q_i)) (q_i: bend i, so R_i(1) is the identity and
//     R_0..i(0) lay the chain straight), M_i = M_{i-1} R_i and the new direction of segment i
//     is M_i d_i. This equals the double step's frame update (frame * scaled * conj(q)) in
//     exact arithmetic with one quaternion product fewer per joint.
//   * The directions d_i and the conjugated bends are computed once per step (chains of up to
//     kBendFloatPreSegments segments) and the search works in units of the chain's length
//     (relative to its root), so float keeps its precision for chains of any size and place.
//   * The search's decisions (Brent-style: inverse quadratic interpolation, secant,
//     bisection; curl factors beyond the current pose) are detail::BendSearch's, taken per
//     lane with masks, so no lane leaves the vector.
//   * The turn about the root is folded into M_0 for the measuring and writing sweeps. The
//     safeguard compares distances measured on the very floats the write produces (the
//     measuring sweep runs the write's arithmetic without storing), or skips that sweep when
//     the search's residual plus a bound on the float rounding is already below the current
//     distance and the jump guard cannot bite.
// The caller (batch_accelerate-inl.h) gives a lane to this step only when the solve asked for
// it (BatchBendStep::kFloat) and float can resolve its search goal (BendFloatResolves); the
// others take the double step of batch_bend-inl.h.

// Per-target include guard (Highway's idiom: the file is compiled once per target).
#if defined(FABRIK_IK_BATCH_BEND_FLOAT_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef FABRIK_IK_BATCH_BEND_FLOAT_INL_H_
#undef FABRIK_IK_BATCH_BEND_FLOAT_INL_H_
#else
#define FABRIK_IK_BATCH_BEND_FLOAT_INL_H_
#endif

#include <hwy/highway.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <iterator>
#include <limits>

#include "batch_block.h"
#include "fabrik_accelerated.h"

HWY_BEFORE_NAMESPACE();
namespace fabrik::batch {
namespace HWY_NAMESPACE {
namespace bendf {
namespace hn = hwy::HWY_NAMESPACE;

using DF = hn::ScalableTag<float>;
using VF = hn::Vec<DF>;
using MF = hn::Mask<DF>;

struct V3 {
  VF x, y, z;
};
struct Q4 {
  VF w, x, y, z;
};

HWY_INLINE V3 Load3(DF d, const float* x, const float* y, const float* z) {
  return {hn::Load(d, x), hn::Load(d, y), hn::Load(d, z)};
}
HWY_INLINE V3 Sub3(const V3& a, const V3& b) {
  return {hn::Sub(a.x, b.x), hn::Sub(a.y, b.y), hn::Sub(a.z, b.z)};
}
HWY_INLINE V3 Scale3(const V3& a, VF k) {
  return {hn::Mul(a.x, k), hn::Mul(a.y, k), hn::Mul(a.z, k)};
}
// The arithmetic below uses explicit fused multiply-adds (on targets without FMA, Highway
// does a multiply and an add): the step is not meant to reproduce the double step's bits,
// and fusing cuts the sweep's operations by a third.
HWY_INLINE VF Dot(const V3& a, const V3& b) {
  return hn::MulAdd(a.z, b.z, hn::MulAdd(a.y, b.y, hn::Mul(a.x, b.x)));
}
HWY_INLINE VF Length(const V3& a) { return hn::Sqrt(Dot(a, a)); }
HWY_INLINE V3 Cross(const V3& a, const V3& b) {
  return {hn::MulSub(a.y, b.z, hn::Mul(b.y, a.z)), hn::MulSub(a.z, b.x, hn::Mul(b.z, a.x)),
          hn::MulSub(a.x, b.y, hn::Mul(b.x, a.y))};
}
HWY_INLINE V3 Select(const MF& m, const V3& a, const V3& b) {
  return {hn::IfThenElse(m, a.x, b.x), hn::IfThenElse(m, a.y, b.y), hn::IfThenElse(m, a.z, b.z)};
}

// 1 / sqrt(x): the hardware estimate refined by one Newton step (a relative error of a few
// float ulps on AVX-512, whose estimate has 14 bits, ~5e-7 where it has 12), far cheaper than
// a square root and a division. Used for the blends s + (1 - s) conj(q) of unit q with w >= 0,
// whose squared norms lie in [0.5, 1] for s in [0, 1] and in [1, 545] for the curl factors,
// and for Arc's norms (in (1e-12, 4] where they are used): never near 0 or overflow.
HWY_INLINE VF InvSqrt(DF d, VF x) {
  const VF y = hn::ApproximateReciprocalSqrt(x);
  // y (1.5 - 0.5 x y^2)
  const VF half_x = hn::Mul(hn::Set(d, 0.5f), x);
  return hn::Mul(y, hn::NegMulAdd(half_x, hn::Mul(y, y), hn::Set(d, 1.5f)));
}

// v / |v| where |v| is positive and finite, else `fallback`.
HWY_INLINE V3 UnitOr(DF d, const V3& v, const V3& fallback) {
  const VF l = Length(v);
  const MF ok = hn::And(hn::Gt(l, hn::Zero(d)),
                        hn::Lt(l, hn::Set(d, std::numeric_limits<float>::infinity())));
  const VF inv = hn::Div(hn::Set(d, 1.0f), l);
  return Select(ok, Scale3(v, inv), fallback);
}

// The shortest-arc rotation taking unit a to unit b; a half turn about a perpendicular of a
// where they are (nearly) opposite.
HWY_INLINE Q4 Arc(DF d, const V3& a, const V3& b) {
  const VF w = hn::Add(hn::Set(d, 1.0f), Dot(a, b));
  const V3 v = Cross(a, b);
  const VF norm_sq = hn::MulAdd(w, w, Dot(v, v));
  const VF inv = InvSqrt(d, norm_sq);
  Q4 q{hn::Mul(w, inv), hn::Mul(v.x, inv), hn::Mul(v.y, inv), hn::Mul(v.z, inv)};
  const MF opposite = hn::Not(hn::Gt(norm_sq, hn::Set(d, 1e-12f)));
  if (HWY_UNLIKELY(!hn::AllFalse(d, opposite))) {
    const VF zero = hn::Zero(d), one = hn::Set(d, 1.0f);
    const MF up = hn::Lt(hn::Abs(a.y), hn::Set(d, 0.9f));
    const V3 helper{hn::IfThenElse(up, zero, one), hn::IfThenElse(up, one, zero), zero};
    const V3 axis = UnitOr(d, Cross(a, helper), V3{zero, zero, one});
    q = {hn::IfThenElse(opposite, zero, q.w), hn::IfThenElse(opposite, axis.x, q.x),
         hn::IfThenElse(opposite, axis.y, q.y), hn::IfThenElse(opposite, axis.z, q.z)};
  }
  return q;
}

// The quaternion product p * q.
HWY_INLINE Q4 Mul(const Q4& p, const Q4& q) {
  using hn::MulAdd, hn::NegMulAdd, hn::Mul;
  return {NegMulAdd(p.z, q.z, NegMulAdd(p.y, q.y, NegMulAdd(p.x, q.x, Mul(p.w, q.w)))),
          NegMulAdd(p.z, q.y, MulAdd(p.y, q.z, MulAdd(p.x, q.w, Mul(p.w, q.x)))),
          NegMulAdd(p.x, q.z, MulAdd(p.z, q.x, MulAdd(p.y, q.w, Mul(p.w, q.y)))),
          NegMulAdd(p.y, q.x, MulAdd(p.x, q.y, MulAdd(p.z, q.w, Mul(p.w, q.z))))};
}

// v rotated by unit q: v + 2 (w (u x v) + u x (u x v)), u = q's vector part.
HWY_INLINE V3 Rotate(DF d, const Q4& q, const V3& v) {
  const V3 u{q.x, q.y, q.z};
  const V3 uv = Cross(u, v);
  const V3 uuv = Cross(u, uv);
  const VF two = hn::Set(d, 2.0f);
  return {hn::MulAdd(hn::MulAdd(uv.x, q.w, uuv.x), two, v.x),
          hn::MulAdd(hn::MulAdd(uv.y, q.w, uuv.y), two, v.y),
          hn::MulAdd(hn::MulAdd(uv.z, q.w, uuv.z), two, v.z)};
}

enum class Mode { kPrecompute, kEvaluate, kMeasure, kWrite, kWriteMeasure };

// One sweep over the vectors of the block with a lane taking part (w.take):
//   kPrecompute: the directions d_i and conj(q_i) into w.pre (kPre chains only);
//   kEvaluate:   the effector's offset from the root at factor w.s, in units of the chain's
//                length, into w.out[0..2];
//   kMeasure:    the pose the write would produce (M_0 = w.turn): the largest joint move into
//                w.out[0] and the new effector's distance to the target into w.out[1], both
//                in units of the chain's length;
//   kWrite:      that pose, stored into the lanes with w.take;
//   kWriteMeasure: both (the caller restores the lanes that fail the guards).
// Without kPre the directions and bends are computed from the pose in every sweep (the write
// reads joint i + 1 before it overwrites it, and keeps the old joint for the next segment).
// The running state stays in registers, joint after joint: the only dependency carried from
// joint to joint is M's quaternion product (a few multiply-adds), short next to the ~60
// independent operations of each joint, so one vector at a time keeps the core busy.
template <Mode kMode, bool kPre>
void Sweep(const BlockView& b, BendScratchF& w) {
  constexpr DF d;
  constexpr std::size_t N = hn::MaxLanes(d);
  static_assert(kLanes % N == 0, "a block is a whole number of vectors");
  const std::size_t m = b.joint_count - 1;  // segments
  constexpr bool kStore = kMode == Mode::kWrite || kMode == Mode::kWriteMeasure;
  constexpr bool kMeasuring = kMode == Mode::kMeasure || kMode == Mode::kWriteMeasure;
  constexpr bool kTurned = kStore || kMeasuring;
  auto pre = [&](std::size_t i, std::size_t r, std::size_t o) {
    return w.pre + (i * BendScratchF::kPreRows + r) * kLanes + o;
  };

  for (std::size_t o = 0; o < kLanes; o += N) {
    const MF take = hn::Gt(hn::Load(d, w.take + o), hn::Zero(d));
    if (hn::AllFalse(d, take)) continue;
    const VF zero = hn::Zero(d), one = hn::Set(d, 1.0f);
    const VF inv_total = hn::Load(d, w.inv_total + o);
    const VF total = hn::Load(d, b.total + o);
    const VF s = hn::Load(d, w.s + o);
    const VF t = hn::Sub(one, s);
    const V3 root = Load3(d, b.coord(0, 0) + o, b.coord(0, 1) + o, b.coord(0, 2) + o);
    V3 prev_point = root;
    V3 prev_dir{zero, one, zero};
    V3 off{zero, zero, zero};
    VF moved = zero;
    Q4 frame = kTurned ? Q4{hn::Load(d, w.turn[0] + o), hn::Load(d, w.turn[1] + o),
                            hn::Load(d, w.turn[2] + o), hn::Load(d, w.turn[3] + o)}
                       : Q4{one, zero, zero, zero};
    for (std::size_t i = 0; i < m; ++i) {
      V3 point{zero, zero, zero};
      if (!kPre || kTurned) {
        point = Load3(d, b.coord(i + 1, 0) + o, b.coord(i + 1, 1) + o, b.coord(i + 1, 2) + o);
      }
      V3 dir{zero, zero, zero};
      Q4 cq{one, zero, zero, zero};
      if constexpr (kPre) {
        dir = Load3(d, pre(i, 0, o), pre(i, 1, o), pre(i, 2, o));
        if (i > 0) {
          cq = {hn::Load(d, pre(i, 3, o)), hn::Load(d, pre(i, 4, o)), hn::Load(d, pre(i, 5, o)),
                hn::Load(d, pre(i, 6, o))};
        }
      } else {
        dir = UnitOr(d, Scale3(Sub3(point, prev_point), inv_total), prev_dir);
        if (i > 0) {
          const Q4 q = Arc(d, prev_dir, dir);
          cq = {q.w, hn::Neg(q.x), hn::Neg(q.y), hn::Neg(q.z)};
        }
        prev_point = point;
        prev_dir = dir;
        if constexpr (kMode == Mode::kPrecompute) {
          const VF parts[7] = {dir.x, dir.y, dir.z, cq.w, cq.x, cq.y, cq.z};
          for (std::size_t r = 0; r < (i > 0 ? 7u : 3u); ++r) hn::Store(parts[r], d, pre(i, r, o));
          continue;
        }
      }
      if constexpr (kMode != Mode::kPrecompute) {
        if (i > 0) {
          // R_i(s) = normalise(s + (1 - s) conj(q_i)); M_i = M_{i-1} R_i.
          const Q4 r{hn::MulAdd(t, cq.w, s), hn::Mul(t, cq.x), hn::Mul(t, cq.y), hn::Mul(t, cq.z)};
          const VF inv = InvSqrt(
              d,
              hn::MulAdd(r.z, r.z, hn::MulAdd(r.y, r.y, hn::MulAdd(r.x, r.x, hn::Mul(r.w, r.w)))));
          frame = Mul(frame, Q4{hn::Mul(r.w, inv), hn::Mul(r.x, inv), hn::Mul(r.y, inv),
                                hn::Mul(r.z, inv)});
        }
        const V3 new_dir = i > 0 || kTurned ? Rotate(d, frame, dir) : dir;
        const VF len = hn::Mul(hn::Load(d, b.lengths + i * kLanes + o), inv_total);
        off = {hn::MulAdd(len, new_dir.x, off.x), hn::MulAdd(len, new_dir.y, off.y),
               hn::MulAdd(len, new_dir.z, off.z)};
        if constexpr (kTurned) {
          // Joint i + 1 = root + length x offset: the offset stays small (units of the
          // chain's length), so a root far away rounds each joint once.
          const V3 x{hn::MulAdd(total, off.x, root.x), hn::MulAdd(total, off.y, root.y),
                     hn::MulAdd(total, off.z, root.z)};
          if constexpr (kStore) {
            hn::BlendedStore(x.x, take, d, b.coord(i + 1, 0) + o);
            hn::BlendedStore(x.y, take, d, b.coord(i + 1, 1) + o);
            hn::BlendedStore(x.z, take, d, b.coord(i + 1, 2) + o);
          }
          if constexpr (kMeasuring) {
            moved = hn::Max(moved, Length(Scale3(Sub3(x, point), inv_total)));
            if (i + 1 == m) {
              const V3 target =
                  Load3(d, b.scratch + kScratchTarget + o, b.scratch + kScratchTarget + kLanes + o,
                        b.scratch + kScratchTarget + 2 * kLanes + o);
              hn::Store(Length(Scale3(Sub3(x, target), inv_total)), d, w.out[1] + o);
            }
          }
        }
      }
    }
    if constexpr (kMode == Mode::kEvaluate) {
      hn::Store(off.x, d, w.out[0] + o);
      hn::Store(off.y, d, w.out[1] + o);
      hn::Store(off.z, d, w.out[2] + o);
    } else if constexpr (kMeasuring) {
      hn::Store(moved, d, w.out[0] + o);
    }
  }
}

template <Mode kMode>
void SweepAll(const BlockView& b, BendScratchF& w, bool pre) {
  if (pre) {
    Sweep<kMode, true>(b, w);
  } else {
    Sweep<kMode, false>(b, w);
  }
}

// The search's states per lane (detail::BendSearch's), stored as floats.
constexpr float kCurl = 0.0f, kBracketed = 1.0f, kFound = 2.0f, kFailed = 3.0f;

// detail::BendSearch::Propose for the lanes in `m`.
HWY_INLINE void Propose(DF d, BendScratchF& w, std::size_t o, MF m) {
  const VF lo = hn::Load(d, w.lo + o), flo = hn::Load(d, w.flo + o);
  const VF hi = hn::Load(d, w.hi + o), fhi = hn::Load(d, w.fhi + o);
  const VF k = hn::Load(d, w.k + o);
  const MF out_of_budget =
      hn::And(m, hn::Ge(k, hn::Set(d, static_cast<float>(detail::kMaxEvaluations))));
  const MF none = hn::Lt(hn::Load(d, w.best_s + o), hn::Zero(d));
  VF st = hn::Load(d, w.st + o);
  st = hn::IfThenElse(out_of_budget, hn::IfThenElse(none, hn::Set(d, kFailed), hn::Set(d, kFound)),
                      st);
  const MF go = hn::AndNot(out_of_budget, m);
  const VF x0 = hn::Load(d, w.x0 + o), f0 = hn::Load(d, w.f0 + o);
  const VF x1 = hn::Load(d, w.x1 + o), f1 = hn::Load(d, w.f1 + o);
  const VF x2 = hn::Load(d, w.x2 + o), f2 = hn::Load(d, w.f2 + o);
  VF x = hn::Sub(hi, hn::Div(hn::Mul(fhi, hn::Sub(hi, lo)), hn::Sub(fhi, flo)));
  const MF three = hn::And(hn::Gt(hn::Load(d, w.three + o), hn::Zero(d)),
                           hn::And(hn::And(hn::Ne(f0, f1), hn::Ne(f1, f2)), hn::Ne(f0, f2)));
  if (!hn::AllFalse(d, hn::And(go, three))) {
    const VF iqi = hn::Add(
        hn::Add(hn::Div(hn::Mul(hn::Mul(x0, f1), f2), hn::Mul(hn::Sub(f0, f1), hn::Sub(f0, f2))),
                hn::Div(hn::Mul(hn::Mul(x1, f0), f2), hn::Mul(hn::Sub(f1, f0), hn::Sub(f1, f2)))),
        hn::Div(hn::Mul(hn::Mul(x2, f0), f1), hn::Mul(hn::Sub(f2, f0), hn::Sub(f2, f1))));
    x = hn::IfThenElse(three, iqi, x);
  }
  const VF width = hn::Abs(hn::Sub(hi, lo));
  const MF inside = hn::And(hn::Gt(x, hn::Min(lo, hi)), hn::Lt(x, hn::Max(lo, hi)));
  const MF slow = hn::And(hn::Ge(k, hn::Set(d, 2.0f)),
                          hn::Gt(width, hn::Mul(hn::Set(d, 0.5f), hn::Load(d, w.w1 + o))));
  x = hn::IfThenElse(hn::Or(hn::Not(inside), slow), hn::Mul(hn::Set(d, 0.5f), hn::Add(lo, hi)), x);
  hn::BlendedStore(hn::Load(d, w.w0 + o), go, d, w.w1 + o);
  hn::BlendedStore(width, go, d, w.w0 + o);
  hn::BlendedStore(x, go, d, w.x + o);
  const MF squared = hn::Gt(hn::Load(d, w.squared + o), hn::Zero(d));
  hn::BlendedStore(hn::IfThenElse(squared, hn::Sqrt(hn::Max(x, hn::Zero(d))), x), go, d, w.s + o);
  st = hn::IfThenElse(go, hn::Set(d, kBracketed), st);
  hn::Store(st, d, w.st + o);
}

// detail::BendSearch::BeginBracketed for the lanes in `m` (bracket [a, b] in w.a, w.fa, w.b,
// w.fb), then its first proposal.
HWY_INLINE void BeginBracketed(DF d, BendScratchF& w, std::size_t o, MF m) {
  const VF a = hn::Load(d, w.a + o), fa = hn::Load(d, w.fa + o);
  const VF b = hn::Load(d, w.b + o), fb = hn::Load(d, w.fb + o);
  const VF zero = hn::Zero(d);
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

// The curl factor number `index` (detail::kCurlFactors).
HWY_INLINE VF CurlFactor(DF d, VF index) {
  VF s = hn::Set(d, static_cast<float>(detail::kCurlFactors[0]));
  for (std::size_t c = 1; c < std::size(detail::kCurlFactors); ++c) {
    s = hn::IfThenElse(hn::Ge(index, hn::Set(d, static_cast<float>(c))),
                       hn::Set(d, static_cast<float>(detail::kCurlFactors[c])), s);
  }
  return s;
}

// detail::BendSearch::Feed for the pending lanes of vector o, with the offsets in w.out.
HWY_INLINE void Feed(DF d, BendScratchF& w, std::size_t o) {
  const VF st = hn::Load(d, w.st + o);
  const MF pending = hn::Lt(st, hn::Set(d, 1.5f));
  if (hn::AllFalse(d, pending)) return;
  const V3 off = Load3(d, w.out[0] + o, w.out[1] + o, w.out[2] + o);
  const VF fs = hn::Sub(Length(off), hn::Load(d, w.radius + o));
  const VF s = hn::Load(d, w.s + o);
  const MF finite = hn::IsFinite(fs);
  hn::BlendedStore(hn::Set(d, kFailed), hn::AndNot(finite, pending), d, w.st + o);
  const MF live = hn::And(pending, finite);
  const MF curl = hn::And(live, hn::Eq(st, hn::Set(d, kCurl)));
  const MF bracketed = hn::And(live, hn::Eq(st, hn::Set(d, kBracketed)));
  const MF negative = hn::Lt(fs, hn::Zero(d));

  // Best so far: every curl evaluation, and bracketed ones that improve on it.
  const VF best_f = hn::Load(d, w.best_f + o);
  const MF better =
      hn::Or(curl, hn::And(bracketed, hn::Or(hn::Lt(hn::Load(d, w.best_s + o), hn::Zero(d)),
                                             hn::Lt(hn::Abs(fs), hn::Abs(best_f)))));
  hn::BlendedStore(s, better, d, w.best_s + o);
  hn::BlendedStore(fs, better, d, w.best_f + o);
  hn::BlendedStore(off.x, better, d, w.best_o[0] + o);
  hn::BlendedStore(off.y, better, d, w.best_o[1] + o);
  hn::BlendedStore(off.z, better, d, w.best_o[2] + o);

  // Curling: a sign change brackets the root; otherwise the next factor, or no bracket.
  if (!hn::AllFalse(d, curl)) {
    const MF bracket = hn::And(curl, negative);
    hn::BlendedStore(s, bracket, d, w.b + o);
    hn::BlendedStore(fs, bracket, d, w.fb + o);
    const MF further = hn::AndNot(negative, curl);
    hn::BlendedStore(s, further, d, w.a + o);
    hn::BlendedStore(fs, further, d, w.fa + o);
    const VF next = hn::Add(hn::Load(d, w.curl + o), hn::Set(d, 1.0f));
    hn::BlendedStore(next, further, d, w.curl + o);
    const MF exhausted = hn::And(
        further, hn::Ge(next, hn::Set(d, static_cast<float>(std::size(detail::kCurlFactors)))));
    hn::BlendedStore(hn::Set(d, kFailed), exhausted, d, w.st + o);
    hn::BlendedStore(CurlFactor(d, next), hn::AndNot(exhausted, further), d, w.s + o);
    if (!hn::AllFalse(d, bracket)) BeginBracketed(d, w, o, bracket);
  }
  if (hn::AllFalse(d, bracketed)) return;
  const MF found = hn::And(bracketed, hn::Le(hn::Abs(fs), hn::Load(d, w.goal + o)));
  hn::BlendedStore(hn::Set(d, kFound), found, d, w.st + o);
  const MF go = hn::AndNot(found, bracketed);
  if (hn::AllFalse(d, go)) return;
  const VF x = hn::Load(d, w.x + o);
  const MF same_as_lo = hn::Not(hn::Xor(negative, hn::Lt(hn::Load(d, w.flo + o), hn::Zero(d))));
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

}  // namespace bendf

// One bend-scale step for every lane with want[lane] (BendScaleStep with pivot 0, in float):
// applied[lane] = 1 when it was applied (the lane's joints moved), else 0 and the lane is
// untouched. max_move[lane]: the solve's jump guard (world units); goal: the search's goal.
inline void BendScaleLanesFloat(const BlockView& b, const std::uint8_t* want, float goal,
                                const float* max_move, std::uint8_t* applied, BendScratchF& w) {
  using namespace bendf;  // NOLINT(google-build-using-namespace): the step's own helpers
  constexpr DF d;
  constexpr std::size_t N = hn::MaxLanes(d);
  const std::size_t n = b.joint_count;
  const VF zero = hn::Zero(d), one = hn::Set(d, 1.0f);
  const float eps = std::numeric_limits<float>::epsilon();
  bool any = false;
  for (std::size_t lane = 0; lane < kLanes; ++lane) {
    applied[lane] = 0;
    w.take[lane] = want[lane] ? 1.0f : 0.0f;
    any = any || want[lane];
  }
  if (!any || n < 2) return;

  // Start: everything in units of the chain's length, relative to its root.
  for (std::size_t o = 0; o < kLanes; o += N) {
    const MF take = hn::Gt(hn::Load(d, w.take + o), zero);
    const VF inv_total = hn::Div(one, hn::Load(d, b.total + o));
    hn::Store(inv_total, d, w.inv_total + o);
    const V3 root = Load3(d, b.coord(0, 0) + o, b.coord(0, 1) + o, b.coord(0, 2) + o);
    const V3 target =
        Load3(d, b.scratch + kScratchTarget + o, b.scratch + kScratchTarget + kLanes + o,
              b.scratch + kScratchTarget + 2 * kLanes + o);
    const V3 effector =
        Load3(d, b.coord(n - 1, 0) + o, b.coord(n - 1, 1) + o, b.coord(n - 1, 2) + o);
    const VF radius = Length(Scale3(Sub3(target, root), inv_total));
    const VF reach = Length(Scale3(Sub3(effector, root), inv_total));
    hn::Store(radius, d, w.radius + o);
    hn::Store(Length(Scale3(Sub3(effector, target), inv_total)), d, w.current + o);
    hn::Store(hn::Mul(hn::Set(d, goal), inv_total), d, w.goal + o);
    hn::Store(hn::Set(d, -1.0f), d, w.best_s + o);
    hn::Store(zero, d, w.best_f + o);
    for (float* best : w.best_o) hn::Store(zero, d, best + o);
    // f(0) = 1 - radius (the straight chain); f(1) from the current pose.
    const VF f0 = hn::Sub(one, radius);
    const VF f1 = hn::Sub(reach, radius);
    const MF reachable = hn::And(take, hn::Ge(f0, zero));
    const MF curl = hn::And(reachable, hn::Ge(f1, zero));
    hn::Store(hn::IfThenElse(curl, one, zero), d, w.a + o);
    hn::Store(hn::IfThenElse(curl, f1, f0), d, w.fa + o);
    hn::Store(one, d, w.b + o);
    hn::Store(f1, d, w.fb + o);
    hn::Store(zero, d, w.curl + o);
    hn::Store(hn::IfThenElse(curl, hn::Set(d, kCurl), hn::Set(d, kFailed)), d, w.st + o);
    hn::Store(CurlFactor(d, zero), d, w.s + o);
    const MF bracketed = hn::AndNot(curl, reachable);
    if (!hn::AllFalse(d, bracketed)) BeginBracketed(d, w, o, bracketed);
  }

  const bool pre = n - 1 <= kBendFloatPreSegments;
  if (pre) Sweep<Mode::kPrecompute, false>(b, w);
  for (;;) {
    bool pending = false;
    for (std::size_t o = 0; o < kLanes; o += N) {
      const MF p = hn::Lt(hn::Load(d, w.st + o), hn::Set(d, 1.5f));
      hn::Store(hn::IfThenElseZero(p, one), d, w.take + o);
      pending = pending || !hn::AllFalse(d, p);
    }
    if (!pending) break;
    SweepAll<Mode::kEvaluate>(b, w, pre);
    for (std::size_t o = 0; o < kLanes; o += N) Feed(d, w, o);
  }

  // The turn about the root aiming the scaled chain's effector at the target, the safeguard
  // and the jump guard.
  bool measure = false;
  for (std::size_t o = 0; o < kLanes; o += N) {
    const MF found = hn::Eq(hn::Load(d, w.st + o), hn::Set(d, kFound));
    const VF inv_total = hn::Load(d, w.inv_total + o);
    const V3 root = Load3(d, b.coord(0, 0) + o, b.coord(0, 1) + o, b.coord(0, 2) + o);
    const V3 target =
        Load3(d, b.scratch + kScratchTarget + o, b.scratch + kScratchTarget + kLanes + o,
              b.scratch + kScratchTarget + 2 * kLanes + o);
    const VF radius = hn::Load(d, w.radius + o);
    const V3 up{zero, one, zero};
    const V3 u = UnitOr(d, Load3(d, w.best_o[0] + o, w.best_o[1] + o, w.best_o[2] + o), up);
    const V3 t = UnitOr(d, Scale3(Sub3(target, root), inv_total), up);
    Q4 turn = Arc(d, u, t);
    const MF aim = hn::Gt(radius, zero);
    turn = {hn::IfThenElse(aim, turn.w, one), hn::IfThenElseZero(aim, turn.x),
            hn::IfThenElseZero(aim, turn.y), hn::IfThenElseZero(aim, turn.z)};
    hn::Store(turn.w, d, w.turn[0] + o);
    hn::Store(turn.x, d, w.turn[1] + o);
    hn::Store(turn.y, d, w.turn[2] + o);
    hn::Store(turn.z, d, w.turn[3] + o);
    hn::Store(hn::Load(d, w.best_s + o), d, w.s + o);
    // Predicted miss: the residual plus a bound on the float rounding of the sweep (a few
    // ulps of the unit-length offset per joint) and of the written coordinates (half an ulp
    // of the largest, in units of the chain's length).
    const VF magnitude =
        hn::Mul(hn::Max(hn::Max(hn::Max(hn::Abs(root.x), hn::Abs(root.y)), hn::Abs(root.z)),
                        hn::Max(hn::Max(hn::Abs(target.x), hn::Abs(target.y)), hn::Abs(target.z))),
                inv_total);
    const VF bound = hn::Mul(hn::Set(d, 16.0f * static_cast<float>(n + 2) * eps),
                             hn::Add(hn::Add(one, radius), magnitude));
    const VF miss = hn::Add(hn::Abs(hn::Load(d, w.best_f + o)), bound);
    const VF current = hn::Load(d, w.current + o);
    const MF sure = hn::Lt(miss, current);
    // The jump guard can bite only when max_move < 2 x the chain's length.
    const MF guard = hn::Lt(hn::Mul(hn::Load(d, max_move + o), inv_total), hn::Set(d, 2.0f));
    const MF check = hn::And(found, hn::Or(guard, hn::Not(sure)));
    hn::Store(hn::IfThenElseZero(check, one), d, w.check + o);
    hn::Store(hn::IfThenElseZero(hn::AndNot(check, found), one), d, w.accept + o);
    measure = measure || !hn::AllFalse(d, check);
  }
  // The lanes that pass the guards; `checked` lanes were measured (out[0], out[1]).
  auto guards = [&](std::size_t o) {
    const MF check = hn::Gt(hn::Load(d, w.check + o), zero);
    const VF moved = hn::Load(d, w.out[0] + o);
    const VF after = hn::Load(d, w.out[1] + o);
    return hn::And(
        hn::And(check, hn::IsFinite(after)),
        hn::And(hn::Lt(after, hn::Load(d, w.current + o)),
                hn::Le(moved, hn::Mul(hn::Load(d, max_move + o), hn::Load(d, w.inv_total + o)))));
  };
  if (measure && pre) {
    // Written and measured in one sweep: the lanes that fail a guard (rare) get their joints
    // back from a copy of the block's pose.
    const std::size_t floats = (n - 1) * 3 * kLanes;
    std::copy_n(b.coord(1, 0), floats, w.backup);
    for (std::size_t o = 0; o < kLanes; o += N) {
      hn::Store(hn::Or(hn::Load(d, w.accept + o), hn::Load(d, w.check + o)), d, w.take + o);
    }
    Sweep<Mode::kWriteMeasure, true>(b, w);
    for (std::size_t o = 0; o < kLanes; o += N) {
      const MF check = hn::Gt(hn::Load(d, w.check + o), zero);
      hn::BlendedStore(one, guards(o), d, w.accept + o);
      const MF failed = hn::AndNot(guards(o), check);
      if (hn::AllFalse(d, failed)) continue;
      for (std::size_t lane = o; lane < o + N; ++lane) {
        if (!(w.check[lane] > 0.0f) || w.accept[lane] > 0.0f) continue;
        for (std::size_t k = 0; k < floats; k += kLanes)
          b.coord(1, 0)[k + lane] = w.backup[k + lane];
      }
    }
    for (std::size_t lane = 0; lane < kLanes; ++lane) applied[lane] = w.accept[lane] > 0.0f;
    return;
  }
  if (measure) {
    for (std::size_t o = 0; o < kLanes; o += N) hn::Store(hn::Load(d, w.check + o), d, w.take + o);
    SweepAll<Mode::kMeasure>(b, w, pre);
    for (std::size_t o = 0; o < kLanes; o += N) hn::BlendedStore(one, guards(o), d, w.accept + o);
  }
  bool write = false;
  for (std::size_t o = 0; o < kLanes; o += N) {
    const VF accept = hn::Load(d, w.accept + o);
    hn::Store(accept, d, w.take + o);
    write = write || !hn::AllFalse(d, hn::Gt(accept, zero));
  }
  for (std::size_t lane = 0; lane < kLanes; ++lane) applied[lane] = w.accept[lane] > 0.0f;
  if (write) SweepAll<Mode::kWrite>(b, w, pre);
}

}  // namespace HWY_NAMESPACE
}  // namespace fabrik::batch
HWY_AFTER_NAMESPACE();

#endif  // FABRIK_IK_BATCH_BEND_FLOAT_INL_H_
