#include "ik/solver.h"

#include <array>

#include "ik/fabrik.h"

namespace fabrik {
namespace {
constexpr std::array kAll = {SolverKind::kFabrik};
}  // namespace

std::span<const SolverKind> AllSolvers() { return kAll; }

const char* SolverName(SolverKind kind) {
  switch (kind) {
    case SolverKind::kFabrik: return "fabrik";
  }
  return "unknown";
}

std::optional<SolverKind> ParseSolverKind(std::string_view name) {
  for (SolverKind kind : kAll) {
    if (name == SolverName(kind)) return kind;
  }
  return std::nullopt;
}

SolveResult Solve(SolverKind kind, Chain& chain, const glm::vec3& target,
                  const SolveSettings& settings, SolveObserver* observer) {
  switch (kind) {
    case SolverKind::kFabrik: return SolveFabrik(chain, target, settings, observer);
  }
  return SolveFabrik(chain, target, settings, observer);
}

}  // namespace fabrik
