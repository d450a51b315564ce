// take_edit.h - changes made to a take before solving it: markers hidden over a range of
// frames (to measure the prediction) and Gaussian noise (docs/markers.md, "The program").
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "ik/result.h"
#include "markers/take.h"

namespace fabrik::markers {

// "NAMES:FROM-TO": comma-separated marker names, frames numbered as the file numbers them
// (1-based in CSM and TRC), inclusive.
struct HideSpec {
  std::vector<std::string> names;
  int from = 0, to = 0;
};

// Fails, naming the problem, on a missing ':' or '-', an empty name, a bound that is not a
// whole number, or FROM > TO.
Result<HideSpec> ParseHideSpec(std::string_view text);

// Marks the markers not seen over the frames; fails (take unchanged) on a name the take lacks,
// frames outside the take, or a frame left with no marker seen.
Status HideMarkers(Take& take, const HideSpec& spec);

// Adds Gaussian noise of `sigma_mm` millimetres (standard deviation per coordinate) to every
// seen position, from a generator seeded with `seed` (the same seed, the same noise with the
// same standard library). Fails on sigma outside [0, 1000].
Status AddNoise(Take& take, double sigma_mm, std::uint64_t seed);

}  // namespace fabrik::markers
