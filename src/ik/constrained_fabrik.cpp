#include "ik/constrained_fabrik.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <glm/geometric.hpp>

#include "ik/constrained_passes.h"
#include "ik/fabrik.h"
#include "ik/fabrik_accelerated.h"
#include "ik/line_pose.h"
#include "ik/vec_util.h"

namespace fabrik {
namespace {

// Longest chain for which a stalled solve is retried from the rest pose (the first result is
// kept on the stack meanwhile).
constexpr std::size_t kRestartMaxJoints = 64;

const char* ValidateConstraintsNoAlloc(const ChainConstraints& cs, std::size_t joint_count) {
  if (const char* e = ValidateBaseFrame(cs.base)) return e;
  if (cs.joints.size() + 1 > joint_count) {
    return "more constraints than the chain has segments (the effector has none to limit)";
  }
  for (const JointConstraint& c : cs.joints) {
    if (const char* e = ValidateJointConstraint(c)) return e;
  }
  return nullptr;
}

// Escapes the straight-chain trap before iterating (towards the pole's side if there is one).
void UnfoldIfCollinear(std::span<glm::vec3> p, std::span<const float> len, const glm::vec3& target,
                       const std::optional<glm::vec3>& pole, const Frame& base) {
  const glm::vec3 root = p[0];
  float total = 0.0f;
  for (float l : len) total += l;
  const glm::vec3 axis = SafeNormalize(target - root, SafeNormalize(p.back() - root, base.forward));
  if (!JointsOnLine(p, axis, 1e-5f * total)) return;
  glm::vec3 side = AnyPerpendicular(axis);
  if (pole) {
    const glm::vec3 off = (*pole - root) - axis * glm::dot(*pole - root, axis);
    side = SafeNormalize(off, side);
  }
  BendChainOffLine(p, len, axis, side, 0.2f);
}

void BendTowardsPoleSpan(std::span<glm::vec3> p, const glm::vec3& pole) {
  if (!IsFinite(pole)) return;
  for (std::size_t i = 1; i + 1 < p.size(); ++i) {
    const glm::vec3 a = p[i - 1];
    const glm::vec3 line = p[i + 1] - a;
    const float line_len = glm::length(line);
    if (!(line_len > 1e-20f) || !std::isfinite(line_len)) continue;
    const glm::vec3 u = line / line_len;
    // Joint i circles the line (its distances to both neighbours fixed); put it on the circle
    // point nearest the pole.
    const glm::vec3 centre = a + u * glm::dot(p[i] - a, u);
    const glm::vec3 offset = p[i] - centre;
    const float radius = glm::length(offset);
    const glm::vec3 to_pole = (pole - a) - u * glm::dot(pole - a, u);
    const float pole_off = glm::length(to_pole);
    if (!(radius > 1e-6f * line_len) || !(pole_off > 1e-6f * line_len)) continue;
    if (!std::isfinite(pole_off)) continue;
    p[i] = centre + to_pole * (radius / pole_off);
  }
}

}  // namespace

void BendTowardsPole(Chain& chain, const glm::vec3& pole) {
  BendTowardsPoleSpan(chain.pose_for_solver(), pole);
}

namespace {

// The iterations of one constrained solve of a chain (SolveFabrikConstrained): the two passes,
// the pole, and with settings.accelerate the bend-scale steps between them.
class ChainIterations {
 public:
  ChainIterations(Chain& chain, const ChainConstraints& cs, const glm::vec3& target,
                  const SolveSettings& settings, const std::optional<glm::vec3>& pole,
                  SolveObserver* observer, SolveResult& r)
      : chain_(chain),
        p_(chain.pose_for_solver()),
        len_(chain.lengths()),
        n_(p_.size()),
        root_(p_[0]),
        cs_(cs),
        base_(MakeFrame(cs.base)),
        target_(target),
        settings_(settings),
        pole_(pole),
        observer_(observer),
        r_(r),
        noise_(1e-7f * chain.total_length()),
        // Accelerated: after an iteration that neither reached nor stalled, one bend-scale
        // step (fabrik_accelerated.h; about the root, else about joint 1). It knows no limits,
        // so it is kept only when the pose stays inside every one, and undone from a stack copy
        // otherwise (hence only for chains of up to kRestartMaxJoints joints); it counts as an
        // iteration either way and is reported as PassKind::kBendScale. After a step that was
        // not kept the next waits 1, 2, 4, ... iterations, so where limits always veto it the
        // cost stays small.
        accelerate_(settings.accelerate && r.reachable && n_ <= kRestartMaxJoints),
        // The jump guard (fabrik_accelerated.h): no joint moves more than 3 x the starting miss.
        max_move_(3.0f * RobustLength(p_[n_ - 1] - target)) {}

  float Distance() const { return RobustLength(p_[n_ - 1] - target_); }

  // Iterations first..max_iterations from the current pose.
  PassAttempt Iterate(int first) {
    PassAttempt a;
    for (int iteration = first; iteration <= settings_.max_iterations; ++iteration) {
      const glm::vec3 effector_before = p_[n_ - 1];
      ConstrainedBackwardPass(p_, len_, cs_, base_, target_);
      if (observer_) observer_->OnHalfPass(PassKind::kBackward, iteration, p_);
      a.active = ConstrainedForwardPass(p_, len_, cs_, base_, root_);
      if (pole_) {
        BendTowardsPoleSpan(p_, *pole_);
        a.active = ConstrainedForwardPass(p_, len_, cs_, base_, root_);
      }
      r_.iterations = iteration;
      if (observer_) observer_->OnHalfPass(PassKind::kForward, iteration, p_);
      const float distance = Distance();
      if (distance <= settings_.tolerance) break;
      if (NoProgress(RobustLength(p_[n_ - 1] - effector_before), distance, noise_)) {
        a.stalled = true;
        break;
      }
      if (accelerate_ && iteration < settings_.max_iterations && wait_-- <= 0) {
        BendScale(++iteration);
        if (Distance() <= settings_.tolerance) break;
      }
    }
    return a;
  }

  // The rest pose, unfolded off the line to the target if it lies on it.
  void Restart() {
    ConstrainedRestPose(p_, len_, cs_, base_, root_);
    UnfoldIfCollinear(p_, len_, target_, pole_, base_);
  }

 private:
  void BendScale(int iteration) {
    std::array<glm::vec3, kRestartMaxJoints> kept;
    std::copy(p_.begin(), p_.end(), kept.begin());
    // Turning the whole chain about the root moves the root segment, which a limit on it
    // (a rigid pedestal, say) forbids; then the same step pivoting on joint 1 is tried.
    bool applied = false;
    for (std::size_t pivot = 0; pivot < 2 && !applied; ++pivot) {
      applied = BendScaleStep(chain_, target_, 0.25f * settings_.tolerance, pivot, max_move_);
      if (applied && MaxConstraintViolation(p_, cs_) > kAtLimitEpsilon * 0.1f) {
        std::copy(kept.begin(), kept.begin() + static_cast<std::ptrdiff_t>(n_), p_.begin());
        applied = false;
      }
    }
    r_.iterations = iteration;
    if (observer_) observer_->OnHalfPass(PassKind::kBendScale, iteration, p_);
    gap_ = applied ? 0 : (gap_ == 0 ? 1 : 2 * gap_);
    wait_ = gap_;
  }

  Chain& chain_;
  std::span<glm::vec3> p_;
  std::span<const float> len_;
  std::size_t n_;
  glm::vec3 root_;
  const ChainConstraints& cs_;
  Frame base_;
  glm::vec3 target_;
  const SolveSettings& settings_;
  const std::optional<glm::vec3>& pole_;
  SolveObserver* observer_;
  SolveResult& r_;
  float noise_;
  bool accelerate_;
  float max_move_;
  int gap_ = 0, wait_ = 0;
};

}  // namespace

ConstrainedSolveResult SolveFabrikConstrained(Chain& chain, const ChainConstraints& constraints,
                                              const glm::vec3& target,
                                              const SolveSettings& settings,
                                              const std::optional<glm::vec3>& pole,
                                              SolveObserver* observer,
                                              std::span<std::uint8_t> at_limit) {
  ConstrainedSolveResult out;
  SolveResult& r = out.base;
  const char* error = ValidateSolveInput(target, settings);
  if (!error && pole && !IsFinite(*pole)) error = "pole is not finite (NaN or inf)";
  if (!error) error = ValidateConstraintsNoAlloc(constraints, chain.joint_count());
  if (error) {
    r.ok = false;
    r.error = error;
    return out;
  }

  const bool any_limit = std::any_of(constraints.joints.begin(), constraints.joints.end(),
                                     [](const JointConstraint& c) { return IsConstrained(c); });
  if (!any_limit && !pole) {
    r = SolveFabrik(chain, target, settings, observer);
    JointsAtLimit(chain.joints(), constraints, at_limit);
    return out;
  }

  std::span<glm::vec3> p = chain.pose_for_solver();
  const std::size_t n = p.size();
  if (observer) observer->OnBegin(p, target);
  r.reachable = RobustLength(target - p[0]) <= chain.total_length();
  const bool start_inside = MaxConstraintViolation(p, constraints) <= kAtLimitEpsilon * 0.1f;
  const bool start_reached = RobustLength(p[n - 1] - target) <= settings.tolerance;
  if (!r.reachable) {
    StraightenTowards(chain, target);
  } else if (!start_reached) {
    UnfoldIfCollinear(p, chain.lengths(), target, pole, MakeFrame(constraints.base));
  }

  ChainIterations solve(chain, constraints, target, settings, pole, observer, r);
  PassAttempt attempt;
  if (!r.reachable || !start_reached || !start_inside || pole) {
    // A stalled, reachable solve with iterations left is retried once from the rest pose
    // (IterateWithRestart); the first pose is kept on the stack meanwhile, so this is for
    // chains of up to kRestartMaxJoints joints.
    std::array<glm::vec3, kRestartMaxJoints> kept;
    attempt = IterateWithRestart(
        p, kept, r.reachable && any_limit && n <= kRestartMaxJoints, r.iterations,
        settings.max_iterations, [&](int first) { return solve.Iterate(first); },
        [&] { return double(solve.Distance()); }, [&] { solve.Restart(); });
  }

  r.distance = RobustLength(p[n - 1] - target);
  r.reached = r.distance <= settings.tolerance;
  out.joints_at_limit = JointsAtLimit(p, constraints, at_limit);
  out.max_violation = MaxConstraintViolation(p, constraints);
  out.limited = r.reachable && !r.reached && (out.joints_at_limit > 0 || attempt.active > 0);
  return out;
}

}  // namespace fabrik
