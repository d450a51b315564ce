#include "tools/solve_tools.h"

#include <chrono>
#include <cmath>
#include <optional>
#include <string>

#include "ik/soften.h"
#include "ik/two_bone.h"
#include "tools/json_line.h"

namespace fabrik::tools {
namespace {

constexpr const char* kToolFields[] = {"soften"};

bool IsTwoBone(const Json& request) {
  const Json* solver = Field(request, "solver");
  return solver != nullptr && solver->is_string() && solver->get_ref<const std::string&>() == "two_bone";
}

// A number in single precision with a range check; `range` is the message's wording of it.
Result<float> ReadRanged(const Json& request, const char* name, bool (*in_range)(double),
                         const char* range) {
  const Json& value = *Field(request, name);
  if (!value.is_number()) {
    return MakeError(std::string(name) + " must be a number with " + range + ", got " +
                     SafeDump(value));
  }
  auto f = ReadFloat(value, name);
  if (!f) return MakeError(f.error());
  if (!in_range(static_cast<double>(f.value()))) {
    return MakeError(std::string(name) + " must be a number with " + range + ", got " +
                     SafeDump(value));
  }
  return f.value();
}

struct ToolRequest {
  SolveRequest chain;
  bool two_bone = false;
  std::optional<glm::dvec3> pole;
  float soften = 1.0f;
};

Result<ToolRequest> ReadToolRequest(const Json& request) {
  for (const char* name : {"constraints", "base", "nodes"}) {
    if (Field(request, name) != nullptr) {
      return MakeError(std::string("\"") + name +
                       "\" cannot be combined with two_bone or soften (plain chains only)");
    }
  }
  if (const Json* free_root = Field(request, "free_root");
      free_root && free_root->is_boolean() && free_root->get<bool>()) {
    return MakeError("free_root cannot be combined with two_bone or soften");
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
  if (const Json* pole = Field(request, "pole")) {
    if (!out.two_bone) return MakeError("\"pole\" with soften needs solver two_bone");
    auto p = ReadPosition(*pole, "pole");
    if (!p) return MakeError(p.error());
    out.pole = p.value();
  }
  if (Field(request, "soften") != nullptr) {
    auto r = ReadRanged(request, "soften", [](double v) { return v > 0.0 && v <= 1.0; },
                        "0 < soften <= 1");
    if (!r) return MakeError(r.error());
    out.soften = r.value();
  }
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
  Result<ToolRequest> parsed = ReadToolRequest(request);
  if (!parsed) return ErrorResponse(parsed.error(), id);
  const ToolRequest& r = parsed.value();
  Result<LocalChain> set_up = SetUpChain(r.chain);
  if (!set_up) return ErrorResponse(set_up.error(), id);
  LocalChain& local = set_up.value();

  // Soften is applied to the target before solving, so every solver gets the same smooth
  // approach; two-bone softens itself (the same function), with its own reach.
  glm::vec3 aim = local.target;
  if (r.soften < 1.0f && !r.two_bone) {
    aim = SoftenTarget(local.chain.root(), local.target, local.chain.total_length(), r.soften);
  }
  const auto start = std::chrono::steady_clock::now();
  SolveResult result;
  if (r.two_bone) {
    TwoBoneOptions options;
    options.soften = r.soften;
    if (r.pole) options.pole = local.frame.ToLocal(*r.pole);
    result = SolveTwoBone(local.chain, local.target, local.settings, options);
  } else {
    result = Solve(r.chain.solver, local.chain, aim, local.settings);
  }
  const auto stop = std::chrono::steady_clock::now();
  if (!result.ok) {
    return ErrorResponse(result.error ? result.error : "the solver rejected the request", id);
  }
  Json answer = ChainAnswer(local, r.chain, result.iterations);
  answer["solver"] = r.two_bone ? "two_bone" : SolverName(r.chain.solver);
  if (r.soften < 1.0f) {
    const glm::vec3 soft =
        r.two_bone ? SoftenTarget(local.chain.root(), local.target, local.chain.total_length(),
                                  r.soften)
                   : aim;
    if (soft != local.target) answer["soft_target"] = local.frame.PointJson(soft);
  }
  answer["solve_us"] = std::chrono::duration<double, std::micro>(stop - start).count();
  return WithId(std::move(answer), id);
}

}  // namespace fabrik::tools
