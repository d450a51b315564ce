// py_api.h - the functions behind the Python module fabrik (module.cpp binds them).
//
// Every function validates all of its input before anything is solved and raises ValueError
// (pybind11::value_error) naming the first problem: a wrong shape, a dtype that cannot
// convert to a real number, NaN or inf, a value beyond single precision, a zero-length
// segment, a tolerance <= 0, an unknown solver. Input arrays are never written except the
// joints of solve_batch, and those only when the whole batch was accepted.
#pragma once

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

namespace fabrik::py {

namespace pb = pybind11;

// fabrik.solve: one chain, (n+1, 3) joints, any solver. Returns (joints float32, info dict).
pb::tuple SolveOne(const pb::object& joints, const pb::object& target, const pb::object& tolerance,
                   const pb::object& max_iterations, const pb::object& accelerate,
                   const pb::object& solver);

// fabrik.solve_batch: N chains of n+1 joints, (N, n+1, 3), solved by SolveFabrikBatch with
// the GIL released. Returns a dict of arrays (and "joints", the solved array).
pb::dict SolveBatch(const pb::object& joints, const pb::object& targets,
                    const pb::object& tolerance, const pb::object& max_iterations,
                    const pb::object& accelerate, const pb::object& threads);

// fabrik.solve_request: one fabrik-solve request (a dict or a JSON string) through the same
// code as the fabrik-solve program; returns its answer as a dict, or raises ValueError with
// the answer's error.
pb::dict SolveRequest(const pb::object& request);

// Test hooks (fabrik._set_solve_gate, fabrik._solve_gate_state): with a gate of n > 1, each
// solve_batch waits, with the GIL released, until n solves have been inside at once (or a
// minute has passed, so a broken build fails instead of hanging). 0 turns the gate off and
// resets the maximum. The state is (solves inside now, most inside at once since the reset).
void SetSolveGate(int count);
pb::tuple SolveGateState();

}  // namespace fabrik::py
