#include "ik/stretch.h"

#include <algorithm>
#include <cmath>
#include <glm/geometric.hpp>

namespace fabrik {

bool ValidMaxStretch(float max_stretch) {
  return std::isfinite(max_stretch) && max_stretch >= 1.0f;
}

double StretchFactor(double reach, double distance, double max_stretch) {
  if (!(reach > 0.0) || !std::isfinite(reach) || std::isnan(distance)) return 1.0;
  if (!(max_stretch >= 1.0) || !std::isfinite(max_stretch)) return 1.0;
  return std::clamp(distance / reach, 1.0, max_stretch);
}

bool ScalePose(std::span<const glm::vec3> joints, double factor, std::span<glm::vec3> out) {
  if (joints.size() != out.size() || joints.empty() || !(factor > 0.0) || !std::isfinite(factor)) {
    return false;
  }
  const glm::dvec3 root(joints[0]);
  for (std::size_t i = 0; i < joints.size(); ++i) {
    out[i] = glm::vec3(root + factor * (glm::dvec3(joints[i]) - root));
  }
  return true;
}

StretchSolveResult SolveStretched(SolverKind kind, Chain& chain, const glm::vec3& target,
                                  const SolveSettings& settings, float max_stretch,
                                  std::span<glm::vec3> out) {
  StretchSolveResult result;
  if (!ValidMaxStretch(max_stretch)) {
    result.base.ok = false;
    result.base.error = "stretch must be a number >= 1";
    return result;
  }
  if (out.size() != chain.joint_count()) {
    result.base.ok = false;
    result.base.error = "the output pose must have one point per joint";
    return result;
  }
  result.base = Solve(kind, chain, target, settings);
  if (!result.base.ok) return result;
  const double reach = chain.total_length();
  const double distance = SafeDistance(chain.root(), target);
  const double factor = StretchFactor(reach, distance, max_stretch);
  ScalePose(chain.joints(), factor, out);
  result.stretch = static_cast<float>(factor);
  result.base.distance = SafeDistance(out.back(), target);
  result.base.reached =
      result.base.distance <= settings.tolerance && result.base.distance < 3.4e38f;
  result.base.reachable = distance <= reach * static_cast<double>(max_stretch);
  return result;
}

}  // namespace fabrik
