#include "ik/free_root.h"

#include <cmath>

#include "ik/vec_util.h"

namespace fabrik {
namespace {

// Unit vector along `v`, or `fallback` when `v` is too short to have a direction. Scaled by
// its largest component first so that huge and tiny coordinates both normalise cleanly.
glm::vec3 DirectionOr(const glm::vec3& v, const glm::vec3& fallback) {
  const float length = RobustLength(v);
  if (!(length > 0.0f) || !std::isfinite(length)) return fallback;
  const glm::vec3 d = v / length;
  return IsFinite(d) ? d : fallback;
}

constexpr float kMaxCoordinate = 1.0e37f;

}  // namespace

SolveResult PullChain(Chain& chain, const glm::vec3& target) {
  SolveResult result;
  if (!IsFinite(target)) {
    result.ok = false;
    result.error = "target is not finite";
    return result;
  }
  // Every joint ends within total_length of the target; keep that inside float range.
  if (RobustLength(target) > kMaxCoordinate - 2.0f * chain.total_length()) {
    result.ok = false;
    result.error = "target too far from the origin for single precision";
    return result;
  }
  std::span<glm::vec3> p = chain.pose_for_solver();
  std::span<const float> len = chain.lengths();
  const std::size_t n = p.size();
  // The backward pass: the head onto the target, then every joint towards the one it hangs
  // from (paper, algorithm 1, "STAGE 1: FORWARD REACHING" in its numbering of joints).
  p[n - 1] = target;
  glm::vec3 dir(0.0f, -1.0f, 0.0f);  // the fallback of the first reach: hang straight down
  for (std::size_t i = n - 1; i-- > 0;) {
    dir = DirectionOr(p[i] - p[i + 1], dir);
    p[i] = p[i + 1] + dir * len[i];
  }
  result.iterations = 1;
  result.distance = 0.0f;
  result.reached = true;
  result.reachable = true;
  return result;
}

void LayChainFlat(Chain& chain) {
  std::span<glm::vec3> p = chain.pose_for_solver();
  std::span<const float> len = chain.lengths();
  bool flat = true;
  for (const glm::vec3& q : p) flat = flat && q.z == 0.0f;
  if (flat) return;
  // Directions of the projected segments, read before anything moves.
  glm::vec3 dir(0.0f, 1.0f, 0.0f);
  glm::vec3 previous = p[0];
  p[0].z = 0.0f;
  for (std::size_t i = 0; i + 1 < p.size(); ++i) {
    const glm::vec3 old_next = p[i + 1];
    const glm::vec3 d = old_next - previous;
    dir = DirectionOr(glm::vec3(d.x, d.y, 0.0f), dir);
    previous = old_next;
    p[i + 1] = p[i] + dir * len[i];
  }
}

}  // namespace fabrik
