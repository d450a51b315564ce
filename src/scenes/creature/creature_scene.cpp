#include "scenes/creature/creature_scene.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <nlohmann/json.hpp>

#include "core/app_state.h"
#include "core/frame.h"
#include "core/json_util.h"
#include "core/scene_registry.h"

namespace fabrik {

bool CreatureScene::Enter(AppState& state) {
  CreatureSpec spec;
  spec.effectors = 5;
  spec.constrained = true;
  auto built = BuildCreature(spec);
  if (built) {
    // Stand it on the ground: lift the hips by the depth of its lowest foot.
    float lowest = 0.0f;
    for (const glm::vec3& q : built.value().positions()) lowest = std::min(lowest, q.y);
    spec.hips.y = -lowest;
    built = BuildCreature(spec);
  }
  if (!built) {
    SetMessage(state, built.error(), true);
    return false;
  }
  tree = std::move(built).value();
  const Tree& t = *tree;
  targets.clear();
  primary = 0;
  float best_x = -1e30f;
  for (int node : t.effectors()) {
    const glm::vec3 p = t.positions()[static_cast<std::size_t>(node)];
    if (p.x > best_x) {
      best_x = p.x;
      primary = static_cast<int>(targets.size());
    }
    targets.push_back({node, p, 1.0f});
  }
  distances.assign(targets.size(), 0.0f);
  at_limit.assign(t.node_count(), 0);
  // Start with the hands reaching forward a little, so the first frame shows the tree
  // solving; the head and feet stay where they are.
  for (EffectorTarget& e : targets) {
    if (std::fabs(e.position.x - t.root().x) > 0.5f * t.total_length() / 8.0f) {
      e.position += glm::vec3(0.0f, 0.2f, 0.5f) * (t.total_length() / 12.0f);
    }
  }
  PlaceTarget(state, targets[static_cast<std::size_t>(primary)].position);
  return true;
}

OrbitCamera::Home CreatureScene::CameraHome(const AppState& state) const {
  if (!tree) return Scene::CameraHome(state);
  OrbitCamera::Home home;
  const float reach = tree->total_length() * 0.5f;
  home.pivot = tree->root() + glm::vec3(0.0f, reach * 0.15f, 0.0f);
  home.distance = std::max(4.0f, reach * 2.4f);
  return home;
}

void CreatureScene::Solve(AppState& state) {
  if (!tree) return;
  const auto start = std::chrono::steady_clock::now();
  targets[static_cast<std::size_t>(primary)].position = state.target();
  TreeSolveOutputs outputs;
  outputs.distances = distances;
  outputs.at_limit = at_limit;
  last = SolveTree(*tree, targets, BoundedSettings(state, tree->node_count()), nullptr, outputs);
  RecordSolveTime(state, start);
  if (!last.ok) {
    SetMessage(state, std::string("solve rejected: ") + last.error, true);
    return;
  }
  state.last.ok = true;
  state.last.iterations = last.iterations;
  state.last.distance = distances[static_cast<std::size_t>(primary)];
  state.last.reached = last.reached;
  state.last.reachable = last.reachable;
}

std::span<const glm::vec3> CreatureScene::Pose(const AppState& state) const {
  return tree ? tree->positions() : Scene::Pose(state);
}

void CreatureScene::Handles(const AppState&, std::vector<Handle>& out) const {
  if (!tree) return;
  for (std::size_t k = 0; k < targets.size(); ++k) {
    const Grab grab{Grab::Kind::kEffectorTarget, static_cast<int>(k)};
    out.push_back({targets[k].position, grab});
    out.push_back({tree->positions()[static_cast<std::size_t>(targets[k].node)], grab});
  }
}

bool CreatureScene::MoveHandle(const Grab& grab, const glm::vec3& position) {
  if (grab.kind != Grab::Kind::kEffectorTarget || grab.index == primary || grab.index < 0 ||
      grab.index >= static_cast<int>(targets.size())) {
    return false;
  }
  targets[static_cast<std::size_t>(grab.index)].position = position;
  return true;
}

RotationSource CreatureScene::Rotations() const {
  RotationSource source{RotationSource::Kind::kTree};
  source.tree = tree ? &*tree : nullptr;
  if (primary >= 0 && static_cast<std::size_t>(primary) < targets.size()) {
    source.effector_node = targets[static_cast<std::size_t>(primary)].node;
  }
  return source;
}

void CreatureScene::WriteState(nlohmann::json& j) const {
  if (!tree) return;
  nlohmann::json effectors = nlohmann::json::array();
  for (std::size_t k = 0; k < targets.size(); ++k) {
    const auto node = static_cast<std::size_t>(targets[k].node);
    effectors.push_back({{"node", targets[k].node},
                         {"position", state_json::Vec(tree->positions()[node])},
                         {"target", state_json::Vec(targets[k].position)},
                         {"distance", state_json::Num(distances[k])},
                         {"primary", static_cast<int>(k) == primary}});
  }
  j["effectors"] = std::move(effectors);
  nlohmann::json parents = nlohmann::json::array();
  for (std::size_t i = 0; i < tree->node_count(); ++i) parents.push_back(tree->parent(i));
  j["parents"] = std::move(parents);
  j["limited"] = last.limited;
  j["joints_at_limit"] = last.joints_at_limit;
  j["max_violation"] = state_json::Num(last.max_violation);
}

// Its registry line (scenes/registry.h).
SceneEntry CreatureSceneEntry() { return {.make = MakeSceneOf<CreatureScene>}; }

}  // namespace fabrik
