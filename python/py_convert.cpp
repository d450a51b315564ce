#include "py_convert.h"

#include <charconv>
#include <cmath>
#include <cstddef>
#include <limits>
#include <string>

#include "solve_cli/solve_request.h"

namespace fabrik::py {

std::string NumberText(double value) {
  char buffer[64];
  const auto written = std::to_chars(buffer, buffer + sizeof buffer, value);
  return std::string(buffer, written.ptr);
}

std::string IntText(long long value) {
  char buffer[32];
  const auto written = std::to_chars(buffer, buffer + sizeof buffer, value);
  return std::string(buffer, written.ptr);
}

int CappedIterations(std::size_t joints, int max_iterations) {
  return tools::WorkCap(joints, max_iterations);
}

std::string ShapeText(const pb::array& array) {
  std::string text = "(";
  for (pb::ssize_t d = 0; d < array.ndim(); ++d) {
    if (d > 0) text += ", ";
    text += IntText(array.shape(d));
  }
  if (array.ndim() == 1) text += ",";
  return text + ")";
}

pb::array_t<double> RealArray(const pb::object& value, const char* name, int ndim) {
  // numpy would turn complex values into reals (dropping the imaginary part with a warning)
  // and dates into integers: refuse those kinds before converting.
  if (pb::isinstance<pb::array>(value)) {
    const char kind = pb::reinterpret_borrow<pb::array>(value).dtype().kind();
    if (kind != 'b' && kind != 'i' && kind != 'u' && kind != 'f') {
      throw pb::value_error(std::string(name) + " must hold real numbers, got dtype " +
                            std::string(pb::str(value.attr("dtype"))));
    }
  }
  if (value.is_none())
    throw pb::value_error(std::string(name) + " must be an array of real numbers, got None");
  // forcecast: any real dtype converts; ensure() returns an empty handle (and clears numpy's
  // error) for what cannot convert, e.g. strings or ragged lists.
  auto array = pb::array_t<double, pb::array::c_style | pb::array::forcecast>::ensure(value);
  if (!array) {
    throw pb::value_error(std::string(name) + " must be an array of real numbers, got " +
                          std::string(pb::str(pb::type::handle_of(value).attr("__name__"))));
  }
  if (array.ndim() != ndim) {
    throw pb::value_error(std::string(name) + " must have " + IntText(ndim) + " dimension" +
                          (ndim == 1 ? "" : "s") + ", got shape " + ShapeText(array));
  }
  return array;
}

std::optional<pb::array_t<float>> Float32Array(const pb::object& value, int ndim) {
  if (!pb::isinstance<pb::array>(value)) return std::nullopt;
  const auto a = pb::reinterpret_borrow<pb::array>(value);
  if (!a.dtype().is(pb::dtype::of<float>()) || !(a.flags() & pb::array::c_style) ||
      a.ndim() != ndim) {
    return std::nullopt;
  }
  return pb::reinterpret_borrow<pb::array_t<float>>(value);
}

namespace {

template <typename T>
void CheckRange(const pb::array_t<T>& array, const char* name) {
  const T* data = array.data();
  const std::size_t count = static_cast<std::size_t>(array.size());
  constexpr double kMax = std::numeric_limits<float>::max();
  for (std::size_t i = 0; i < count; ++i) {
    const double v = data[i];
    if (std::isfinite(v) && std::fabs(v) <= kMax) continue;
    // Name the entry by its index in every dimension: joints[2][1].
    std::string where = name;
    std::size_t rest = i;
    std::string index;
    for (pb::ssize_t d = array.ndim() - 1; d >= 0; --d) {
      const std::size_t extent = static_cast<std::size_t>(array.shape(d));
      index = "[" + IntText(static_cast<long long>(rest % extent)) + "]" + index;
      rest /= extent;
    }
    throw pb::value_error(where + index +
                          (std::isfinite(v) ? " is beyond single precision (" + NumberText(v) + ")"
                                            : std::string(" is not finite")));
  }
}

template <typename T>
std::vector<glm::vec3> Rows(const pb::array_t<T>& array) {
  const std::size_t rows = static_cast<std::size_t>(array.shape(0));
  const T* d = array.data();
  std::vector<glm::vec3> points(rows);
  for (std::size_t i = 0; i < rows; ++i) {
    points[i] = glm::vec3(static_cast<float>(d[3 * i]), static_cast<float>(d[3 * i + 1]),
                          static_cast<float>(d[3 * i + 2]));
  }
  return points;
}

template <typename T>
glm::vec3 Row(const pb::array_t<T>& array) {
  const T* d = array.data();
  return glm::vec3(static_cast<float>(d[0]), static_cast<float>(d[1]), static_cast<float>(d[2]));
}

}  // namespace

void CheckSingleRange(const pb::array_t<double>& array, const char* name) {
  CheckRange(array, name);
}
void CheckSingleRange(const pb::array_t<float>& array, const char* name) {
  CheckRange(array, name);
}
std::vector<glm::vec3> Points(const pb::array_t<double>& array) { return Rows(array); }
std::vector<glm::vec3> Points(const pb::array_t<float>& array) { return Rows(array); }
glm::vec3 Point(const pb::array_t<double>& array) { return Row(array); }
glm::vec3 Point(const pb::array_t<float>& array) { return Row(array); }

namespace {

bool IsBool(const pb::object& value) { return PyBool_Check(value.ptr()); }

}  // namespace

SolveSettings ReadSettings(const pb::object& tolerance, const pb::object& max_iterations,
                           const pb::object& accelerate) {
  SolveSettings settings;
  // A real number: Python int or float or a numpy scalar, not a bool or a string.
  if (IsBool(tolerance) || !PyNumber_Check(tolerance.ptr()) || PyComplex_Check(tolerance.ptr())) {
    throw pb::value_error("tolerance must be a real number, got " +
                          std::string(pb::str(pb::type::handle_of(tolerance).attr("__name__"))));
  }
  const double tol = PyFloat_AsDouble(tolerance.ptr());
  if (tol == -1.0 && PyErr_Occurred()) {
    PyErr_Clear();
    throw pb::value_error("tolerance must be a real number");
  }
  if (!(tol > 0.0) || !std::isfinite(tol) || !(static_cast<float>(tol) > 0.0f) ||
      !std::isfinite(static_cast<float>(tol))) {
    throw pb::value_error("tolerance must be finite and > 0 in single precision, got " +
                          NumberText(tol));
  }
  settings.tolerance = static_cast<float>(tol);

  if (IsBool(max_iterations) || !PyIndex_Check(max_iterations.ptr())) {
    throw pb::value_error(
        "max_iterations must be an integer, got " +
        std::string(pb::str(pb::type::handle_of(max_iterations).attr("__name__"))));
  }
  int overflow = 0;
  const pb::object index = pb::reinterpret_steal<pb::object>(PyNumber_Index(max_iterations.ptr()));
  if (!index) throw pb::error_already_set();
  const long long cap = PyLong_AsLongLongAndOverflow(index.ptr(), &overflow);
  // The bound fabrik-solve has (docs/limits.md); the work bound lowers it further for long
  // chains (CappedIterations).
  if (overflow != 0 || cap < 1 || cap > tools::kMaxIterationsLimit) {
    throw pb::value_error("max_iterations must be between 1 and " +
                          IntText(tools::kMaxIterationsLimit) + ", got " +
                          std::string(pb::str(index)));
  }
  settings.max_iterations = static_cast<int>(cap);

  if (!IsBool(accelerate)) {
    // numpy.bool_ is accepted too; anything else (1, "yes", None) is a mistake.
    const std::string type = pb::str(pb::type::handle_of(accelerate).attr("__name__"));
    if (type != "bool_") throw pb::value_error("accelerate must be True or False, got " + type);
  }
  settings.accelerate = PyObject_IsTrue(accelerate.ptr()) == 1;
  return settings;
}

namespace {

std::string KnownSolvers() {
  std::string known;
  for (SolverKind kind : AllSolvers()) {
    known += std::string(known.empty() ? "" : ", ") + SolverName(kind);
  }
  return known;
}

}  // namespace

SolverKind ReadSolver(const pb::object& solver) {
  if (!pb::isinstance<pb::str>(solver)) {
    throw pb::value_error("solver must be a str, one of: " + KnownSolvers());
  }
  const std::string name = solver.cast<std::string>();
  if (const auto kind = ParseSolverKind(name)) return *kind;
  throw pb::value_error("unknown solver '" + name + "' (known: " + KnownSolvers() + ")");
}

}  // namespace fabrik::py
