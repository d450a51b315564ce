// json_line.h - reading one fabrik-solve request line into JSON, with the limits that keep a
// hostile line harmless (docs/fabrik-solve.md: The headless solver, "Limits").
//
// ParseJsonLine never throws. It refuses, with a one-line reason:
//   * malformed JSON, including bytes that are not valid UTF-8 inside strings;
//   * numbers too large for a double (1e400), wherever they are, "id" included (a double
//     cannot hold them, so the line cannot be read; the reason quotes the number);
//   * nesting deeper than kMaxJsonDepth arrays/objects (checked while parsing, so a line of
//     100,000 '[' costs one pass and no deep recursion anywhere);
//   * more than kMaxJsonValues values (the parse stops there, so no more are ever built);
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
// Values one line may hold, counting every number, string, bool, null and key once and every
// array and object twice (each is an allocation of its own): a chain of 100,000 joints is
// 500,000, a tree of 100,000 nodes about 1,000,000, with a constraint on every node about
// 1,700,000. It bounds the parsed request's memory (about 100 MB at most), where an 8 MiB
// line of small arrays could otherwise take 290 MB; the parse stops at the limit.
inline constexpr std::size_t kMaxJsonValues = 2'000'000;

// Empties `value` from the leaves up without allocating. nlohmann's destructor moves a
// container's children into a new vector as big as the container before freeing them: under
// a memory limit (`ulimit -v`) that allocation can fail inside a destructor and end the
// program. A container emptied first is freed without it. Nesting is at most kMaxJsonDepth
// deep in a parsed line, so the recursion is too.
void Dismantle(nlohmann::ordered_json& value) noexcept;

struct JsonLine {
  JsonLine() = default;
  JsonLine(JsonLine&&) = default;
  JsonLine& operator=(JsonLine&&) = default;
  ~JsonLine() { Dismantle(value); }  // freed without allocating (Dismantle)
  nlohmann::ordered_json value;
  std::optional<nlohmann::ordered_json> id;  // the object's "id" member, if any
};

// On failure the error names the problem; `id` (if not null) receives the line's "id" when the
// line was an object whose structure could be read (duplicate keys: yes; malformed: no).
Result<JsonLine> ParseJsonLine(std::string_view line,
                               std::optional<nlohmann::ordered_json>* id = nullptr);

// json.dump() that never throws: bytes that are not UTF-8 come out as U+FFFD.
std::string SafeDump(const nlohmann::ordered_json& value);

}  // namespace fabrik::tools
