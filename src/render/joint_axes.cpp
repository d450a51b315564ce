#include "render/joint_axes.h"

#include <algorithm>

namespace fabrik {

void AppendJointAxes(std::vector<LineVertex>& out, std::span<const glm::vec3> joints,
                     std::span<const glm::quat> rotations, float size) {
  static const glm::vec3 kAxes[3] = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
  static const glm::vec4 kColors[3] = {
      {0.95f, 0.25f, 0.25f, 1.0f}, {0.30f, 0.90f, 0.35f, 1.0f}, {0.30f, 0.50f, 1.00f, 1.0f}};
  const std::size_t n = std::min(rotations.size(), joints.size());
  for (std::size_t i = 0; i < n; ++i) {
    for (int a = 0; a < 3; ++a) {
      out.push_back({joints[i], kColors[a]});
      out.push_back({joints[i] + rotations[i] * kAxes[a] * size, kColors[a]});
    }
  }
}

}  // namespace fabrik
