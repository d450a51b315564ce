#include "ik/chain_rebuild.h"

#include <cmath>
#include <string>

#include "ik/fabrik.h"
#include "ik/vec_util.h"

namespace fabrik {

Result<Chain> RebuildChain(const Chain& old, std::span<const float> lengths) {
  if (lengths.empty()) return MakeError("a chain needs at least 1 segment");
  for (std::size_t i = 0; i < lengths.size(); ++i) {
    if (!std::isfinite(lengths[i]) || !(lengths[i] > 0.0f)) {
      return MakeError("segment length " + std::to_string(i) + " must be finite and > 0");
    }
  }
  std::span<const glm::vec3> p = old.joints();
  std::vector<glm::vec3> joints;
  joints.reserve(lengths.size() + 1);
  joints.push_back(p[0]);
  glm::vec3 dir(0.0f, 1.0f, 0.0f);
  for (std::size_t i = 0; i < lengths.size(); ++i) {
    if (i + 1 < p.size()) dir = SafeNormalize(p[i + 1] - p[i], dir);
    joints.push_back(joints.back() + dir * lengths[i]);
  }
  return Chain::FromJoints(std::move(joints));
}

std::vector<float> UniformLengths(int count, float length) {
  return std::vector<float>(static_cast<std::size_t>(count > 0 ? count : 0), length);
}

}  // namespace fabrik
