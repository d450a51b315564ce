#include "scenes/walker/walker_scene.h"

#include <chrono>
#include <cmath>
#include <glm/geometric.hpp>
#include <nlohmann/json.hpp>

#include "character/cpu_skin.h"
#include "character/model.h"
#include "core/app_state.h"
#include "core/frame.h"
#include "core/json_util.h"
#include "core/scene_registry.h"
#include "core/startup.h"
#include "core/terrain_load.h"
#include "terrain/terrain_ray.h"

namespace fabrik {
namespace {

using state_json::Num;
using state_json::Vec;

nlohmann::json Quat(const glm::quat& q) { return {Num(q.w), Num(q.x), Num(q.y), Num(q.z)}; }

// One leg of the state line's "legs" (docs/state.md), the spider's or the model's: its joints
// and bone rotations as given, the walker's own fields, and `extra`'s (the model's) merged in.
nlohmann::json WalkerLegJson(const WalkerLegState& leg, nlohmann::json joints,
                             nlohmann::json rotations,
                             nlohmann::json extra = nlohmann::json::object()) {
  extra["joints"] = std::move(joints);
  extra["planted"] = leg.planted;
  extra["foot_target"] = Vec(leg.foot_target);
  extra["rotations"] = std::move(rotations);
  extra["drift"] = Num(leg.drift);
  return extra;
}

}  // namespace

void WalkerScene::WriteWalkState(const Walker& w, nlohmann::json legs, nlohmann::json& j) const {
  j["body"] = {{"position", Vec(w.body_position())}, {"rotation", Quat(w.body_rotation())}};
  j["legs"] = std::move(legs);
  j["goal"] = Vec(w.goal());
  j["arrived"] = w.arrived();
  j["steps"] = w.steps();
  j["foot_steps"] = w.foot_steps();
  j["walker_debug"] = {{"pre_solve", show_pre_solve}, {"step_leg", step_leg}};
}

const Walker* WalkerScene::active() const {
  if (quadruped) return &quadruped->walker();
  return walker ? &*walker : nullptr;
}

Status WalkerScene::SetModel(AppState& state, const std::string& path) {
  const std::shared_ptr<const Heightmap> ground = EnsureTerrain(state);
  const Walker* now = active();
  const glm::vec2 at =
      now ? glm::vec2(now->body_position().x, now->body_position().z) : glm::vec2(0.0f);
  const float yaw = now ? now->yaw() : 0.0f;
  if (path.empty()) {
    auto made = Walker::Create(ground, WalkerSettings::Spider(4), at, yaw);
    if (!made) return MakeError(made.error());
    quadruped.reset();
    walker = std::move(made).value();
    walker->SetRecordedLeg(step_leg);
  } else {
    const std::string resolved = ResolveDataPath(path, state.command_context.search_roots);
    Result<character::Model> model = character::LoadModelFile(resolved);
    if (!model) return MakeError(model.error());
    auto made = character::QuadrupedWalker::Create(
        std::make_shared<const character::Model>(std::move(model).value()), ground, at, yaw);
    if (!made) return MakeError(made.error());
    walker.reset();
    quadruped = std::move(made).value();
    if (step_leg >= leg_count()) step_leg = -1;
    quadruped->SetRecordedLeg(step_leg);
    bones.resize(quadruped->pose().size());
    (void)character::SkinningTransforms(quadruped->model().skeleton, quadruped->pose(), bones);
  }
  model_path = path;
  state.scene.configs.Get<WalkerConfig>().model_path = path;
  RefreshPose();
  PlaceTarget(state, active()->goal());
  return Ok{};
}

bool WalkerScene::Enter(AppState& state) {
  const std::string& path = state.scene.configs.Get<WalkerConfig>().model_path;
  if (!path.empty()) {
    const Status done = SetModel(state, path);
    if (!done) SetMessage(state, "walker model: " + done.error(), true);
    return static_cast<bool>(done);
  }
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
  if (!active()) return Scene::CameraHome(state);
  OrbitCamera::Home home;
  home.pivot = active()->body_position();
  home.yaw = 0.5f;
  home.pitch = quadruped ? 0.4f : 0.55f;
  home.distance = quadruped ? 6.5f : 17.0f;  // the quadruped is 1.5 m high, the spider 3 m wide
  return home;
}

void WalkerScene::SolveQuadruped(AppState& state, float dt) {
  const auto start = std::chrono::steady_clock::now();
  const Result<int> ran = quadruped->Update(dt, state.target());
  RecordSolveTime(state, start);
  ik_us =
      std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - start).count();
  if (!ran) {
    SetMessage(state, "walker: " + ran.error(), true);
    return;
  }
  const auto skin_start = std::chrono::steady_clock::now();
  (void)character::SkinningTransforms(quadruped->model().skeleton, quadruped->pose(), bones);
  skin_us = std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - skin_start)
                .count();
  RefreshPose();
  const Walker& w = quadruped->walker();
  const glm::vec3 to_goal = w.goal() - w.body_position();
  state.last.ok = true;
  state.last.iterations = quadruped->iterations();
  state.last.distance = std::hypot(to_goal.x, to_goal.z);
  state.last.reached = w.arrived();
  state.last.reachable = true;
}

void WalkerScene::Solve(AppState& state) {
  const float dt = state.timing.dt;
  if (!(dt > 0.0f)) return;  // a paused or zero-length frame: nothing to simulate
  if (quadruped) return SolveQuadruped(state, dt);
  if (!walker) return;
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
  return active() ? std::span<const glm::vec3>(pose_) : Scene::Pose(state);
}

void WalkerScene::Handles(const AppState& state, std::vector<Handle>& out) const {
  out.push_back({active() ? active()->goal() : state.target(), {Grab::Kind::kTarget, -1}});
}

std::optional<glm::vec3> WalkerScene::SurfaceHit(const Ray& ray) const {
  if (!active()) return std::nullopt;
  return IntersectTerrain(active()->terrain(), ray.origin, ray.direction);
}

Status WalkerScene::UseTerrain(AppState& state, const std::shared_ptr<const Heightmap>& map) {
  if (!active()) return Ok{};
  Status moved = quadruped ? quadruped->SetTerrain(map) : walker->SetTerrain(map);
  if (!moved) return moved;
  if (quadruped) {
    (void)character::SkinningTransforms(quadruped->model().skeleton, quadruped->pose(), bones);
  }
  RefreshPose();
  PlaceTarget(state, active()->goal());
  return Ok{};
}

int WalkerScene::leg_count() const {
  if (quadruped) return 4;
  return walker ? static_cast<int>(walker->legs().size()) : 0;
}

void WalkerScene::SetDebug(bool show, int leg) {
  show_pre_solve = show;
  // The step view records the spider's legs, or the quadruped's model legs (not its
  // walker's, which are stand-ins).
  step_leg = (leg >= 0 && leg < leg_count()) ? leg : -1;
  if (walker) walker->SetRecordedLeg(step_leg);
  if (quadruped) quadruped->SetRecordedLeg(step_leg);
}

void WalkerScene::RefreshPose() {
  pose_.clear();  // keeps its capacity: no allocation once the first frame sized it
  if (quadruped) {
    for (std::size_t i = 0; i < 4; ++i) {
      for (const glm::vec3& p : quadruped->leg_joints(i)) pose_.push_back(p);
    }
    return;
  }
  for (const WalkerLegState& leg : walker->legs()) {
    for (const glm::vec3& p : leg.leg.joints()) pose_.push_back(p);
  }
}

void WalkerScene::WriteModelState(nlohmann::json& j) const {
  const character::QuadrupedWalker& q = *quadruped;
  const Walker& w = q.walker();
  const character::Model& model = q.model();
  nlohmann::json legs = nlohmann::json::array();
  for (std::size_t i = 0; i < 4; ++i) {
    nlohmann::json joints = nlohmann::json::array(), rots = nlohmann::json::array();
    for (const glm::vec3& p : q.leg_joints(i)) joints.push_back(Vec(p));
    for (int b : q.rig().legs[i].bones) rots.push_back(Quat(q.pose()[std::size_t(b)].rotation));
    legs.push_back(WalkerLegJson(
        w.legs()[i], std::move(joints), std::move(rots),
        {{"foot_goal", Vec(q.foot_goal(i))}, {"foot_height", Num(q.rig().legs[i].foot_height)}}));
  }
  WriteWalkState(w, std::move(legs), j);
  nlohmann::json joints = nlohmann::json::array();
  for (const character::BoneTransform& t : q.pose()) joints.push_back(Vec(t.translation));
  j["walker_model"] = model_path;
  j["character"] = {{"path", model_path},
                    {"bones", model.skeleton.bone_count()},
                    {"vertices", model.vertices.size()},
                    {"names", model.skeleton.names},
                    {"parents", model.skeleton.parents},
                    {"joints", std::move(joints)}};
  const character::QuadrupedCycle& cycle = q.running() ? q.rig().run : q.rig().walk;
  j["cycle"] = {{"name", model.animations[std::size_t(cycle.animation)].name},
                {"time", Num(q.cycle_time())},
                {"rate", Num(q.playback_rate())}};
  j["ik_us"] = Num(ik_us);
  j["skin_us"] = Num(skin_us);
}

void WalkerScene::WriteState(nlohmann::json& j) const {
  if (quadruped) return WriteModelState(j);
  if (!walker) return;
  j["walker_model"] = "procedural";
  j["character"] = nullptr;
  const Walker& w = *walker;
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
    legs.push_back(WalkerLegJson(leg, std::move(joints), std::move(rots)));
  }
  WriteWalkState(w, std::move(legs), j);
}

// Its registry line (scenes/registry.h); the model from --walker-model (docs/options.md).
namespace {
// A model the loader refuses exits 2 at start (docs/characters.md: Errors).
std::string CheckWalkerModelFile(const std::string& path, const SceneOptionValues&) {
  auto model = character::LoadModelFile(path);
  return model ? std::string() : model.error();
}

constexpr SceneOption kWalkerOptionRows[] = {
    {"--walker-model",
     "the walker scene's body: a four-legged skinned model file (implies --scene walker)",
     SceneOptionKind::kInput, 0.0, 0.0, true, CheckWalkerModelFile}};

void StartWalker(AppState& state, const StartOptions& options) {
  const std::string& model = options.scene_options.Text("--walker-model");
  if (!model.empty()) state.scene.configs.Get<WalkerConfig>().model_path = model;
}
}  // namespace

SceneEntry WalkerSceneEntry() {
  return {.make = MakeSceneOf<WalkerScene>,
          .commands = WalkerCommandEntries,
          .options = kWalkerOptionRows,
          .start = StartWalker,
          .on_terrain = true};
}

}  // namespace fabrik
