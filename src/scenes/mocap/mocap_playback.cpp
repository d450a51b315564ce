#include "scenes/mocap/mocap_playback.h"

#include <algorithm>
#include <cmath>

namespace fabrik {

bool Playback::Advance(float dt, float duration) {
  if (!playing || !(dt > 0.0f) || !std::isfinite(dt) || !(duration >= 0.0f) ||
      !std::isfinite(duration)) {
    return false;
  }
  time += dt * speed;
  if (time <= duration) return false;
  if (!loop) {
    time = duration;
    playing = false;  // the end of a clip that does not loop: the play button shows it stopped
    return false;
  }
  // fmod rather than a subtraction: a huge dt (a long stall) still lands inside the clip.
  time = duration > 0.0f ? std::fmod(time, duration) : 0.0f;
  return true;
}

void Playback::Clamp(float duration) {
  if (!std::isfinite(time)) time = 0.0f;
  time = std::clamp(time, 0.0f, std::max(duration, 0.0f));
}

int FrameAt(float time, float frame_time, int frames) {
  if (frames <= 0) return 0;
  if (!(frame_time > 0.0f) || !std::isfinite(time)) return 0;
  const float f = std::round(time / frame_time);
  return static_cast<int>(std::clamp(f, 0.0f, static_cast<float>(frames - 1)));
}

}  // namespace fabrik
