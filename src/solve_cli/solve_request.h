// solve_request.h - one line of fabrik-solve: read and validate a JSON request, solve it, and
// write the JSON response (docs/fabrik-solve.md).
//
// Request (one JSON object per line):
//   {"joints": [[x,y,z], ...], "target": [x,y,z], "tolerance": 0.01, "max_iterations": 10,
//    "solver": "fabrik", "id": <anything>}
//   * joints: 2 to kMaxJoints points, each [x, y, z] of finite numbers; consecutive points
//     must differ (segment lengths are taken from them, in double); the first is the root,
//     which stays put. Every segment must be at least kMinSegmentShare of the total length
//     (solve_frame.h).
//   * target: [x, y, z] of finite numbers.
//   * tolerance: a finite number > 0 (world units).
//   * max_iterations: an integer, 1 <= max_iterations <= kMaxIterationsLimit (written as
//     10 or 10.0; 10.5 is an error). At most kMaxWork / joints iterations are run whatever
//     it says; a solve stopped by that bound answers "reached": false, "work_limited": true.
//   * solver (optional, default "fabrik"): any name ParseSolverKind (ik/solver.h) knows.
//   * accelerate (optional, default false): true runs the accelerated FABRIK
//     (ik/fabrik_accelerated.h); a non-boolean, or true with another solver, is an error.
//   * free_root (optional, default false): true pulls the chain by its head with the root
//     free (ik/free_root.h, one backward pass): the root moves, the head lands on the target,
//     "reachable" is true and the answer adds "free_root": true. Textbook fabrik only (no
//     other solver, no accelerate, no constraints, pole, base or nodes); a target more than
//     2^20 chain lengths from the root is refused.
//   * id (optional, any JSON value, null included): copied into the response, to match
//     answers to questions. Other fields are ignored.
//   Numbers must be finite in single precision (the solver's), so 1e300 is rejected like
//   1e999 (which the JSON parser itself reports as an overflow). The line limits (length,
//   nesting, duplicate keys, UTF-8) are in json_line.h and line_reader.h.
//
// Response (one JSON object per line):
//   {"ok": true, "joints": [[x,y,z], ...], "iterations": 3, "distance": 0.0007,
//    "reached": true, "reachable": true, "solver": "fabrik", "solve_us": 1.2, "id": ...}
//   {"ok": false, "error": "joints[2] coincides with joints[1]: zero-length segment", "id": ...}
//   The solve runs relative to the root in units of the chain's length (solve_frame.h);
//   coordinates are written as the shortest decimal within half a single-precision step of
//   that unit. distance, reached (distance <= tolerance) and reachable (|target - root| <=
//   total length) are computed in double from the answer. solve_us is the wall time of the
//   solve alone, in microseconds. No response ever holds NaN or inf.
#pragma once

#include <cstddef>
#include <glm/vec3.hpp>
#include <nlohmann/json.hpp>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "ik/chain.h"
#include "ik/result.h"
#include "ik/solve_types.h"
#include "ik/solver.h"
#include "solve_cli/solve_frame.h"

namespace fabrik::tools {

// Upper bound on max_iterations.
inline constexpr long long kMaxIterationsLimit = 1'000'000;
// Joints in a chain, nodes in a tree.
inline constexpr std::size_t kMaxJoints = 100'000;
// Joints x iterations one request may cost (about a second for the slowest solver on a
// desktop core; docs/fabrik-solve.md: Limits).
inline constexpr double kMaxWork = 1e7;

using Json = nlohmann::ordered_json;
using RequestId = std::optional<Json>;  // absent, or the request's "id" (possibly null)

struct SolveRequest {
  std::vector<glm::dvec3> joints;  // world, as given
  glm::dvec3 target{0.0};
  double tolerance = 0.01;  // world units, > 0 also in single precision
  int max_iterations = 10;
  SolverKind solver = SolverKind::kFabrik;
  bool accelerate = kAccelerateByDefault;  // accelerated FABRIK (fabrik solver only)
  bool free_root = false;                  // PullChain (ik/free_root.h): the root follows the head
};

// Reads a request's "joints" (2 to kMaxJoints points); the error names the first problem.
Result<std::vector<glm::dvec3>> ReadJoints(const Json& request);

// Reads the plain chain fields (joints, target, tolerance, max_iterations, solver) of a
// request object. The error names the first problem found.
Result<SolveRequest> ReadChainRequest(const Json& request);

// Field readers shared by the request readers; `where` names the value in errors.
const Json* Field(const Json& object, const char* name);
// A JSON number that must be finite in single precision.
Result<float> ReadFloat(const Json& value, const std::string& where);
// [x, y, z] of such numbers, as float (directions) or as given in double (positions).
Result<glm::vec3> ReadPoint(const Json& value, const std::string& where);
Result<glm::dvec3> ReadPosition(const Json& value, const std::string& where);
// A JSON integer in [lo, hi], compared as the exact integer written (never wrapped).
Result<long long> ReadInteger(const Json& value, const std::string& where, long long lo,
                              long long hi);
// "tolerance" (> 0) and "max_iterations" (1..kMaxIterationsLimit) of a request object.
Result<double> ReadTolerance(const Json& request);
Result<int> ReadMaxIterations(const Json& request);

// The iteration cap actually used for `count` joints or nodes (the work bound above).
int WorkCap(std::size_t count, int max_iterations);

// A chain set up for solving in its local frame (solve_frame.h).
struct LocalChain {
  LocalFrame frame;
  Chain chain;
  glm::vec3 target{0.0f};
  SolveSettings settings;
  double total_length = 0.0;
  bool capped = false;  // WorkCap lowered max_iterations
};
Result<LocalChain> SetUpChain(const SolveRequest& request);
// The fields every chain answer has: ok, joints, iterations, distance, reached, reachable
// (and work_limited when the work bound stopped the solve). `pose` (local, joint_count()
// points) replaces the chain's own pose when given (a stretched pose, say).
Json ChainAnswer(const LocalChain& local, const SolveRequest& request, int iterations,
                 std::span<const glm::vec3> pose = {});

// The shortest decimal that reads back as `f` (0.1f is written 0.1).
double Shortest(float f);
Json ErrorResponse(const std::string& message, const RequestId& id);
// Adds "id" to an answer when the request had one.
Json WithId(Json response, const RequestId& id);

// The answer to input line `line_number` (1-based) when it is longer than kMaxLineBytes
// (line_reader.h): it was not read, so it has no id.
std::string TooLongResponse(long long line_number);

// Handles one input line end to end. Returns the response line (without newline), or
// nothing for a blank line (empty or only whitespace), which gets no response.
std::optional<std::string> HandleLine(std::string_view line);

}  // namespace fabrik::tools
