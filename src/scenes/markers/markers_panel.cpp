// The markers scene's panel section: the take picker, playback, the figures of the frame shown,
// the legend, hiding a segment, and the export. Every change is sent as the console command
// that does the same (docs/markers.md, "The markers scene").
#include <imgui.h>

#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

#include "app/panel_widgets.h"
#include "app/ui_state.h"
#include "markers/marker_set.h"
#include "scenes/markers/markers_config.h"
#include "scenes/markers/markers_draw.h"
#include "scenes/markers/markers_scene.h"

namespace fabrik {
namespace {

using namespace panel;

std::string TakeFileName(const std::string& path) {
  const std::size_t slash = path.find_last_of('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

ImVec4 Colour(const glm::vec4& c) { return ImVec4(c.r, c.g, c.b, c.a); }

void TakePicker(const MarkersScene& scene, CommandQueue& queue) {
  // The packaged takes do not change while the demo runs: listed once.
  static const std::vector<std::string> takes = PackagedTakes();
  const std::string current = TakeFileName(scene.take_path());
  if (ImGui::BeginCombo("take", current.c_str())) {
    for (const std::string& take : takes) {
      const std::string name = TakeFileName(take);
      if (ImGui::Selectable(name.c_str(), name == current))
        SendCommand(queue, "markers", {"load", take});
    }
    if (takes.empty()) ImGui::TextColored(kDim, "no packaged takes (assimp-testmodels)");
    ImGui::EndCombo();
  }
}

void MarkersPlayback(const MarkersScene& scene, CommandQueue& queue) {
  const Playback& p = scene.playback;
  if (ImGui::Button(p.playing ? "pause" : "play", ImVec2(60.0f, 0.0f))) {
    SendCommand(queue, "markers", {p.playing ? "pause" : "play"});
  }
  ImGui::SameLine();
  bool loop = p.loop;
  if (ImGui::Checkbox("loop", &loop)) SendCommand(queue, "markers", {"loop", loop ? "on" : "off"});
  ImGui::SameLine();
  float speed = p.speed;
  ImGui::SetNextItemWidth(110.0f);
  if (ImGui::SliderFloat("speed", &speed, kMinPlaybackSpeed, kMaxPlaybackSpeed, "%.2fx",
                         ImGuiSliderFlags_Logarithmic)) {
    SendCommand(queue, "markers", {"speed", CommandNumber(speed)});
  }
  int frame = scene.frame();
  if (ImGui::SliderInt("frame", &frame, 0, scene.take().frame_count - 1)) {
    SendCommand(queue, "markers", {"frame", std::to_string(frame)});
  }
  ImGui::TextColored(kDim, "%.2f / %.2f s at %.0f Hz", p.time, scene.duration(), scene.take().rate);
  ImGui::TextColored(kDim, "%d markers, %d frames", scene.take().marker_count(),
                     scene.take().frame_count);
}

// The frame shown: how many markers in each state, the residuals and the solve's time.
void FrameFigures(const MarkersScene& scene, const AppState& state) {
  const markers::FrameSolution& s = scene.solution();
  int seen = 0, predicted = 0, rejected = 0;
  for (const markers::MarkerState m : s.state) {
    seen += m == markers::MarkerState::kSeen;
    predicted += m == markers::MarkerState::kPredicted;
    rejected += m == markers::MarkerState::kRejected;
  }
  ImGui::TextColored(Colour(kMarkerSeenColor), "seen %d", seen);
  ImGui::SameLine();
  ImGui::TextColored(Colour(kMarkerPredictedColor), "predicted %d", predicted);
  ImGui::SameLine();
  ImGui::TextColored(Colour(kMarkerRejectedColor), "rejected %d", rejected);
  ImGui::Text("residual rms %.1f mm, max %.1f mm", 1000.0f * s.residual_rms,
              1000.0f * s.residual_max);
  ImGui::Text("solve %.0f us, %d FABRIK iterations", state.solve_us, s.iterations);
}

void HideControls(CommandQueue& queue) {
  static int segment = markers::kHandL;
  ImGui::SetNextItemWidth(120.0f);
  ImGui::Combo("##segment", &segment, markers::kSegmentNames.data(), markers::kSegmentCount);
  ImGui::SameLine();
  if (ImGui::Button("hide for 1 s")) {
    SendCommand(queue, "markers",
                {"hide", markers::kSegmentNames[static_cast<std::size_t>(segment)], "for", "1"});
  }
}

// "Export" and its path field, or the running export's progress bar; then how the last export
// ended. Sent as the typed line `markers export bvh|trc PATH` (echoed, errors shown).
void ExportControls(const MarkersScene& scene, CommandQueue& queue) {
  using Export = MarkersScene::Export;
  const std::optional<Export>& last = scene.last_export();
  if (last && last->state == Export::State::kRunning) {
    char label[64];
    std::snprintf(label, sizeof label, "%d / %d frames", last->frames_done, last->frames);
    const float progress =
        static_cast<float>(last->frames_done) / static_cast<float>(std::max(last->frames, 1));
    ImGui::ProgressBar(progress, ImVec2(-1.0f, 0.0f), label);
    ImGui::TextColored(kDim, "solving into %s", last->path.c_str());
    return;
  }
  // The field's text is the shell's, not app state: kept here between frames.
  static char path[512] = "markers_skeleton.bvh";
  ImGui::SetNextItemWidth(-1.0f);
  ImGui::InputText("##markers_export", path, sizeof(path));
  for (const char* kind : {"bvh", "trc"}) {
    if (ImGui::Button(kind == std::string("bvh") ? "Export BVH" : "Export TRC")) {
      queue.Push(Command(cmd::Extension{"markers", {"export", kind, path}}),
                 CommandSource::kConsole);
    }
    ImGui::SameLine();
  }
  ImGui::NewLine();
  if (!last) return;
  if (last->state == Export::State::kDone) {
    ImGui::TextColored(kGood, "wrote %s (%d frames)", last->path.c_str(), last->frames);
  } else {
    ImGui::TextColored(kBad, "%s", last->error.c_str());
  }
}

}  // namespace

void MarkersPanel(const AppState& state, UiState&, CommandQueue& queue) {
  const MarkersScene* scene = state.scene.As<MarkersScene>();
  if (scene == nullptr || !scene->loaded()) return;
  TakePicker(*scene, queue);
  MarkersPlayback(*scene, queue);
  FrameFigures(*scene, state);
  HideControls(queue);
  ExportControls(*scene, queue);
  ImGui::TextColored(kDim, "Click a marker to hide it for 2 s.");
  ImGui::TextColored(kDim, "Console: help markers.");
}

}  // namespace fabrik
