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
  std::span<const float> len = chain.lengths();
  const std::size_t n = p.size();
  const glm::vec3 root = p[0];
  const Frame base = MakeFrame(constraints.base);
  if (observer) observer->OnBegin(p, target);

  r.reachable = RobustLength(target - root) <= chain.total_length();
  const bool start_inside = MaxConstraintViolation(p, constraints) <= kAtLimitEpsilon * 0.1f;
  const bool start_reached = RobustLength(p[n - 1] - target) <= settings.tolerance;

  if (!r.reachable) {
    StraightenTowards(chain, target);
  } else if (!start_reached) {
    UnfoldIfCollinear(p, len, target, pole, base);
  }

  // One attempt: iterations first..max_iterations from the current pose.
  struct Attempt {
    bool stalled = false;  // stopped for lack of progress, not reached
    int active = 0;        // directions the last forward pass had to move into their limits
  };
  const float noise = 1e-7f * chain.total_length();
  // Accelerated (settings.accelerate): after an iteration that neither reached nor stalled,
  // one bend-scale step (fabrik_accelerated.h; about the root, else about joint 1). It knows
  // no limits, so it is kept only when
  // the pose stays inside every one, and undone from a stack copy otherwise (hence only for
  // chains of up to kRestartMaxJoints joints); it counts as an iteration either way and is
  // reported as PassKind::kBendScale. After a step that was not kept the next waits 1, 2,
  // 4, ... iterations, so where limits always veto it the cost stays small.
  const bool accelerate = settings.accelerate && r.reachable && n <= kRestartMaxJoints;
  // The jump guard (fabrik_accelerated.h): no joint moves more than 3 x the starting miss.
  const float max_move = 3.0f * RobustLength(p[n - 1] - target);
  int gap = 0, wait = 0;
  auto bend_scale = [&](int iteration) {
    std::array<glm::vec3, kRestartMaxJoints> kept;
    std::copy(p.begin(), p.end(), kept.begin());
    // Turning the whole chain about the root moves the root segment, which a limit on it
    // (a rigid pedestal, say) forbids; then the same step pivoting on joint 1 is tried.
    bool applied = false;
    for (std::size_t pivot = 0; pivot < 2 && !applied; ++pivot) {
      applied = BendScaleStep(chain, target, 0.25f * settings.tolerance, pivot, max_move);
      if (applied && MaxConstraintViolation(p, constraints) > kAtLimitEpsilon * 0.1f) {
        std::copy(kept.begin(), kept.begin() + static_cast<std::ptrdiff_t>(n), p.begin());
        applied = false;
      }
    }
    r.iterations = iteration;
    if (observer) observer->OnHalfPass(PassKind::kBendScale, iteration, p);
    gap = applied ? 0 : (gap == 0 ? 1 : 2 * gap);
    wait = gap;
  };
  auto iterate = [&](int first) {
    Attempt a;
    for (int iteration = first; iteration <= settings.max_iterations; ++iteration) {
      const glm::vec3 effector_before = p[n - 1];
      ConstrainedBackwardPass(p, len, constraints, base, target);
      if (observer) observer->OnHalfPass(PassKind::kBackward, iteration, p);
      a.active = ConstrainedForwardPass(p, len, constraints, base, root);
      if (pole) {
        BendTowardsPoleSpan(p, *pole);
        a.active = ConstrainedForwardPass(p, len, constraints, base, root);
      }
      r.iterations = iteration;
      if (observer) observer->OnHalfPass(PassKind::kForward, iteration, p);
      const float distance = RobustLength(p[n - 1] - target);
      if (distance <= settings.tolerance) break;
      // No more progress: the effector moved less than a thousandth of its remaining distance
      // (or than float noise); converging solves move it by a fair fraction of that distance.
      if (RobustLength(p[n - 1] - effector_before) <= std::max(noise, 1e-3f * distance)) {
        a.stalled = true;
        break;
      }
      if (accelerate && iteration < settings.max_iterations && wait-- <= 0) {
        bend_scale(++iteration);
        if (RobustLength(p[n - 1] - target) <= settings.tolerance) break;
      }
    }
    return a;
  };

  Attempt attempt;
  if (!r.reachable || !start_reached || !start_inside || pole) {
    attempt = iterate(1);
    // Limits make local minima: a chain can wrap itself the wrong way round and stall short of
    // a target it could reach. With iterations left, try once more from the rest pose and keep
    // the closer result. The first pose is kept on the stack, so this is for chains of up to
    // kRestartMaxJoints joints.
    if (r.reachable && attempt.stalled && any_limit && r.iterations < settings.max_iterations &&
        n <= kRestartMaxJoints) {
      std::array<glm::vec3, kRestartMaxJoints> kept;
      std::copy(p.begin(), p.end(), kept.begin());
      const float kept_distance = RobustLength(p[n - 1] - target);
      ConstrainedRestPose(p, len, constraints, base, root);
      UnfoldIfCollinear(p, len, target, pole, base);
      const Attempt second = iterate(r.iterations + 1);
      if (RobustLength(p[n - 1] - target) < kept_distance) {
        attempt = second;
      } else {
        std::copy(kept.begin(), kept.begin() + static_cast<std::ptrdiff_t>(n), p.begin());
      }
    }
  }

  r.distance = RobustLength(p[n - 1] - target);
  r.reached = r.distance <= settings.tolerance;
  out.joints_at_limit = JointsAtLimit(p, constraints, at_limit);
  out.max_violation = MaxConstraintViolation(p, constraints);
  out.limited = r.reachable && !r.reached && (out.joints_at_limit > 0 || attempt.active > 0);
  return out;
}

}  // namespace fabrik
