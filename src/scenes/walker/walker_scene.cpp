#include "scenes/walker/walker_scene.h"

#include <chrono>
#include <cmath>
#include <glm/geometric.hpp>
#include <nlohmann/json.hpp>

#include "core/app_state.h"
#include "core/frame.h"
#include "core/json_util.h"
#include "core/scene_registry.h"
#include "core/terrain_load.h"
#include "terrain/terrain_ray.h"

namespace fabrik {
namespace {

using state_json::Num;
using state_json::Vec;

nlohmann::json Quat(const glm::quat& q) { return {Num(q.w), Num(q.x), Num(q.y), Num(q.z)}; }

}  // namespace

bool WalkerScene::Enter(AppState& state) {
  auto made = Walker::Create(EnsureTerrain(state), WalkerSettings::Spider(4), {0.0f, 0.0f}, 0.0f);
  if (!made) {
    SetMessage(state, "walker: " + made.error(), true);
    return false;
  }
  walker = std::move(made).value();
  walker->SetRecordedLeg(step_leg);
  RefreshPose();
  PlaceTarget(state, walker->goal());
  return true;
}

OrbitCamera::Home WalkerScene::CameraHome(const AppState& state) const {
  if (!walker) return Scene::CameraHome(state);
  OrbitCamera::Home home;
  home.pivot = walker->body_position();
  home.yaw = 0.5f;
  home.pitch = 0.55f;
  home.distance = 17.0f;
  return home;
}

void WalkerScene::Solve(AppState& state) {
  if (!walker) return;
  const float dt = state.timing.dt;
  if (!(dt > 0.0f)) return;  // a paused or zero-length frame: nothing to simulate
  const auto start = std::chrono::steady_clock::now();
  const Result<int> ran = walker->Update(dt, state.target());
  RecordSolveTime(state, start);
  if (!ran) {
    SetMessage(state, "walker: " + ran.error(), true);
    return;
  }
  RefreshPose();
  int iterations = 0;
  for (const WalkerLegState& leg : walker->legs()) iterations += leg.last_solve.base.iterations;
  const glm::vec3 to_goal = walker->goal() - walker->body_position();
  state.last.ok = true;
  state.last.iterations = iterations;
  state.last.distance = std::hypot(to_goal.x, to_goal.z);
  state.last.reached = walker->arrived();
  state.last.reachable = true;
}

std::span<const glm::vec3> WalkerScene::Pose(const AppState& state) const {
  return walker ? std::span<const glm::vec3>(pose_) : Scene::Pose(state);
}

void WalkerScene::Handles(const AppState& state, std::vector<Handle>& out) const {
  out.push_back({walker ? walker->goal() : state.target(), {Grab::Kind::kTarget, -1}});
}

std::optional<glm::vec3> WalkerScene::SurfaceHit(const Ray& ray) const {
  if (!walker) return std::nullopt;
  return IntersectTerrain(walker->terrain(), ray.origin, ray.direction);
}

Status WalkerScene::UseTerrain(AppState& state, const std::shared_ptr<const Heightmap>& map) {
  if (!walker) return Ok{};
  Status moved = walker->SetTerrain(map);
  if (!moved) return moved;
  RefreshPose();
  PlaceTarget(state, walker->goal());
  return Ok{};
}

void WalkerScene::SetDebug(bool show, int leg) {
  show_pre_solve = show;
  const int legs = walker ? static_cast<int>(walker->legs().size()) : 0;
  step_leg = (leg >= 0 && leg < legs) ? leg : -1;
  if (walker) walker->SetRecordedLeg(step_leg);
}

void WalkerScene::RefreshPose() {
  pose_.clear();  // keeps its capacity: no allocation once the first frame sized it
  for (const WalkerLegState& leg : walker->legs()) {
    for (const glm::vec3& p : leg.leg.joints()) pose_.push_back(p);
  }
}

void WalkerScene::WriteState(nlohmann::json& j) const {
  if (!walker) return;
  const Walker& w = *walker;
  j["body"] = {{"position", Vec(w.body_position())}, {"rotation", Quat(w.body_rotation())}};
  nlohmann::json legs = nlohmann::json::array();
  std::vector<glm::quat> rotations;
  for (std::size_t i = 0; i < w.legs().size(); ++i) {
    const WalkerLegState& leg = w.legs()[i];
    nlohmann::json joints = nlohmann::json::array();
    for (const glm::vec3& p : leg.leg.joints()) joints.push_back(Vec(p));
    rotations.assign(leg.leg.lengths().size(), glm::quat(1.0f, 0.0f, 0.0f, 0.0f));
    w.LegBoneRotations(i, rotations);
    nlohmann::json rots = nlohmann::json::array();
    for (const glm::quat& q : rotations) rots.push_back(Quat(q));
    legs.push_back({{"joints", std::move(joints)},
                    {"planted", leg.planted},
                    {"foot_target", Vec(leg.foot_target)},
                    {"rotations", std::move(rots)},
                    {"drift", Num(leg.drift)}});
  }
  j["legs"] = std::move(legs);
  j["goal"] = Vec(w.goal());
  j["arrived"] = w.arrived();
  j["steps"] = w.steps();
  j["foot_steps"] = w.foot_steps();
  j["walker_debug"] = {{"pre_solve", show_pre_solve}, {"step_leg", step_leg}};
}

// Its registry line (scenes/registry.h).
SceneEntry WalkerSceneEntry() {
  return {.make = MakeSceneOf<WalkerScene>, .commands = WalkerCommandEntries, .on_terrain = true};
}

}  // namespace fabrik
