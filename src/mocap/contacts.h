// contacts.h - when each foot of a clip is on the ground, heel and ball apart, found from the
// clip alone.
//
// A foot has two contact points: the heel, taken as the leg's ankle joint (limbs.h), and the
// ball, the first joint after the ankle on the way to the leg's tip (the toe joint; the tip
// itself, e.g. an End Site, when there is none). Per frame, in the clip's frame (metres):
//   * floor: the lowest point any joint of either foot (the ankle's subtree: ankle, toes,
//     their End Sites) reaches over the whole clip;
//   * a point's height above the floor, and its low: the least height it has in the clip;
//   * a point's speed: central difference over the neighbouring frames.
// Thresholds are shares of the skeleton's rest height H (Clip::rest_height), so a clip gives
// the same contacts in any unit. A point's contact starts when its height is within
// `height` x H of its low and its speed at most `speed` x H per second; it lasts while the
// height stays within `release_height` x H and the speed at most `release_speed` x H per
// second (hysteresis: a point near either threshold does not flicker). Then gaps shorter than
// `min_duration` are filled and contacts shorter than it are dropped. The foot is in contact
// when either point is: a foot on its toes at the ball, a flat foot at both.
//
// For H = 1.7 m the defaults are 3.4 cm and 0.34 m/s to start, 5.1 cm and 0.51 m/s to end,
// 0.05 s.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "mocap/clip.h"
#include "mocap/limbs.h"

namespace fabrik::mocap {

struct ContactSettings {
  float height = 0.02f;          // x rest height, above the point's lowest height: starts
  float release_height = 0.03f;  // x rest height: ends above this
  float speed = 0.2f;            // x rest height per second: starts at or below
  float release_speed = 0.3f;    // x rest height per second: ends above
  float min_duration = 0.05f;    // seconds
};

struct ContactTrack {
  std::array<std::vector<std::uint8_t>, 2> contact;  // [foot][frame], 1: heel or ball
  std::array<std::vector<std::uint8_t>, 2> heel;     // [foot][frame], 1: the heel is down
  std::array<std::vector<std::uint8_t>, 2> ball;     // [foot][frame], 1: the ball is down
  std::array<int, 2> ball_joint{-1, -1};             // the joint taken as each foot's ball
  float floor = 0.0f;                                // the clip's floor height, metres (clip frame)
  std::array<float, 2> ankle_low{};                  // each ankle's lowest height above the floor
  std::array<float, 2> ball_low{};                   // each ball's lowest height above the floor
  std::array<float, 2> tip_low{};                    // each leg's tip (toe end): its lowest height
  float release_height = 0.0f;  // metres: ContactSettings::release_height x rest height
  // Contact of `foot` at clip time `time` (the nearest frame; clamped into the clip).
  bool At(int foot, float time, float frame_time) const {
    return Flag(contact, foot, time, frame_time);
  }
  bool HeelAt(int foot, float time, float frame_time) const {
    return Flag(heel, foot, time, frame_time);
  }
  bool BallAt(int foot, float time, float frame_time) const {
    return Flag(ball, foot, time, frame_time);
  }

 private:
  static bool Flag(const std::array<std::vector<std::uint8_t>, 2>& flags, int foot, float time,
                   float frame_time);
};

ContactTrack DetectContacts(const Clip& clip, const Limbs& limbs,
                            const ContactSettings& settings = {});

}  // namespace fabrik::mocap
