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
constexpr std::array kAll = {SolverKind::kFabrik, SolverKind::kCcd, SolverKind::kJacobianTranspose,
                             SolverKind::kDls};
}  // namespace

std::span<const SolverKind> AllSolvers() { return kAll; }

const char* SolverName(SolverKind kind) {
  switch (kind) {
    case SolverKind::kFabrik:
      return "fabrik";
    case SolverKind::kCcd:
      return "ccd";
    case SolverKind::kJacobianTranspose:
      return "jacobian_transpose";
    case SolverKind::kDls:
      return "dls";
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
  return Solve(kind, chain, target, settings, observer, SolverOptions{});
}

SolveResult Solve(SolverKind kind, Chain& chain, const glm::vec3& target,
                  const SolveSettings& settings, SolveObserver* observer,
                  const SolverOptions& options) {
  switch (kind) {
    case SolverKind::kFabrik:
      return SolveFabrik(chain, target, settings, observer);
    case SolverKind::kCcd:
      return SolveCcd(chain, target, settings, observer, options.ccd);
    case SolverKind::kJacobianTranspose:
      return SolveJacobianTranspose(chain, target, settings, observer, options.jacobian);
    case SolverKind::kDls:
      return SolveDls(chain, target, settings, observer, options.jacobian);
  }
  return SolveFabrik(chain, target, settings, observer);
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
