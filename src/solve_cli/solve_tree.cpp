// Tree requests of fabrik-solve (format: solve_extended.h; docs/fabrik-solve.md: The headless
// solver, "Trees").
#include <charconv>
#include <cstdint>
#include <glm/geometric.hpp>
#include <string>
#include <vector>

#include "ik/tree.h"
#include "solve_cli/json_line.h"
#include "solve_cli/solve_extended.h"

namespace fabrik::tools {
namespace {

// A node index key: plain decimal digits, no sign, space or leading zero ("02" and "+2" would
// otherwise alias "2", and two keys could name one node).
std::optional<std::size_t> NodeKey(const std::string& key, std::size_t node_count) {
  if (key.empty() || key.size() > 9 || (key.size() > 1 && key[0] == '0')) return std::nullopt;
  std::size_t node = 0;
  const auto r = std::from_chars(key.data(), key.data() + key.size(), node);
  if (r.ec != std::errc() || r.ptr != key.data() + key.size()) return std::nullopt;
  if (node >= node_count) return std::nullopt;
  return node;
}

// Chain-only fields and solvers are refused rather than ignored: a request naming them
// expects something a tree solve would not do.
std::optional<std::string> ChainOnlyField(const Json& request) {
  for (const char* name : {"pole", "joints", "target", "constraints"}) {
    if (Field(request, name)) {
      return std::string("\"") + name + "\" is a chain field; a tree request (\"nodes\") " +
             "takes per-node \"constraint\" objects and \"targets\"";
    }
  }
  if (const Json* solver = Field(request, "solver")) {
    if (!solver->is_string() || solver->get_ref<const std::string&>() != "fabrik") {
      return "trees are solved by the fabrik solver only, got solver " + SafeDump(*solver);
    }
  }
  return std::nullopt;
}

struct Nodes {
  std::vector<TreeNodeDesc> descs;
  std::vector<glm::dvec3> positions;  // world, as given
  std::vector<int> parents;
};

Result<Nodes> ReadNodes(const Json& nodes) {
  if (!nodes.is_array()) return MakeError("\"nodes\" must be an array of node objects");
  if (nodes.size() > kMaxJoints) {
    return MakeError("a tree may have at most " + std::to_string(kMaxJoints) + " nodes, got " +
                     std::to_string(nodes.size()) + " (docs/fabrik-solve.md: Limits)");
  }
  Nodes out;
  for (std::size_t i = 0; i < nodes.size(); ++i) {
    const Json& n = nodes[i];
    const std::string where = "nodes[" + std::to_string(i) + "]";
    if (!n.is_object()) return MakeError(where + " must be an object");
    TreeNodeDesc d;
    const Json* parent = Field(n, "parent");
    if (parent == nullptr) return MakeError(where + ".parent is missing (-1 for the root)");
    auto p = ReadInteger(*parent, where + ".parent", -1, static_cast<long long>(kMaxJoints));
    if (!p) return MakeError(p.error());
    d.parent = static_cast<int>(p.value());
    const Json* position = Field(n, "position");
    if (position == nullptr) return MakeError(where + ".position is missing");
    auto pos = ReadPosition(*position, where + ".position");
    if (!pos) return MakeError(pos.error());
    if (const Json* c = Field(n, "constraint")) {
      auto cd = ReadConstraint(*c, where + ".constraint", -1);
      if (!cd) return MakeError(cd.error());
      d.constraint = std::move(cd).value();
    }
    out.descs.push_back(std::move(d));
    out.positions.push_back(pos.value());
    out.parents.push_back(out.descs.back().parent);
  }
  return out;
}

struct Targets {
  std::vector<EffectorTarget> list;  // positions in local units
  std::vector<std::string> keys;
  std::vector<glm::dvec3> world;
};

Result<Targets> ReadTargets(const Json& request, const Tree& tree, const LocalFrame& frame) {
  const Json* targets = Field(request, "targets");
  if (targets == nullptr || !targets->is_object() || targets->empty()) {
    return MakeError("\"targets\" must be an object of leaf node index -> [x, y, z]");
  }
  const Json* weights = Field(request, "weights");
  if (weights != nullptr && !weights->is_object()) {
    return MakeError("\"weights\" must be an object of target key -> weight, got " +
                     std::string(weights->type_name()));
  }
  Targets out;
  for (const auto& [key, value] : targets->items()) {
    const std::string quoted = SafeDump(Json(key));
    const std::optional<std::size_t> node = NodeKey(key, tree.node_count());
    if (!node) {
      return MakeError("targets: " + quoted + " is not a node index (0.." +
                       std::to_string(tree.node_count() - 1) + " in plain decimal)");
    }
    if (!tree.is_effector(*node)) {
      return MakeError("targets: node " + key + " is not a leaf (only end effectors take targets)");
    }
    auto p = ReadPosition(value, "targets[" + quoted + "]");
    if (!p) return MakeError(p.error());
    EffectorTarget t{static_cast<int>(*node), frame.ToLocal(p.value()), 1.0f};
    if (weights != nullptr) {
      if (const Json* w = Field(*weights, key.c_str())) {
        auto f = ReadFloat(*w, "weights[" + quoted + "]");
        if (!f) return MakeError(f.error());
        if (f.value() < 0.0f) return MakeError("weights[" + quoted + "] must be >= 0");
        t.weight = f.value();
      }
    }
    out.list.push_back(t);
    out.keys.push_back(key);
    out.world.push_back(p.value());
  }
  if (weights != nullptr) {
    for (const auto& [key, value] : weights->items()) {
      if (!Field(*targets, key.c_str())) {
        return MakeError("weights: " + SafeDump(Json(key)) + " has no target (weights are " +
                         "given per key of \"targets\")");
      }
    }
  }
  bool any_pull = false;
  for (const EffectorTarget& t : out.list) any_pull = any_pull || t.weight > 0.0f;
  if (!any_pull) return MakeError("weights: all 0, so nothing would pull (one must be > 0)");
  return out;
}

}  // namespace

Json HandleTree(const Json& request, const RequestId& id) {
  if (auto error = ChainOnlyField(request)) return ErrorResponse(*error, id);
  auto nodes = ReadNodes(*Field(request, "nodes"));
  if (!nodes) return ErrorResponse(nodes.error(), id);
  auto base = ReadBase(request);
  if (!base) return ErrorResponse(base.error(), id);
  auto tolerance = ReadTolerance(request);
  if (!tolerance) return ErrorResponse(tolerance.error(), id);
  auto iterations = ReadMaxIterations(request);
  if (!iterations) return ErrorResponse(iterations.error(), id);

  // Solve relative to the root in units of the tree's size (solve_frame.h).
  auto local = TreeToLocal(nodes.value().positions, nodes.value().parents);
  if (!local) return ErrorResponse(local.error(), id);
  std::vector<TreeNodeDesc>& descs = nodes.value().descs;
  for (std::size_t i = 0; i < descs.size(); ++i) descs[i].position = local.value().local[i];
  auto tree = ToTree(descs, base.value());
  if (!tree) return ErrorResponse(tree.error(), id);
  const LocalFrame& frame = local.value().frame;
  auto targets = ReadTargets(request, tree.value(), frame);
  if (!targets) return ErrorResponse(targets.error(), id);

  SolveSettings settings;
  settings.tolerance = std::max(static_cast<float>(tolerance.value() / frame.scale()),
                                std::numeric_limits<float>::denorm_min());
  settings.max_iterations = WorkCap(tree.value().node_count(), iterations.value());
  const std::vector<EffectorTarget>& list = targets.value().list;
  std::vector<float> distances(list.size(), 0.0f);
  std::vector<std::uint8_t> at_limit(tree.value().node_count(), 0);
  TreeSolveOutputs outputs;
  outputs.distances = distances;
  outputs.at_limit = at_limit;
  const TreeSolveResult result = SolveTree(tree.value(), list, settings, nullptr, outputs);
  if (!result.ok) return ErrorResponse(result.error, id);

  Json positions = Json::array();
  for (const glm::vec3& p : tree.value().positions()) positions.push_back(frame.PointJson(p));
  Json dist = Json::object();
  bool reached = true;
  for (std::size_t k = 0; k < list.size(); ++k) {
    const auto node = static_cast<std::size_t>(list[k].node);
    const double d =
        glm::length(frame.ToWorld(tree.value().positions()[node]) - targets.value().world[k]);
    reached = reached && d <= tolerance.value();
    dist[targets.value().keys[k]] = frame.Number(d);
  }
  Json answer = {{"ok", true},
                 {"positions", std::move(positions)},
                 {"iterations", result.iterations},
                 {"distances", std::move(dist)},
                 {"reached", reached},
                 {"reachable", result.reachable},
                 {"limited", result.limited},
                 {"joints_at_limit", result.joints_at_limit},
                 {"at_limit", at_limit},
                 {"max_violation", Shortest(result.max_violation)}};
  if (settings.max_iterations < iterations.value() && !reached &&
      result.iterations >= settings.max_iterations) {
    answer["work_limited"] = true;
  }
  return WithId(std::move(answer), id);
}

}  // namespace fabrik::tools
