// mocap_playback.h - the clock a clip plays by: play and pause, speed, loop, and jumps to a
// frame (docs/mocap.md: The mocap scene). Pure arithmetic: the scene advances it by the
// frame's dt, so `--fixed-dt` plays a clip deterministically.
#pragma once

namespace fabrik {

// Speed limits for `mocap speed X` (a factor of real time).
inline constexpr float kMinPlaybackSpeed = 0.05f;
inline constexpr float kMaxPlaybackSpeed = 4.0f;

struct Playback {
  float time = 0.0f;  // seconds into the clip, within [0, duration]
  float speed = 1.0f;
  bool playing = true;
  bool loop = true;

  // Moves time by dt x speed when playing. Past the end: back to the start when looping,
  // else held at the end and paused. A negative or non-finite dt or duration moves nothing.
  // Returns true when the clip wrapped to its start this frame.
  bool Advance(float dt, float duration);
  // Clamps time into [0, duration] (a new clip may be shorter).
  void Clamp(float duration);
};

// The frame shown at `time` for a clip of `frames` frames `frame_time` seconds apart: the
// nearest, within [0, frames - 1].
int FrameAt(float time, float frame_time, int frames);

}  // namespace fabrik
