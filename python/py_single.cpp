// fabrik.solve (one chain, any solver) and fabrik.solve_request (a fabrik-solve request).
#include <string>
#include <utility>
#include <vector>

#include "ik/chain.h"
#include "ik/solver.h"
#include "py_api.h"
#include "py_convert.h"
#include "solve_cli/line_reader.h"
#include "solve_cli/solve_request.h"

namespace fabrik::py {

namespace {

// "joints": (n+1, 3) real numbers. A float32 array (what solve returns) is read as it is;
// anything else goes through RealArray's float64 conversion.
template <typename T>
std::vector<glm::vec3> JointPoints(const pb::array_t<T>& joints) {
  if (joints.shape(1) != 3 || joints.shape(0) < 2) {
    throw pb::value_error("joints must have shape (n+1, 3) with n >= 1, got " + ShapeText(joints));
  }
  CheckSingleRange(joints, "joints");
  return Points(joints);
}

// "target": (3,) real numbers, read as "joints" are.
template <typename T>
glm::vec3 TargetPoint(const pb::array_t<T>& target) {
  if (target.shape(0) != 3) {
    throw pb::value_error("target must have shape (3,), got " + ShapeText(target));
  }
  CheckSingleRange(target, "target");
  return Point(target);
}

}  // namespace

pb::tuple SolveOne(const pb::object& joints, const pb::object& target, const pb::object& tolerance,
                   const pb::object& max_iterations, const pb::object& accelerate,
                   const pb::object& solver) {
  const auto joints32 = Float32Array(joints, 2);
  std::vector<glm::vec3> points =
      joints32 ? JointPoints(*joints32) : JointPoints(RealArray(joints, "joints", 2));
  const auto target32 = Float32Array(target, 1);
  const glm::vec3 goal =
      target32 ? TargetPoint(*target32) : TargetPoint(RealArray(target, "target", 1));
  SolveSettings settings = ReadSettings(tolerance, max_iterations, accelerate);
  const SolverKind kind = ReadSolver(solver);

  Result<Chain> made = Chain::FromJoints(std::move(points));
  if (!made) throw pb::value_error(made.error());
  Chain& chain = made.value();
  // The work bound (docs/limits.md): one call costs at most kMaxWork joint-iterations, so it
  // ends in well under a second whatever max_iterations says and Ctrl-C is seen soon after.
  const int asked = settings.max_iterations;
  settings.max_iterations = CappedIterations(chain.joint_count(), asked);
  const SolveResult result = Solve(kind, chain, goal, settings);
  if (!result.ok) throw pb::value_error(result.error ? result.error : "the solver refused");

  pb::array_t<float> out({static_cast<pb::ssize_t>(chain.joint_count()), pb::ssize_t{3}});
  float* o = out.mutable_data();
  for (const glm::vec3& p : chain.joints()) {
    *o++ = p.x;
    *o++ = p.y;
    *o++ = p.z;
  }
  // The keys are made once (interned, kept for the process's life): building four key
  // strings on every call was a measurable part of a small solve's overhead.
  static PyObject* const keys[5] = {
      PyUnicode_InternFromString("iterations"), PyUnicode_InternFromString("distance"),
      PyUnicode_InternFromString("reached"), PyUnicode_InternFromString("reachable"),
      PyUnicode_InternFromString("work_limited")};
  pb::dict info;
  // Stopped by the work bound rather than by max_iterations (fabrik-solve's "work_limited").
  const bool work_limited = settings.max_iterations < asked && !result.reached &&
                            result.iterations >= settings.max_iterations;
  const pb::object values[5] = {pb::int_(result.iterations), pb::float_(result.distance),
                                pb::bool_(result.reached), pb::bool_(result.reachable),
                                pb::bool_(work_limited)};
  for (int i = 0; i < 5; ++i) {
    if (keys[i] == nullptr || PyDict_SetItem(info.ptr(), keys[i], values[i].ptr()) != 0) {
      throw pb::error_already_set();
    }
  }
  return pb::make_tuple(std::move(out), std::move(info));
}

namespace {

// A Python exception's own message ("Object of type set is not JSON serializable"), without
// the traceback pybind11's what() appends.
std::string ExceptionText(const pb::error_already_set& e) {
  try {
    return std::string(pb::str(e.value()));
  } catch (const pb::error_already_set&) {
    return "(no message)";
  }
}

// The request as one line of fabrik-solve: a str as it is, a dict written as JSON. Either
// within fabrik-solve's line limit (kMaxLineBytes): a longer str is refused before it is
// even copied.
std::string RequestLine(const pb::object& request) {
  const std::string too_long = "request is longer than " + IntText(tools::kMaxLineBytes) +
                               " bytes (8 MiB), fabrik-solve's line limit: refused";
  if (pb::isinstance<pb::str>(request)) {
    // Every code point is at least one byte of UTF-8.
    if (static_cast<std::size_t>(PyUnicode_GetLength(request.ptr())) > tools::kMaxLineBytes) {
      throw pb::value_error(too_long);
    }
    std::string line = request.cast<std::string>();
    if (line.size() > tools::kMaxLineBytes) throw pb::value_error(too_long);
    return line;
  }
  if (!pb::isinstance<pb::dict>(request)) {
    throw pb::value_error("request must be a dict or a JSON string, got " +
                          std::string(pb::str(pb::type::handle_of(request).attr("__name__"))));
  }
  std::string line;
  try {
    // NaN and inf have no JSON spelling: refused here, naming the problem.
    line = pb::module_::import("json")
               .attr("dumps")(request, pb::arg("allow_nan") = false)
               .cast<std::string>();
  } catch (const pb::error_already_set& e) {
    throw pb::value_error("request cannot be written as JSON: " + ExceptionText(e));
  }
  if (line.size() > tools::kMaxLineBytes) throw pb::value_error(too_long);
  return line;
}

}  // namespace

pb::dict SolveRequest(const pb::object& request) {
  const std::string line = RequestLine(request);
  // One request is one line of fabrik-solve: a newline inside would split it.
  if (line.find('\n') != std::string::npos) {
    throw pb::value_error("request must be one line of JSON (it holds a newline)");
  }
  const std::optional<std::string> answer = tools::HandleLine(line);
  if (!answer) throw pb::value_error("request is empty");
  pb::dict result = pb::module_::import("json").attr("loads")(*answer);
  if (!result["ok"].cast<bool>()) {
    throw pb::value_error(result["error"].cast<std::string>());
  }
  return result;
}

}  // namespace fabrik::py
