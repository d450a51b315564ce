// pose.cpp - rest, bind and animated poses (pose.h).
#include "character/pose.h"

#include <algorithm>
#include <cmath>
#include <vector>

namespace fabrik::character {
namespace {

bool SizedFor(const Skeleton& skeleton, std::size_t n) {
  return n == static_cast<std::size_t>(skeleton.bone_count());
}

// The key interval of `t` in increasing `times` (non-empty): index i and the fraction
// towards i + 1 (0 at and beyond the ends).
std::pair<std::size_t, float> KeyAt(const std::vector<float>& times, float t) {
  const auto it = std::upper_bound(times.begin(), times.end(), t);
  if (it == times.begin()) return {0, 0.0f};
  const std::size_t i = static_cast<std::size_t>(it - times.begin()) - 1;
  if (i + 1 >= times.size()) return {times.size() - 1, 0.0f};
  const float span = times[i + 1] - times[i];
  return {i, span > 0.0f ? (t - times[i]) / span : 0.0f};
}

}  // namespace

bool LocalToModel(const Skeleton& skeleton, std::span<const BoneTransform> local,
                  std::span<BoneTransform> out) {
  if (!SizedFor(skeleton, local.size()) || !SizedFor(skeleton, out.size())) return false;
  for (int b = 0; b < skeleton.bone_count(); ++b) {
    const int p = skeleton.parents[b];
    out[b] = p < 0 ? local[b] : out[p] * local[b];
  }
  return true;
}

bool RestPose(const Skeleton& skeleton, std::span<BoneTransform> out) {
  return LocalToModel(skeleton, skeleton.rest_local, out);
}

bool BindPose(const Skeleton& skeleton, std::span<BoneTransform> out) {
  if (!SizedFor(skeleton, out.size())) return false;
  for (int b = 0; b < skeleton.bone_count(); ++b) out[b] = Inverse(skeleton.inverse_bind[b]);
  return true;
}

bool SampleAnimation(const Skeleton& skeleton, const Animation& animation, float seconds,
                     std::span<BoneTransform> local_out) {
  if (!SizedFor(skeleton, local_out.size())) return false;
  const float t = std::isfinite(seconds) ? std::clamp(seconds, 0.0f, animation.duration) : 0.0f;
  std::copy(skeleton.rest_local.begin(), skeleton.rest_local.end(), local_out.begin());
  for (const Channel& ch : animation.channels) {
    BoneTransform& out = local_out[ch.bone];
    if (!ch.translations.empty()) {
      const auto [i, f] = KeyAt(ch.translation_times, t);
      out.translation =
          f > 0.0f ? glm::mix(ch.translations[i], ch.translations[i + 1], f) : ch.translations[i];
    }
    if (!ch.rotations.empty()) {
      const auto [i, f] = KeyAt(ch.rotation_times, t);
      // glm::slerp takes the shorter arc.
      out.rotation = f > 0.0f ? glm::normalize(glm::slerp(ch.rotations[i], ch.rotations[i + 1], f))
                              : ch.rotations[i];
    }
  }
  return true;
}

}  // namespace fabrik::character
