// markers_scene.h - an optical marker take solved live with FABRIK (docs/markers.md, "The
// markers scene"). The take (CSM or TRC) is calibrated when loaded (markers/calibrate.h, the
// packaged CMU marker set) and played: every frame shown is solved by the library's
// per-frame solve (markers/solve.h), causally, from the frames solved before it.
//
// Space: the take's world, metres, +Y up, as the library gives it. The camera's pivot follows
// the skeleton's root across the floor (horizontally), keeping the user's orbit and zoom.
//
// Playback (the mocap scene's clock, scenes/mocap/mocap_playback.h) advances by the frame's dt,
// so `--fixed-dt` plays a take deterministically. Frames skipped between two frames shown
// (speed above the display's rate) are solved in order, up to kCatchUpFrames; a jump
// (`markers frame N`, a loop back to the start) forgets the previous frames (MarkerSolver::
// Reset) and solves the new frame alone.
//
// Hiding: `markers hide NAMES|SEGMENT for SECONDS` (and a left click on a marker, for
// kClickHideSeconds) hides markers from the frame shown for SECONDS of take time; the solve
// then predicts them from their segment. A hide ends when playback leaves its frames (played
// past, a jump, a loop). The take itself is never changed: a hide only masks what the solve
// sees.
//
// Export (`markers export bvh|trc PATH`): the whole take as loaded (without the hides) solved
// again from its first frame with the calibration made when it was loaded, kExportFramesPerFrame
// take frames per frame of the demo (markers/take_solve.h, TakeSolveRun), so the demo stays
// interactive; once every frame is solved the file is written atomically
// (markers/skeleton_bvh.h, markers/trc.h). Progress is in the state line. Leaving the scene or
// loading another take cancels a running export (nothing written).
#pragma once

#include <array>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "core/scene.h"
#include "markers/solve.h"
#include "markers/take.h"
#include "markers/take_solve.h"
#include "scenes/markers/markers_config.h"
#include "scenes/mocap/mocap_playback.h"

namespace fabrik {

// One export of the markers scene (MarkersScene::StartExport): running, then done (the file
// written) or failed (nothing written).
struct MarkersExport {
  enum class State { kRunning, kDone, kFailed };
  std::string kind, path;  // "bvh" or "trc"; the file
  State state = State::kRunning;
  std::string error;  // when failed
  int frames = 0, frames_done = 0;
  std::optional<markers::TakeSolveRun> run;  // released once finished
};

class MarkersScene final : public Scene {
 public:
  static constexpr int kCatchUpFrames = 64;
  static constexpr float kClickHideSeconds = 2.0f;
  static constexpr float kMaxHideSeconds = 60.0f;
  // Take frames an export solves in one frame of the demo (docs/limits.md): about 2-3 ms.
  static constexpr int kExportFramesPerFrame = 32;

  using Export = MarkersExport;

  std::string_view name() const override { return "markers"; }
  // Loads MarkersConfig's take (path resolved against the data folder); fails with the
  // reader's, binder's or calibration's one line and changes nothing.
  bool Enter(AppState& state) override;
  OrbitCamera::Home CameraHome(const AppState& state) const override;
  // Advances playback, ends hides left behind, starts the hide of a clicked marker, solves the
  // frame shown (and the frames skipped on the way) and moves a following camera. state.solve_us
  // is the last frame's solve; state.last: the tree solve's iterations, reached.
  void Solve(AppState& state) override;
  // The skeleton's twenty joints (markers/skeleton.h), world metres.
  std::span<const glm::vec3> Pose(const AppState& state) const override;
  // Every marker with a position (recorded or predicted): Grab::kEffectorTarget, index = the
  // take's marker index. A press on one hides it (Solve).
  void Handles(const AppState& state, std::vector<Handle>& out) const override;
  Grab DefaultGrab() const override { return {Grab::Kind::kNone, -1}; }
  // Nothing in this scene moves under a drag: always true (the target stays).
  bool MoveHandle(const Grab& grab, const glm::vec3& position) override;
  // "markers", "skeleton", "take", "playback", "residual_rms", "residual_max" (docs/state.md).
  void WriteState(nlohmann::json& line) const override;

  // Reads, binds and calibrates the take at `resolved_path` (`path` as the user wrote it).
  // On failure: false with the message set ("markers load: ..."), nothing changed.
  bool Load(AppState& state, const std::string& path, const std::string& resolved_path);
  // Hides the markers `words` name (marker names or segment names, markers/marker_set.h) from
  // the frame shown for `seconds` (0 < seconds <= kMaxHideSeconds). Refused, nothing changed:
  // a word that is neither, or a hide that would leave no marker of the take seen. Returns the
  // names hidden.
  Result<std::vector<std::string>> Hide(const std::vector<std::string>& words, float seconds);
  // Starts writing the solved skeleton (`bvh`) or the gap-filled markers (`trc`) to `path`
  // (header comment). Refused with one line, nothing started: no take, an export running, a
  // path io::CheckExportPath refuses (the take's own file among them).
  Status StartExport(const std::string& kind, const std::string& path);
  // Solves up to `frames` more take frames of a running export; after the last one writes the
  // file and prints the outcome ("markers export: wrote PATH (N frames)" or the error).
  void AdvanceExport(AppState& state, int frames);
  // Cancels a running export (nothing written), with an error line.
  void Leave(AppState& state) override;
  // The running or last export, if any.
  const std::optional<Export>& last_export() const { return export_; }
  // Jumps to frame `frame` (0-based, clamped into the take).
  void SetFrame(int frame);

  bool loaded() const { return take_.has_value(); }
  const markers::Take& take() const { return *take_; }
  const markers::FrameSolution& solution() const { return shown_; }
  const std::string& take_path() const { return path_; }
  int frame() const { return frame_; }
  float duration() const;
  // Whether marker m is hidden at the frame shown.
  bool hidden(int marker) const { return HiddenAt(frame_, marker); }

  Playback playback;
  bool follow = true;  // the camera's pivot follows the root across the floor

 private:
  struct HideWindow {
    std::vector<int> markers;
    int from = 0, to = 0;  // take frames, inclusive
  };
  bool HiddenAt(int frame, int marker) const;
  void SolveFrame(int frame);
  void SolveShownFrame();
  void HideClicked(AppState& state);
  void FollowRoot(AppState& state);

  void CancelExport(AppState& state, const std::string& why);

  std::optional<markers::Take> take_;
  markers::MarkerSet set_;
  std::optional<markers::MarkerSolver> solver_;
  markers::Take frame_take_;  // one frame: what the solve sees (the hides masked out)
  markers::FrameSolution shown_;
  std::vector<HideWindow> hides_;
  std::string path_, resolved_;
  int frame_ = 0;
  int solved_ = -1;  // the last frame the solver was given, -1 after a reset
  double solve_us_ = 0.0;
  bool was_grabbing_ = false;
  bool dirty_ = false;  // the hides changed: the frame shown is solved again
  glm::vec3 followed_{0.0f};
  std::optional<Export> export_;
};

struct CommandEntry;  // core/command_table.h
// The scene's own command, `markers` (markers_commands.cpp).
std::span<const CommandEntry> MarkersCommandEntries();

}  // namespace fabrik
