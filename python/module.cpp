// module.cpp - the Python module fabrik: bindings and docstrings (docs/library.md, "Python").
// The work is in py_single.cpp (solve, solve_request) and py_batch.cpp (solve_batch).
#include <pybind11/pybind11.h>

#include "ik/solve_types.h"
#include "ik/solver.h"
#include "ik/version.h"
#include "py_api.h"

namespace pb = pybind11;
using namespace pybind11::literals;

PYBIND11_MODULE(fabrik, m) {
  m.doc() =
      "FABRIK inverse kinematics (the fabrik C++ library).\n\n"
      "solve(joints, target, ...)          one chain, any solver\n"
      "solve_batch(joints, targets, ...)   many chains at once (SIMD, all cores, GIL released)\n"
      "solve_request(request)              a fabrik-solve request dict: constraints, poles, trees\n"
      "Coordinates are world units, right-handed, +Y up; joint 0 is the root and never moves.\n"
      "Bad input raises ValueError naming the problem; input arrays are left unchanged.";
  m.attr("__version__") = FABRIK_VERSION_STRING;
  pb::tuple solvers(fabrik::AllSolvers().size());
  for (std::size_t i = 0; i < fabrik::AllSolvers().size(); ++i) {
    solvers[i] = fabrik::SolverName(fabrik::AllSolvers()[i]);
  }
  m.attr("SOLVERS") = solvers;

  // The docstrings below spell the defaults out; they are the library's (ik/solve_types.h).
  static_assert(!fabrik::kAccelerateByDefault, "the docstrings say accelerate=False");
  m.def("solve", &fabrik::py::SolveOne, "joints"_a, "target"_a, pb::kw_only(), "tolerance"_a = 0.01,
        "max_iterations"_a = 10, "accelerate"_a = fabrik::kAccelerateByDefault,
        "solver"_a = "fabrik",
        "solve(joints, target, *, tolerance=0.01, max_iterations=10, accelerate=False,\n"
        "      solver='fabrik') -> (joints, info)\n\n"
        "Moves a chain of n segments so its end effector reaches target.\n"
        "joints: (n+1, 3) array-like of real numbers, root first; segment lengths are taken\n"
        "from it and kept. target: (3,). tolerance: world units, > 0. max_iterations: >= 1.\n"
        "accelerate: the accelerated FABRIK (bend-scale steps; fabrik solver only, the others\n"
        "ignore it); off by default, the textbook FABRIK. solver: one of SOLVERS.\n"
        "Returns the new joints as a float32 (n+1, 3) array and a dict with iterations (int),\n"
        "distance (float, |effector - target|), reached (distance <= tolerance) and\n"
        "reachable (|target - root| <= total length). The input is not modified.");

  m.def("solve_batch", &fabrik::py::SolveBatch, "joints"_a, "targets"_a, pb::kw_only(),
        "tolerance"_a = 0.01, "max_iterations"_a = 10,
        "accelerate"_a = fabrik::kAccelerateByDefault, "threads"_a = pb::none(),
        "solve_batch(joints, targets, *, tolerance=0.01, max_iterations=10, accelerate=False,\n"
        "            threads=None) -> dict\n\n"
        "Solves N chains of n+1 joints with FABRIK, each towards its own target, with SIMD\n"
        "on all cores (threads=None) or on at most `threads` threads; the GIL is released.\n"
        "joints: (N, n+1, 3); a C-contiguous, writeable float32 array is solved in place,\n"
        "anything else is converted to a new float32 array. targets: (N, 3).\n"
        "Returns {'joints': the solved array (joints itself when solved in place),\n"
        "'iterations': int32 (N,), 'distance': float32 (N,), 'reached': bool (N,),\n"
        "'reachable': bool (N,)}. Per chain the result is that of solve(..., solver='fabrik')\n"
        "with the same settings. On a ValueError nothing is written.");

  m.def("solve_request", &fabrik::py::SolveRequest, "request"_a,
        "solve_request(request) -> dict\n\n"
        "One fabrik-solve request, as a dict or a JSON string, answered by the same code as\n"
        "the fabrik-solve program: plain chains with any solver, accelerate and free_root,\n"
        "joint constraints (ball, hinge), a base frame and a pole, and trees with several\n"
        "end effectors ('nodes', 'targets', 'weights'). Returns the answer dict (ok, joints\n"
        "or positions, iterations, distance(s), reached, reachable, ...). A request the\n"
        "program would answer with ok: false raises ValueError with its error text.");

  m.def("_set_solve_gate", &fabrik::py::SetSolveGate, "count"_a,
        "Test hook: each solve_batch waits, GIL released, until `count` solves have been "
        "inside at once (0: off).");
  m.def("_solve_gate_state", &fabrik::py::SolveGateState,
        "Test hook: (solve_batch calls inside now, most inside at once since _set_solve_gate).");
}
