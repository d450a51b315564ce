#include "ik/solver.h"

#include <algorithm>
#include <array>
#include <cfloat>
#include <cmath>
#include <glm/geometric.hpp>
#include <glm/gtc/quaternion.hpp>
#include <glm/vec3.hpp>

#include "ik/fabrik.h"
#include "ik/line_pose.h"
#include "ik/vec_util.h"

namespace fabrik {
namespace {

// The one list of solvers (solver.h): its kind, its name and how it is run. Adding a solver:
// its files in src/ik, its SolverKind and one row here.
struct SolverRow {
  SolverKind kind;
  const char* name;
  SolveResult (*solve)(Chain& chain, const glm::vec3& target, const SolveSettings& settings,
                       SolveObserver* observer, const SolverOptions& options);
};

constexpr SolverRow kRows[] = {
    {SolverKind::kFabrik, "fabrik",
     [](Chain& c, const glm::vec3& t, const SolveSettings& s, SolveObserver* o,
        const SolverOptions&) { return SolveFabrik(c, t, s, o); }},
    {SolverKind::kCcd, "ccd",
     [](Chain& c, const glm::vec3& t, const SolveSettings& s, SolveObserver* o,
        const SolverOptions& opt) { return SolveCcd(c, t, s, o, opt.ccd); }},
    {SolverKind::kJacobianTranspose, "jacobian_transpose",
     [](Chain& c, const glm::vec3& t, const SolveSettings& s, SolveObserver* o,
        const SolverOptions& opt) { return SolveJacobianTranspose(c, t, s, o, opt.jacobian); }},
    {SolverKind::kDls, "dls",
     [](Chain& c, const glm::vec3& t, const SolveSettings& s, SolveObserver* o,
        const SolverOptions& opt) { return SolveDls(c, t, s, o, opt.jacobian); }},
};

constexpr std::array<SolverKind, std::size(kRows)> AllKinds() {
  std::array<SolverKind, std::size(kRows)> kinds{};
  for (std::size_t i = 0; i < kinds.size(); ++i) kinds[i] = kRows[i].kind;
  return kinds;
}
constexpr std::array kAll = AllKinds();

const SolverRow& RowOf(SolverKind kind) {
  for (const SolverRow& row : kRows) {
    if (row.kind == kind) return row;
  }
  return kRows[0];  // unreachable: every SolverKind has its row
}

}  // namespace

std::span<const SolverKind> AllSolvers() { return kAll; }

const char* SolverName(SolverKind kind) {
  for (const SolverRow& row : kRows) {
    if (row.kind == kind) return row.name;
  }
  return "unknown";
}

std::optional<SolverKind> ParseSolverKind(std::string_view name) {
  for (const SolverRow& row : kRows) {
    if (name == row.name) return row.kind;
  }
  return std::nullopt;
}

SolveResult Solve(SolverKind kind, Chain& chain, const glm::vec3& target,
                  const SolveSettings& settings, SolveObserver* observer) {
  return Solve(kind, chain, target, settings, observer, SolverOptions{});
}

SolveResult Solve(SolverKind kind, Chain& chain, const glm::vec3& target,
                  const SolveSettings& settings, SolveObserver* observer,
                  const SolverOptions& options) {
  return RowOf(kind).solve(chain, target, settings, observer, options);
}

void BendOffLine(Chain& chain, const glm::vec3& axis) {
  std::span<glm::vec3> p = chain.pose_for_solver();
  const glm::vec3 line =
      SafeNormalize(axis, SafeNormalize(p.back() - p.front(), glm::vec3(0.0f, 1.0f, 0.0f)));
  BendChainOffLine(p, chain.lengths(), line, AnyPerpendicular(line), 0.1f);
}

LineEscape EscapeLineOnce(Chain& chain, const glm::vec3& axis, float eps, bool& bent) {
  if (!JointsOnLine(chain.joints(), axis, eps)) return LineEscape::kOffLine;
  if (bent) return LineEscape::kStuck;
  BendOffLine(chain, axis);
  bent = true;
  return LineEscape::kBent;
}

float SafeDistance(const glm::vec3& a, const glm::vec3& b) {
  const glm::dvec3 d = glm::dvec3(a) - glm::dvec3(b);
  const double length = glm::length(d);
  return static_cast<float>(std::min(length, static_cast<double>(FLT_MAX)));
}

bool BeginSolve(Chain& chain, const glm::vec3& target, const SolveSettings& settings,
                SolveObserver* observer, SolveResult& result) {
  if (const char* error = ValidateSolveInput(target, settings)) {
    result.ok = false;
    result.error = error;
    return false;
  }
  std::span<glm::vec3> p = chain.pose_for_solver();
  if (observer) observer->OnBegin(p, target);
  result.reachable = SafeDistance(target, p.front()) <= chain.total_length();
  if (!result.reachable) {
    StraightenTowards(chain, target);
    result.iterations = 1;
    if (observer) observer->OnHalfPass(PassKind::kStraighten, 1, p);
    return false;
  }
  return SafeDistance(p.back(), target) > settings.tolerance;
}

void EndSolve(const Chain& chain, const glm::vec3& target, const SolveSettings& settings,
              SolveResult& result) {
  result.distance = SafeDistance(chain.joints().back(), target);
  result.reached = result.distance <= settings.tolerance;
}

}  // namespace fabrik
