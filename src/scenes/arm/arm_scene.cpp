#include "scenes/arm/arm_scene.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <glm/geometric.hpp>
#include <nlohmann/json.hpp>

#include "core/app_state.h"
#include "core/frame.h"
#include "core/json_util.h"
#include "core/scene_registry.h"

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

bool ArmScene::Enter(AppState& state) {
  const std::vector<float> lengths(std::begin(kArmLengths), std::end(kArmLengths));
  state.chain = Chain::Straight(glm::vec3(0.0f), glm::vec3(0.0f, 1.0f, 0.0f), lengths).value();
  state.lengths = lengths;
  constraints = ArmConstraints();
  pole = glm::vec3(1.5f, 5.0f, 1.0f);
  at_limit.assign(state.chain.joint_count(), 0);
  // Limits cost iterations: give the constrained solve room to settle.
  state.settings.max_iterations = std::max(state.settings.max_iterations, 30);
  PlaceTarget(state, glm::vec3(2.2f, 2.2f, 1.2f));
  return true;
}

void ArmScene::Solve(AppState& state) {
  const auto start = std::chrono::steady_clock::now();
  std::optional<glm::vec3> aim_pole;
  if (use_pole) aim_pole = pole;
  if (turntable) {
    AimTurntable(*this, state.chain.root(), state.target());
    // The hinges pitch in the turntable's plane, so only the pole's place in that plane
    // matters (above or below the arm, in front or behind): project it there, or the pole
    // would pull the elbow off the plane and fight the hinges.
    if (aim_pole) {
      const glm::vec3 right = glm::cross(constraints.base.up, constraints.base.forward);
      const glm::vec3 rel = *aim_pole - state.chain.root();
      aim_pole = *aim_pole - right * glm::dot(rel, right);
    }
  }
  at_limit.resize(state.chain.joint_count());
  if (state.orient.euler_deg) {
    // An orientation target: the oriented solve with the hinges' limits (no pole;
    // docs/rotations.md: In the app).
    const OrientedSolveResult r = SolveOriented(state, &constraints);
    if (r.base.ok) {
      last.base = r.base;
      last.limited = r.limited;
      last.max_violation = r.max_violation;
      last.joints_at_limit = JointsAtLimit(state.chain.joints(), constraints, at_limit);
    }
    return;
  }
  if (state.tools.two_bone) {
    SolveArmElbow(*this, state, aim_pole);
    RecordSolveTime(state, start);
    return;
  }
  last = SolveFabrikConstrained(state.chain, constraints, state.target(),
                                BoundedSettings(state, state.chain.joint_count()), aim_pole,
                                nullptr, at_limit);
  RecordSolveTime(state, start);
  if (!last.base.ok) {
    SetMessage(state, std::string("solve rejected: ") + last.base.error, true);
    return;
  }
  state.last = last.base;
}

void ArmScene::Handles(const AppState& state, std::vector<Handle>& out) const {
  Scene::Handles(state, out);
  if (use_pole) out.push_back({pole, {Grab::Kind::kPole, -1}});
}

bool ArmScene::MoveHandle(const Grab& grab, const glm::vec3& position) {
  if (grab.kind != Grab::Kind::kPole) return false;
  pole = position;
  return true;
}

void ArmScene::WriteState(nlohmann::json& j) const {
  j["pole"] = state_json::Vec(pole);
  j["use_pole"] = use_pole;
  j["limited"] = last.limited;
  j["joints_at_limit"] = last.joints_at_limit;
  j["at_limit"] = at_limit;
  j["max_violation"] = state_json::Num(last.max_violation);
}

// Its registry line (scenes/registry.h).
SceneEntry ArmSceneEntry() { return {.make = MakeSceneOf<ArmScene>}; }

}  // namespace fabrik
