#include "ik/constrained_passes.h"

#include <glm/geometric.hpp>

#include "ik/fabrik.h"
#include "ik/vec_util.h"

namespace fabrik {

bool IsFixedLimit(std::size_t joint, const JointConstraint& c) {
  return IsConstrained(c) && (joint == 0 || IsWorldFixed(c));
}

void ConstrainedBackwardPass(std::span<glm::vec3> p, std::span<const float> len,
                             const ChainConstraints& cs, const Frame& base, const glm::vec3& target,
                             const glm::vec3* last_direction) {
  const std::size_t n = p.size();
  // The last segment's frame in the current pose, to start the inward transport from (the
  // inverse of the forward transport, so a child's relative limit can be mirrored onto its
  // parent segment).
  Frame child = base;
  for (std::size_t k = 0; k + 1 < n; ++k) {
    child = TransportFrame(child, SafeNormalize(p[k + 1] - p[k], child.forward));
  }
  p[n - 1] = target;
  std::size_t next = n - 1;  // segments below `next` are still to be placed
  if (last_direction != nullptr) {
    child = TransportFrame(child, *last_direction);
    p[n - 2] = target - *last_direction * len[n - 2];
    next = n - 2;
  }
  for (std::size_t k = next; k-- > 0;) {
    // Where the segment wants to point (from joint k to k+1); if the two coincide, carry on
    // straight, which is always a valid choice that keeps the length.
    glm::vec3 d = SafeNormalize(p[k + 1] - p[k], child.forward);
    if (k + 2 < n) d = MirroredLimit(ConstraintAt(cs, k + 1), k + 1, child, d);
    if (k > 0) d = FixedLimit(ConstraintAt(cs, k), k, base, d);
    p[k] = p[k + 1] - d * len[k];
    child = TransportFrame(child, d);
  }
}

int ConstrainedForwardPass(std::span<glm::vec3> p, std::span<const float> len,
                           const ChainConstraints& cs, const Frame& base, const glm::vec3& root,
                           const glm::vec3* last_direction) {
  p[0] = root;
  Frame f = base;
  int active = 0;
  for (std::size_t k = 0; k + 1 < p.size(); ++k) {
    glm::vec3 d = last_direction != nullptr && k + 2 == p.size()
                      ? *last_direction
                      : SafeNormalize(p[k + 1] - p[k], f.forward);
    d = ForwardLimit(ConstraintAt(cs, k), f, d, active);
    p[k + 1] = p[k] + d * len[k];
    f = TransportFrame(f, d);
  }
  return active;
}

void ConstrainedRestPose(std::span<glm::vec3> p, std::span<const float> len,
                         const ChainConstraints& cs, const Frame& base, const glm::vec3& root) {
  p[0] = root;
  Frame f = base;
  for (std::size_t k = 0; k + 1 < p.size(); ++k) {
    const glm::vec3 d = RestDirection(ConstraintAt(cs, k), f);
    p[k + 1] = p[k] + d * len[k];
    f = TransportFrame(f, d);
  }
}

}  // namespace fabrik
