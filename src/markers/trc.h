// trc.h - TRC marker files (OpenSim, Motion Analysis): read and written by the project.
//
// The subset read and written (docs/markers.md, "TRC"): tab-separated text.
//   line 1  PathFileType <tab> 4 <tab> (X/Y/Z) <tab> NAME
//   line 2  header keys: DataRate CameraRate NumFrames NumMarkers Units OrigDataRate
//           OrigDataStartFrame OrigNumFrames, optionally UpAxis (this project's: Y or Z)
//   line 3  their values
//   line 4  Frame# <tab> Time <tab> each marker name followed by two empty fields
//   line 5  X1 Y1 Z1 X2 ... (not checked beyond being there)
//   then data lines (blank lines skipped): frame number, time, then x y z per marker; a marker
//   not seen in a frame has three empty fields. Trailing empty fields of a line may be left out.
// Units mm, cm or m; Y up unless UpAxis says Z. NumFrames must equal the data lines and
// NumMarkers the names on line 4. The take's first_frame is the first data line's number.
//
// Bad input: one error naming the file, and the line for a bad line: a missing header line or
// key, a value that is not a number, a claim beyond the limits of take.h (checked before any
// memory is reserved for it), a partial triple, too many fields, a non-finite or absurd
// coordinate, and everything ValidateTake refuses.
#pragma once

#include <string>
#include <string_view>

#include "ik/result.h"
#include "markers/take.h"

namespace fabrik::markers {

Result<Take> ReadTrcFile(const std::string& path);
// The same from bytes; `source` names them in messages.
Result<Take> ReadTrcText(std::string_view text, const std::string& source);

// The take as TRC text, in its own unit and with Y up (world axes); a marker not seen in a
// frame gets empty fields. Numbers with 6 significant decimals after the point.
std::string TrcText(const Take& take);
// Writes TrcText atomically (io/file_write.h); the error names the path and the reason.
Status WriteTrcFile(const Take& take, const std::string& path);

}  // namespace fabrik::markers
