// py_convert.h - reading Python arguments for the fabrik module, raising ValueError (never
// TypeError, never a crash) that names the argument and the problem.
#pragma once

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <glm/vec3.hpp>
#include <optional>
#include <string>
#include <vector>

#include "ik/solve_types.h"
#include "ik/solver.h"

namespace fabrik::py {

namespace pb = pybind11;

// An array-like of real numbers (bool, int, unsigned or float dtypes; lists of numbers) as a
// C-contiguous float64 array with `ndim` dimensions; `name` names it in errors. Complex,
// object, string and date dtypes are refused, as are ragged lists.
pb::array_t<double> RealArray(const pb::object& value, const char* name, int ndim);

// `value` itself when it is a NumPy array of float32, C-contiguous, with `ndim` dimensions:
// read as it is, it needs no conversion (RealArray would copy it into float64). Otherwise
// empty, and RealArray is the way.
std::optional<pb::array_t<float>> Float32Array(const pb::object& value, int ndim);

// Every value finite and within single precision; the error names the first bad entry as
// name[i][j]... (row-major index into `array`).
void CheckSingleRange(const pb::array_t<double>& array, const char* name);
void CheckSingleRange(const pb::array_t<float>& array, const char* name);

// An (m, 3) or (3,) float64 or float32 array's rows as points.
std::vector<glm::vec3> Points(const pb::array_t<double>& array);
std::vector<glm::vec3> Points(const pb::array_t<float>& array);
glm::vec3 Point(const pb::array_t<double>& array);
glm::vec3 Point(const pb::array_t<float>& array);

// "tolerance" (a real number, finite and > 0 in single precision), "max_iterations" (an
// integer from 1 to kMaxIterations), "accelerate" (a bool) into settings.
SolveSettings ReadSettings(const pb::object& tolerance, const pb::object& max_iterations,
                           const pb::object& accelerate);

// The iteration cap a solve of chains of `joints` joints really runs: max_iterations, lowered
// so that one chain costs at most kMaxWork joint-iterations (fabrik-solve's bound).
int CappedIterations(std::size_t joints, int max_iterations);

// Numbers in messages as the rest of the project writes them: the shortest decimal that reads
// back (std::to_chars: 1e+300, never 301 digits), whatever the C locale.
std::string NumberText(double value);
std::string IntText(long long value);

// "solver": a str naming one of SolverName's solvers.
SolverKind ReadSolver(const pb::object& solver);

// "(2, 3)" for error messages.
std::string ShapeText(const pb::array& array);

}  // namespace fabrik::py
