// contacts.h - when each foot of a clip is on the ground, found from the clip alone.
//
// The foot is the leg's ankle joint (limbs.h). Per frame, in the clip's frame (metres):
//   * floor: the lowest point any joint of either foot (the ankle's subtree: ankle, toes,
//     their End Sites) reaches over the whole clip;
//   * height: the ankle's height above the floor, and low: the least height it has in the
//     clip;
//   * speed: the ankle's speed, central difference over the neighbouring frames.
// A frame is a contact when height <= low + settings.height and speed <= settings.speed.
// Then gaps shorter than settings.min_duration between contacts are filled, and contacts
// shorter than it are dropped.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "mocap/clip.h"
#include "mocap/limbs.h"

namespace fabrik::mocap {

struct ContactSettings {
  float height = 0.05f;        // metres above the ankle's lowest height in the clip
  float speed = 0.35f;         // metres per second
  float min_duration = 0.05f;  // seconds
};

struct ContactTrack {
  std::array<std::vector<std::uint8_t>, 2> contact;  // [foot][frame], 1 in contact
  float floor = 0.0f;                                // the clip's floor height, metres (clip frame)
  std::array<float, 2> ankle_low{};                  // each ankle's lowest height above the floor
  std::array<float, 2> tip_low{};                    // each leg's tip (toe end): its lowest height
  // Contact of `foot` at clip time `time` (the nearest frame; clamped into the clip).
  bool At(int foot, float time, float frame_time) const;
};

ContactTrack DetectContacts(const Clip& clip, const Limbs& limbs,
                            const ContactSettings& settings = {});

}  // namespace fabrik::mocap
