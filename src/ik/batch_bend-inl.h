// batch_bend-inl.h - the bend-scale step of accelerated FABRIK (fabrik_accelerated.h) for the
// lanes of one block: the chain sweeps in SIMD double, one chain per lane, and the search's
// decisions per lane through the very state machine the single-chain solver uses
// (detail::BendSearch, detail::BendAim), so every lane takes the decisions SolveFabrik with
// `accelerate` takes for that chain. Internal to the batched solver.
//
// Per-target code (Google Highway): included (through batch_accelerate-inl.h) by
// batch_kernel.cpp once per SIMD target, and compiled, like it, without floating-point
// contraction. The sweep repeats fabrik_accelerated.cpp's Sweep operation for operation (glm's
// formulas for dot, cross, quaternion products and normalisation, written out in the same
// order, IEEE square root and division), so a lane computes the same doubles as the scalar
// code and writes the same floats.
//
// Cost: the sweeps are the work. The segment directions and bends (2 square roots and 4
// divisions per joint) are computed once per step; each evaluation of the search then costs
// ~100 double operations and one square root and division per joint. The search's bookkeeping
// per lane is O(1) per evaluation and stays scalar. Lanes need different numbers of
// evaluations: a sweep runs over the double vectors of a 32-lane group that hold at least one
// lane still searching, the joint loop outside the vector loop so that independent vectors
// hide the latency of each joint's dependency chain.

// Per-target include guard (Highway's idiom: the file is compiled once per target).
#if defined(FABRIK_IK_BATCH_BEND_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef FABRIK_IK_BATCH_BEND_INL_H_
#undef FABRIK_IK_BATCH_BEND_INL_H_
#else
#define FABRIK_IK_BATCH_BEND_INL_H_
#endif

#include <hwy/highway.h>

#include <cstddef>
#include <cstdint>
#include <glm/geometric.hpp>
#include <glm/gtc/quaternion.hpp>
#include <limits>

#include "batch_block.h"
#include "fabrik_accelerated.h"

HWY_BEFORE_NAMESPACE();
namespace fabrik::batch {
namespace HWY_NAMESPACE {
namespace bend {
namespace hn = hwy::HWY_NAMESPACE;

using DD = hn::ScalableTag<double>;
using VD = hn::Vec<DD>;
using MD = hn::Mask<DD>;

struct V3 {
  VD x, y, z;
};
struct Q4 {
  VD w, x, y, z;
};

HWY_INLINE VD Dot(const V3& a, const V3& b) {
  return hn::Add(hn::Add(hn::Mul(a.x, b.x), hn::Mul(a.y, b.y)), hn::Mul(a.z, b.z));
}
HWY_INLINE V3 Cross(const V3& a, const V3& b) {
  return {hn::Sub(hn::Mul(a.y, b.z), hn::Mul(b.y, a.z)),
          hn::Sub(hn::Mul(a.z, b.x), hn::Mul(b.z, a.x)),
          hn::Sub(hn::Mul(a.x, b.y), hn::Mul(b.x, a.y))};
}
HWY_INLINE V3 Select(const MD& m, const V3& a, const V3& b) {
  return {hn::IfThenElse(m, a.x, b.x), hn::IfThenElse(m, a.y, b.y), hn::IfThenElse(m, a.z, b.z)};
}

// UnitOr: v / |v| when |v| is positive and finite, else `fallback`.
HWY_INLINE V3 UnitOr(DD d, const V3& v, const V3& fallback) {
  const VD l = hn::Sqrt(Dot(v, v));
  const MD ok = hn::And(hn::Gt(l, hn::Zero(d)),
                        hn::Lt(l, hn::Set(d, std::numeric_limits<double>::infinity())));
  return Select(ok, V3{hn::Div(v.x, l), hn::Div(v.y, l), hn::Div(v.z, l)}, fallback);
}

// Arc: the shortest-arc rotation taking unit a to unit b; a half turn about a perpendicular of
// `a` where they are (nearly) opposite.
HWY_INLINE Q4 Arc(DD d, const V3& a, const V3& b) {
  const VD w = hn::Add(hn::Set(d, 1.0), Dot(a, b));
  const V3 v = Cross(a, b);
  const VD norm_sq = hn::Add(hn::Mul(w, w), Dot(v, v));
  const VD inv = hn::Div(hn::Set(d, 1.0), hn::Sqrt(norm_sq));
  Q4 q{hn::Mul(w, inv), hn::Mul(v.x, inv), hn::Mul(v.y, inv), hn::Mul(v.z, inv)};
  const MD opposite = hn::Not(hn::Gt(norm_sq, hn::Set(d, 1e-24)));
  if (HWY_UNLIKELY(!hn::AllFalse(d, opposite))) {
    const VD zero = hn::Zero(d), one = hn::Set(d, 1.0);
    const MD up = hn::Lt(hn::Abs(a.y), hn::Set(d, 0.9));
    const V3 helper{hn::IfThenElse(up, zero, one), hn::IfThenElse(up, one, zero), zero};
    const V3 axis = UnitOr(d, Cross(a, helper), V3{zero, zero, one});
    q = {hn::IfThenElse(opposite, zero, q.w), hn::IfThenElse(opposite, axis.x, q.x),
         hn::IfThenElse(opposite, axis.y, q.y), hn::IfThenElse(opposite, axis.z, q.z)};
  }
  return q;
}

// glm's quaternion product p * q.
HWY_INLINE Q4 Mul(const Q4& p, const Q4& q) {
  using hn::Add, hn::Sub, hn::Mul;
  return {Sub(Sub(Sub(Mul(p.w, q.w), Mul(p.x, q.x)), Mul(p.y, q.y)), Mul(p.z, q.z)),
          Sub(Add(Add(Mul(p.w, q.x), Mul(p.x, q.w)), Mul(p.y, q.z)), Mul(p.z, q.y)),
          Sub(Add(Add(Mul(p.w, q.y), Mul(p.y, q.w)), Mul(p.z, q.x)), Mul(p.x, q.z)),
          Sub(Add(Add(Mul(p.w, q.z), Mul(p.z, q.w)), Mul(p.x, q.y)), Mul(p.y, q.x))};
}

// glm's rotation of v by unit q: v + ((uv q.w) + uuv) 2 with uv = q.xyz x v, uuv = q.xyz x uv.
HWY_INLINE V3 Rotate(DD d, const Q4& q, const V3& v) {
  const V3 axis{q.x, q.y, q.z};
  const V3 uv = Cross(axis, v);
  const V3 uuv = Cross(axis, uv);
  const VD two = hn::Set(d, 2.0);
  return {hn::Add(v.x, hn::Mul(hn::Add(hn::Mul(uv.x, q.w), uuv.x), two)),
          hn::Add(v.y, hn::Mul(hn::Add(hn::Mul(uv.y, q.w), uuv.y), two)),
          hn::Add(v.z, hn::Mul(hn::Add(hn::Mul(uv.z, q.w), uuv.z), two))};
}

// glm::normalize of a quaternion: the identity when its length is not positive.
HWY_INLINE Q4 Normalize(DD d, const Q4& q) {
  const VD len = hn::Sqrt(hn::Add(hn::Add(hn::Mul(q.w, q.w), hn::Mul(q.x, q.x)),
                                  hn::Add(hn::Mul(q.y, q.y), hn::Mul(q.z, q.z))));
  const VD inv = hn::Div(hn::Set(d, 1.0), len);
  const MD none = hn::Le(len, hn::Zero(d));
  const VD zero = hn::Zero(d);
  return {hn::IfThenElse(none, hn::Set(d, 1.0), hn::Mul(q.w, inv)),
          hn::IfThenElse(none, zero, hn::Mul(q.x, inv)),
          hn::IfThenElse(none, zero, hn::Mul(q.y, inv)),
          hn::IfThenElse(none, zero, hn::Mul(q.z, inv))};
}

enum class Mode { kPrecompute, kEvaluate, kMeasure, kWrite };

// One sweep (fabrik_accelerated.cpp's Sweep) for every lane in [g, g + kBendGroup) with
// w.take[lane] != 0, at its factor w.s[lane]: kEvaluate stores the effector's offset from the
// root in w.out[0..2]; kMeasure turns by w.turn and stores the largest joint move in w.out[0];
// kWrite turns by w.turn and writes the joints. The segment directions and the bends between
// them do not depend on the factor: kPrecompute stores them in w.pre (chains of up to
// kBendMaxPreSegments segments), and the other modes with kPre read them from there instead
// of computing them again (the same doubles either way).
template <Mode kMode, bool kPre>
void Sweep(const BlockView& b, BendScratch& w, std::size_t g) {
  constexpr DD d;
  constexpr hn::Rebind<float, DD> df;  // the same lanes, as floats
  constexpr std::size_t N = hn::MaxLanes(d);
  static_assert(kBendGroup % N == 0, "a group is a whole number of double vectors");
  const std::size_t n = b.joint_count;

  // The double vectors with a lane taking part. Per vector state lives in w.state (rows of
  // kLanes doubles), so any number of vectors can be in flight.
  std::size_t list[kBendGroup / N];
  std::size_t count = 0;
  for (std::size_t o = g; o < g + kBendGroup; o += N) {
    if (!hn::AllFalse(d, hn::Gt(hn::Load(d, w.take + o), hn::Zero(d)))) list[count++] = o;
  }
  if (count == 0) return;
  enum Row { kPx, kPy, kPz, kDx, kDy, kDz, kFw, kFx, kFy, kFz, kOx, kOy, kOz, kXx, kXy, kXz, kMv };
  auto row = [&](int r, std::size_t o) { return w.state + r * kLanes + o; };
  // w.pre rows per segment: direction x, y, z, then the bend w, x, y, z.
  auto pre = [&](std::size_t i, int r, std::size_t o) {
    return w.pre + (i * BendScratch::kPreRows + r) * kBendGroup + (o - g);
  };
  for (std::size_t k = 0; k < count; ++k) {
    const std::size_t o = list[k];
    const VD zero = hn::Zero(d), one = hn::Set(d, 1.0);
    for (int c = 0; c < 3; ++c) {
      const VD root = hn::PromoteTo(d, hn::Load(df, b.coord(0, c) + o));
      hn::Store(root, d, row(kPx + c, o));
      hn::Store(root, d, row(kXx + c, o));
      hn::Store(zero, d, row(kOx + c, o));
    }
    hn::Store(zero, d, row(kDx, o));
    hn::Store(one, d, row(kDy, o));
    hn::Store(zero, d, row(kDz, o));
    hn::Store(one, d, row(kFw, o));
    hn::Store(zero, d, row(kFx, o));
    hn::Store(zero, d, row(kFy, o));
    hn::Store(zero, d, row(kFz, o));
    hn::Store(zero, d, row(kMv, o));
  }
  auto load3 = [&](const double* x, const double* y, const double* z) {
    return V3{hn::Load(d, x), hn::Load(d, y), hn::Load(d, z)};
  };
  auto store3 = [&](int r, std::size_t o, const V3& v) {
    hn::Store(v.x, d, row(r, o));
    hn::Store(v.y, d, row(r + 1, o));
    hn::Store(v.z, d, row(r + 2, o));
  };

  for (std::size_t i = 0; i + 1 < n; ++i) {
    for (std::size_t k = 0; k < count; ++k) {
      const std::size_t o = list[k];
      V3 point{hn::Zero(d), hn::Zero(d), hn::Zero(d)};
      if (!kPre || kMode == Mode::kMeasure) {
        point = V3{hn::PromoteTo(d, hn::Load(df, b.coord(i + 1, 0) + o)),
                   hn::PromoteTo(d, hn::Load(df, b.coord(i + 1, 1) + o)),
                   hn::PromoteTo(d, hn::Load(df, b.coord(i + 1, 2) + o))};
      }
      V3 dir = point, prev_dir = point;
      Q4 q{point.x, point.x, point.x, point.x};
      if constexpr (kPre) {
        dir = load3(pre(i, 0, o), pre(i, 1, o), pre(i, 2, o));
        if (i > 0) {
          prev_dir = load3(pre(i - 1, 0, o), pre(i - 1, 1, o), pre(i - 1, 2, o));
          q = Q4{hn::Load(d, pre(i, 3, o)), hn::Load(d, pre(i, 4, o)), hn::Load(d, pre(i, 5, o)),
                 hn::Load(d, pre(i, 6, o))};
        }
      } else {
        const V3 prev_point = load3(row(kPx, o), row(kPy, o), row(kPz, o));
        prev_dir = load3(row(kDx, o), row(kDy, o), row(kDz, o));
        dir = UnitOr(d,
                     V3{hn::Sub(point.x, prev_point.x), hn::Sub(point.y, prev_point.y),
                        hn::Sub(point.z, prev_point.z)},
                     prev_dir);
        if (i > 0) q = Arc(d, prev_dir, dir);
        store3(kPx, o, point);
        store3(kDx, o, dir);
        if constexpr (kMode == Mode::kPrecompute) {
          const VD parts[7] = {dir.x, dir.y, dir.z, q.w, q.x, q.y, q.z};
          for (int r = 0; r < (i > 0 ? 7 : 3); ++r) hn::Store(parts[r], d, pre(i, r, o));
          continue;
        }
      }
      V3 new_dir = dir;
      if (i > 0) {
        const VD s = hn::Load(d, w.s + o);
        const Q4 scaled = Normalize(d, Q4{hn::Add(hn::Sub(hn::Set(d, 1.0), s), hn::Mul(s, q.w)),
                                          hn::Mul(s, q.x), hn::Mul(s, q.y), hn::Mul(s, q.z)});
        const Q4 frame{hn::Load(d, row(kFw, o)), hn::Load(d, row(kFx, o)), hn::Load(d, row(kFy, o)),
                       hn::Load(d, row(kFz, o))};
        const Q4 turned = Mul(frame, scaled);
        new_dir = Rotate(d, turned, prev_dir);
        const Q4 next = Mul(turned, Q4{q.w, hn::Neg(q.x), hn::Neg(q.y), hn::Neg(q.z)});
        hn::Store(next.w, d, row(kFw, o));
        hn::Store(next.x, d, row(kFx, o));
        hn::Store(next.y, d, row(kFy, o));
        hn::Store(next.z, d, row(kFz, o));
      }
      const VD len = hn::PromoteTo(d, hn::Load(df, b.lengths + i * kLanes + o));
      const V3 step{hn::Mul(len, new_dir.x), hn::Mul(len, new_dir.y), hn::Mul(len, new_dir.z)};
      if constexpr (kMode == Mode::kEvaluate) {
        const V3 offset = load3(row(kOx, o), row(kOy, o), row(kOz, o));
        store3(kOx, o,
               V3{hn::Add(offset.x, step.x), hn::Add(offset.y, step.y), hn::Add(offset.z, step.z)});
      } else if constexpr (kMode != Mode::kPrecompute) {
        const Q4 turn{hn::Load(d, w.turn[0] + o), hn::Load(d, w.turn[1] + o),
                      hn::Load(d, w.turn[2] + o), hn::Load(d, w.turn[3] + o)};
        const V3 turned_step = Rotate(d, turn, step);
        const V3 x0 = load3(row(kXx, o), row(kXy, o), row(kXz, o));
        const V3 x{hn::Add(x0.x, turned_step.x), hn::Add(x0.y, turned_step.y),
                   hn::Add(x0.z, turned_step.z)};
        store3(kXx, o, x);
        if constexpr (kMode == Mode::kWrite) {
          const auto take = hn::Gt(hn::Load(df, w.take_f + o), hn::Zero(df));
          const VD xs[3] = {x.x, x.y, x.z};
          for (std::size_t c = 0; c < 3; ++c) {
            float* p = b.coord(i + 1, c) + o;
            hn::Store(hn::IfThenElse(take, hn::DemoteTo(df, xs[c]), hn::Load(df, p)), df, p);
          }
        } else {
          const V3 delta{hn::Sub(x.x, point.x), hn::Sub(x.y, point.y), hn::Sub(x.z, point.z)};
          const VD moved = hn::Sqrt(Dot(delta, delta));
          const VD most = hn::Load(d, row(kMv, o));
          hn::Store(hn::IfThenElse(hn::Lt(most, moved), moved, most), d, row(kMv, o));
        }
      }
    }
  }
  for (std::size_t k = 0; k < count; ++k) {
    const std::size_t o = list[k];
    if constexpr (kMode == Mode::kEvaluate) {
      for (int c = 0; c < 3; ++c) hn::Store(hn::Load(d, row(kOx + c, o)), d, w.out[c] + o);
    } else if constexpr (kMode == Mode::kMeasure) {
      hn::Store(hn::Load(d, row(kMv, o)), d, w.out[0] + o);
    }
  }
}

// A sweep with the precomputed directions and bends when the chain is short enough for them.
template <Mode kMode>
void SweepGroup(const BlockView& b, BendScratch& w, std::size_t g, bool pre) {
  if (pre) {
    Sweep<kMode, true>(b, w, g);
  } else {
    Sweep<kMode, false>(b, w, g);
  }
}

void SetTake(BendScratch& w, std::size_t lane, bool take) {
  w.take[lane] = take ? 1.0 : 0.0;
  w.take_f[lane] = take ? 1.0f : 0.0f;
}

}  // namespace bend

// One bend-scale step (BendScaleStep with pivot 0) for every lane of group [g, g + kBendGroup)
// with want[lane]:
// applied[lane] = 1 when it was applied (the lane's joints moved), else 0 and the lane is
// untouched. total[lane]: the chain's lengths summed in double; max_move[lane]: the solve's
// jump guard.
inline void BendScaleGroup(const BlockView& b, const std::uint8_t* want, const double* total,
                           float goal, const float* max_move, std::uint8_t* applied, BendScratch& w,
                           std::size_t g) {
  using glm::dvec3;
  const std::size_t n = b.joint_count;
  bool any = false;
  for (std::size_t lane = g; lane < g + kBendGroup; ++lane) {
    applied[lane] = 0;
    w.search[lane] = detail::BendSearch();  // not pending
    if (!want[lane] || n < 2) continue;
    const dvec3 root(b.Get(0, lane));
    const dvec3 target(b.Scratch3(kScratchTarget, lane));
    const dvec3 effector(b.Get(n - 1, lane));
    w.radius[lane] = glm::length(target - root);
    w.current[lane] = glm::length(effector - target);
    w.search[lane].Start(total[lane], w.radius[lane], glm::length(effector - root), goal);
    any = true;
  }
  // The directions and bends, once per step (they do not depend on the factor).
  const bool pre = n - 1 <= kBendMaxPreSegments;
  if (pre && any) {
    for (std::size_t lane = g; lane < g + kBendGroup; ++lane) {
      bend::SetTake(w, lane, w.search[lane].pending());
    }
    bend::Sweep<bend::Mode::kPrecompute, false>(b, w, g);
  }
  while (any) {
    any = false;
    for (std::size_t lane = g; lane < g + kBendGroup; ++lane) {
      const bool pending = w.search[lane].pending();
      bend::SetTake(w, lane, pending);
      w.s[lane] = pending ? w.search[lane].s() : 0.0;
      any = any || pending;
    }
    if (!any) break;
    bend::SweepGroup<bend::Mode::kEvaluate>(b, w, g, pre);
    for (std::size_t lane = g; lane < g + kBendGroup; ++lane) {
      if (w.take[lane] != 0.0) {
        w.search[lane].Feed(dvec3(w.out[0][lane], w.out[1][lane], w.out[2][lane]));
      }
    }
  }

  // Found factors: the turn and the safeguard, then the jump guard where it can bite.
  bool measure = false;
  std::uint8_t check[kLanes];
  for (std::size_t lane = g; lane < g + kBendGroup; ++lane) {
    check[lane] = 0;
    bool take = false;
    const detail::BendSearch& search = w.search[lane];
    w.turn[0][lane] = 1.0;  // the identity, for lanes that only come along in a vector
    w.turn[1][lane] = w.turn[2][lane] = w.turn[3][lane] = 0.0;
    if (search.found()) {
      glm::dquat turn;
      take =
          detail::BendAim(dvec3(b.Get(0, lane)), b.Scratch3(kScratchTarget, lane), w.radius[lane],
                          total[lane], n - 1, w.current[lane], search.best_offset(), turn);
      w.turn[0][lane] = turn.w;
      w.turn[1][lane] = turn.x;
      w.turn[2][lane] = turn.y;
      w.turn[3][lane] = turn.z;
      w.s[lane] = search.best_s();
      check[lane] = take && detail::BendMoveCheckNeeded(max_move[lane], total[lane]);
      measure = measure || check[lane];
    }
    bend::SetTake(w, lane, take);
  }
  if (measure) {
    HWY_ALIGN double take_all[kLanes];
    for (std::size_t lane = g; lane < g + kBendGroup; ++lane) {
      take_all[lane] = w.take[lane];
      bend::SetTake(w, lane, check[lane] != 0);
    }
    bend::SweepGroup<bend::Mode::kMeasure>(b, w, g, pre);
    for (std::size_t lane = g; lane < g + kBendGroup; ++lane) {
      const bool ok = check[lane] == 0 || w.out[0][lane] <= max_move[lane];
      bend::SetTake(w, lane, take_all[lane] != 0.0 && ok);
    }
  }
  bool write = false;
  for (std::size_t lane = g; lane < g + kBendGroup; ++lane) {
    applied[lane] = w.take[lane] != 0.0;
    write = write || applied[lane];
  }
  if (write) bend::SweepGroup<bend::Mode::kWrite>(b, w, g, pre);
}

inline void BendScaleLanes(const BlockView& b, const std::uint8_t* want, const double* total,
                           float goal, const float* max_move, std::uint8_t* applied,
                           BendScratch& w) {
  for (std::size_t g = 0; g < kLanes; g += kBendGroup) {
    bool any = false;
    for (std::size_t lane = g; lane < g + kBendGroup; ++lane) any = any || want[lane];
    if (any) BendScaleGroup(b, want, total, goal, max_move, applied, w, g);
  }
}

}  // namespace HWY_NAMESPACE
}  // namespace fabrik::batch
HWY_AFTER_NAMESPACE();

#endif  // FABRIK_IK_BATCH_BEND_INL_H_
