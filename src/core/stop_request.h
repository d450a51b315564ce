// stop_request.h - a process-wide "please stop" flag: a quit signal (SIGINT, SIGTERM, SIGHUP)
// sets it, and long work in the core (a script's due lines) looks at it between steps, so the
// demo ends within a frame whatever it is doing (docs/limits.md: Signals).
#pragma once

namespace fabrik {

// Sets the flag. Async-signal-safe: a signal handler may call it.
void RequestStop();
// True once RequestStop was called (it is never cleared).
bool StopRequested();

}  // namespace fabrik
