// number_range.h - one descriptor for each number a user gives the demo (docs/limits.md): its
// lowest and highest values, whether the lowest is excluded, its unit and the text every
// message writes. The console parser and Validate (lang/commands/), `help`, the settings
// reader (core/saved_setting.h), the command-line options (app/options.cpp) and the fuzzers
// all read the same descriptor, so `moe E`, `--moe E` and the settings file's "moe" accept
// the same values and say the same range.
#pragma once

#include <string>
#include <string_view>

namespace fabrik {

struct NumberRange {
  double lowest = 0.0;
  double highest = 0.0;
  bool lowest_open = false;  // true: (lowest, highest]; false: [lowest, highest]
  std::string_view unit{};   // "world units"; "" for a plain number
  std::string_view text{};   // as messages write it after "a number ": "> 0 and <= 100"

  // Whether `value` is finite and within the range, both as the double given and as the
  // float the demo keeps it as (1e-50 rounds to 0 as a float, so it is not in (0, 100]).
  bool Contains(double value) const;
};

// "0 < E <= 100" or "1e-06 <= S <= 1": the range around `letter`, for usage and help lines.
std::string RangeAround(const NumberRange& range, std::string_view letter);

// The margin of error, world units: `moe E`, `--moe E` and the settings file's "moe".
inline constexpr NumberRange kMoeRange{0.0, 100.0, true, "world units", "> 0 and <= 100"};
// The free chain's joints, root included (whole): `joints N`, `--joints N`, the settings
// file's "joints" and the length of `lengths`.
inline constexpr NumberRange kJointsRange{2, 10000, false, "", "from 2 to 10000"};
// A segment's length, world units: `length L`, `lengths A B ...`, `--length`, `--lengths` and
// the settings file. Shorter segments cannot keep their length in float beside the longest
// reach (docs/options.md).
inline constexpr NumberRange kSegmentLengthRange{1.0e-4, 1000.0, false, "world units",
                                                 ">= 0.0001 and <= 1000"};
// The iteration cap of one solve (whole): `iterations N`, `--max-iterations N` and the
// settings file's "iterations".
inline constexpr NumberRange kIterationsRange{1, 100000, false, "", "from 1 to 100000"};

}  // namespace fabrik
