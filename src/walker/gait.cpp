#include "walker/gait.h"

#include <algorithm>
#include <cmath>
#include <numbers>

namespace fabrik {

int ChooseStepGroup(std::span<const GaitLeg> legs, int last_group, bool settling,
                    float step_threshold, float settle_threshold) {
  float worst[2] = {0.0f, 0.0f};
  for (const GaitLeg& leg : legs) {
    if (!leg.planted) return -1;  // one group at a time: wait for every foot to land
    const int g = leg.group == 1 ? 1 : 0;
    worst[g] = std::max(worst[g], leg.drift);
  }
  const float threshold = settling ? settle_threshold : step_threshold;
  const bool candidate[2] = {worst[0] > threshold, worst[1] > threshold};
  if (!candidate[0] && !candidate[1]) return -1;
  if (candidate[0] != candidate[1]) return candidate[0] ? 0 : 1;
  // Both want to step. Near-equal drifts (a straight walk) alternate the groups.
  if (std::fabs(worst[0] - worst[1]) <= 0.1f * std::max(worst[0], worst[1])) {
    return last_group == 0 ? 1 : 0;
  }
  return worst[0] > worst[1] ? 0 : 1;
}

glm::vec3 SwingPoint(const Heightmap& ground, const glm::vec3& from, const glm::vec3& to,
                     float phase, float arc_height) {
  const float s = std::clamp(std::isnan(phase) ? 0.0f : phase, 0.0f, 1.0f);
  if (s == 0.0f) return from;
  if (s == 1.0f) return to;
  const float ease = s * s * (3.0f - 2.0f * s);
  const float x = from.x + (to.x - from.x) * ease;
  const float z = from.z + (to.z - from.z) * ease;
  const float line = from.y + (to.y - from.y) * ease;
  const float base = std::max(line, ground.HeightAt(x, z));
  return {x, base + arc_height * std::sin(std::numbers::pi_v<float> * s), z};
}

}  // namespace fabrik
