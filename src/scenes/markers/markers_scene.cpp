#include "scenes/markers/markers_scene.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <nlohmann/json.hpp>

#include "core/app_state.h"
#include "core/execute.h"
#include "core/frame.h"
#include "core/json_util.h"
#include "core/scene_registry.h"
#include "core/startup.h"
#include "io/file_write.h"
#include "io/writable_path.h"
#include "markers/calibrate.h"
#include "markers/skeleton.h"
#include "markers/skeleton_bvh.h"
#include "markers/take_file.h"
#include "markers/take_solve.h"
#include "markers/trc.h"

namespace fabrik {

using markers::MarkerState;

bool MarkersScene::Enter(AppState& state) {
  const std::string& path = state.scene.configs.Get<MarkersConfig>().take_path;
  return Load(state, path, ResolveDataPath(path, state.command_context.search_roots));
}

bool MarkersScene::Load(AppState& state, const std::string& path,
                        const std::string& resolved_path) {
  auto fail = [&](const std::string& why) {
    SetMessage(state, "markers load: " + why, true);
    return false;
  };
  Result<markers::Take> read = markers::ReadTakeFile(resolved_path);
  if (!read) return fail(read.error());
  Result<markers::MarkerSet> set = markers::LoadDefaultMarkerSet();
  if (!set) return fail(set.error());
  Result<markers::BoundSet> bound = markers::BindMarkerSet(set.value(), read.value());
  if (!bound) return fail(bound.error());
  Result<markers::Calibration> calibration = markers::Calibrate(read.value(), bound.value());
  if (!calibration) return fail(resolved_path + ": " + calibration.error());
  Result<markers::MarkerSolver> solver =
      markers::MarkerSolver::Create(calibration.value(), read.value().marker_count());
  if (!solver) return fail(resolved_path + ": " + solver.error());

  // Everything checked: the scene changes from here on.
  CancelExport(state, "cancelled: another take was loaded");
  const bool first = !take_.has_value();
  take_ = std::move(read).value();
  set_ = std::move(set).value();
  solver_.emplace(std::move(solver).value());
  frame_take_ = markers::Take{};
  frame_take_.names = take_->names;
  frame_take_.frame_count = 1;
  frame_take_.rate = take_->rate;
  frame_take_.positions.assign(take_->names.size(), glm::vec3(0.0f));
  frame_take_.seen.assign(take_->names.size(), 0);
  path_ = path;
  resolved_ = resolved_path;
  hides_.clear();
  playback.time = 0.0f;
  if (first) playback.playing = true;
  frame_ = 0;
  solved_ = -1;
  SolveShownFrame();
  followed_ = shown_.joints[markers::kRoot];
  PlaceTarget(state, shown_.joints[markers::kRoot]);
  if (!first) {
    state.view.camera.SetHome(CameraHome(state));
    state.view.camera.Reset();
  }
  return true;
}

float MarkersScene::duration() const {
  if (!take_ || take_->frame_count < 2) return 0.0f;
  return static_cast<float>(take_->frame_count - 1) / take_->rate;
}

OrbitCamera::Home MarkersScene::CameraHome(const AppState& state) const {
  if (!take_) return Scene::CameraHome(state);
  OrbitCamera::Home home;
  const glm::vec3 root = shown_.joints[markers::kRoot];
  home.pivot = glm::vec3(root.x, root.y - 0.05f, root.z);
  home.yaw = 0.65f;
  home.pitch = 0.22f;
  home.distance = 3.4f;
  return home;
}

bool MarkersScene::HiddenAt(int frame, int marker) const {
  for (const HideWindow& w : hides_) {
    if (frame < w.from || frame > w.to) continue;
    if (std::find(w.markers.begin(), w.markers.end(), marker) != w.markers.end()) return true;
  }
  return false;
}

void MarkersScene::SolveFrame(int frame) {
  const int count = take_->marker_count();
  for (int m = 0; m < count; ++m) {
    frame_take_.positions[static_cast<std::size_t>(m)] = take_->position(frame, m);
    frame_take_.seen[static_cast<std::size_t>(m)] =
        take_->is_seen(frame, m) && !HiddenAt(frame, m) ? 1 : 0;
  }
  const auto start = std::chrono::steady_clock::now();
  const markers::FrameSolution& solved = solver_->Solve(frame_take_, 0);
  solve_us_ =
      std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - start).count();
  shown_ = solved;  // same sizes every frame: no allocation after the first
  solved_ = frame;
}

// The frame shown, and the frames skipped since the last one solved (header comment).
void MarkersScene::SolveShownFrame() {
  if (solved_ >= 0 && frame_ > solved_ && frame_ - solved_ <= kCatchUpFrames) {
    for (int t = solved_ + 1; t <= frame_; ++t) SolveFrame(t);
    return;
  }
  if (frame_ != solved_) solver_->Reset();
  SolveFrame(frame_);
}

void MarkersScene::SetFrame(int frame) {
  if (!take_) return;
  frame_ = std::clamp(frame, 0, take_->frame_count - 1);
  playback.time = static_cast<float>(frame_) / take_->rate;
}

// A press on a marker (DragStart with the marker's handle, Handles) hides it.
void MarkersScene::HideClicked(AppState& state) {
  const Grab& grab = state.scene.grab;
  const bool grabbing = state.drag.dragging && grab.kind == Grab::Kind::kEffectorTarget &&
                        grab.index >= 0 && grab.index < take_->marker_count();
  if (grabbing && !was_grabbing_) {
    const std::vector<std::string> name = {take_->names[static_cast<std::size_t>(grab.index)]};
    Result<std::vector<std::string>> hidden = Hide(name, kClickHideSeconds);
    if (hidden) {
      ConsolePrint(state, "markers hide " + name[0] + " for " +
                              std::to_string(static_cast<int>(kClickHideSeconds)) + " (click)");
    } else {
      ConsolePrint(state, "markers hide: " + hidden.error(), ConsoleLine::Kind::kError);
    }
  }
  was_grabbing_ = grabbing;
}

void MarkersScene::FollowRoot(AppState& state) {
  const glm::vec3 root = shown_.joints[markers::kRoot];
  if (follow) {
    const OrbitCamera& camera = state.view.camera;
    const glm::vec3 floor_move(root.x - followed_.x, 0.0f, root.z - followed_.z);
    state.view.camera.SetPose(camera.pivot() + floor_move, camera.yaw(), camera.pitch(),
                              camera.distance());
  }
  followed_ = root;
}

void MarkersScene::Solve(AppState& state) {
  if (!take_) return;
  AdvanceExport(state, kExportFramesPerFrame);
  const float dt = std::isfinite(state.timing.dt) ? std::max(state.timing.dt, 0.0f) : 0.0f;
  playback.Advance(dt, duration());
  frame_ = FrameAt(playback.time, 1.0f / take_->rate, take_->frame_count);
  // A hide ends once playback leaves its frames (played past, a jump, a loop).
  const std::size_t hides_before = hides_.size();
  std::erase_if(hides_, [&](const HideWindow& w) { return frame_ < w.from || frame_ > w.to; });
  if (hides_.size() != hides_before) dirty_ = true;
  HideClicked(state);
  // Paused on an unchanged frame, the solution stands (solving it again would move nothing
  // the user asked for).
  if (frame_ != solved_ || dirty_) SolveShownFrame();
  dirty_ = false;
  state.solve_us = solve_us_;
  state.last.iterations = shown_.iterations;
  state.last.distance = 0.0f;
  state.last.reached = true;
  state.last.reachable = true;
  FollowRoot(state);
}

std::span<const glm::vec3> MarkersScene::Pose(const AppState& state) const {
  return take_ ? std::span<const glm::vec3>(shown_.joints) : Scene::Pose(state);
}

void MarkersScene::Handles(const AppState&, std::vector<Handle>& out) const {
  if (!take_) return;
  for (int m = 0; m < take_->marker_count(); ++m) {
    const auto i = static_cast<std::size_t>(m);
    if (shown_.state[i] == MarkerState::kMissing) continue;
    out.push_back({shown_.estimate[i], {Grab::Kind::kEffectorTarget, m}});
  }
}

bool MarkersScene::MoveHandle(const Grab&, const glm::vec3&) { return true; }

Result<std::vector<std::string>> MarkersScene::Hide(const std::vector<std::string>& words,
                                                    float seconds) {
  if (!take_) return MakeError("no take loaded");
  if (!(seconds > 0.0f && seconds <= kMaxHideSeconds)) {
    return MakeError("expected seconds in (0, 60]");
  }
  HideWindow window;
  for (const std::string& word : words) {
    const auto segment = std::find(markers::kSegmentNames.begin(), markers::kSegmentNames.end(),
                                   std::string_view(word));
    if (segment != markers::kSegmentNames.end()) {
      const auto s = static_cast<std::size_t>(segment - markers::kSegmentNames.begin());
      for (const int m : solver_->calibration().set.segments[s]) window.markers.push_back(m);
    } else if (const int m = take_->find(word); m >= 0) {
      window.markers.push_back(m);
    } else {
      return MakeError("'" + word + "' is neither a marker of the take nor a segment (" +
                       std::string(markers::kSegmentNames[0]) + ", ..., " +
                       std::string(markers::kSegmentNames.back()) + ")");
    }
  }
  std::sort(window.markers.begin(), window.markers.end());
  window.markers.erase(std::unique(window.markers.begin(), window.markers.end()),
                       window.markers.end());
  int still_seen = 0;
  for (int m = 0; m < take_->marker_count(); ++m) {
    const bool in_window = std::binary_search(window.markers.begin(), window.markers.end(), m);
    if (!in_window && !HiddenAt(frame_, m)) ++still_seen;
  }
  if (still_seen == 0) return MakeError("that would hide every marker of the take");
  const int frames = std::max(1, static_cast<int>(std::lround(seconds * take_->rate)));
  window.from = frame_;
  window.to = std::min(take_->frame_count - 1, frame_ + frames - 1);
  std::vector<std::string> names;
  for (const int m : window.markers) names.push_back(take_->names[static_cast<std::size_t>(m)]);
  hides_.push_back(std::move(window));
  dirty_ = true;
  return names;
}

Status MarkersScene::StartExport(const std::string& kind, const std::string& path) {
  if (!take_) return MakeError("no take loaded");
  if (export_ && export_->state == Export::State::kRunning) {
    return MakeError("an export to " + export_->path + " is running (" +
                     std::to_string(export_->frames_done * 100 / std::max(export_->frames, 1)) +
                     "%); wait for it to finish");
  }
  if (Status usable = io::CheckExportPath(path, resolved_, "take"); !usable) return usable;
  Result<markers::TakeSolveRun> run = markers::TakeSolveRun::Start(*take_, solver_->calibration());
  if (!run) return MakeError(run.error());
  export_.emplace();
  export_->kind = kind;
  export_->path = path;
  export_->frames = take_->frame_count;
  export_->run.emplace(std::move(run).value());
  return Ok{};
}

void MarkersScene::AdvanceExport(AppState& state, int frames) {
  if (!export_ || export_->state != Export::State::kRunning) return;
  markers::TakeSolveRun& run = *export_->run;
  const bool done = run.Advance(frames);
  export_->frames_done = run.frames_done();
  if (!done) return;
  const markers::TakeSolution solved = std::move(run).Release();
  export_->run.reset();
  const Status written = export_->kind == "bvh"
                             ? markers::WriteBvhFile(markers::SkeletonBvh(solved), export_->path)
                             : markers::WriteTrcFile(solved.filled, export_->path);
  if (written) {
    export_->state = Export::State::kDone;
    ConsolePrint(state, "markers export: wrote " + export_->path + " (" +
                            std::to_string(export_->frames) + " frames)");
    return;
  }
  export_->state = Export::State::kFailed;
  export_->error = written.error();
  ConsolePrint(state, "markers export: " + export_->error, ConsoleLine::Kind::kError);
  SetMessage(state, "markers export: " + export_->error, true);
}

void MarkersScene::CancelExport(AppState& state, const std::string& why) {
  if (!export_ || export_->state != Export::State::kRunning) return;
  export_->run.reset();
  export_->state = Export::State::kFailed;
  export_->error = why + " before " + export_->path + " was complete; nothing written";
  ConsolePrint(state, "markers export: " + export_->error, ConsoleLine::Kind::kError);
}

void MarkersScene::Leave(AppState& state) { CancelExport(state, "cancelled: the scene was left"); }

void MarkersScene::WriteState(nlohmann::json& j) const {
  using state_json::Num;
  using state_json::Vec;
  if (!take_) return;
  nlohmann::json positions = nlohmann::json::array(), states = nlohmann::json::array();
  nlohmann::json hidden = nlohmann::json::array();
  for (int m = 0; m < take_->marker_count(); ++m) {
    const auto i = static_cast<std::size_t>(m);
    const bool missing = shown_.state[i] == MarkerState::kMissing;
    positions.push_back(missing ? nlohmann::json() : Vec(shown_.estimate[i]));
    states.push_back(markers::MarkerStateName(shown_.state[i]));
    if (HiddenAt(frame_, m)) hidden.push_back(take_->names[i]);
  }
  j["markers"] = {{"names", take_->names},
                  {"positions", std::move(positions)},
                  {"state", std::move(states)},
                  {"hidden", std::move(hidden)}};
  nlohmann::json joints = nlohmann::json::array();
  for (const glm::vec3& p : shown_.joints) joints.push_back(Vec(p));
  j["skeleton"] = {{"names", markers::kNodeNames},
                   {"parents", markers::kNodeParents},
                   {"joints", std::move(joints)}};
  j["take"] = {{"path", path_},
               {"frame", frame_},
               {"frames", take_->frame_count},
               {"rate", Num(take_->rate)},
               {"time", Num(playback.time)}};
  j["playback"] = {
      {"playing", playback.playing}, {"speed", Num(playback.speed)}, {"loop", playback.loop}};
  j["residual_rms"] = Num(shown_.residual_rms);
  j["residual_max"] = Num(shown_.residual_max);
  if (export_) {
    static constexpr const char* kStates[] = {"running", "done", "failed"};
    nlohmann::json& e = j["markers"]["export"];
    e = {{"kind", export_->kind},
         {"path", export_->path},
         {"state", kStates[static_cast<int>(export_->state)]},
         {"frames", export_->frames},
         {"frames_done", export_->frames_done},
         {"progress", Num(static_cast<float>(export_->frames_done) /
                          static_cast<float>(std::max(export_->frames, 1)))}};
    if (export_->state == Export::State::kFailed) e["error"] = export_->error;
  }
}

// Its registry line (scenes/registry.h).
namespace {
// A take that cannot be read exits 2 at start, naming --markers (docs/options.md).
std::string CheckMarkersTakeFile(const std::string& path, const SceneOptionValues&) {
  Result<markers::Take> take = markers::ReadTakeFile(path);
  return take ? std::string() : take.error();
}

constexpr SceneOption kMarkersOptionRows[] = {
    {"--markers", "the markers scene's take: a CSM or TRC file (implies --scene markers)",
     SceneOptionKind::kInput, 0.0, 0.0, true, CheckMarkersTakeFile}};

// The take from --markers (docs/options.md).
void StartMarkers(AppState& state, const StartOptions& options) {
  const std::string& take = options.scene_options.Text("--markers");
  if (!take.empty()) state.scene.configs.Get<MarkersConfig>().take_path = take;
}
}  // namespace

SceneEntry MarkersSceneEntry() {
  return {.make = MakeSceneOf<MarkersScene>,
          .commands = MarkersCommandEntries,
          .options = kMarkersOptionRows,
          .start = StartMarkers};
}

}  // namespace fabrik
