// solver.h - every solver in the library behind one name, for the app, the CLI and benches.
//
// All solvers share Chain, SolveSettings, SolveResult and SolveObserver, and all keep the
// chain's guarantees (root fixed, lengths kept, finite), reject invalid input the same way
// (ValidateSolveInput) and lay the chain straight towards out-of-reach targets.
#pragma once

#include <optional>
#include <span>
#include <string_view>

#include "ik/chain.h"
#include "ik/solve_types.h"

namespace fabrik {

enum class SolverKind { kFabrik };

// Every solver, in the order menus list them.
std::span<const SolverKind> AllSolvers();

// "fabrik", ... as used on the command line, in the console and in fabrik-solve requests.
const char* SolverName(SolverKind kind);
std::optional<SolverKind> ParseSolverKind(std::string_view name);

// Runs the named solver on `chain`. See fabrik.h for the common contract.
[[nodiscard]] SolveResult Solve(SolverKind kind, Chain& chain, const glm::vec3& target,
                                const SolveSettings& settings, SolveObserver* observer = nullptr);

}  // namespace fabrik
