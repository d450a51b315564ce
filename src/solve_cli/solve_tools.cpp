#include "solve_cli/solve_tools.h"

#include <chrono>
#include <cmath>
#include <glm/geometric.hpp>
#include <numbers>
#include <optional>
#include <string>
#include <vector>

#include "ik/soften.h"
#include "ik/stiffness.h"
#include "ik/stretch.h"
#include "ik/turn_limit.h"
#include "ik/two_bone.h"
#include "solve_cli/json_line.h"

namespace fabrik::tools {
namespace {

constexpr const char* kToolFields[] = {"soften",    "stretch", "max_turn_deg",
                                       "stiffness", "curve",   "aim"};

bool IsTwoBone(const Json& request) {
  const Json* solver = Field(request, "solver");
  return solver != nullptr && solver->is_string() &&
         solver->get_ref<const std::string&>() == kTwoBoneSolverName;
}

// A number in single precision within a range; `range` words the range for the message.
Result<float> ReadRanged(const Json& value, const std::string& where, bool (*in_range)(double),
                         const char* range) {
  const std::string wanted = where + " must be a number with " + range + ", got " + SafeDump(value);
  if (!value.is_number()) return MakeError(wanted);
  auto f = ReadFloat(value, where);
  if (!f) return MakeError(f.error());
  if (!in_range(static_cast<double>(f.value()))) return MakeError(wanted);
  return f.value();
}

struct ToolRequest {
  SolveRequest chain;
  bool two_bone = false;
  std::optional<glm::dvec3> pole;
  float soften = 1.0f;
  std::optional<float> stretch;
  std::optional<float> max_turn;  // radians
  std::vector<float> stiffness;   // empty: none
};

// The fields after the chain's, each checked for its range, then their combinations.
Result<Ok> ReadToolFields(const Json& request, ToolRequest& out) {
  if (const Json* pole = Field(request, "pole")) {
    if (!out.two_bone) return MakeError("\"pole\" with these tools needs solver two_bone");
    auto p = ReadPosition(*pole, "pole");
    if (!p) return MakeError(p.error());
    out.pole = p.value();
  }
  if (const Json* v = Field(request, "soften")) {
    auto r = ReadRanged(
        *v, "soften", [](double x) { return x > 0.0 && x <= 1.0; }, "0 < soften <= 1");
    if (!r) return MakeError(r.error());
    out.soften = r.value();
  }
  if (const Json* v = Field(request, "stretch")) {
    auto r = ReadRanged(
        *v, "stretch", [](double x) { return x >= 1.0; }, "stretch >= 1");
    if (!r) return MakeError(r.error());
    out.stretch = r.value();
  }
  if (const Json* v = Field(request, "max_turn_deg")) {
    auto r = ReadRanged(
        *v, "max_turn_deg", [](double x) { return x > 0.0 && x <= 180.0; },
        "0 < max_turn_deg <= 180");
    if (!r) return MakeError(r.error());
    out.max_turn = static_cast<float>(r.value() * std::numbers::pi / 180.0);
  }
  if (const Json* v = Field(request, "stiffness")) {
    const std::size_t n = out.chain.joints.size();
    if (!v->is_array() || v->size() != n) {
      return MakeError(
          "stiffness must be an array of one number in 0..1 per joint (" + std::to_string(n) +
          "), got " +
          (v->is_array() ? std::to_string(v->size()) + " entries" : std::string(v->type_name())));
    }
    for (std::size_t i = 0; i < n; ++i) {
      auto s = ReadRanged((*v)[i], "stiffness[" + std::to_string(i) + "]",
                          [](double x) { return x >= 0.0 && x <= 1.0; }, "0 <= value <= 1");
      if (!s) return MakeError(s.error());
      out.stiffness.push_back(s.value());
    }
    if (out.two_bone || out.chain.solver != SolverKind::kFabrik || out.chain.accelerate) {
      return MakeError(
          "stiffness runs textbook fabrik passes: it takes no other solver and no "
          "accelerate");
    }
  }
  if (out.stretch && out.soften < 1.0f) {
    return MakeError(
        "soften and stretch cannot be combined (one keeps the effector short of "
        "the reach, the other goes beyond it)");
  }
  if (out.stretch && !out.stiffness.empty()) {
    return MakeError(
        "stretch needs the chain laid straight beyond its reach, which stiffness "
        "forbids: they cannot be combined");
  }
  return Ok{};
}

Result<ToolRequest> ReadToolRequest(const Json& request) {
  for (const char* name : {"constraints", "base", "nodes"}) {
    if (Field(request, name) != nullptr) {
      return MakeError(std::string("\"") + name +
                       "\" cannot be combined with the tools of docs/tools.md (two_bone, soften, "
                       "stretch, max_turn_deg, stiffness): plain chains only");
    }
  }
  if (const Json* free_root = Field(request, "free_root");
      free_root && free_root->is_boolean() && free_root->get<bool>()) {
    return MakeError(
        "free_root cannot be combined with two_bone, soften, stretch, max_turn_deg "
        "or stiffness");
  }
  ToolRequest out;
  out.two_bone = IsTwoBone(request);
  Result<SolveRequest> chain = [&]() -> Result<SolveRequest> {
    if (!out.two_bone) return ReadChainRequest(request);
    Json plain = request;  // the chain reader knows SolverKind names only
    plain.erase("solver");
    return ReadChainRequest(plain);
  }();
  if (!chain) return MakeError(chain.error());
  out.chain = std::move(chain).value();
  if (out.two_bone) {
    if (out.chain.joints.size() != 3) {
      return MakeError("solver two_bone needs a chain of exactly 3 joints, got " +
                       std::to_string(out.chain.joints.size()));
    }
    if (out.chain.accelerate) return MakeError("accelerate applies to the fabrik solver only");
  }
  auto fields = ReadToolFields(request, out);
  if (!fields) return MakeError(fields.error());
  return out;
}

}  // namespace

bool IsToolRequest(const Json& request) {
  if (IsTwoBone(request)) return true;
  for (const char* name : kToolFields) {
    if (Field(request, name) != nullptr) return true;
  }
  return false;
}

Json HandleToolRequest(const Json& request, const RequestId& id) {
  if (Field(request, "curve") != nullptr) return HandleCurveRequest(request, id);
  if (Field(request, "aim") != nullptr) return HandleAimRequest(request, id);
  Result<ToolRequest> parsed = ReadToolRequest(request);
  if (!parsed) return ErrorResponse(parsed.error(), id);
  const ToolRequest& r = parsed.value();
  Result<LocalChain> set_up = SetUpChain(r.chain);
  if (!set_up) return ErrorResponse(set_up.error(), id);
  LocalChain& local = set_up.value();
  const std::size_t n = local.chain.joint_count();

  // Soften is applied to the target before solving, so every solver gets the same smooth
  // approach; two-bone softens itself with the same function.
  const glm::vec3 aim = r.soften < 1.0f ? SoftenTarget(local.chain.root(), local.target,
                                                       local.chain.total_length(), r.soften)
                                        : local.target;
  const std::vector<glm::vec3> start(local.chain.joints().begin(), local.chain.joints().end());
  std::vector<glm::vec3> stretched(r.stretch ? n : 0);
  double factor = 1.0;

  const auto clock_start = std::chrono::steady_clock::now();
  SolveResult result;
  if (r.two_bone) {
    TwoBoneOptions options;
    options.soften = r.soften;
    if (r.pole) options.pole = local.frame.ToLocal(*r.pole);
    result = SolveTwoBone(local.chain, local.target, local.settings, options);
  } else if (!r.stiffness.empty()) {
    StiffSolver solver;
    result = solver.Solve(local.chain, aim, local.settings, r.stiffness);
  } else {
    result = Solve(r.chain.solver, local.chain, aim, local.settings);
  }
  if (result.ok && r.max_turn) LimitTurn(start, *r.max_turn, local.chain);
  if (result.ok && r.stretch) {
    factor = StretchFactor(local.chain.total_length(),
                           SafeDistance(local.chain.root(), local.target), *r.stretch);
    ScalePose(local.chain.joints(), factor, stretched);
  }
  const auto clock_stop = std::chrono::steady_clock::now();
  if (!result.ok) {
    return ErrorResponse(result.error ? result.error : "the solver rejected the request", id);
  }
  Json answer = ChainAnswer(local, r.chain, result.iterations, stretched);
  answer["solver"] = r.two_bone ? std::string(kTwoBoneSolverName) : SolverName(r.chain.solver);
  if (r.soften < 1.0f && aim != local.target) answer["soft_target"] = local.frame.PointJson(aim);
  if (r.stretch) {
    answer["stretch"] = ShortestWithin(factor, std::ldexp(factor, -25));
    answer["reachable"] = glm::length(r.chain.target - r.chain.joints.front()) <=
                          local.total_length * static_cast<double>(*r.stretch);
  }
  answer["solve_us"] = std::chrono::duration<double, std::micro>(clock_stop - clock_start).count();
  return WithId(std::move(answer), id);
}

}  // namespace fabrik::tools
