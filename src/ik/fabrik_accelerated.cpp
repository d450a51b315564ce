#include "ik/fabrik_accelerated.h"

#include <algorithm>
#include <cmath>
#include <glm/geometric.hpp>
#include <glm/gtc/quaternion.hpp>
#include <glm/vec3.hpp>
#include <limits>

#include "ik/fabrik.h"
#include "ik/solver.h"
#include "ik/vec_util.h"

namespace fabrik {
namespace {

using glm::dquat;
using glm::dvec3;

// Search budget of one bend-scale step: the bracketed search below converges superlinearly
// on the smooth |effector(s) - root| - |target - root|; the cap only bounds the cost of a
// pathological pose.
constexpr int kMaxEvaluations = 16;
// The jump guard of a solve: a bend-scale step may move no joint farther than this many times
// the effector's distance from the target when the solve began (docs/accelerated-fabrik.md).
constexpr float kMaxMoveFactor = 3.0f;
constexpr double kDoubleEpsilon = std::numeric_limits<double>::epsilon();
// Curl factors tried, in order, when the effector is farther from the root than the target.
// Fine steps first: a nearly folded joint passes its fold (where the distance dips) within a
// small increase of s; long, gently bent chains need large factors.
constexpr double kCurlFactors[] = {1.25, 1.5, 2.0, 3.0, 5.0, 9.0, 17.0};

dvec3 UnitOr(const dvec3& v, const dvec3& fallback) {
  const double l = glm::length(v);
  return l > 0.0 && std::isfinite(l) ? v / l : fallback;
}

// Any unit vector perpendicular to unit `a`.
dvec3 Perpendicular(const dvec3& a) {
  const dvec3 helper = std::fabs(a.y) < 0.9 ? dvec3(0, 1, 0) : dvec3(1, 0, 0);
  return UnitOr(glm::cross(a, helper), dvec3(0, 0, 1));
}

// The shortest-arc rotation taking unit `a` to unit `b`: (1 + a.b, a x b) normalised, whose
// squared norm is 2 (1 + a.b). For (nearly) opposite vectors the arc is a half turn about any
// perpendicular axis.
dquat Arc(const dvec3& a, const dvec3& b) {
  const double w = 1.0 + glm::dot(a, b);
  const dvec3 v = glm::cross(a, b);
  const double norm_sq = w * w + glm::dot(v, v);
  if (!(norm_sq > 1e-24)) {
    const dvec3 axis = Perpendicular(a);
    return dquat(0.0, axis.x, axis.y, axis.z);
  }
  const double inv = 1.0 / std::sqrt(norm_sq);
  return dquat(w * inv, v.x * inv, v.y * inv, v.z * inv);
}

// The chain with every bend scaled by `s`; returns the effector's offset from the root.
//
// Bend i (i >= 1) is q_i = Arc(d_{i-1}, d_i) between the current segment directions. Its
// scaled version is the normalised linear blend (1 - s) + s q_i of the identity and q_i
// ("nlerp"): a rotation about the same axis whose angle grows monotonically with s, equal to
// the identity at s = 0 and to q_i at s = 1 (it need not be linear in s: only a continuous
// family through the current pose and the straight chain is needed for the bracket). Applied
// in each segment's own frame: with M_{i-1} the rotation taking the old frame of segment
// i-1 to its new one, d'_i = M_{i-1} Q_i d_{i-1} and M_i = M_{i-1} Q_i q_i^-1 (so s = 1 leaves
// M the identity, s = 0 makes every d'_i = d'_0 = d_0: straight).
// When `out` is set, joint i+1 is written as x_{i+1} = x_i + turn (len_i d'_i), x_0 = root,
// stepped in double from joint to joint rather than as root + turn (offset): a root far from
// the rest of the chain (a huge first segment) would otherwise cancel against the offsets and
// leave errors of its own size's rounding in every later segment. `out` may be the pose
// itself: joint i+1 is read before it is written and never read again. When `moved` is set it
// receives the largest distance a joint would move (with the turn applied).
dvec3 Sweep(std::span<const glm::vec3> p, std::span<const float> len, double s, const dquat& turn,
            glm::vec3* out, double* moved = nullptr) {
  const dvec3 root(p[0]);
  dvec3 prev_point = root;
  dvec3 prev_dir(0.0, 1.0, 0.0);
  dquat frame(1.0, 0.0, 0.0, 0.0);
  dvec3 offset(0.0);
  dvec3 x = root;
  for (std::size_t i = 0; i < len.size(); ++i) {
    const dvec3 point(p[i + 1]);
    const dvec3 dir = UnitOr(point - prev_point, prev_dir);
    dvec3 new_dir = dir;
    if (i > 0) {
      const dquat q = Arc(prev_dir, dir);
      const dquat scaled = glm::normalize(dquat(1.0 - s + s * q.w, s * q.x, s * q.y, s * q.z));
      const dquat turned = frame * scaled;
      new_dir = turned * prev_dir;
      frame = turned * glm::conjugate(q);
    }
    const dvec3 step = static_cast<double>(len[i]) * new_dir;
    offset += step;
    if (out != nullptr || moved != nullptr) {
      x += turn * step;
      if (out != nullptr) out[i + 1] = glm::vec3(x);
      if (moved != nullptr) *moved = std::max(*moved, glm::length(x - point));
    }
    prev_point = point;
    prev_dir = dir;
  }
  return offset;
}

// Passes a textbook solve's callbacks on with its iteration numbers shifted, and OnBegin
// only once, so a series of one-iteration SolveFabrik calls looks like one solve.
class Relay final : public SolveObserver {
 public:
  explicit Relay(SolveObserver* inner) : inner_(inner) {}
  void OnBegin(std::span<const glm::vec3> joints, const glm::vec3& target) override {
    if (begun_) return;
    begun_ = true;
    inner_->OnBegin(joints, target);
  }
  void OnHalfPass(PassKind kind, int iteration, std::span<const glm::vec3> joints) override {
    inner_->OnHalfPass(kind, offset + iteration, joints);
  }
  int offset = 0;

 private:
  SolveObserver* inner_;
  bool begun_ = false;
};

}  // namespace

bool BendScaleStep(Chain& chain, const glm::vec3& target, float goal, std::size_t pivot,
                   float max_move) {
  if (pivot + 1 >= chain.joint_count()) return false;
  // The sub-chain from the pivot is a chain of its own: its root stays, everything after it
  // is scaled and turned.
  std::span<glm::vec3> p = chain.pose_for_solver().subspan(pivot);
  std::span<const float> len = chain.lengths().subspan(pivot);
  const dvec3 root(p[0]);
  const double radius = glm::length(dvec3(target) - root);
  // In double: the step must lower the true distance, not just its float rounding.
  const double current = glm::length(dvec3(p.back()) - dvec3(target));
  const dquat identity(1.0, 0.0, 0.0, 0.0);
  auto f = [&](double s, dvec3& offset) {
    offset = Sweep(p, len, s, identity, nullptr);
    return glm::length(offset) - radius;
  };

  // Bracket a sign change of f: f(0) = total - radius >= 0 (the straight chain), f(1) from
  // the current pose, then f at growing curl factors when the effector is beyond the radius.
  double total = 0.0;
  for (float l : len) total += l;
  double a = 0.0, fa = total - radius;
  if (!(fa >= 0.0)) return false;  // out of the sub-chain's reach: no bracket
  double b = 1.0, fb = glm::length(dvec3(p.back()) - root) - radius;
  dvec3 best_offset(0.0), offset(0.0);
  double best_s = -1.0, best_f = 0.0;
  if (fb >= 0.0) {
    a = 1.0;
    fa = fb;
    bool bracketed = false;
    for (double s : kCurlFactors) {
      const double fs = f(s, offset);
      if (!std::isfinite(fs)) return false;
      best_s = s, best_f = fs, best_offset = offset;
      if (fs < 0.0) {
        b = s, fb = fs;
        bracketed = true;
        break;
      }
      a = s, fa = fs;
    }
    if (!bracketed) return false;
  }
  // Bracketed root search, Brent-style (Brent, "Algorithms for Minimization without
  // Derivatives", 1973, ch. 4): inverse quadratic interpolation through the last three points
  // when it lands inside the bracket, else the secant of the bracket ends, and bisection when
  // neither is inside or the bracket has not halved in two steps; f is smooth, so 2-4
  // evaluations are typical. On [0, 1] the search runs in x = s^2: the straight chain is the
  // distance's maximum, so near it f falls off like s^2 and is close to linear in x.
  const bool squared = a == 0.0;
  double lo = a, flo = fa, hi = b, fhi = fb;  // the bracket: flo and fhi differ in sign
  double x0 = 0.0, f0 = 0.0, x1 = a, f1 = fa, x2 = b, f2 = fb;  // latest points, x2 newest
  bool three = false;
  double width[2] = {std::fabs(hi - lo), std::fabs(hi - lo)};  // one and two steps ago
  for (int k = 0; k < kMaxEvaluations; ++k) {
    double x = hi - fhi * (hi - lo) / (fhi - flo);
    if (three && f0 != f1 && f1 != f2 && f0 != f2) {
      x = x0 * f1 * f2 / ((f0 - f1) * (f0 - f2)) + x1 * f0 * f2 / ((f1 - f0) * (f1 - f2)) +
          x2 * f0 * f1 / ((f2 - f0) * (f2 - f1));
    }
    const bool inside = x > std::min(lo, hi) && x < std::max(lo, hi);
    if (!inside || (k >= 2 && std::fabs(hi - lo) > 0.5 * width[1])) x = 0.5 * (lo + hi);
    width[1] = width[0];
    width[0] = std::fabs(hi - lo);
    const double s = squared ? std::sqrt(x) : x;
    const double fs = f(s, offset);
    if (!std::isfinite(fs)) return false;
    if (best_s < 0.0 || std::fabs(fs) < std::fabs(best_f)) {
      best_s = s, best_f = fs, best_offset = offset;
    }
    if (std::fabs(fs) <= goal) break;
    if ((fs < 0.0) == (flo < 0.0)) {
      lo = x, flo = fs;
    } else {
      hi = x, fhi = fs;
    }
    x0 = x1, f0 = f1, x1 = x2, f1 = f2, x2 = x, f2 = fs;
    three = true;
  }
  if (best_s < 0.0) return false;

  // Turn the scaled chain about the root so its effector points at the target. The safeguard:
  // applied only when the effector Sweep will write is provably nearer the target than now.
  // That effector is root + turn (offset) up to the double rounding of the sums (bounded by
  // `sums`: a few ulps of the largest magnitude involved per joint) and then its own float
  // rounding (`rounding`: half an ulp per coordinate of its magnitude).
  const dvec3 to_target = dvec3(target) - root;
  const dquat turn =
      radius > 0.0 ? Arc(UnitOr(best_offset, dvec3(0, 1, 0)), to_target / radius) : identity;
  const dvec3 predicted = root + turn * best_offset;
  const double magnitude =
      std::max({std::fabs(root.x), std::fabs(root.y), std::fabs(root.z), std::fabs(predicted.x),
                std::fabs(predicted.y), std::fabs(predicted.z)}) +
      total;
  const double sums = 8.0 * static_cast<double>(len.size()) * kDoubleEpsilon * magnitude;
  const double rounding = std::sqrt(3.0) * std::ldexp(magnitude, -24);
  const double miss = glm::length(predicted - dvec3(target)) + sums + rounding;
  if (!IsFinite(glm::vec3(predicted)) || !(miss < current)) return false;
  // The jump guard: a joint may move at most max_move. No joint can move more than twice
  // the sub-chain's length, so the measuring sweep is skipped when the bound cannot bite.
  if (max_move < 2.0 * total) {
    double moved = 0.0;
    Sweep(p, len, best_s, turn, nullptr, &moved);
    if (!(moved <= max_move)) return false;
  }
  Sweep(p, len, best_s, turn, p.data());
  return true;
}

SolveResult SolveFabrikAccelerated(Chain& chain, const glm::vec3& target,
                                   const SolveSettings& settings, SolveObserver* observer) {
  SolveResult result;
  if (const char* error = ValidateSolveInput(target, settings)) {
    result.ok = false;
    result.error = error;
    return result;
  }
  SolveSettings one = settings;
  one.accelerate = false;
  one.max_iterations = 1;
  Relay relay(observer);
  SolveObserver* relayed = observer != nullptr ? &relay : nullptr;
  const float start_distance = SafeDistance(chain.effector(), target);
  // The first textbook iteration also validates, handles the out-of-reach and
  // already-there cases and calls OnBegin, exactly as SolveFabrik documents.
  result = SolveFabrik(chain, target, one, relayed);
  if (!result.ok || !result.reachable || result.reached) return result;

  std::span<glm::vec3> p = chain.pose_for_solver();
  const float goal = 0.25f * settings.tolerance;
  const float max_move = kMaxMoveFactor * start_distance;
  int iterations = result.iterations;
  // Back-off: after a bend-scale step that could not be applied, the next one waits for
  // `gap` textbook iterations, doubling on each further failure, so poses where it does not
  // help (a target in the hole of a chain that cannot fold, say) cost little more than the
  // textbook passes.
  int gap = 0, wait = 0;
  while (iterations < settings.max_iterations) {
    if (wait > 0) {
      --wait;
    } else {
      ++iterations;
      if (BendScaleStep(chain, target, goal, 0, max_move)) {
        result.distance = SafeDistance(p.back(), target);
        result.reached = result.distance <= settings.tolerance;
        gap = 0;
      } else {
        gap = gap == 0 ? 1 : 2 * gap;
        wait = gap;
      }
      if (observer) observer->OnHalfPass(PassKind::kBendScale, iterations, p);
      if (result.reached || iterations >= settings.max_iterations) break;
    }

    relay.offset = iterations;
    const SolveResult r = SolveFabrik(chain, target, one, relayed);
    iterations += r.iterations;
    result.distance = r.distance;
    result.reached = r.reached;
    if (result.reached) break;
  }
  result.iterations = iterations;
  return result;
}

}  // namespace fabrik
