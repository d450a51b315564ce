#include "core/orient.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <glm/gtc/constants.hpp>
#include <limits>
#include <nlohmann/json.hpp>

#include "core/app_state.h"
#include "core/frame.h"
#include "core/json_util.h"
#include "ik/tree.h"

namespace fabrik {
namespace {

nlohmann::json Quat(const glm::quat& q) {
  return {state_json::Num(q.w), state_json::Num(q.x), state_json::Num(q.y), state_json::Num(q.z)};
}

float Degrees(float radians) { return radians * 180.0f / glm::pi<float>(); }

}  // namespace

bool SetOrientation(AppState& state, const std::optional<glm::vec3>& euler_deg) {
  OrientState& o = state.orient;
  if (!euler_deg) {
    o.euler_deg.reset();
    o.rotation = glm::quat(1.0f, 0.0f, 0.0f, 0.0f);
    return true;
  }
  for (int i = 0; i < 3; ++i) {
    const float a = (*euler_deg)[i];
    if (!std::isfinite(a) || std::fabs(a) > kMaxTargetAngleDegrees) return false;
  }
  o.euler_deg = *euler_deg;
  o.rotation = EulerDegreesToQuat(euler_deg->x, euler_deg->y, euler_deg->z);
  return true;
}

OrientedSolveResult SolveOriented(AppState& state, const ChainConstraints* constraints) {
  const auto start = std::chrono::steady_clock::now();
  const OrientedSolveResult r =
      state.orient.solver.Solve(state.chain, {state.target(), state.orient.rotation},
                                BoundedSettings(state, state.chain.joint_count()), constraints);
  RecordSolveTime(state, start);
  if (!r.base.ok) {
    SetMessage(state, std::string("solve rejected: ") + r.base.error, true);
    return r;
  }
  state.last = r.base;
  state.orient.last_met = r.orientation_met;
  state.iteration_history.Push(static_cast<float>(r.base.iterations));
  state.solve_us_history.Push(static_cast<float>(state.solve_us));
  return r;
}

void UpdateRotations(AppState& state) {
  OrientState& o = state.orient;
  const Scene* scene = state.scene.current.get();
  if (scene != o.tracked) {
    o.tracker.Reset();
    o.tracked = scene;
  }
  RotationSettings settings;
  if (o.euler_deg) settings.effector_target = &o.rotation;
  o.effector_rotation.reset();
  o.error_deg.reset();
  o.has_rotations = false;

  const RotationSource source =
      scene ? scene->Rotations() : RotationSource{RotationSource::Kind::kChain};
  if (source.kind == RotationSource::Kind::kTree) {
    if (source.tree == nullptr) return;
    const Tree& tree = *source.tree;
    const auto q = o.tracker.Update(tree, settings);
    o.bone_starts.resize(q.size());
    o.shortest_bone = std::numeric_limits<float>::max();
    for (std::size_t k = 0; k < q.size(); ++k) {
      o.bone_starts[k] = tree.positions()[static_cast<std::size_t>(tree.parent(k + 1))];
      o.shortest_bone =
          std::min(o.shortest_bone, glm::distance(o.bone_starts[k], tree.positions()[k + 1]));
    }
    o.has_rotations = true;
    const int node = source.effector_node;
    if (node >= 1 && static_cast<std::size_t>(node) <= q.size()) {
      o.effector_rotation = q[static_cast<std::size_t>(node) - 1];
    }
  } else if (source.kind == RotationSource::Kind::kChain) {
    const std::span<const glm::vec3> pose =
        scene ? scene->Pose(state) : std::span<const glm::vec3>(state.chain.joints());
    if (pose.size() < 2) return;
    const auto q = source.constraints ? o.tracker.Update(pose, *source.constraints, settings)
                                      : o.tracker.Update(pose, settings);
    o.bone_starts.assign(pose.begin(), pose.end() - 1);  // same size each frame: no allocation
    o.shortest_bone = std::numeric_limits<float>::max();
    for (std::size_t k = 1; k < pose.size(); ++k) {
      o.shortest_bone = std::min(o.shortest_bone, glm::distance(pose[k - 1], pose[k]));
    }
    o.has_rotations = !q.empty();
    if (!q.empty()) o.effector_rotation = q.back();
  } else {
    return;  // no rotations (the walker, the field, the mocap scenes)
  }
  if (o.euler_deg && o.effector_rotation) {
    o.error_deg = Degrees(RotationAngle(*o.effector_rotation, o.rotation));
  }
}

void WriteOrientState(const AppState& state, nlohmann::json& j) {
  const OrientState& o = state.orient;
  // skin and axes are flags: the state line writes them with the others (CommandRegistry).
  if (o.has_rotations) {
    nlohmann::json rotations = nlohmann::json::array();
    for (const glm::quat& q : o.tracker.rotations()) rotations.push_back(Quat(q));
    j["rotations"] = std::move(rotations);
  } else {
    j["rotations"] = nullptr;
  }
  j["target_rotation"] = o.euler_deg ? Quat(o.rotation) : nlohmann::json(nullptr);
  j["target_euler_deg"] = o.euler_deg ? state_json::Vec(*o.euler_deg) : nlohmann::json(nullptr);
  j["effector_rotation"] =
      o.effector_rotation ? Quat(*o.effector_rotation) : nlohmann::json(nullptr);
  j["orient_error_deg"] = o.error_deg ? state_json::Num(*o.error_deg) : nlohmann::json(nullptr);
}

}  // namespace fabrik
