// The mocap scene's panel section: the clip picker, the body picker, playback, the IK weight, the
// view toggles, readouts and the export. Every change is sent as the console command that does the
// same (docs/mocap.md: The mocap scene).
#include <imgui.h>

#include <cstdio>
#include <string>
#include <vector>

#include "app/panel_widgets.h"
#include "app/ui_state.h"
#include "scenes/mocap/mocap_config.h"
#include "scenes/mocap/mocap_panel.h"
#include "scenes/mocap/mocap_scene.h"

namespace fabrik {
namespace {

using namespace panel;

std::string FileName(const std::string& path) {
  const std::size_t slash = path.find_last_of('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

void ClipPicker(const MocapScene& scene, CommandQueue& queue) {
  // The packaged clips do not change while the demo runs: listed once.
  static const std::vector<std::string> clips = PackagedClips();
  const std::string current = FileName(scene.clip_path());
  if (ImGui::BeginCombo("clip", current.c_str())) {
    for (const std::string& clip : clips) {
      const std::string name = FileName(clip);
      if (ImGui::Selectable(name.c_str(), name == current))
        SendCommand(queue, "mocap", {"load", clip});
    }
    if (clips.empty()) ImGui::TextColored(kDim, "no packaged clips (assimp-testmodels)");
    ImGui::EndCombo();
  }
}

// The body: capsules on the clip's bones, or the packaged skinned human (or the file loaded
// with `character PATH`), with the retargeting switch and its cost a frame.
void CharacterPicker(const MocapScene& scene, CommandQueue& queue) {
  const std::optional<MocapSkin>& skin = scene.skin();
  BodyCombo(skin ? &*skin : nullptr, queue);
  if (!skin) return;
  bool retarget = scene.retarget();
  if (ImGui::Checkbox("retarget", &retarget)) {
    SendCommand(queue, "retarget", {retarget ? "on" : "off"});
  }
  ImGui::SameLine();
  bool linear = scene.linear_skinning();
  if (ImGui::Checkbox("linear blend", &linear)) {
    SendCommand(queue, "character", {"skinning", linear ? "linear" : "dq"});
  }
  ImGui::TextColored(kDim, "%d bones, %zu vertices; retarget %.1f us, skin %.1f us",
                     skin->model().skeleton.bone_count(), skin->model().vertices.size(),
                     skin->retarget_us(), skin->skin_us());
}

void PlaybackControls(const MocapScene& scene, CommandQueue& queue) {
  const Playback& p = scene.playback;
  const mocap::Clip& clip = scene.character().rig().clip;
  if (ImGui::Button(p.playing ? "pause" : "play", ImVec2(60.0f, 0.0f))) {
    SendCommand(queue, "mocap", {p.playing ? "pause" : "play"});
  }
  ImGui::SameLine();
  bool loop = p.loop;
  if (ImGui::Checkbox("loop", &loop)) SendCommand(queue, "mocap", {"loop", loop ? "on" : "off"});
  ImGui::SameLine();
  float speed = p.speed;
  ImGui::SetNextItemWidth(110.0f);
  if (ImGui::SliderFloat("speed", &speed, kMinPlaybackSpeed, kMaxPlaybackSpeed, "%.2fx",
                         ImGuiSliderFlags_Logarithmic)) {
    SendCommand(queue, "mocap", {"speed", CommandNumber(speed)});
  }
  int frame = scene.frame();
  if (ImGui::SliderInt("frame", &frame, 0, clip.frame_count() - 1)) {
    SendCommand(queue, "mocap", {"frame", std::to_string(frame)});
  }
  ImGui::TextColored(kDim, "%.2f / %.2f s, %d frames at %.0f Hz, %.3g m per unit (%s)", p.time,
                     clip.duration(), clip.frame_count(), 1.0f / clip.frame_time(), clip.scale(),
                     mocap::ScaleSourceName(clip.scale_source()));
}

void IkControls(const MocapScene& scene, CommandQueue& queue) {
  const mocap::Character& c = scene.character();
  float weight = c.ik_weight();
  if (ImGui::SliderFloat("IK weight", &weight, 0.0f, 1.0f, "%.2f")) {
    SendCommand(queue, "ik", {"weight", CommandNumber(weight)});
  }
  bool ghost = scene.ghost, follow = scene.follow;
  if (ImGui::Checkbox("ghost (the clip before IK)", &ghost)) {
    SendCommand(queue, "ghost", {ghost ? "on" : "off"});
  }
  if (ImGui::Checkbox("camera follows", &follow))
    SendCommand(queue, "follow", {follow ? "on" : "off"});

  const char* sides[] = {"left", "right"};
  for (const mocap::Side side : {mocap::kLeft, mocap::kRight}) {
    const mocap::FootState& foot = c.foot(side);
    ImGui::TextColored(foot.pinned ? kGood : kDim, "%s foot: %s", sides[side],
                       foot.pinned    ? "pinned"
                       : foot.contact ? "landing"
                                      : "swinging");
  }
  for (const mocap::Side side : {mocap::kLeft, mocap::kRight}) {
    const auto target = c.reach_target(side);
    ImGui::PushID(side);
    if (target) {
      ImGui::TextColored(kWarn, "%s hand reaches (%.2f, %.2f, %.2f)", sides[side], target->x,
                         target->y, target->z);
      ImGui::SameLine();
      if (ImGui::SmallButton("let go")) SendCommand(queue, "reach", {sides[side], "off"});
    } else {
      ImGui::TextColored(kDim, "%s hand follows the clip", sides[side]);
    }
    ImGui::PopID();
  }
  if (const auto look = c.look_target()) {
    ImGui::TextColored(kWarn, "looks at (%.2f, %.2f, %.2f)", look->x, look->y, look->z);
    ImGui::SameLine();
    if (ImGui::SmallButton("look off")) SendCommand(queue, "look", {"off"});
  }
  ImGui::Text("IK %.1f us a frame (legs, pelvis, arms, gaze)", scene.ik_us());
}

// The live grounding figures, the clip's own against the IK's (mocap/grounding_meter.h), in
// centimetres: how far a planted foot slides, how deep a foot goes below the ground, and the
// largest jump of a joint beyond what the clip moves it.
void GroundingTable(const MocapScene& scene) {
  const mocap::GroundingFigures clip = scene.ClipGrounding(), ik = scene.IkGrounding();
  if (!ImGui::BeginTable("grounding", 3, ImGuiTableFlags_SizingStretchProp)) return;
  ImGui::TableSetupColumn("over the frames played");
  ImGui::TableSetupColumn("clip");
  ImGui::TableSetupColumn("with IK");
  ImGui::TableHeadersRow();
  const auto row = [](const char* what, double a, double b) {
    ImGui::TableNextRow();
    ImGui::TableNextColumn();
    ImGui::TextUnformatted(what);
    ImGui::TableNextColumn();
    ImGui::Text("%.2f cm", 100.0 * a);
    ImGui::TableNextColumn();
    ImGui::TextColored(b <= a ? kGood : kWarn, "%.2f cm", 100.0 * b);
  };
  row("foot skate, worst", clip.skate_worst, ik.skate_worst);
  row("below ground, worst", clip.penetration_worst, ik.penetration_worst);
  row("pop, worst", clip.pop_worst, ik.pop_worst);
  row("outrun, worst", clip.outrun_worst, ik.outrun_worst);
  ImGui::EndTable();
}

// "Export BVH..." and its path field, or the running export's progress bar; then how the
// last export ended. Sent as the typed line `mocap export PATH` (echoed, errors shown).
void ExportControls(const MocapScene& scene, UiState& ui, CommandQueue& queue) {
  const std::optional<ClipExport>& last = scene.clip_export();
  if (last && last->running()) {
    char label[64];
    std::snprintf(label, sizeof label, "%d / %d frames", last->frames_done(), last->frame_count());
    ImGui::ProgressBar(last->progress(), ImVec2(-1.0f, 0.0f), label);
    ImGui::TextColored(kDim, "baking into %s", last->path().c_str());
    return;
  }
  if (ImGui::Button("Export BVH...")) {
    queue.Push(Command(cmd::Extension{"mocap", {"export", ui.export_path}}),
               CommandSource::kConsole);
  }
  ImGui::SameLine();
  ImGui::SetNextItemWidth(-1.0f);
  ImGui::InputText("##export_path", ui.export_path, sizeof(ui.export_path));
  if (!last) return;
  if (last->state() == ClipExport::State::kDone) {
    ImGui::TextColored(kGood, "wrote %s (%d frames)", last->path().c_str(), last->frame_count());
  } else {
    ImGui::TextColored(kBad, "%s", last->error().c_str());
  }
}

}  // namespace

void BodyCombo(const MocapSkin* skin, CommandQueue& queue) {
  const std::string current = skin ? FileName(skin->path()) : "capsules";
  if (ImGui::BeginCombo("body", current.c_str())) {
    if (ImGui::Selectable("capsules", !skin)) SendCommand(queue, "character", {"capsules"});
    const std::string human = FileName(kPackagedHumanPath);
    if (ImGui::Selectable(human.c_str(), current == human)) {
      SendCommand(queue, "character", {kPackagedHumanPath});
    }
    ImGui::EndCombo();
  }
}

void MocapPanel(const AppState& state, UiState& ui, CommandQueue& queue) {
  const MocapScene* scene = state.scene.As<MocapScene>();
  if (scene == nullptr) return;
  ClipPicker(*scene, queue);
  CharacterPicker(*scene, queue);
  PlaybackControls(*scene, queue);
  IkControls(*scene, queue);
  GroundingTable(*scene);
  ExportControls(*scene, ui, queue);
  ImGui::TextColored(kDim, "Drag the orange ball: the right hand reaches for it.");
  ImGui::TextColored(kDim, "Console: reach, look, ik weight, mocap (help mocap).");
}

}  // namespace fabrik
