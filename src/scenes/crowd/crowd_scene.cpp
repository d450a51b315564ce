#include "scenes/crowd/crowd_scene.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <nlohmann/json.hpp>
#include <random>

#include "core/app_state.h"
#include "core/frame.h"
#include "core/json_util.h"
#include "core/scene_registry.h"
#include "scenes/mocap/mocap_config.h"
#include "scenes/mocap/mocap_rig.h"

namespace fabrik {
namespace {

using state_json::Num;

constexpr unsigned kPlacementSeed = 21;
constexpr float kSpacing = 3.0f;  // metres per square root of a character

std::size_t LegJoints(const mocap::Rig& rig) { return rig.limbs.legs[mocap::kLeft].chain.size(); }

}  // namespace

int DrawnCharacterCap(int joints) {
  const long by_joints = kMaxDrawnCrowdJoints / std::max(1, joints);
  return static_cast<int>(std::clamp<long>(by_joints, 1, kMaxDrawnCharacters));
}

bool CrowdScene::Enter(AppState& state) { return Build(state); }

bool CrowdScene::Build(AppState& state) {
  const std::string& path = state.scene.configs.Get<MocapConfig>().clip_path;
  auto first = LoadRig(ResolveDataPath(path, state.command_context.search_roots),
                       state.scene.configs.Get<MocapConfig>().scale);
  if (!first) {
    SetMessage(state, "crowd: " + first.error(), true);
    return false;
  }
  std::vector<std::shared_ptr<const mocap::Rig>> rigs = {first.value()};
  std::vector<std::string> clips = {path};
  // Other packaged clips join when their legs have the same shape: one batch solves all legs.
  for (const std::string& other : PackagedClips()) {
    if (other == ResolveDataPath(path, state.command_context.search_roots)) continue;
    auto rig = LoadRig(other, 0.0f);
    if (rig && LegJoints(*rig.value()) == LegJoints(*rigs.front()) &&
        LegJoints(*rig.value()) == rigs.front()->limbs.legs[mocap::kRight].chain.size()) {
      rigs.push_back(std::move(rig).value());
      clips.push_back(other);
    }
  }

  std::shared_ptr<const Heightmap> ground = state.terrain.map;
  if (!ground) {
    auto flat = Heightmap::Flat(state.terrain.size);
    if (!flat) flat = Heightmap::Flat(40.0f);
    ground = std::make_shared<const Heightmap>(std::move(flat).value());
  }
  const int n = std::clamp(state.scene.configs.Get<MocapConfig>().characters, 1, kMaxCharacters);
  int joints = 0;
  for (const auto& rig : rigs) joints = std::max(joints, rig->clip.joint_count());
  if (static_cast<long>(n) * joints > kMaxCrowdJoints) {
    SetMessage(state,
               "crowd: " + std::to_string(n) + " characters x " + std::to_string(joints) +
                   " joints is more than the crowd's " + std::to_string(kMaxCrowdJoints) +
                   " joints (at most " + std::to_string(kMaxCrowdJoints / joints) +
                   " characters of this clip)",
               true);
    return false;
  }
  const float half =
      0.5f * std::min(kSpacing * std::sqrt(static_cast<float>(n)), 0.8f * ground->size());
  std::mt19937 random(kPlacementSeed);
  std::uniform_real_distribution<float> across(-half, half), turn(0.0f, 6.2831853f),
      phase(0.0f, 1.0f);
  std::vector<mocap::CrowdMember> members;
  members.reserve(static_cast<std::size_t>(n));
  for (int i = 0; i < n; ++i) {
    mocap::CrowdMember m;
    m.rig = rigs[static_cast<std::size_t>(i) % rigs.size()];
    m.placement = {across(random), across(random), turn(random)};
    m.time = phase(random) * m.rig->clip.duration();
    members.push_back(std::move(m));
  }
  auto made = mocap::Crowd::Create(members, ground.get());
  if (!made) {
    SetMessage(state, "crowd: " + made.error(), true);
    return false;
  }
  crowd_ = std::move(made).value();
  ground_ = std::move(ground);
  ground_revision_ = state.terrain.revision;
  clips_ = std::move(clips);
  drawn_cap_ = DrawnCharacterCap(joints);
  (void)crowd_->SetIkWeight(ik_weight_);
  crowd_->Update(0.0f);
  return true;
}

OrbitCamera::Home CrowdScene::CameraHome(const AppState& state) const {
  if (!crowd_) return Scene::CameraHome(state);
  OrbitCamera::Home home;
  const float n = static_cast<float>(crowd_->size());
  home.pivot = {0.0f, ground_->HeightAt(0.0f, 0.0f) + 1.0f, 0.0f};
  home.yaw = 0.6f;
  home.pitch = 0.45f;
  home.distance = std::clamp(1.3f * kSpacing * std::sqrt(n), 8.0f, 60.0f);
  return home;
}

void CrowdScene::Solve(AppState& state) {
  if (!crowd_) return;
  if (state.terrain.revision != ground_revision_) {
    // A terrain loaded while the crowd stands: rebuilt on it (same seed, same places). The
    // clips are loaded again, a pause worth it for a rare change.
    if (!Build(state)) ground_revision_ = state.terrain.revision;  // keep the old crowd
  }
  const float dt = std::isfinite(state.timing.dt) ? std::max(state.timing.dt, 0.0f) : 0.0f;
  const auto start = std::chrono::steady_clock::now();
  crowd_->Update(dt);
  RecordSolveTime(state, start);
  state.last = {};
  state.last.ok = true;
  state.last.reached = true;
  state.last.reachable = true;
}

std::span<const glm::vec3> CrowdScene::Pose(const AppState& state) const {
  return crowd_ ? std::span<const glm::vec3>(crowd_->character(0).pose().positions)
                : Scene::Pose(state);
}

Status CrowdScene::SetIkWeight(float weight) {
  if (!crowd_) return MakeError("no crowd");
  if (Status set = crowd_->SetIkWeight(weight); !set) return set;
  ik_weight_ = weight;
  return Ok{};
}

void CrowdScene::WriteState(nlohmann::json& j) const {
  if (!crowd_) return;
  const mocap::CrowdTiming& t = crowd_->last_timing();
  // How far the lowest ankle of any character is above the ground under it (negative: below).
  float lowest = std::numeric_limits<float>::infinity();
  for (std::size_t i = 0; i < crowd_->size(); ++i) {
    const mocap::Character& c = crowd_->character(i);
    for (const mocap::Side side : {mocap::kLeft, mocap::kRight}) {
      const glm::vec3 ankle = c.pose().positions[static_cast<std::size_t>(c.foot(side).joint)];
      lowest = std::min(lowest, ankle.y - ground_->HeightAt(ankle.x, ankle.z));
    }
  }
  j["characters"] = crowd_->size();
  j["ik_weight"] = Num(ik_weight_);
  j["ik_us"] = Num(t.ik_seconds * 1e6);
  j["crowd"] = {{"clips", clips_},
                {"drawn_cap", drawn_cap_},
                {"frame_us", Num(t.frame_seconds * 1e6)},
                {"sample_us", Num(t.sample_seconds * 1e6)},
                {"solve_us", Num(t.solve_seconds * 1e6)},
                {"lowest_foot", Num(lowest)}};
}

// Its registry line (scenes/registry.h).
SceneEntry CrowdSceneEntry() {
  return {.make = MakeSceneOf<CrowdScene>, .commands = CrowdCommandEntries, .on_terrain = true};
}

}  // namespace fabrik
