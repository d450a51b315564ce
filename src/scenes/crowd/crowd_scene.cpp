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

// A clip's rig for the crowd: with a skin, reloaded scaled to the model's legs (as the mocap
// scene does) and the skin bound to it.
Result<std::shared_ptr<const mocap::Rig>> LoadCrowdRig(const std::string& resolved, float scale,
                                                       MocapSkin* skin) {
  auto rig = LoadRig(resolved, scale);
  if (!rig || skin == nullptr) return rig;
  const Result<float> ratio = skin->ScaleFor(rig.value()->clip);
  if (!ratio) return MakeError(ratio.error());
  if (std::abs(ratio.value() - 1.0f) > 1e-5f) {
    rig = LoadRig(resolved, rig.value()->clip.scale() * ratio.value());
    if (!rig) return rig;
  }
  if (Status bound = skin->Bind(*rig.value()); !bound) return MakeError(bound.error());
  return rig;
}

}  // namespace

int DrawnCharacterCap(int joints) {
  const long by_joints = kMaxDrawnCrowdJoints / std::max(1, joints);
  return static_cast<int>(std::clamp<long>(by_joints, 1, kMaxDrawnCharacters));
}

bool CrowdScene::Enter(AppState& state) {
  const Status built = Build(state);
  if (!built) SetMessage(state, "crowd: " + built.error(), true);
  return static_cast<bool>(built);
}

Status CrowdScene::Build(AppState& state) {
  const MocapConfig& config = state.scene.configs.Get<MocapConfig>();
  const std::string& path = config.clip_path;
  const auto& roots = state.command_context.search_roots;
  // The model: kept when it has not changed (a new terrain), else loaded.
  std::shared_ptr<const character::Model> model;
  if (!config.character_path.empty()) {
    if (!skins_.empty() && skins_.front().path() == config.character_path) {
      model = skins_.front().shared_model();
    } else {
      auto loaded = MocapSkin::Load(config.character_path,
                                    ResolveDataPath(config.character_path, roots));
      if (!loaded) {
        return MakeError(loaded.error());
      }
      model = loaded.value().shared_model();
    }
  }
  std::vector<MocapSkin> skins;
  auto next_skin = [&]() -> MocapSkin* {
    if (!model) return nullptr;
    skins.push_back(MocapSkin::Share(config.character_path, model));
    return &skins.back();
  };
  auto first = LoadCrowdRig(ResolveDataPath(path, roots), config.scale, next_skin());
  if (!first) {
    return MakeError(first.error());
  }
  std::vector<std::shared_ptr<const mocap::Rig>> rigs = {first.value()};
  std::vector<std::string> clips = {path};
  // Other packaged clips join when their legs have the same shape: one batch solves all legs.
  for (const std::string& other : PackagedClips()) {
    if (other == ResolveDataPath(path, roots)) continue;
    auto rig = LoadCrowdRig(other, 0.0f, next_skin());
    if (rig && LegJoints(*rig.value()) == LegJoints(*rigs.front()) &&
        LegJoints(*rig.value()) == rigs.front()->limbs.legs[mocap::kRight].chain.size()) {
      rigs.push_back(std::move(rig).value());
      clips.push_back(other);
    } else if (model) {
      skins.pop_back();  // the clip is left out, and its skin with it
    }
  }

  std::shared_ptr<const Heightmap> ground = state.terrain.map;
  if (!ground) {
    auto flat = Heightmap::Flat(state.terrain.size);
    if (!flat) flat = Heightmap::Flat(40.0f);
    ground = std::make_shared<const Heightmap>(std::move(flat).value());
  }
  const int n = std::clamp(config.characters, 1, kMaxCharacters);
  int joints = 0;
  for (const auto& rig : rigs) joints = std::max(joints, rig->clip.joint_count());
  if (static_cast<long>(n) * joints > kMaxCrowdJoints) {
    return MakeError(std::to_string(n) + " characters x " + std::to_string(joints) +
                     " joints is more than the crowd's " + std::to_string(kMaxCrowdJoints) +
                     " joints (at most " + std::to_string(kMaxCrowdJoints / joints) +
                     " characters of this clip)");
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
    return MakeError(made.error());
  }
  crowd_ = std::move(made).value();
  ground_ = std::move(ground);
  ground_revision_ = state.terrain.revision;
  clips_ = std::move(clips);
  drawn_cap_ = DrawnCharacterCap(joints);
  skins_ = std::move(skins);
  member_skin_.resize(static_cast<std::size_t>(n));
  for (int i = 0; i < n; ++i) {
    member_skin_[static_cast<std::size_t>(i)] = i % static_cast<int>(rigs.size());
  }
  const std::size_t slots = skins_.empty() ? 0 : static_cast<std::size_t>(kMaxSkinnedCharacters);
  skinned_.assign(slots, CrowdSkinned{});
  for (CrowdSkinned& s : skinned_) s.bones.resize(model->skeleton.names.size());
  skinned_count_ = 0;
  nearest_.reserve(static_cast<std::size_t>(n));
  feet_holds_.assign(slots, MocapSkin::FeetHold{});
  hold_member_.assign(slots, -1);
  member_hold_.assign(static_cast<std::size_t>(n), -1);
  is_nearest_.assign(static_cast<std::size_t>(n), 0);
  (void)crowd_->SetIkWeight(ik_weight_);
  crowd_->Update(0.0f);
  PoseSkinned(state, 0.0f);
  return Ok{};
}

Status CrowdScene::SetCharacter(AppState& state, const std::string& path) {
  std::string& chosen = state.scene.configs.Get<MocapConfig>().character_path;
  const std::string before = chosen;
  chosen = path;
  const Status built = Build(state);
  if (!built) chosen = before;
  return built;
}

void CrowdScene::AssignHolds(std::size_t count) {
  for (std::size_t k = 0; k < count; ++k) {
    is_nearest_[static_cast<std::size_t>(nearest_[k].second)] = 1;
  }
  // The slots of members no longer among the nearest are freed.
  for (int& member : hold_member_) {
    if (member >= 0 && is_nearest_[static_cast<std::size_t>(member)] == 0) {
      member_hold_[static_cast<std::size_t>(member)] = -1;
      member = -1;
    }
  }
  std::size_t free_slot = 0;
  for (std::size_t k = 0; k < count; ++k) {
    const auto member = static_cast<std::size_t>(nearest_[k].second);
    is_nearest_[member] = 0;
    if (member_hold_[member] >= 0) continue;
    while (hold_member_[free_slot] >= 0) ++free_slot;  // count <= slots: one is free
    hold_member_[free_slot] = static_cast<int>(member);
    member_hold_[member] = static_cast<int>(free_slot);
    feet_holds_[free_slot] = MocapSkin::FeetHold{};  // no holds from the slot's last member
  }
}

void CrowdScene::PoseSkinned(const AppState& state, float dt) {
  skinned_count_ = 0;
  retarget_us_ = skin_us_ = 0.0;
  if (skins_.empty() || !crowd_) return;
  // The members nearest the pivot, measured as the drawing measures (mocap_look.h).
  const glm::vec3 pivot = state.view.camera.pivot();
  nearest_.clear();
  for (std::size_t i = 0; i < crowd_->size(); ++i) {
    const mocap::Character& c = crowd_->character(i);
    const glm::vec3 d = c.pose().positions[static_cast<std::size_t>(c.rig().limbs.pelvis)] - pivot;
    nearest_.push_back({d.x * d.x + d.z * d.z, static_cast<int>(i)});
  }
  const std::size_t count = std::min(nearest_.size(), skinned_.size());
  if (count == 0) return;
  std::nth_element(nearest_.begin(), nearest_.begin() + static_cast<std::ptrdiff_t>(count) - 1,
                   nearest_.end());
  AssignHolds(count);
  for (std::size_t k = 0; k < count; ++k) {
    const int member = nearest_[k].second;
    const auto m = static_cast<std::size_t>(member);
    MocapSkin& skin = skins_[static_cast<std::size_t>(member_skin_[m])];
    const mocap::Character& actor = crowd_->character(m);
    // The member's own heels and balls held as the mocap scene's character's are
    // (docs/characters.md: The human's feet), from its own feet.
    MocapSkin::FeetHold& hold = feet_holds_[static_cast<std::size_t>(member_hold_[m])];
    // A restart (the clip's time jumped) starts the member's feet afresh, the skin's holds too.
    if (actor.restarted()) hold = MocapSkin::FeetHold{};
    MocapSkin::SetFootContacts(
        hold,
        {MocapSkin::DownOf(actor.foot(mocap::kLeft)), MocapSkin::DownOf(actor.foot(mocap::kRight))},
        dt, actor.applied_ik_weight());
    if (!skin.Frame(actor.pose(), true, {0.0f, 0.0f}, ground_.get(), hold)) continue;
    retarget_us_ += skin.retarget_us();
    skin_us_ += skin.skin_us();
    CrowdSkinned& slot = skinned_[skinned_count_++];
    slot.member = member;
    std::copy(skin.bones().begin(), skin.bones().end(), slot.bones.begin());
  }
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
    if (const Status built = Build(state); !built) {
      SetMessage(state, "crowd: " + built.error(), true);
      ground_revision_ = state.terrain.revision;  // keep the old crowd
    }
  }
  const float dt = std::isfinite(state.timing.dt) ? std::max(state.timing.dt, 0.0f) : 0.0f;
  const auto start = std::chrono::steady_clock::now();
  crowd_->Update(dt);
  PoseSkinned(state, dt);
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
  if (const MocapSkin* skin = this->skin()) {
    j["character"] = {{"path", skin->path()},
                      {"bones", skin->model().skeleton.bone_count()},
                      {"vertices", skin->model().vertices.size()},
                      {"skinned", skinned_count_}};
  } else {
    j["character"] = nullptr;
  }
  j["retarget_us"] = Num(retarget_us_);
  j["skin_us"] = Num(skin_us_);
}

// Its registry line (scenes/registry.h).
SceneEntry CrowdSceneEntry() {
  return {.make = MakeSceneOf<CrowdScene>, .commands = CrowdCommandEntries, .on_terrain = true};
}

}  // namespace fabrik
