#include "ik/fabrik_accelerated.h"

#include <algorithm>
#include <cmath>
#include <glm/geometric.hpp>
#include <glm/gtc/quaternion.hpp>
#include <glm/vec3.hpp>
#include <iterator>
#include <limits>

#include "ik/fabrik.h"
#include "ik/solver.h"
#include "ik/vec_util.h"

namespace fabrik {
namespace {

using glm::dquat;
using glm::dvec3;

using detail::kBendMaxMoveFactor;
constexpr double kDoubleEpsilon = std::numeric_limits<double>::epsilon();

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

namespace detail {

void BendSearch::Start(double total, double radius, double reach, float goal) {
  radius_ = radius;
  goal_ = goal;
  best_s_ = -1.0;
  best_f_ = 0.0;
  best_offset_ = dvec3(0.0);
  // Bracket a sign change of f: f(0) = total - radius >= 0 (the straight chain), f(1) from
  // the current pose, then f at growing curl factors when the effector is beyond the radius.
  a_ = 0.0;
  fa_ = total - radius;
  if (!(fa_ >= 0.0)) {  // out of the sub-chain's reach: no bracket
    state_ = State::kFailed;
    return;
  }
  b_ = 1.0;
  fb_ = reach - radius;
  if (fb_ >= 0.0) {
    a_ = 1.0;
    fa_ = fb_;
    curl_ = 0;
    s_ = kCurlFactors[0];
    state_ = State::kCurl;
    return;
  }
  BeginBracketed();
}

// Bracketed root search, Brent-style (Brent, "Algorithms for Minimization without
// Derivatives", 1973, ch. 4): inverse quadratic interpolation through the last three points
// when it lands inside the bracket, else the secant of the bracket ends, and bisection when
// neither is inside or the bracket has not halved in two steps; f is smooth, so 2-4
// evaluations are typical. On [0, 1] the search runs in x = s^2: the straight chain is the
// distance's maximum, so near it f falls off like s^2 and is close to linear in x.
void BendSearch::BeginBracketed() {
  squared_ = a_ == 0.0;
  lo_ = a_, flo_ = fa_, hi_ = b_, fhi_ = fb_;  // the bracket: flo and fhi differ in sign
  x0_ = 0.0, f0_ = 0.0, x1_ = a_, f1_ = fa_, x2_ = b_, f2_ = fb_;  // latest points, x2 newest
  three_ = false;
  width_[0] = width_[1] = std::fabs(hi_ - lo_);  // one and two steps ago
  k_ = 0;
  Propose();
}

void BendSearch::Propose() {
  if (k_ >= kMaxEvaluations) {
    state_ = best_s_ < 0.0 ? State::kFailed : State::kFound;
    return;
  }
  double x = hi_ - fhi_ * (hi_ - lo_) / (fhi_ - flo_);
  if (three_ && f0_ != f1_ && f1_ != f2_ && f0_ != f2_) {
    x = x0_ * f1_ * f2_ / ((f0_ - f1_) * (f0_ - f2_)) +
        x1_ * f0_ * f2_ / ((f1_ - f0_) * (f1_ - f2_)) +
        x2_ * f0_ * f1_ / ((f2_ - f0_) * (f2_ - f1_));
  }
  const bool inside = x > std::min(lo_, hi_) && x < std::max(lo_, hi_);
  if (!inside || (k_ >= 2 && std::fabs(hi_ - lo_) > 0.5 * width_[1])) x = 0.5 * (lo_ + hi_);
  width_[1] = width_[0];
  width_[0] = std::fabs(hi_ - lo_);
  x_ = x;
  s_ = squared_ ? std::sqrt(x) : x;
  state_ = State::kBracketed;
}

void BendSearch::Feed(const dvec3& offset) {
  const double fs = glm::length(offset) - radius_;
  if (!std::isfinite(fs)) {
    state_ = State::kFailed;
    return;
  }
  if (state_ == State::kCurl) {
    best_s_ = s_, best_f_ = fs, best_offset_ = offset;
    if (fs < 0.0) {
      b_ = s_, fb_ = fs;
      BeginBracketed();
      return;
    }
    a_ = s_, fa_ = fs;
    if (++curl_ == std::size(kCurlFactors)) {
      state_ = State::kFailed;  // not bracketed
      return;
    }
    s_ = kCurlFactors[curl_];
    return;
  }
  if (best_s_ < 0.0 || std::fabs(fs) < std::fabs(best_f_)) {
    best_s_ = s_, best_f_ = fs, best_offset_ = offset;
  }
  if (std::fabs(fs) <= goal_) {
    state_ = State::kFound;
    return;
  }
  if ((fs < 0.0) == (flo_ < 0.0)) {
    lo_ = x_, flo_ = fs;
  } else {
    hi_ = x_, fhi_ = fs;
  }
  x0_ = x1_, f0_ = f1_, x1_ = x2_, f1_ = f2_, x2_ = x_, f2_ = fs;
  three_ = true;
  ++k_;
  Propose();
}

bool BendAim(const dvec3& root, const glm::vec3& target, double radius, double total,
             std::size_t segments, double current, const dvec3& offset, dquat& turn) {
  // Turn the scaled chain about the root so its effector points at the target. The safeguard:
  // applied only when the effector Sweep will write is provably nearer the target than now.
  // That effector is root + turn (offset) up to the double rounding of the sums (bounded by
  // `sums`: a few ulps of the largest magnitude involved per joint) and then its own float
  // rounding (`rounding`: half an ulp per coordinate of its magnitude).
  const dvec3 to_target = dvec3(target) - root;
  turn = radius > 0.0 ? Arc(UnitOr(offset, dvec3(0, 1, 0)), to_target / radius)
                      : dquat(1.0, 0.0, 0.0, 0.0);
  const dvec3 predicted = root + turn * offset;
  const double magnitude =
      std::max({std::fabs(root.x), std::fabs(root.y), std::fabs(root.z), std::fabs(predicted.x),
                std::fabs(predicted.y), std::fabs(predicted.z)}) +
      total;
  const double sums = 8.0 * static_cast<double>(segments) * kDoubleEpsilon * magnitude;
  const double rounding = std::sqrt(3.0) * std::ldexp(magnitude, -24);
  const double miss = glm::length(predicted - dvec3(target)) + sums + rounding;
  return IsFinite(glm::vec3(predicted)) && miss < current;
}

}  // namespace detail

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
  double total = 0.0;
  for (float l : len) total += l;
  detail::BendSearch search;
  search.Start(total, radius, glm::length(dvec3(p.back()) - root), goal);
  while (search.pending()) search.Feed(Sweep(p, len, search.s(), identity, nullptr));
  if (!search.found()) return false;
  dquat turn;
  if (!detail::BendAim(root, target, radius, total, len.size(), current, search.best_offset(),
                       turn)) {
    return false;
  }
  // The jump guard: a joint may move at most max_move. No joint can move more than twice
  // the sub-chain's length, so the measuring sweep is skipped when the bound cannot bite.
  if (detail::BendMoveCheckNeeded(max_move, total)) {
    double moved = 0.0;
    Sweep(p, len, search.best_s(), turn, nullptr, &moved);
    if (!(moved <= max_move)) return false;
  }
  Sweep(p, len, search.best_s(), turn, p.data());
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
  const float max_move = kBendMaxMoveFactor * start_distance;
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
