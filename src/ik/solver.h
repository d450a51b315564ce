// solver.h - every solver in the library behind one name, for the app, the CLI and benches.
//
// All solvers share Chain, SolveSettings, SolveResult and SolveObserver, and all keep the
// chain's guarantees (root fixed, lengths kept, finite), reject invalid input the same way
// (ValidateSolveInput) and lay the chain straight towards out-of-reach targets.
//
// What one iteration is differs (SolveResult::iterations and SolveSettings::max_iterations
// count these):
//   fabrik              one backward pass then one forward pass          (fabrik.h)
//                       (accelerated, settings.accelerate: or one bend-scale step,
//                       fabrik_accelerated.h)
//   ccd                 one sweep over all joints, effector end first     (ccd.h)
//   jacobian_transpose  one Jacobian-transpose step                       (jacobian.h)
//   dls                 one damped-least-squares step                     (jacobian.h)
// FABRIK reports two half-passes per iteration to the observer (kBackward, kForward); the
// others report one kForward call per iteration. All report one kStraighten call for an
// out-of-reach target.
#pragma once

#include <optional>
#include <span>
#include <string_view>

#include <glm/vec3.hpp>

#include "ccd.h"
#include "chain.h"
#include "jacobian.h"
#include "solve_types.h"

namespace fabrik {

enum class SolverKind { kFabrik, kCcd, kJacobianTranspose, kDls };

// Every solver, in the order menus list them: fabrik, ccd, jacobian_transpose, dls.
std::span<const SolverKind> AllSolvers();

// "fabrik", "ccd", "jacobian_transpose", "dls" as used on the command line, in the console
// and in fabrik-solve requests. ParseSolverKind is exact (case-sensitive) and returns nullopt
// for anything else.
const char* SolverName(SolverKind kind);
std::optional<SolverKind> ParseSolverKind(std::string_view name);

// The analytic two-bone solver (two_bone.h) takes 3-joint chains only, so it is not a
// SolverKind; where a solver is chosen by name (the demo's `solver`, fabrik-solve's
// "solver") it is listed after AllSolvers()' names, under this one.
inline constexpr std::string_view kTwoBoneSolverName = "two_bone";

// Solver-specific knobs; each solver reads only its own member. Defaults everywhere.
struct SolverOptions {
  CcdOptions ccd;
  JacobianOptions jacobian;  // jacobian_transpose and dls
};

// Runs the named solver on `chain` with default options. See fabrik.h for the common
// contract.
[[nodiscard]] SolveResult Solve(SolverKind kind, Chain& chain, const glm::vec3& target,
                                const SolveSettings& settings, SolveObserver* observer = nullptr);

// The same with solver-specific options.
[[nodiscard]] SolveResult Solve(SolverKind kind, Chain& chain, const glm::vec3& target,
                                const SolveSettings& settings, SolveObserver* observer,
                                const SolverOptions& options);

// |a - b| for any finite a and b, computed in double and saturating at FLT_MAX, so it is
// finite even for targets near the float range. For reach tests and reported distances.
float SafeDistance(const glm::vec3& a, const glm::vec3& b);

// The start CCD and the Jacobian solvers share: validates the input (on error sets
// result.ok = false and result.error, leaves the chain untouched and returns false), calls
// observer->OnBegin, sets result.reachable, and lays the chain straight towards an
// out-of-reach target (result.iterations = 1, observer->OnHalfPass(kStraighten)). Returns
// true when the solver should iterate: the target is reachable and the effector is farther
// from it than the tolerance.
bool BeginSolve(Chain& chain, const glm::vec3& target, const SolveSettings& settings,
                SolveObserver* observer, SolveResult& result);
// The end they share: result.distance (SafeDistance from the effector to the target) and
// result.reached (within settings.tolerance).
void EndSolve(const Chain& chain, const glm::vec3& target, const SolveSettings& settings,
              SolveResult& result);

}  // namespace fabrik
