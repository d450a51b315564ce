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

// The ball of a leg: the first joint after the ankle on the path down to the tip that does
// not coincide with the ankle in the rest pose; the tip when there is none.
int BallJoint(const Clip& clip, const Limb& leg) {
  const int ankle = leg.end();
  int ball = leg.tip;
  const glm::vec3 a = clip.rest_positions()[ankle];
  for (int j = leg.tip; j > ankle && j >= 0; j = clip.parents()[j]) {
    if (glm::distance(clip.rest_positions()[j], a) > 1e-4f * clip.rest_height()) ball = j;
  }
  return ball;
}

// One point's contact flags from its track (clip frame), with hysteresis.
std::vector<std::uint8_t> PointContacts(const std::vector<glm::vec3>& track, float floor, float low,
                                        const ContactSettings& s, float size, float frame_time,
                                        int min_frames) {
  const int frames = static_cast<int>(track.size());
  std::vector<std::uint8_t> flags(static_cast<std::size_t>(frames), 0);
  bool on = false;
  for (int f = 0; f < frames; ++f) {
    const int f0 = std::max(f - 1, 0), f1 = std::min(f + 1, frames - 1);
    const float dt = static_cast<float>(std::max(f1 - f0, 1)) * frame_time;
    const float speed = glm::distance(track[f1], track[f0]) / dt;
    const float height = track[f].y - floor - low;
    if (on) {
      on = height <= s.release_height * size && speed <= s.release_speed * size;
    } else {
      on = height <= s.height * size && speed <= s.speed * size;
    }
    flags[f] = on;
  }
  DropShortRuns(flags, 0, min_frames);
  DropShortRuns(flags, 1, min_frames);
  return flags;
}

}  // namespace

bool ContactTrack::Flag(const std::array<std::vector<std::uint8_t>, 2>& flags, int foot, float time,
                        float frame_time) {
  const auto& f = flags[foot];
  if (f.empty() || !std::isfinite(time)) return false;
  const long i = std::lround(time / frame_time);
  return f[std::clamp<long>(i, 0, static_cast<long>(f.size()) - 1)] != 0;
}

ContactTrack DetectContacts(const Clip& clip, const Limbs& limbs, const ContactSettings& settings) {
  const int frames = clip.frame_count();
  ContactTrack track;
  std::array<std::vector<glm::vec3>, 2> heel, ball;
  for (int side : {kLeft, kRight}) {
    heel[side].resize(frames);
    ball[side].resize(frames);
    track.ball_joint[side] = BallJoint(clip, limbs.legs[side]);
  }
  std::array<float, 2> tip_low{1e30f, 1e30f};
  Pose pose;
  pose.Resize(clip.joint_count());
  float floor = 1e30f;
  for (int f = 0; f < frames; ++f) {
    SampleFrame(clip, f, pose);
    for (int side : {kLeft, kRight}) {
      const int a = limbs.legs[side].end();
      heel[side][f] = pose.positions[a];
      ball[side][f] = pose.positions[track.ball_joint[side]];
      tip_low[side] = std::min(tip_low[side], pose.positions[limbs.legs[side].tip].y);
      for (int j = a; j < clip.subtree_end(a); ++j) floor = std::min(floor, pose.positions[j].y);
    }
  }
  track.floor = floor;
  const int min_frames =
      std::max(1, static_cast<int>(std::lround(settings.min_duration / clip.frame_time())));
  const float size = clip.rest_height();
  track.release_height = settings.release_height * size;
  const auto lowest = [&](const std::vector<glm::vec3>& points) {
    float low = 1e30f;
    for (const glm::vec3& p : points) low = std::min(low, p.y - floor);
    return low;
  };
  for (int side : {kLeft, kRight}) {
    track.ankle_low[side] = lowest(heel[side]);
    track.ball_low[side] = lowest(ball[side]);
    track.tip_low[side] = tip_low[side] - floor;
    track.heel[side] = PointContacts(heel[side], floor, track.ankle_low[side], settings, size,
                                     clip.frame_time(), min_frames);
    track.ball[side] = PointContacts(ball[side], floor, track.ball_low[side], settings, size,
                                     clip.frame_time(), min_frames);
    auto& any = track.contact[side];
    any.resize(static_cast<std::size_t>(frames));
    for (int f = 0; f < frames; ++f) any[f] = track.heel[side][f] | track.ball[side][f];
    DropShortRuns(any, 0, min_frames);
  }
  return track;
}

}  // namespace fabrik::mocap
