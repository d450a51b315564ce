#include "ik/ccd.h"

#include <algorithm>
#include <cmath>
#include <glm/geometric.hpp>
#include <glm/gtc/quaternion.hpp>
#include <numbers>
#include <vector>

#include "ik/fabrik.h"
#include "ik/line_pose.h"
#include "ik/solver.h"
#include "ik/vec_util.h"

namespace fabrik {
namespace {

// The rotation that turns unit vector `from` onto unit vector `to`, by at most `max_angle`.
// Returns the identity when they already agree; a half turn about some perpendicular axis when
// they are opposite (the cross product gives no axis there).
glm::quat TurnTowards(const glm::vec3& from, const glm::vec3& to, float max_angle) {
  const glm::vec3 c = glm::cross(from, to);
  const float s = glm::length(c);
  // atan2 of (sin, cos) stays accurate at both ends, where acos(dot) would not.
  const float angle = std::atan2(s, glm::dot(from, to));
  if (!(angle > 1e-7f)) return glm::quat(1.0f, 0.0f, 0.0f, 0.0f);
  const glm::vec3 axis = s > 1e-6f ? c / s : AnyPerpendicular(from);
  return glm::angleAxis(std::min(angle, max_angle), axis);
}

}  // namespace

SolveResult SolveCcd(Chain& chain, const glm::vec3& target, const SolveSettings& settings,
                     SolveObserver* observer, const CcdOptions& options) {
  SolveResult result;
  const bool iterate = BeginSolve(chain, target, settings, observer, result);
  if (!result.ok) return result;
  std::span<glm::vec3> p = chain.pose_for_solver();
  std::span<const float> len = chain.lengths();
  const std::size_t n = p.size();
  const glm::vec3 root = p[0];
  if (iterate) {
    const float max_angle =
        (options.max_joint_angle > 0.0f && options.max_joint_angle <= std::numbers::pi_v<float>)
            ? options.max_joint_angle
            : std::numbers::pi_v<float>;
    // A joint closer than this to the effector or the target has no direction to turn by.
    const float tiny = 1e-6f * chain.max_length();
    const float stall = 1e-2f * settings.tolerance;
    const float tolerance_sq = settings.tolerance * settings.tolerance;
    // The turn chosen for each joint in this sweep. Grown, never shrunk, so a thread reuses it.
    thread_local std::vector<glm::quat> turns;
    if (turns.size() < n) turns.resize(n);
    bool bent = false;

    for (int iteration = 1; iteration <= settings.max_iterations; ++iteration) {
      const glm::vec3 start = p[n - 1];
      // The sweep, effector end first. Turning joint j rigidly turns everything beyond it, but
      // the later joints (j-1 ... 0) only need the new effector position, so the pose is
      // rebuilt once after the sweep instead of after every joint: O(n), not O(n^2).
      glm::vec3 effector = p[n - 1];
      for (std::size_t j = n - 1; j-- > 0;) {
        turns[j] = glm::quat(1.0f, 0.0f, 0.0f, 0.0f);
        const glm::vec3 to_effector = effector - p[j];
        const glm::vec3 to_target = target - p[j];
        const float le = glm::length(to_effector);
        const float lt = glm::length(to_target);
        if (!(le > tiny) || !(lt > tiny)) continue;  // effector or target on this joint
        turns[j] = TurnTowards(to_effector / le, to_target / lt, max_angle);
        effector = p[j] + turns[j] * to_effector;
      }
      // Segment k was turned by turns[k] first, then by every turn nearer the root, so its new
      // direction is turns[0] * ... * turns[k] applied to the old one.
      glm::quat total(1.0f, 0.0f, 0.0f, 0.0f);
      glm::vec3 old_parent = p[0];
      for (std::size_t k = 0; k + 1 < n; ++k) {
        total = glm::normalize(total * turns[k]);
        const glm::vec3 old_child = p[k + 1];
        const glm::vec3 dir = SafeNormalize(old_child - old_parent, glm::vec3(0.0f, 1.0f, 0.0f));
        p[k + 1] = p[k] + SafeNormalize(total * dir, dir) * len[k];
        old_parent = old_child;
      }
      result.iterations = iteration;
      const glm::vec3 miss = p[n - 1] - target;
      const bool reached = glm::dot(miss, miss) <= tolerance_sq;
      bool stop = reached;
      // A sweep that hardly moves the effector yet misses the target means every joint is on
      // the line through the target (each joint's turn is zero or undefined there).
      if (!reached && glm::length(p[n - 1] - start) < stall) {
        const glm::vec3 axis =
            SafeNormalize(target - root, SafeNormalize(miss, glm::vec3(0, 1, 0)));
        if (EscapeLineOnce(chain, axis, 1e-4f * chain.total_length(), bent) == LineEscape::kStuck) {
          stop = true;
        }
      }
      if (observer) observer->OnHalfPass(PassKind::kForward, iteration, p);
      if (stop) break;
    }
  }
  EndSolve(chain, target, settings, result);
  return result;
}

}  // namespace fabrik
