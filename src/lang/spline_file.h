// spline_file.h - reading spline files (assets/splines/*.txt), the format docs/language.md "Spline
// files" documents.
//
// Format, one item per line:
//   # comment            '#' starts a comment anywhere on a line; blank lines are ignored
//   X Y Z                a control point: three decimal numbers, world units (e.g. "1.5 2 -0.25")
//   open                 the curve has two ends (the default)
//   closed               the curve wraps from the last point back to the first
// The directive may appear anywhere in the file, more than once if it agrees with itself;
// "open" and "closed" in the same file is an error. Keywords are case-insensitive.
// Numbers: optional sign, digits, optional fraction and exponent; NaN, inf and magnitudes
// beyond Spline::kMaxCoordinate are rejected. Consecutive repeated points are dropped (see
// Spline::Create); an open curve needs 2 distinct points, a closed one 3.
//
// Errors are one line, "NAME:LINE: message", where NAME is the source name (the path as
// given) and LINE is 1-based, e.g.
//   assets/splines/<name>.txt:7: expected 3 numbers 'X Y Z', got '1 2'
//   assets/splines/<name>.txt:4: coordinate 'nan' is not a finite number
//   assets/splines/<name>.txt:12: a closed spline needs at least 3 distinct points, got 2
// (a too-short spline is reported at the file's last line). Nothing throws.
#pragma once

#include <string>
#include <string_view>

#include "ik/result.h"
#include "ik/catmull_rom.h"

namespace fabrik {

// Parses spline text. `source_name` only labels error messages.
Result<Spline> ParseSplineText(std::string_view text, std::string_view source_name);

// Reads and parses the file at `path` (used as given: relative paths are relative to the
// working directory; see command.h ResolveDataPath for the search used by `spline load`).
// A missing or unreadable file gives "PATH: cannot open file (reason)".
Result<Spline> LoadSplineFile(const std::string& path);

}  // namespace fabrik
