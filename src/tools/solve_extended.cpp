#include "tools/solve_extended.h"

#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "ik/constrained_fabrik.h"
#include "ik/constraints_desc.h"
#include "ik/tree.h"
#include "tools/solve_request.h"

namespace fabrik::tools {
namespace {

using json = nlohmann::ordered_json;

const json* Field(const json& object, const char* name) {
  const auto it = object.find(name);
  return it == object.end() ? nullptr : &*it;
}

Result<BaseFrame> ReadBase(const json& request) {
  BaseFrame base;
  const json* b = Field(request, "base");
  if (b == nullptr) return base;
  if (!b->is_object()) return MakeError("\"base\" must be an object {\"forward\": [..], \"up\": [..]}");
  if (const json* f = Field(*b, "forward")) {
    auto p = ReadPoint(*f, "base.forward");
    if (!p) return MakeError(p.error());
    base.forward = p.value();
  }
  if (const json* u = Field(*b, "up")) {
    auto p = ReadPoint(*u, "base.up");
    if (!p) return MakeError(p.error());
    base.up = p.value();
  }
  if (const char* error = ValidateBaseFrame(base)) return MakeError(std::string("base: ") + error);
  return base;
}

// One constraint object; `where` names it ("constraints[2]", "nodes[4].constraint").
Result<ConstraintDesc> ReadConstraint(const json& c, const std::string& where, bool need_joint) {
  if (!c.is_object()) return MakeError(where + " must be an object");
  ConstraintDesc d;
  if (need_joint) {
    const json* joint = Field(c, "joint");
    if (joint == nullptr || !joint->is_number_integer()) {
      return MakeError(where + ".joint must be an integer joint index");
    }
    d.joint = joint->get<int>();
  }
  if (const json* type = Field(c, "type")) {
    if (!type->is_string()) return MakeError(where + ".type must be \"none\", \"ball\" or \"hinge\"");
    d.type = type->get<std::string>();
  }
  struct Angle {
    const char* name;
    std::optional<float>* out;
  };
  for (Angle a : {Angle{"angle", &d.angle}, Angle{"up", &d.up}, Angle{"down", &d.down},
                  Angle{"left", &d.left}, Angle{"right", &d.right}, Angle{"min", &d.min},
                  Angle{"max", &d.max}}) {
    if (const json* v = Field(c, a.name)) {
      auto f = ReadFloat(*v, where + "." + a.name);
      if (!f) return MakeError(f.error());
      *a.out = f.value();
    }
  }
  if (const json* v = Field(c, "axis")) {
    auto p = ReadPoint(*v, where + ".axis");
    if (!p) return MakeError(p.error());
    d.axis = p.value();
  }
  if (const json* v = Field(c, "reference")) {
    auto p = ReadPoint(*v, where + ".reference");
    if (!p) return MakeError(p.error());
    d.reference = p.value();
  }
  if (const json* v = Field(c, "space")) {
    if (!v->is_string()) return MakeError(where + ".space must be \"parent\" or \"world\"");
    d.space = v->get<std::string>();
  }
  return d;
}

Result<SolveSettings> ReadSettings(const json& request) {
  SolveSettings s;
  const json* tol = Field(request, "tolerance");
  if (tol == nullptr) return MakeError("missing field \"tolerance\"");
  auto t = ReadFloat(*tol, "tolerance");
  if (!t) return MakeError(t.error());
  if (!(t.value() > 0.0f)) return MakeError("tolerance must be > 0, got " + tol->dump());
  s.tolerance = t.value();
  const json* it = Field(request, "max_iterations");
  if (it == nullptr) return MakeError("missing field \"max_iterations\"");
  if (!it->is_number() || it->get<double>() != std::floor(it->get<double>())) {
    return MakeError("max_iterations must be an integer, got " + it->dump());
  }
  const double n = it->get<double>();
  if (n < 1.0 || n > static_cast<double>(kMaxIterationsLimit)) {
    return MakeError("max_iterations must be from 1 to " + std::to_string(kMaxIterationsLimit) +
                     ", got " + it->dump());
  }
  s.max_iterations = static_cast<int>(n);
  return s;
}

json WithId(json response, const json& request) {
  if (const json* id = Field(request, "id")) response["id"] = *id;
  return response;
}

std::string Fail(const std::string& message, const json& request) {
  const json* id = Field(request, "id");
  return ErrorResponse(message, id ? *id : json()).dump();
}

std::string HandleConstrainedChain(std::string_view line, const json& request) {
  json id;
  Result<SolveRequest> parsed = ParseRequest(line, &id);
  if (!parsed) return ErrorResponse(parsed.error(), id).dump();
  SolveRequest& r = parsed.value();
  if (r.solver != SolverKind::kFabrik) {
    return Fail("constraints, pole and base are supported by the fabrik solver only", request);
  }
  auto base = ReadBase(request);
  if (!base) return Fail(base.error(), request);
  std::vector<ConstraintDesc> descs;
  if (const json* cs = Field(request, "constraints")) {
    if (!cs->is_array()) return Fail("\"constraints\" must be an array", request);
    for (std::size_t i = 0; i < cs->size(); ++i) {
      auto d = ReadConstraint((*cs)[i], "constraints[" + std::to_string(i) + "]", true);
      if (!d) return Fail(d.error(), request);
      descs.push_back(std::move(d).value());
    }
  }
  std::optional<glm::vec3> pole;
  if (const json* p = Field(request, "pole")) {
    auto point = ReadPoint(*p, "pole");
    if (!point) return Fail(point.error(), request);
    pole = point.value();
  }
  Result<Chain> made = Chain::FromJoints(std::move(r.joints));
  if (!made) return Fail(made.error(), request);
  Chain& chain = made.value();
  auto constraints = ToChainConstraints(descs, chain.joint_count(), base.value());
  if (!constraints) return Fail(constraints.error(), request);

  std::vector<std::uint8_t> at_limit(chain.joint_count(), 0);
  const ConstrainedSolveResult result = SolveFabrikConstrained(
      chain, constraints.value(), r.target, r.settings, pole, nullptr, at_limit);
  if (!result.base.ok) return Fail(result.base.error, request);
  json joints = json::array();
  for (const glm::vec3& p : chain.joints()) joints.push_back(PointJson(p));
  return WithId({{"ok", true},
                 {"joints", std::move(joints)},
                 {"iterations", result.base.iterations},
                 {"distance", Shortest(result.base.distance)},
                 {"reached", result.base.reached},
                 {"reachable", result.base.reachable},
                 {"limited", result.limited},
                 {"joints_at_limit", result.joints_at_limit},
                 {"at_limit", at_limit},
                 {"max_violation", Shortest(result.max_violation)},
                 {"solver", "fabrik"}},
                request)
      .dump();
}

std::string HandleTree(const json& request) {
  const json* nodes = Field(request, "nodes");
  if (!nodes->is_array()) return Fail("\"nodes\" must be an array of node objects", request);
  std::vector<TreeNodeDesc> descs;
  for (std::size_t i = 0; i < nodes->size(); ++i) {
    const json& n = (*nodes)[i];
    const std::string where = "nodes[" + std::to_string(i) + "]";
    if (!n.is_object()) return Fail(where + " must be an object", request);
    TreeNodeDesc d;
    const json* parent = Field(n, "parent");
    if (parent == nullptr || !parent->is_number_integer()) {
      return Fail(where + ".parent must be an integer (-1 for the root)", request);
    }
    d.parent = parent->get<int>();
    const json* position = Field(n, "position");
    if (position == nullptr) return Fail(where + ".position is missing", request);
    auto p = ReadPoint(*position, where + ".position");
    if (!p) return Fail(p.error(), request);
    d.position = p.value();
    if (const json* c = Field(n, "constraint")) {
      auto cd = ReadConstraint(*c, where + ".constraint", false);
      if (!cd) return Fail(cd.error(), request);
      d.constraint = std::move(cd).value();
    }
    descs.push_back(std::move(d));
  }
  auto base = ReadBase(request);
  if (!base) return Fail(base.error(), request);
  auto tree = ToTree(descs, base.value());
  if (!tree) return Fail(tree.error(), request);
  auto settings = ReadSettings(request);
  if (!settings) return Fail(settings.error(), request);

  const json* targets = Field(request, "targets");
  if (targets == nullptr || !targets->is_object() || targets->empty()) {
    return Fail("\"targets\" must be an object of leaf node index -> [x, y, z]", request);
  }
  std::vector<EffectorTarget> list;
  std::vector<std::string> keys;
  for (const auto& [key, value] : targets->items()) {
    int node = -1;
    try {
      std::size_t used = 0;
      node = std::stoi(key, &used);
      if (used != key.size()) node = -1;
    } catch (...) {
      node = -1;
    }
    if (node < 0 || node >= static_cast<int>(tree.value().node_count())) {
      return Fail("targets: \"" + key + "\" is not a node index", request);
    }
    if (!tree.value().is_effector(static_cast<std::size_t>(node))) {
      return Fail("targets: node " + key + " is not a leaf (only end effectors take targets)",
                  request);
    }
    auto p = ReadPoint(value, "targets[\"" + key + "\"]");
    if (!p) return Fail(p.error(), request);
    EffectorTarget t{node, p.value(), 1.0f};
    if (const json* weights = Field(request, "weights")) {
      if (const json* w = Field(*weights, key.c_str())) {
        auto f = ReadFloat(*w, "weights[\"" + key + "\"]");
        if (!f) return Fail(f.error(), request);
        if (f.value() < 0.0f) return Fail("weights[\"" + key + "\"] must be >= 0", request);
        t.weight = f.value();
      }
    }
    list.push_back(t);
    keys.push_back(key);
  }
  std::vector<float> distances(list.size(), 0.0f);
  std::vector<std::uint8_t> at_limit(tree.value().node_count(), 0);
  TreeSolveOutputs outputs;
  outputs.distances = distances;
  outputs.at_limit = at_limit;
  const TreeSolveResult result = SolveTree(tree.value(), list, settings.value(), nullptr, outputs);
  if (!result.ok) return Fail(result.error, request);
  json positions = json::array();
  for (const glm::vec3& p : tree.value().positions()) positions.push_back(PointJson(p));
  json dist = json::object();
  for (std::size_t k = 0; k < keys.size(); ++k) dist[keys[k]] = Shortest(distances[k]);
  return WithId({{"ok", true},
                 {"positions", std::move(positions)},
                 {"iterations", result.iterations},
                 {"distances", std::move(dist)},
                 {"reached", result.reached},
                 {"reachable", result.reachable},
                 {"limited", result.limited},
                 {"joints_at_limit", result.joints_at_limit},
                 {"at_limit", at_limit},
                 {"max_violation", Shortest(result.max_violation)}},
                request)
      .dump();
}

}  // namespace

std::optional<std::string> HandleExtendedLine(std::string_view line) {
  json request;
  try {
    request = json::parse(line);
  } catch (const json::exception&) {
    return std::nullopt;  // the plain path reports malformed lines
  }
  if (!request.is_object()) return std::nullopt;
  if (Field(request, "nodes") != nullptr) return HandleTree(request);
  if (Field(request, "constraints") || Field(request, "pole") || Field(request, "base")) {
    return HandleConstrainedChain(line, request);
  }
  return std::nullopt;
}

}  // namespace fabrik::tools
