// app.h - the demo: owns the window, renderer, ImGui and the AppState, runs the frame loop.
#pragma once

#include "app/options.h"

namespace fabrik {

// Runs the demo until the window closes or --frames is reached. Returns the process exit
// code: 0 on success, 1 on a fatal start-up error (no OpenGL 3.3, missing or broken shader),
// 2 on a bad option value or an unreadable start-up file. Never throws.
int RunApp(const Options& options);

}  // namespace fabrik
