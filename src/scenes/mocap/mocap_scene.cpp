#include "scenes/mocap/mocap_scene.h"

#include <chrono>
#include <cmath>
#include <glm/geometric.hpp>
#include <nlohmann/json.hpp>

#include "core/app_state.h"
#include "core/execute.h"
#include "core/frame.h"
#include "core/json_util.h"
#include "core/scene_registry.h"
#include "core/startup.h"
#include "scenes/mocap/mocap_rig.h"

namespace fabrik {
namespace {

using state_json::Num;
using state_json::Vec;

// The hands' readout: reached within the library's tolerance plus float slack.
constexpr float kReachedDistance = 0.0015f;

nlohmann::json Points(std::span<const glm::vec3> points) {
  nlohmann::json out = nlohmann::json::array();
  for (const glm::vec3& p : points) out.push_back(Vec(p));
  return out;
}

nlohmann::json PointOrNull(const std::optional<glm::vec3>& p) {
  return p ? Vec(*p) : nlohmann::json();
}

glm::vec3 Root(const mocap::Character& c) {
  return c.pose().positions[static_cast<std::size_t>(c.rig().limbs.pelvis)];
}

}  // namespace

bool MocapScene::Enter(AppState& state) {
  const MocapConfig& config = state.scene.configs.Get<MocapConfig>();
  const auto& roots = state.command_context.search_roots;
  std::optional<MocapSkin> skin;
  if (!config.character_path.empty()) {
    auto loaded =
        MocapSkin::Load(config.character_path, ResolveDataPath(config.character_path, roots));
    if (!loaded) {
      SetMessage(state, "character: " + loaded.error(), true);
      return false;
    }
    skin = std::move(loaded).value();
  }
  const Status done = LoadWith(state, config.clip_path, ResolveDataPath(config.clip_path, roots),
                               config.scale, std::move(skin));
  if (!done) SetMessage(state, "mocap load: " + done.error(), true);
  return static_cast<bool>(done);
}

bool MocapScene::Load(AppState& state, const std::string& path, const std::string& resolved_path,
                      float scale) {
  const Status done = LoadWith(state, path, resolved_path, scale, skin_);
  if (!done) SetMessage(state, "mocap load: " + done.error(), true);
  return static_cast<bool>(done);
}

Status MocapScene::SetCharacter(AppState& state, const std::string& path) {
  if (!character_) return MakeError("no clip is loaded");
  const auto& roots = state.command_context.search_roots;
  std::optional<MocapSkin> skin;
  if (!path.empty()) {
    auto loaded = MocapSkin::Load(path, ResolveDataPath(path, roots));
    if (!loaded) return MakeError(loaded.error());
    skin = std::move(loaded).value();
  }
  const float scale = state.scene.configs.Get<MocapConfig>().scale;
  if (Status done = LoadWith(state, path_, ResolveDataPath(path_, roots), scale, std::move(skin));
      !done) {
    return done;
  }
  state.scene.configs.Get<MocapConfig>().character_path = path;
  return Ok{};
}

Status MocapScene::LoadWith(AppState& state, const std::string& path,
                            const std::string& resolved_path, float scale,
                            std::optional<MocapSkin> skin) {
  auto rig = LoadRig(resolved_path, scale);
  if (!rig) return MakeError(rig.error());
  if (skin) {
    // The clip scaled by the library's leg-length ratio: its legs become the character's.
    const Result<float> ratio = skin->ScaleFor(rig.value()->clip);
    if (!ratio) return MakeError(ratio.error());
    if (std::abs(ratio.value() - 1.0f) > 1e-5f) {
      rig = LoadRig(resolved_path, rig.value()->clip.scale() * ratio.value());
      if (!rig) return MakeError(rig.error());
    }
    if (Status bound = skin->Bind(*rig.value()); !bound) return bound;
  }
  auto made = mocap::Character::Create(rig.value());
  if (!made) return MakeError(path + ": " + made.error());
  mocap::Character next = std::move(made).value();
  // The new character takes over what the user set on the old one. The targets were checked
  // when set; a clip without arms or head simply has none.
  if (character_) {
    (void)next.SetIkWeight(character_->ik_weight());
    if (left_reach_) (void)next.SetReachTarget(mocap::kLeft, *left_reach_);
    if (auto look = character_->look_target()) (void)next.SetLookTarget(*look);
  }
  const bool first = !character_.has_value();
  rig_ = std::move(rig).value();
  character_ = std::move(next);
  path_ = path;
  ground_revision_ = -1;  // point the new character at the ground
  SyncGround(state);
  playback.time = 0.0f;
  if (first) playback.playing = true;
  character_->Update(0.0f, 0.0f);
  followed_ = Root(*character_);
  if (!right_follows_ && rig_->limbs.has_arms) {
    PlaceTarget(state,
                character_->pose()
                    .positions[static_cast<std::size_t>(rig_->limbs.arms[mocap::kRight].end())]);
  }
  skin_ = std::move(skin);
  PoseSkin();
  if (!first) PlaceCamera(state);
  return Ok{};
}

void MocapScene::SyncGround(AppState& state) {
  if (ground_revision_ == state.terrain.revision && ground_) return;
  if (state.terrain.map) {
    ground_ = state.terrain.map;
  } else {
    auto flat = Heightmap::Flat(state.terrain.size);
    if (!flat) flat = Heightmap::Flat(40.0f);
    ground_ = std::make_shared<const Heightmap>(std::move(flat).value());
  }
  ground_revision_ = state.terrain.revision;
  if (character_) {
    character_->SetTerrain(ground_.get());
    clip_meter_.emplace(*rig_, ground_.get());
    ik_meter_.emplace(*rig_, ground_.get());
  }
}

mocap::GroundingFigures MocapScene::ClipGrounding() const {
  return clip_meter_ ? clip_meter_->Figures() : mocap::GroundingFigures{};
}

mocap::GroundingFigures MocapScene::IkGrounding() const {
  return ik_meter_ ? ik_meter_->Figures() : mocap::GroundingFigures{};
}

OrbitCamera::Home MocapScene::CameraHome(const AppState& state) const {
  if (!character_) return Scene::CameraHome(state);
  OrbitCamera::Home home;
  const float height = rig_->clip.rest_height();
  home.pivot = Root(*character_) + glm::vec3(0.0f, -0.05f * height, 0.0f);
  home.yaw = 0.65f;
  home.pitch = 0.25f;
  home.distance = 2.3f * height;
  return home;
}

void MocapScene::PlaceCamera(AppState& state) {
  state.view.camera.SetHome(CameraHome(state));
  state.view.camera.Reset();
}

void MocapScene::Solve(AppState& state) {
  if (!character_) return;
  AdvanceExport(state, kExportFramesPerFrame);
  SyncGround(state);
  const float dt = std::isfinite(state.timing.dt) ? std::max(state.timing.dt, 0.0f) : 0.0f;
  playback.Advance(dt, rig_->clip.duration());

  // The right hand takes the mode's target once the user reaches for it (header comment).
  if (state.mode != last_mode_) {
    if (state.mode != TargetMode::kDrag) right_follows_ = rig_->limbs.has_arms;
    last_mode_ = state.mode;
  }
  if (state.drag.dragging && state.scene.grab.kind == Grab::Kind::kTarget) {
    right_follows_ = rig_->limbs.has_arms;
  }
  if (right_follows_ && !character_->SetReachTarget(mocap::kRight, state.target())) {
    right_follows_ = false;  // a target beyond 10 km: the hand lets go rather than freeze
    character_->ClearReachTarget(mocap::kRight);
  }

  const auto start = std::chrono::steady_clock::now();
  character_->Update(playback.time, dt);
  RecordSolveTime(state, start);
  ik_us_ = character_->last_ik_seconds() * 1e6;
  PoseSkin(playback.playing ? dt * playback.speed : 0.0f);
  if (clip_meter_ && ik_meter_) {
    const mocap::Pose& clip_pose = character_->animated();
    clip_meter_->Frame(frame(), clip_pose, clip_pose, character_->restarted());
    ik_meter_->Frame(frame(), clip_pose, character_->pose(), character_->restarted());
  }

  const mocap::Limbs& limbs = rig_->limbs;
  state.last = {};
  state.last.ok = true;
  state.last.reachable = true;
  if (limbs.has_arms) {
    const glm::vec3 wrist =
        character_->pose().positions[static_cast<std::size_t>(limbs.arms[mocap::kRight].end())];
    if (right_follows_) {
      state.last.distance = glm::distance(wrist, state.target());
      state.last.reached = state.last.distance <= kReachedDistance;
    } else if (state.mode == TargetMode::kDrag && !state.drag.dragging) {
      PlaceTarget(state, wrist);  // the target rides on the hand until it is taken
      state.last.reached = true;
    }
  }
  if (follow) {
    // Move the pivot with the root, keeping the user's orbit and zoom: the character stays
    // where the user framed it while the clip carries it across the ground.
    const glm::vec3 root = Root(*character_);
    const OrbitCamera& camera = state.view.camera;
    state.view.camera.SetPose(camera.pivot() + (root - followed_), camera.yaw(), camera.pitch(),
                              camera.distance());
    followed_ = root;
  } else {
    followed_ = Root(*character_);
  }
}

std::span<const glm::vec3> MocapScene::Pose(const AppState& state) const {
  return character_ ? std::span<const glm::vec3>(character_->pose().positions) : Scene::Pose(state);
}

void MocapScene::Handles(const AppState& state, std::vector<Handle>& out) const {
  out.push_back({state.target(), {Grab::Kind::kTarget, -1}});
  if (!character_) return;
  if (left_reach_) out.push_back({*left_reach_, {Grab::Kind::kEffectorTarget, kLeftHandHandle}});
  if (auto look = character_->look_target()) {
    out.push_back({*look, {Grab::Kind::kEffectorTarget, kLookHandle}});
  }
}

bool MocapScene::MoveHandle(const Grab& grab, const glm::vec3& position) {
  if (!character_ || grab.kind != Grab::Kind::kEffectorTarget) return false;
  if (grab.index == kLeftHandHandle && left_reach_) {
    if (character_->SetReachTarget(mocap::kLeft, position)) left_reach_ = position;
    return true;
  }
  if (grab.index == kLookHandle && character_->look_target()) {
    (void)character_->SetLookTarget(position);
    return true;
  }
  return false;
}

Status MocapScene::SetReach(AppState& state, mocap::Side hand,
                            const std::optional<glm::vec3>& point) {
  if (!character_) return MakeError("no clip is loaded");
  if (!rig_->limbs.has_arms) return MakeError(path_ + " has no arms to reach with");
  if (!point) {
    character_->ClearReachTarget(hand);
    if (hand == mocap::kLeft) left_reach_.reset();
    if (hand == mocap::kRight) right_follows_ = false;
    return Ok{};
  }
  if (Status set = character_->SetReachTarget(hand, *point); !set) return set;
  if (hand == mocap::kLeft) {
    left_reach_ = point;
  } else {
    right_follows_ = true;
    PlaceTarget(state, *point);
  }
  return Ok{};
}

Status MocapScene::FollowTarget() {
  if (!character_) return MakeError("no clip is loaded");
  if (!rig_->limbs.has_arms) return MakeError(path_ + " has no arms to reach with");
  right_follows_ = true;
  return Ok{};
}

Status MocapScene::SetLook(const std::optional<glm::vec3>& point) {
  if (!character_) return MakeError("no clip is loaded");
  if (!point) {
    character_->ClearLookTarget();
    return Ok{};
  }
  return character_->SetLookTarget(*point);
}

Status MocapScene::SetIkWeight(float weight) {
  if (!character_) return MakeError("no clip is loaded");
  return character_->SetIkWeight(weight);
}

void MocapScene::SetFrame(int frame) {
  if (!character_) return;
  const mocap::Clip& clip = rig_->clip;
  const int f = std::clamp(frame, 0, clip.frame_count() - 1);
  playback.time = static_cast<float>(f) * clip.frame_time();
  playback.Clamp(clip.duration());
}

Status MocapScene::StartExport(AppState& state, const std::string& path) {
  if (!character_) return MakeError("no clip is loaded");
  if (export_ && export_->running()) {
    return MakeError("an export to " + export_->path() + " is running (" +
                     std::to_string(static_cast<int>(export_->progress() * 100.0f)) +
                     "%); wait for it to finish");
  }
  SyncGround(state);
  mocap::BakeOptions options;
  options.placement = character_->placement();
  options.ik_weight = character_->ik_weight();
  using Kind = mocap::BakeEvent::Kind;
  for (const mocap::Side side : {mocap::kLeft, mocap::kRight}) {
    if (const auto at = character_->reach_target(side)) {
      options.events.push_back({0.0f, Kind::kReach, side, *at});
    }
  }
  if (const auto look = character_->look_target()) {
    options.events.push_back({0.0f, Kind::kLook, mocap::kRight, *look});
  }
  auto started = ClipExport::Start(path, rig_->clip.source(), rig_, ground_, std::move(options));
  if (!started) return MakeError(started.error());
  export_ = std::move(started).value();
  return Ok{};
}

void MocapScene::PoseSkin(float clip_dt) {
  if (!skin_ || !character_) return;
  std::array<MocapSkin::FootDown, 2> feet{};
  for (const mocap::Side side : {mocap::kLeft, mocap::kRight}) {
    feet[side] = MocapSkin::DownOf(character_->foot(side));
  }
  // A restart (the clip's time jumped: a loop, a seek) starts the feet afresh, as the crowd's.
  if (character_->restarted()) skin_->ForgetHolds();
  skin_->SetFootContacts(feet, clip_dt, character_->applied_ik_weight());
  (void)skin_->Frame(character_->pose(), retarget_, HandFollow(), ground_.get());
  (void)skin_->FrameAnimated(character_->animated(), retarget_);
}

std::array<float, 2> MocapScene::HandFollow() const {
  if (!character_) return {0.0f, 0.0f};
  const float w = character_->applied_ik_weight();
  return {character_->reach_blend(mocap::kLeft) * w, character_->reach_blend(mocap::kRight) * w};
}

void MocapScene::AdvanceExport(AppState& state, int frames) {
  if (!export_ || !export_->running() || !export_->Advance(frames)) return;
  if (export_->state() == ClipExport::State::kDone) {
    ConsolePrint(state, "mocap export: wrote " + export_->path() + " (" +
                            std::to_string(export_->frame_count()) + " frames)");
  } else {
    ConsolePrint(state, "mocap export: " + export_->error(), ConsoleLine::Kind::kError);
    SetMessage(state, "mocap export: " + export_->error(), true);
  }
}

void MocapScene::Leave(AppState& state) {
  if (!export_ || !export_->running()) return;
  export_->Cancel("cancelled: the scene was left before " + export_->path() +
                  " was complete; nothing written");
  ConsolePrint(state, "mocap export: " + export_->error(), ConsoleLine::Kind::kError);
}

int MocapScene::frame() const {
  if (!character_) return 0;
  return FrameAt(playback.time, rig_->clip.frame_time(), rig_->clip.frame_count());
}

namespace {

// The state line's "grounding" figures (docs/state.md), metres.
nlohmann::json GroundingJson(const mocap::GroundingFigures& f) {
  return {{"frames", f.frames},
          {"contact_share", {Num(f.contact_share[0]), Num(f.contact_share[1])}},
          {"skate_mean", Num(f.skate_mean)},
          {"skate_worst", Num(f.skate_worst)},
          {"penetration_worst", Num(f.penetration_worst)},
          {"pop_worst", Num(f.pop_worst)},
          {"outrun_worst", Num(f.outrun_worst)}};
}

}  // namespace

void MocapScene::WriteCharacterState(nlohmann::json& j) const {
  j["retarget"] = retarget_;
  if (!skin_) {
    j["character"] = nullptr;
    j["retarget_us"] = 0;
    j["skin_us"] = 0;
    return;
  }
  nlohmann::json joints = nlohmann::json::array();
  for (const character::BoneTransform& t : skin_->pose()) joints.push_back(Vec(t.translation));
  const character::Model& model = skin_->model();
  j["character"] = {{"path", skin_->path()},
                    {"bones", model.skeleton.bone_count()},
                    {"vertices", model.vertices.size()},
                    {"skinning", linear_skinning_ ? "linear" : "dq"},
                    {"names", model.skeleton.names},
                    {"joints", std::move(joints)},
                    {"foot_lift", {Num(skin_->foot_lift()[0]), Num(skin_->foot_lift()[1])}}};
  j["retarget_us"] = Num(skin_->retarget_us());
  j["skin_us"] = Num(skin_->skin_us());
}

nlohmann::json MocapScene::SkeletonJson(const MocapSkeletonOf& of) const {
  const mocap::Character& c = *character_;
  nlohmann::json feet = nlohmann::json::array();
  for (const mocap::Side side : {mocap::kLeft, mocap::kRight}) {
    const mocap::FootState& foot = c.foot(side);
    const int joint = of.feet[side];
    const glm::vec3 ankle = of.joints[static_cast<std::size_t>(joint)];
    feet.push_back({{"joint", joint},
                    {"contact", foot.contact},
                    {"pinned", foot.pinned ? Vec(foot.pin) : nlohmann::json()},
                    {"ground", Num(ground_->HeightAt(ankle.x, ankle.z))}});
  }
  nlohmann::json hands = nlohmann::json::array();
  for (const mocap::Side side : {mocap::kLeft, mocap::kRight}) {
    hands.push_back({{"joint", of.hands[side]},
                     {"target", PointOrNull(c.reach_target(side))},
                     {"blend", Num(c.reach_blend(side))}});
  }
  return {{"names", of.names},
          {"parents", of.parents},
          {"joints", Points(of.joints)},
          {"animated", Points(of.animated)},
          {"feet", std::move(feet)},
          {"hands", std::move(hands)},
          {"head", {{"joint", of.head}, {"look", PointOrNull(c.look_target())}}}};
}

nlohmann::json MocapScene::ClipSkeletonJson() const {
  const mocap::Limbs& limbs = rig_->limbs;
  const auto& arms = limbs.arms;
  const bool has_arms = limbs.has_arms;
  return SkeletonJson(
      {.names = rig_->clip.names(),
       .parents = rig_->clip.parents(),
       .joints = character_->pose().positions,
       .animated = character_->animated().positions,
       .feet = {character_->foot(mocap::kLeft).joint, character_->foot(mocap::kRight).joint},
       .hands = {has_arms ? arms[mocap::kLeft].end() : -1,
                 has_arms ? arms[mocap::kRight].end() : -1},
       .head = limbs.has_head ? limbs.head : -1});
}

// The skinned character's own skeleton (docs/state.md): its bones, drawn this frame, the
// limbs the retargeting found on it, the feet's contacts and pins from the scene's IK.
nlohmann::json MocapScene::CharacterSkeletonJson() const {
  const mocap::Limbs& limbs = *skin_->limbs();
  const character::Skeleton& skeleton = skin_->model().skeleton;
  // The state line allocates anyway (its JSON); the frame itself does not.
  std::vector<glm::vec3> joints(skin_->pose().size()), animated(joints.size());
  for (std::size_t b = 0; b < joints.size(); ++b) {
    joints[b] = skin_->pose()[b].translation;
    animated[b] = skin_->animated_pose()[b].translation;
  }
  const bool has_arms = limbs.has_arms && rig_->limbs.has_arms;
  return SkeletonJson({.names = skeleton.names,
                       .parents = skeleton.parents,
                       .joints = joints,
                       .animated = animated,
                       .feet = {limbs.legs[mocap::kLeft].end(), limbs.legs[mocap::kRight].end()},
                       .hands = {has_arms ? limbs.arms[mocap::kLeft].end() : -1,
                                 has_arms ? limbs.arms[mocap::kRight].end() : -1},
                       .head = limbs.has_head && rig_->limbs.has_head ? limbs.head : -1});
}

void MocapScene::WriteState(nlohmann::json& j) const {
  if (!character_) return;
  const mocap::Character& c = *character_;
  const mocap::Clip& clip = rig_->clip;
  if (skin_ && skin_->limbs() != nullptr) {
    j["skeleton"] = CharacterSkeletonJson();
    j["clip_skeleton"] = ClipSkeletonJson();
  } else {
    j["skeleton"] = ClipSkeletonJson();
  }
  j["clip"] = {{"path", path_},
               {"frame", frame()},
               {"frames", clip.frame_count()},
               {"time", Num(playback.time)},
               {"scale", Num(clip.scale())}};
  j["ik_weight"] = Num(c.ik_weight());
  j["ik_us"] = Num(ik_us_);
  j["playback"] = {{"playing", playback.playing},
                   {"speed", Num(playback.speed)},
                   {"loop", playback.loop},
                   {"right_follows_target", right_follows_}};
  j["mocap_view"] = {{"ghost", ghost}, {"follow", follow}};
  WriteCharacterState(j);
  j["grounding"] = {{"clip", GroundingJson(ClipGrounding())}, {"ik", GroundingJson(IkGrounding())}};
  if (export_) j["mocap"] = {{"export", export_->Json()}};
}

// Its registry line (scenes/registry.h).
namespace {
// The clip from --bvh and --bvh-scale, the crowd's size from --characters, the skinned
// character from --character (docs/options.md).
void StartMocap(AppState& state, const StartOptions& options) {
  const SceneOptionValues& values = options.scene_options;
  MocapConfig& config = state.scene.configs.Get<MocapConfig>();
  if (!values.Text("--bvh").empty()) config.clip_path = values.Text("--bvh");
  config.scale = static_cast<float>(values.Number("--bvh-scale", config.scale));
  config.characters = static_cast<int>(values.Number("--characters", config.characters));
  if (!values.Text("--character").empty()) config.character_path = values.Text("--character");
}

// --export OUT: the clip baked at once (the same export `mocap export` runs over frames).
Result<std::string> ExportMocap(AppState& state, const std::string& path) {
  MocapScene* scene = state.scene.As<MocapScene>();
  if (scene == nullptr) return MakeError("the mocap scene is not on");
  if (Status started = scene->StartExport(state, path); !started) return MakeError(started.error());
  scene->AdvanceExport(state, mocap::kMaxFrames);
  const ClipExport& done = *scene->clip_export();
  if (done.state() != ClipExport::State::kDone) return MakeError(done.error());
  return "wrote " + path + " (" + std::to_string(done.frame_count()) + " frames)";
}
}  // namespace

SceneEntry MocapSceneEntry() {
  return {.make = MakeSceneOf<MocapScene>,
          .commands = MocapCommandEntries,
          .options = MocapOptionRows(),
          .start = StartMocap,
          .export_file = ExportMocap,
          .on_terrain = true};
}

}  // namespace fabrik
