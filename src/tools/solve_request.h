// solve_request.h - one line of fabrik-solve: parse and validate a JSON request, solve it,
// and write the JSON response (contract section 4).
//
// Request (one JSON object per line):
//   {"joints": [[x,y,z], ...], "target": [x,y,z], "tolerance": 0.01, "max_iterations": 10,
//    "solver": "fabrik", "id": <anything>}
//   * joints: at least 2 points, each [x, y, z] of finite numbers; consecutive points must
//     differ (segment lengths are taken from them); the first is the root, which stays put.
//   * target: [x, y, z] of finite numbers.
//   * tolerance: a finite number > 0 (world units).
//   * max_iterations: an integer, 1 <= max_iterations <= kMaxIterationsLimit (written as
//     10 or 10.0; 10.5 is an error).
//   * solver (optional, default "fabrik"): any name ParseSolverKind (ik/solver.h) knows.
//   * accelerate (optional, default false): true runs the accelerated FABRIK
//     (ik/fabrik_accelerated.h); a non-boolean, or true with another solver, is an error.
//   * id (optional, any JSON value): copied into the response, to match answers to
//     questions. Other fields are ignored.
//   Numbers are read as double and must also be finite in single precision (the solver's),
//   so 1e300 is rejected like 1e999 (which the JSON parser itself reports as an overflow).
//   JSON has no NaN or Infinity literal: such a line is malformed JSON.
//
// Response (one JSON object per line):
//   {"ok": true, "joints": [[x,y,z], ...], "iterations": 3, "distance": 0.0007,
//    "reached": true, "reachable": true, "solver": "fabrik", "solve_us": 1.2, "id": ...}
//   {"ok": false, "error": "joints[2] coincides with joints[1]: zero-length segment", "id": ...}
//   Floats are written in the shortest form that reads back as the same single-precision
//   value. solve_us is the wall time of the solve alone, in microseconds.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <glm/vec3.hpp>
#include <nlohmann/json.hpp>

#include "ik/result.h"
#include "ik/solve_types.h"
#include "ik/solver.h"

namespace fabrik::tools {

// Upper bound on max_iterations, so one request cannot keep the process busy for hours.
inline constexpr long long kMaxIterationsLimit = 1'000'000;

struct SolveRequest {
  std::vector<glm::vec3> joints;
  glm::vec3 target{0.0f};
  SolveSettings settings;
  SolverKind solver = SolverKind::kFabrik;
};

// Parses and validates one request line (not blank). On failure the error names the first
// problem found; `id`, when given, receives the request's "id" field if the line was a JSON
// object that had one (so even a rejected request can be matched to its answer).
Result<SolveRequest> ParseRequest(std::string_view line, nlohmann::ordered_json* id = nullptr);

// Shared by the request readers (solve_request.cpp, solve_extended.cpp):
// A JSON number that must be finite in single precision; `where` names it in errors.
Result<float> ReadFloat(const nlohmann::ordered_json& value, const std::string& where);
// [x, y, z] of such numbers.
Result<glm::vec3> ReadPoint(const nlohmann::ordered_json& value, const std::string& where);
// The shortest decimal that reads back as `f` (0.1f is written 0.1).
double Shortest(float f);
nlohmann::ordered_json PointJson(const glm::vec3& p);
nlohmann::ordered_json ErrorResponse(const std::string& message, const nlohmann::ordered_json& id);

// Handles one input line end to end. Returns the response line (without newline), or
// nothing for a blank line (empty or only whitespace), which gets no response.
std::optional<std::string> HandleLine(std::string_view line);

}  // namespace fabrik::tools
