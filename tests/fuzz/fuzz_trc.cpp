// libFuzzer target: arbitrary bytes through the TRC reader (src/markers/trc.h). Checks: no
// crash; a refusal is one printable line naming the source; an accepted take passes
// ValidateTake (the limits of take.h), and written with TrcText and read again it is the same
// take (names, frames, gaps, rate, first frame, positions to the file's 6 decimals).
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

#include "markers/trc.h"

namespace {

void Check(bool condition, const char* what) {
  if (!condition) {
    std::fprintf(stderr, "fuzz_trc: broken promise: %s\n", what);
    std::abort();
  }
}

void CheckMessage(const std::string& message) {
  Check(message.rfind("fuzz.trc", 0) == 0, "the message names the source");
  for (unsigned char c : message) Check(c >= ' ' && c != 0x7f, "the message is one printable line");
}

bool Near(float a, float b, float metres) {
  // 6 decimals in the file's unit, and float rounding of the value itself.
  return std::fabs(a - b) <= 1e-6f * metres + 2e-7f * std::fmax(std::fabs(a), std::fabs(b));
}

void CheckRoundTrip(const fabrik::markers::Take& take) {
  using namespace fabrik::markers;
  Check(ValidateTake(take).ok(), "an accepted take is valid");
  const fabrik::Result<Take> back = ReadTrcText(TrcText(take), "fuzz.trc (written)");
  Check(back.ok(), "a written take reads back");
  const Take& b = back.value();
  Check(b.names == take.names && b.frame_count == take.frame_count, "names and frames kept");
  Check(b.first_frame == take.first_frame && b.unit == take.unit, "first frame and unit kept");
  Check(std::fabs(b.rate - take.rate) <= 1e-6f * take.rate + 1e-6f, "rate kept");
  Check(b.seen == take.seen, "gaps kept");
  const float metres = UnitMetres(take.unit);
  for (std::size_t i = 0; i < take.positions.size(); ++i) {
    if (!take.seen[i]) continue;
    for (int k = 0; k < 3; ++k) {
      Check(Near(b.positions[i][k], take.positions[i][k], metres), "positions kept");
    }
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const fabrik::Result<fabrik::markers::Take> take = fabrik::markers::ReadTrcText(text, "fuzz.trc");
  if (!take.ok()) {
    CheckMessage(take.error());
    return 0;
  }
  CheckRoundTrip(take.value());
  return 0;
}
