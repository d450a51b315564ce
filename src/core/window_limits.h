// window_limits.h - the window sizes the demo accepts (docs/limits.md: Bounds), in one place for
// the --size option, the window's run-time size limits, and the settings file (read and
// written), so a size the demo saves is always one the next start accepts.
#pragma once

#include <glm/vec2.hpp>

namespace fabrik {

// Screen coordinates, inclusive. The largest is what the software renderer draws and a
// screenshot reads back within the memory bound: a 4096 x 4096 framebuffer is 64 MiB of
// colour and 64 MiB of depth, and its screenshot 48 MiB of pixels.
inline constexpr glm::ivec2 kMinWindowSize{200, 150};
inline constexpr glm::ivec2 kMaxWindowSize{4096, 4096};

}  // namespace fabrik
