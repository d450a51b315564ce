// spline_playback.h - the words the language has for playing a spline: what an open curve
// does at its end and the speed range. The follower that plays it (targets/spline_follower.h)
// uses the same values.
#pragma once

namespace fabrik {

// At the end of an open curve: jump back to the start (kLoop) or turn round (kPingPong).
enum class EndBehavior { kLoop, kPingPong };

// Spline speeds, world units per second along the curve, are in (0, this].
inline constexpr float kMaxSplineSpeed = 1000.0f;

}  // namespace fabrik
