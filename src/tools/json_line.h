// json_line.h - reading one fabrik-solve request line into JSON, with the limits that keep a
// hostile line harmless (docs/fabrik-solve.md: The headless solver, "Limits").
//
// ParseJsonLine never throws. It refuses, with a one-line reason:
//   * malformed JSON, including bytes that are not valid UTF-8 inside strings;
//   * numbers too large for a double (1e400), wherever they are, "id" included (a double
//     cannot hold them, so the line cannot be read; the reason quotes the number);
//   * nesting deeper than kMaxJsonDepth arrays/objects (checked while parsing, so a line of
//     100,000 '[' costs one pass and no deep recursion anywhere);
//   * the same key twice in one object ("duplicate key \"tolerance\"": JSON leaves the
//     meaning open, so a request that says two things is refused rather than guessed).
// When the line was a JSON object with an "id" member, `id` is set (also for a null id) so
// that even a refused request can be matched to its answer.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>

#include "ik/result.h"

namespace fabrik::tools {

// Arrays and objects may nest this deep (a request itself needs 4 levels).
inline constexpr int kMaxJsonDepth = 64;

struct JsonLine {
  nlohmann::ordered_json value;
  std::optional<nlohmann::ordered_json> id;  // the object's "id" member, if any
};

// On failure the error names the problem; `id` (if not null) receives the line's "id" when the
// line was an object whose structure could be read (duplicate keys: yes; malformed: no).
Result<JsonLine> ParseJsonLine(std::string_view line,
                               std::optional<nlohmann::ordered_json>* id = nullptr);

// json.dump() that never throws: bytes that are not UTF-8 come out as U+FFFD.
std::string SafeDump(const nlohmann::ordered_json& value);

// A short quotation of any bytes for an error message: at most `max_bytes`, with "..." when
// cut, invalid UTF-8 replaced (the message is JSON-escaped when written).
std::string Excerpt(std::string_view text, std::size_t max_bytes = 40);

}  // namespace fabrik::tools
