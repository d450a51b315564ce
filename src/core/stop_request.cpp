#include "core/stop_request.h"

#include <csignal>

namespace fabrik {
namespace {
// sig_atomic_t: the only type a signal handler may write and the program then read.
volatile std::sig_atomic_t g_stop = 0;
}  // namespace

void RequestStop() { g_stop = 1; }
bool StopRequested() { return g_stop != 0; }

}  // namespace fabrik
