#include "solve_cli/solve_extended.h"

#include <cmath>
#include <cstdint>
#include <glm/geometric.hpp>
#include <string>
#include <vector>

#include "ik/constrained_fabrik.h"
#include "solve_cli/json_line.h"

namespace fabrik::tools {
namespace {

// Zero, or along `axis` (within about 1e-3 rad): no direction can be measured from it.
bool ZeroOrAlong(const glm::vec3& v, const glm::vec3& axis) {
  const glm::dvec3 a(v), b(axis);
  const double la = glm::length(a), lb = glm::length(b);
  if (!(la > 0.0) || !(lb > 0.0)) return true;
  return glm::length(glm::cross(a / la, b / lb)) < 1e-3;
}

}  // namespace

Result<BaseFrame> ReadBase(const Json& request) {
  BaseFrame base;
  const Json* b = Field(request, "base");
  if (b == nullptr) return base;
  if (!b->is_object()) {
    return MakeError("\"base\" must be an object {\"forward\": [..], \"up\": [..]}");
  }
  if (const Json* f = Field(*b, "forward")) {
    auto p = ReadPoint(*f, "base.forward");
    if (!p) return MakeError(p.error());
    base.forward = p.value();
  }
  if (const char* error = ValidateBaseFrame(base)) return MakeError(std::string("base: ") + error);
  if (const Json* u = Field(*b, "up")) {
    auto p = ReadPoint(*u, "base.up");
    if (!p) return MakeError(p.error());
    base.up = p.value();
    if (ZeroOrAlong(base.up, base.forward)) {
      return MakeError("base.up must be non-zero and not along base.forward");
    }
  }
  if (const char* error = ValidateBaseFrame(base)) return MakeError(std::string("base: ") + error);
  return base;
}

Result<ConstraintDesc> ReadConstraint(const Json& c, const std::string& where,
                                      long long max_joint) {
  if (!c.is_object()) return MakeError(where + " must be an object");
  ConstraintDesc d;
  if (max_joint >= 0) {
    const Json* joint = Field(c, "joint");
    if (joint == nullptr) return MakeError(where + ".joint is missing (an integer joint index)");
    auto j = ReadInteger(*joint, where + ".joint", 0, max_joint);
    if (!j) return MakeError(j.error());
    d.joint = static_cast<int>(j.value());
  }
  if (const Json* type = Field(c, "type")) {
    if (!type->is_string())
      return MakeError(where + ".type must be \"none\", \"ball\" or \"hinge\"");
    d.type = type->get<std::string>();
  }
  struct Angle {
    const char* name;
    std::optional<float>* out;
  };
  for (Angle a : {Angle{"angle", &d.angle}, Angle{"up", &d.up}, Angle{"down", &d.down},
                  Angle{"left", &d.left}, Angle{"right", &d.right}, Angle{"min", &d.min},
                  Angle{"max", &d.max}}) {
    if (const Json* v = Field(c, a.name)) {
      auto f = ReadFloat(*v, where + "." + a.name);
      if (!f) return MakeError(f.error());
      *a.out = f.value();
    }
  }
  if (const Json* v = Field(c, "axis")) {
    auto p = ReadPoint(*v, where + ".axis");
    if (!p) return MakeError(p.error());
    d.axis = p.value();
  }
  if (const Json* v = Field(c, "reference")) {
    auto p = ReadPoint(*v, where + ".reference");
    if (!p) return MakeError(p.error());
    d.reference = p.value();
    // The hinge angle is measured from the reference's part perpendicular to the axis.
    if (d.axis && ZeroOrAlong(*d.reference, *d.axis)) {
      return MakeError(where + ".reference must be non-zero and not along the axis");
    }
  }
  if (const Json* v = Field(c, "space")) {
    if (!v->is_string()) return MakeError(where + ".space must be \"parent\" or \"world\"");
    d.space = v->get<std::string>();
  }
  return d;
}

namespace {

Json HandleConstrainedChain(const Json& request, const RequestId& id) {
  Result<SolveRequest> parsed = ReadChainRequest(request);
  if (!parsed) return ErrorResponse(parsed.error(), id);
  const SolveRequest& r = parsed.value();
  if (r.solver != SolverKind::kFabrik) {
    return ErrorResponse("constraints, pole and base are supported by the fabrik solver only", id);
  }
  auto base = ReadBase(request);
  if (!base) return ErrorResponse(base.error(), id);
  std::vector<ConstraintDesc> descs;
  if (const Json* cs = Field(request, "constraints")) {
    if (!cs->is_array()) return ErrorResponse("\"constraints\" must be an array", id);
    const auto max_joint = static_cast<long long>(r.joints.size()) - 2;
    for (std::size_t i = 0; i < cs->size(); ++i) {
      auto d = ReadConstraint((*cs)[i], "constraints[" + std::to_string(i) + "]", max_joint);
      if (!d) return ErrorResponse(d.error(), id);
      descs.push_back(std::move(d).value());
    }
  }
  std::optional<glm::dvec3> pole;
  if (const Json* p = Field(request, "pole")) {
    auto point = ReadPosition(*p, "pole");
    if (!point) return ErrorResponse(point.error(), id);
    pole = point.value();
  }
  Result<LocalChain> set_up = SetUpChain(r);
  if (!set_up) return ErrorResponse(set_up.error(), id);
  LocalChain& local = set_up.value();
  auto constraints = ToChainConstraints(descs, local.chain.joint_count(), base.value());
  if (!constraints) return ErrorResponse(constraints.error(), id);
  std::optional<glm::vec3> local_pole;
  if (pole) local_pole = local.frame.ToLocal(*pole);

  std::vector<std::uint8_t> at_limit(local.chain.joint_count(), 0);
  const ConstrainedSolveResult result =
      SolveFabrikConstrained(local.chain, constraints.value(), local.target, local.settings,
                             local_pole, nullptr, at_limit);
  if (!result.base.ok) return ErrorResponse(result.base.error, id);
  Json answer = ChainAnswer(local, r, result.base.iterations);
  answer["limited"] = result.limited;
  answer["joints_at_limit"] = result.joints_at_limit;
  answer["at_limit"] = at_limit;
  answer["max_violation"] = Shortest(result.max_violation);
  answer["solver"] = "fabrik";
  return WithId(std::move(answer), id);
}

}  // namespace

std::optional<Json> HandleExtendedRequest(const Json& request, const RequestId& id) {
  if (Field(request, "nodes") != nullptr) return HandleTree(request, id);
  if (Field(request, "constraints") || Field(request, "pole") || Field(request, "base")) {
    return HandleConstrainedChain(request, id);
  }
  return std::nullopt;
}

}  // namespace fabrik::tools
