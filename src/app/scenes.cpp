#include "app/scenes.h"

#include <algorithm>
#include <cmath>
#include <glm/geometric.hpp>

#include "app/app_state.h"
#include "app/step_view.h"
#include "app/systems.h"
#include "ik/chain_rebuild.h"
#include "ik/fabrik.h"

namespace fabrik {
namespace {

constexpr float kArmLengths[] = {0.8f, 2.0f, 1.8f, 0.5f};

ChainConstraints ArmConstraints() {
  ChainConstraints c;
  c.joints = {
      JointConstraint::Cone(0.0f),                              // rigid pedestal
      JointConstraint::Hinge({1.0f, 0.0f, 0.0f}, -1.2f, 1.9f),  // shoulder
      JointConstraint::Hinge({1.0f, 0.0f, 0.0f}, -2.5f, 2.5f),  // elbow
      JointConstraint::Hinge({1.0f, 0.0f, 0.0f}, -1.6f, 1.6f),  // wrist
  };
  return c;
}

}  // namespace

const char* SceneName(SceneKind kind) {
  switch (kind) {
    case SceneKind::kChain:
      return "chain";
    case SceneKind::kArm:
      return "arm";
    case SceneKind::kCreature:
      return "creature";
  }
  return "chain";
}

std::optional<SceneKind> ParseScene(std::string_view name) {
  for (SceneKind k : {SceneKind::kChain, SceneKind::kArm, SceneKind::kCreature}) {
    if (name == SceneName(k)) return k;
  }
  return std::nullopt;
}

void AimTurntable(ArmScene& arm, const glm::vec3& root, const glm::vec3& target) {
  const glm::vec3 flat(target.x - root.x, 0.0f, target.z - root.z);
  const float l = glm::length(flat);
  if (!(l > 1e-4f) || !std::isfinite(l)) return;  // straight above: keep the last heading
  const glm::vec3 f = flat / l;
  const glm::vec3 y(0.0f, 1.0f, 0.0f);
  const glm::vec3 right = glm::cross(y, f);  // horizontal, perpendicular to the target plane
  arm.constraints.base.forward = y;
  arm.constraints.base.up = glm::cross(y, right);  // so that cross(up, forward) == right
}

void SegmentParentFrames(std::span<const glm::vec3> joints, const ChainConstraints& constraints,
                         std::vector<Frame>& frames) {
  frames.resize(joints.size());
  frames[0] = MakeFrame(constraints.base);
  for (std::size_t i = 1; i < joints.size(); ++i) {
    frames[i] = TransportFrame(frames[i - 1], joints[i] - joints[i - 1]);
  }
}

void SetScene(AppState& state, SceneKind kind) {
  SceneState& scene = state.scene;
  if (scene.kind == SceneKind::kChain && kind != SceneKind::kChain) {
    scene.chain_lengths = state.lengths;
  }
  SetStepView(state, false);
  SetRace(state, false);
  if (state.dragging) {
    state.drag.End();
    state.dragging = false;
  }
  scene.grab = {};
  scene.kind = kind;
  switch (kind) {
    case SceneKind::kChain: {
      const std::vector<float> lengths =
          scene.chain_lengths.empty() ? state.lengths : scene.chain_lengths;
      auto chain = Chain::Straight(glm::vec3(0.0f), glm::vec3(0.0f, 1.0f, 0.0f), lengths);
      if (!chain) return;
      state.chain = std::move(chain).value();
      state.lengths = lengths;
      break;
    }
    case SceneKind::kArm: {
      const std::vector<float> lengths(std::begin(kArmLengths), std::end(kArmLengths));
      state.chain = Chain::Straight(glm::vec3(0.0f), glm::vec3(0.0f, 1.0f, 0.0f), lengths).value();
      state.lengths = lengths;
      scene.arm.constraints = ArmConstraints();
      scene.arm.pole = glm::vec3(1.5f, 5.0f, 1.0f);
      scene.arm.at_limit.assign(state.chain.joint_count(), 0);
      // Limits cost iterations: give the constrained solve room to settle.
      state.settings.max_iterations = std::max(state.settings.max_iterations, 30);
      state.target = state.source_target = glm::vec3(2.2f, 2.2f, 1.2f);
      break;
    }
    case SceneKind::kCreature: {
      CreatureSpec spec;
      spec.effectors = 5;
      spec.constrained = true;
      auto tree = BuildCreature(spec);
      if (tree) {
        // Stand it on the ground: lift the hips by the depth of its lowest foot.
        float lowest = 0.0f;
        for (const glm::vec3& q : tree.value().positions()) lowest = std::min(lowest, q.y);
        spec.hips.y = -lowest;
        tree = BuildCreature(spec);
      }
      if (!tree) {
        SetMessage(state, tree.error(), true);
        scene.kind = SceneKind::kChain;
        return;
      }
      scene.creature.tree = std::move(tree).value();
      const Tree& t = *scene.creature.tree;
      scene.creature.targets.clear();
      int primary = 0;
      float best_x = -1e30f;
      for (int node : t.effectors()) {
        const glm::vec3 p = t.positions()[static_cast<std::size_t>(node)];
        if (p.x > best_x) {
          best_x = p.x;
          primary = static_cast<int>(scene.creature.targets.size());
        }
        scene.creature.targets.push_back({node, p, 1.0f});
      }
      scene.creature.primary = primary;
      scene.creature.distances.assign(scene.creature.targets.size(), 0.0f);
      scene.creature.at_limit.assign(t.node_count(), 0);
      // Start with the hands reaching forward a little, so the first frame shows the tree
      // solving; the head and feet stay where they are.
      for (EffectorTarget& e : scene.creature.targets) {
        if (std::fabs(e.position.x - t.root().x) > 0.5f * t.total_length() / 8.0f) {
          e.position += glm::vec3(0.0f, 0.2f, 0.5f) * (t.total_length() / 12.0f);
        }
      }
      state.target = state.source_target = scene.creature.targets[primary].position;
      break;
    }
  }
  state.blend.active = false;
  // Frame the scene: the camera centres on the reach of whatever is solved.
  OrbitCamera::Home home = HomeFor(state.chain);
  if (kind == SceneKind::kCreature) {
    const float reach = scene.creature.tree->total_length() * 0.5f;
    home.pivot = scene.creature.tree->root() + glm::vec3(0.0f, reach * 0.15f, 0.0f);
    home.distance = std::max(4.0f, reach * 2.4f);
  }
  state.view.camera.SetHome(home);
  state.view.camera.Reset();
}

void SolveScene(AppState& state) {
  SceneState& scene = state.scene;
  if (scene.kind == SceneKind::kArm) {
    ArmScene& arm = scene.arm;
    std::optional<glm::vec3> pole;
    if (arm.use_pole) pole = arm.pole;
    if (arm.turntable) {
      AimTurntable(arm, state.chain.root(), state.target);
      // The hinges pitch in the turntable's plane, so only the pole's place in that plane
      // matters (above or below the arm, in front or behind): project it there, or the pole
      // would pull the elbow off the plane and fight the hinges.
      if (pole) {
        const glm::vec3 right = glm::cross(arm.constraints.base.up, arm.constraints.base.forward);
        const glm::vec3 rel = *pole - state.chain.root();
        pole = *pole - right * glm::dot(rel, right);
      }
    }
    arm.at_limit.resize(state.chain.joint_count());
    arm.last = SolveFabrikConstrained(state.chain, arm.constraints, state.target,
                                      BoundedSettings(state, state.chain.joint_count()), pole,
                                      nullptr, arm.at_limit);
    if (!arm.last.base.ok) {
      SetMessage(state, std::string("solve rejected: ") + arm.last.base.error, true);
      return;
    }
    state.last = arm.last.base;
  } else if (scene.kind == SceneKind::kCreature && scene.creature.tree) {
    CreatureScene& c = scene.creature;
    c.targets[static_cast<std::size_t>(c.primary)].position = state.target;
    TreeSolveOutputs outputs;
    outputs.distances = c.distances;
    outputs.at_limit = c.at_limit;
    c.last = SolveTree(*c.tree, c.targets, BoundedSettings(state, c.tree->node_count()), nullptr,
                       outputs);
    if (!c.last.ok) {
      SetMessage(state, std::string("solve rejected: ") + c.last.error, true);
      return;
    }
    state.last.ok = true;
    state.last.iterations = c.last.iterations;
    state.last.distance = c.distances[static_cast<std::size_t>(c.primary)];
    state.last.reached = c.last.reached;
    state.last.reachable = c.last.reachable;
  }
}

}  // namespace fabrik
