#include "ik/fabrik.h"

#include <algorithm>
#include <cmath>
#include <glm/geometric.hpp>
#include <glm/vec3.hpp>
#include <limits>

#include "ik/fabrik_accelerated.h"
#include "ik/line_pose.h"
#include "ik/reach_arithmetic.h"
#include "ik/vec_util.h"

namespace fabrik {
namespace {

using reach::DistanceD;
using reach::FastDistance;
using reach::kFloatMax;
using reach::kMaxFastSq;
using reach::kMinFastSq;
using reach::ReachCareful;
using reach::Saturate;

// The fast reach also scales by len / |d|, which must stay a normal float: neither overflow
// (a huge segment reaching from very close points) nor become subnormal (a tiny segment
// reaching from far away, losing most of its bits). With 1e-15 < |d| < 1e15 (the fast range
// of reach_arithmetic.h) that holds for every len in [1e-15, 1e15]; chains with a segment
// outside take the careful path for every reach.
constexpr float kMinFastLength = 1e-15f;
constexpr float kMaxFastLength = 1e15f;

}  // namespace

glm::vec3 SafeNormalize(const glm::vec3& v, const glm::vec3& fallback) {
  // Test the squared length, not the length: a square in the subnormal range has lost bits,
  // and v / sqrt(sq) would then not be a unit vector. Such v, and v whose square overflowed,
  // are rescaled by their largest component first (the result then has length in [1, sqrt 3]).
  const float sq = glm::dot(v, v);
  if (sq > kMinFastSq && sq < kMaxFastSq) return v / std::sqrt(sq);
  const float scale = std::max({std::fabs(v.x), std::fabs(v.y), std::fabs(v.z)});
  if (scale > 0.0f && std::isfinite(scale)) {
    const glm::vec3 s = v / scale;
    return s / glm::length(s);
  }
  return fallback;
}

glm::vec3 AnyPerpendicular(const glm::vec3& axis) {
  // Prefer bending "up" (+Y) when the axis is mostly horizontal: that is what a viewer
  // expects of a chain lying on the ground plane.
  const glm::vec3 up(0.0f, 1.0f, 0.0f);
  const glm::vec3 helper = std::fabs(axis.y) < 0.9f ? up : glm::vec3(1.0f, 0.0f, 0.0f);
  const glm::vec3 side = glm::cross(glm::cross(axis, helper), axis);
  return SafeNormalize(side, glm::vec3(0.0f, 0.0f, 1.0f));
}

const char* ValidateSolveInput(const glm::vec3& target, const SolveSettings& settings) {
  if (!IsFinite(target)) return "target is not finite (NaN or inf)";
  if (!std::isfinite(settings.tolerance) || !(settings.tolerance > 0.0f)) {
    return "tolerance must be finite and > 0";
  }
  if (settings.max_iterations < 1) return "max_iterations must be >= 1";
  return nullptr;
}

void StraightenTowards(Chain& chain, const glm::vec3& target) {
  std::span<glm::vec3> p = chain.pose_for_solver();
  std::span<const float> len = chain.lengths();
  LayStraight(
      p.size(), [&](std::size_t i) { return p[i]; },
      [&](std::size_t i, const glm::vec3& v) { p[i] = v; }, [&](std::size_t i) { return len[i]; },
      target);
}

namespace {

// The backward pass's reaches below joint `next` (the effector, or the joint the trap escape
// placed): each joint i slides along the line to its (already moved) child i + 1 until it is
// len[i] from it. Squared distances within (min_fast_sq, kMaxFastSq) take the fast reach.
inline void ReachBackward(std::span<glm::vec3> p, std::span<const float> len, std::size_t next,
                          float min_fast_sq, const glm::vec3& inward) {
  const std::size_t n = p.size();
  for (std::size_t i = next; i-- > 0;) {
    const glm::vec3 d = p[i] - p[i + 1];
    const float sq = glm::dot(d, d);
    if (sq > min_fast_sq && sq < kMaxFastSq) [[likely]] {
      p[i] = p[i + 1] + d * (len[i] / std::sqrt(sq));
    } else {
      // Coincident (or extreme) points: keep going the way the previous reach went.
      const glm::vec3 previous = i + 2 < n ? p[i + 1] - p[i + 2] : inward;
      p[i] = ReachCareful(p[i + 1], p[i], len[i], previous, inward);
    }
  }
}

// The forward pass's reaches after the root is back in place: each joint i slides towards
// its (already moved) parent i - 1 until it is len[i - 1] from it.
inline void ReachForward(std::span<glm::vec3> p, std::span<const float> len, float min_fast_sq,
                         const glm::vec3& outward) {
  for (std::size_t i = 1; i < p.size(); ++i) {
    const glm::vec3 d = p[i] - p[i - 1];
    const float sq = glm::dot(d, d);
    if (sq > min_fast_sq && sq < kMaxFastSq) [[likely]] {
      p[i] = p[i - 1] + d * (len[i - 1] / std::sqrt(sq));
    } else {
      const glm::vec3 previous = i >= 2 ? p[i - 1] - p[i - 2] : outward;
      p[i] = ReachCareful(p[i - 1], p[i], len[i - 1], previous, outward);
    }
  }
}

}  // namespace

SolveResult SolveFabrik(Chain& chain, const glm::vec3& target, const SolveSettings& settings,
                        SolveObserver* observer) {
  if (settings.accelerate) return SolveFabrikAccelerated(chain, target, settings, observer);
  SolveResult result;
  if (const char* error = ValidateSolveInput(target, settings)) {
    result.ok = false;
    result.error = error;
    return result;
  }
  std::span<glm::vec3> p = chain.pose_for_solver();
  std::span<const float> len = chain.lengths();
  const std::size_t n = p.size();
  const glm::vec3 root = p[0];
  if (observer) observer->OnBegin(p, target);

  // Saturated rather than overflowed for far targets (then > total, as it should be).
  const float root_distance = FastDistance(target, root);
  result.reachable = root_distance <= chain.total_length();

  if (!result.reachable) {
    StraightenTowards(chain, target);
    result.iterations = 1;
    if (observer) observer->OnHalfPass(PassKind::kStraighten, 1, p);
    // `reached` agrees with the reported distance, except that a saturated one (the true
    // distance is beyond FLT_MAX) is never within any tolerance.
    const double distance = DistanceD(p[n - 1], target);
    result.distance = Saturate(distance);
    result.reached = distance <= kFloatMax && result.distance <= settings.tolerance;
    return result;
  }

  float distance = FastDistance(p[n - 1], target);
  if (distance > settings.tolerance) {
    // The root -> target direction; for a target on the root, the root -> effector one.
    const glm::vec3 up(0.0f, 1.0f, 0.0f);
    const glm::vec3 axis = root_distance > 0.0f ? SafeNormalize(target - root, up)
                                                : SafeNormalize(p[n - 1] - root, up);
    // Fallback directions for reaches whose two points coincide, used only when the previous
    // segment cannot supply one: towards the root going backward, away from it going forward.
    const glm::vec3 inward = -axis;
    const glm::vec3 outward = axis;

    // The straight-chain trap: if every joint is on the line through the root and the target,
    // every reach keeps it there and the chain can only slide along the line, never fold
    // (unless the target is at full reach, where the straight chain is the answer). A chain
    // can start that way (a straight chain aimed along its own axis) or get there (reaches
    // from coincident points fall back to directions along the line). So before each
    // backward pass, if the chain is on the line, escape within the first reach: the joint
    // next to the effector goes sideways from the target (perpendicular to the line)
    // instead of along it. That reach still puts the joint exactly one segment from the
    // target, so each reach moves one joint and keeps one length (the step-through view
    // relies on that). Sideways (a quarter turn) measured best: it folds straight chains of
    // 4..100 joints in 2-4 iterations on average, where small nudges (0.1-0.6 rad) or
    // bending the whole chain into an arc first took 5-25.
    const float total = chain.total_length();
    const bool can_trap = root_distance < total - settings.tolerance;
    const float on_line_eps = 1e-5f * total;
    // Folding the length condition into the lower bound keeps one comparison pair per reach.
    const bool fast_lengths =
        chain.max_length() <= kMaxFastLength && chain.min_length() >= kMinFastLength;
    const float min_fast_sq = fast_lengths ? kMinFastSq : std::numeric_limits<float>::infinity();

    for (int iteration = 1;; ++iteration) {
      // Backward pass: effector onto the target, then each joint i slides along the line to
      // its (already moved) child i + 1 until it is len[i] from it.
      p[n - 1] = target;
      std::size_t next = n - 1;  // joints below `next` are still to be reached
      if (can_trap && JointsOnLine(p, axis, on_line_eps)) {
        p[n - 2] = target + AnyPerpendicular(axis) * len[n - 2];
        next = n - 2;
      }
      ReachBackward(p, len, next, min_fast_sq, inward);
      if (observer) observer->OnHalfPass(PassKind::kBackward, iteration, p);

      // Forward pass: root back to its fixed place, then each joint i slides towards its
      // (already moved) parent i - 1 until it is len[i - 1] from it.
      p[0] = root;
      ReachForward(p, len, min_fast_sq, outward);
      result.iterations = iteration;
      if (observer) observer->OnHalfPass(PassKind::kForward, iteration, p);

      distance = FastDistance(p[n - 1], target);
      // Written so that iteration never passes max_iterations (no overflow at INT_MAX).
      if (distance <= settings.tolerance || iteration >= settings.max_iterations) break;
    }
  }
  result.distance = distance;
  result.reached = distance <= settings.tolerance;
  return result;
}

}  // namespace fabrik
