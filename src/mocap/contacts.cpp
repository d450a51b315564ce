// contacts.cpp - see contacts.h.
#include "mocap/contacts.h"

#include <algorithm>
#include <cmath>
#include <glm/geometric.hpp>

#include "mocap/clip_sample.h"

namespace fabrik::mocap {
namespace {

// Sets runs of `value` shorter than `min_frames` to the other value, except runs touching
// either end of the clip (their true length is unknown).
void DropShortRuns(std::vector<std::uint8_t>& flags, std::uint8_t value, int min_frames) {
  const int n = static_cast<int>(flags.size());
  int start = 0;
  while (start < n) {
    int end = start;
    while (end < n && flags[end] == flags[start]) ++end;
    if (flags[start] == value && end - start < min_frames && start > 0 && end < n) {
      std::fill(flags.begin() + start, flags.begin() + end, static_cast<std::uint8_t>(!value));
    }
    start = end;
  }
}

}  // namespace

bool ContactTrack::At(int foot, float time, float frame_time) const {
  const auto& flags = contact[foot];
  if (flags.empty() || !std::isfinite(time)) return false;
  const long f = std::lround(time / frame_time);
  return flags[std::clamp<long>(f, 0, static_cast<long>(flags.size()) - 1)] != 0;
}

ContactTrack DetectContacts(const Clip& clip, const Limbs& limbs, const ContactSettings& settings) {
  const int frames = clip.frame_count();
  ContactTrack track;
  std::array<std::vector<glm::vec3>, 2> ankle;
  for (auto& a : ankle) a.resize(frames);
  std::array<float, 2> tip_low{1e30f, 1e30f};
  Pose pose;
  pose.Resize(clip.joint_count());
  float floor = 1e30f;
  for (int f = 0; f < frames; ++f) {
    SampleFrame(clip, f, pose);
    for (int side : {kLeft, kRight}) {
      const int a = limbs.legs[side].end();
      ankle[side][f] = pose.positions[a];
      tip_low[side] = std::min(tip_low[side], pose.positions[limbs.legs[side].tip].y);
      for (int j = a; j < clip.subtree_end(a); ++j) floor = std::min(floor, pose.positions[j].y);
    }
  }
  track.floor = floor;
  const int min_frames =
      std::max(1, static_cast<int>(std::lround(settings.min_duration / clip.frame_time())));
  for (int side : {kLeft, kRight}) {
    float low = 1e30f;
    for (const glm::vec3& p : ankle[side]) low = std::min(low, p.y - floor);
    track.ankle_low[side] = low;
    track.tip_low[side] = tip_low[side] - floor;
    auto& flags = track.contact[side];
    flags.assign(frames, 0);
    for (int f = 0; f < frames; ++f) {
      const int f0 = std::max(f - 1, 0), f1 = std::min(f + 1, frames - 1);
      const float dt = static_cast<float>(std::max(f1 - f0, 1)) * clip.frame_time();
      const float speed = glm::distance(ankle[side][f1], ankle[side][f0]) / dt;
      const float height = ankle[side][f].y - floor;
      flags[f] = height <= low + settings.height && speed <= settings.speed;
    }
    DropShortRuns(flags, 0, min_frames);
    DropShortRuns(flags, 1, min_frames);
  }
  return track;
}

}  // namespace fabrik::mocap
