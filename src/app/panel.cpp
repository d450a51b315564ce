// Step 6 of the frame: the control panel. Widgets never change the state; they enqueue
// commands that the next frame applies at its apply step (core/frame.h).
#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "app/panel_widgets.h"
#include "app/scene_shell.h"
#include "app/systems.h"
#include "core/tool_solve.h"
#include "ik/chain_rebuild.h"

namespace fabrik {
namespace {

using panel::kBad;
using panel::kDim;
using panel::kGood;
using panel::kWarn;
using panel::SectionHeader;

void ModeSelector(const AppState& state, CommandQueue& queue) {
  SectionHeader("TARGET MODE");
  const TargetMode modes[] = {TargetMode::kDrag, TargetMode::kSpline, TargetMode::kConsole,
                              TargetMode::kScript};
  const char* labels[] = {"Drag", "Spline", "Console", "Script"};
  for (int i = 0; i < 4; ++i) {
    if (i > 0) ImGui::SameLine();
    if (ImGui::RadioButton(labels[i], state.mode == modes[i]))
      queue.Push(Command(cmd::Mode{modes[i]}));
  }
  ImGui::PushStyleColor(ImGuiCol_Text, kDim);
  ImGui::TextWrapped("%s", panel::ModeHint(state));
  ImGui::PopStyleColor();
}

// File picker + path field + button. Returns true when the user asked to load `input`.
bool FilePicker(const char* id, const std::vector<std::string>& files, const std::string& loaded,
                PickerUi& ui, const char* button) {
  int& picked = ui.picked;
  char* input = ui.path;
  const std::size_t input_size = sizeof(ui.path);
  if (ui.shown != loaded) {  // something else loaded a file: show it
    ui.shown = loaded;
    std::snprintf(ui.path, sizeof(ui.path), "%s", loaded.c_str());
    const auto it = std::find(files.begin(), files.end(), loaded);
    ui.picked = it == files.end() ? -1 : static_cast<int>(it - files.begin());
  }
  ImGui::PushID(id);
  bool load = false;
  const char* preview = picked >= 0 && picked < static_cast<int>(files.size())
                            ? files[static_cast<std::size_t>(picked)].c_str()
                            : "choose a file";
  if (ImGui::BeginCombo("file", preview)) {
    for (int i = 0; i < static_cast<int>(files.size()); ++i) {
      if (ImGui::Selectable(files[static_cast<std::size_t>(i)].c_str(), i == picked)) {
        picked = i;
        std::snprintf(input, input_size, "%s", files[static_cast<std::size_t>(i)].c_str());
        load = true;
      }
    }
    ImGui::EndCombo();
  }
  ImGui::InputText("path", input, input_size);
  ImGui::SameLine();
  load |= ImGui::Button(button);
  ImGui::PopID();
  return load;
}

// The typed command `VERB SUB PATH` gives (spline load, script run): parsed here with the
// app's context, which reads and checks the file as the console line would; the apply step
// then uses the parsed spline or script. A path or file the language refuses is not sent: its
// one error line becomes the panel's message instead.
void PushLoad(const AppState& state, CommandQueue& queue, const char* verb, const char* sub,
              const char* path) {
  const std::string words[] = {verb, sub, path};
  Result<Command> parsed = ParseCommandWords(words, state.command_context);
  if (!parsed.ok()) {
    queue.Push(app::Notice{parsed.error(), true});
    return;
  }
  // As the console line would, its output printed.
  queue.Push(std::move(parsed.value()), CommandSource::kConsole);
}

void SplineSection(const AppState& state, UiState& ui, CommandQueue& queue) {
  const SplineTarget& sp = state.spline;
  if (!ImGui::CollapsingHeader("Spline follow", state.mode == TargetMode::kSpline
                                                    ? ImGuiTreeNodeFlags_DefaultOpen
                                                    : 0)) {
    return;
  }
  if (FilePicker("spline", state.spline_files, sp.path, ui.spline, "Load")) {
    PushLoad(state, queue, "spline", "load", ui.spline.path);
  }
  const SplineFollower& f = sp.follower;
  if (!f.has_spline()) {
    ImGui::TextColored(kDim, "no spline loaded");
    return;
  }
  ImGui::TextColored(kDim, "%s: %d points, %s, length %.4g", sp.path.c_str(),
                     static_cast<int>(f.spline().points().size()),
                     f.spline().closed() ? "closed" : "open", f.spline().length());
  if (ImGui::Button(f.playing() ? "Pause##spline" : "Play##spline")) {
    queue.Push(
        Command(cmd::SplinePlayback{f.playing() ? cmd::Playback::kPause : cmd::Playback::kPlay}));
  }
  ImGui::SameLine();
  if (ImGui::Button("Restart##spline")) {
    queue.Push(Command(cmd::SplinePlayback{cmd::Playback::kRestart}));
  }
  ImGui::SameLine();
  int end = f.end_behavior() == EndBehavior::kLoop ? 0 : 1;
  if (ImGui::RadioButton("loop", &end, 0)) {
    queue.Push(Command(cmd::SplineEnd{EndBehavior::kLoop}));
  }
  ImGui::SameLine();
  if (ImGui::RadioButton("ping-pong", &end, 1)) {
    queue.Push(Command(cmd::SplineEnd{EndBehavior::kPingPong}));
  }
  float speed = f.speed();
  if (ImGui::SliderFloat("speed", &speed, 0.05f, 20.0f, "%.4g u/s",
                         ImGuiSliderFlags_Logarithmic | ImGuiSliderFlags_AlwaysClamp)) {
    queue.Push(Command(cmd::SplineSpeed{speed}));
  }
  ImGui::ProgressBar(static_cast<float>(f.progress()), ImVec2(-1, 0));
}

void ScriptSection(const AppState& state, UiState& ui, CommandQueue& queue) {
  const ScriptTarget& sc = state.script;
  if (!ImGui::CollapsingHeader(
          "Script", state.mode == TargetMode::kScript ? ImGuiTreeNodeFlags_DefaultOpen : 0)) {
    return;
  }
  if (FilePicker("script", state.script_files, sc.path, ui.script, "Run")) {
    PushLoad(state, queue, "script", "run", ui.script.path);
  }
  const ScriptPlayer& p = sc.player;
  // The buttons act as their console lines would, echo included.
  auto playback = [&](cmd::Playback action) {
    queue.Push(Command(cmd::ScriptPlayback{action}), CommandSource::kConsole);
  };
  if (!p.has_script()) {
    ImGui::TextColored(kDim, "no script loaded");
    return;
  }
  if (ImGui::Button(p.playing() ? "Pause##script" : "Play##script")) {
    playback(p.playing() ? cmd::Playback::kPause : cmd::Playback::kPlay);
  }
  ImGui::SameLine();
  if (ImGui::Button("Restart##script")) playback(cmd::Playback::kRestart);
  ImGui::SameLine();
  if (ImGui::Button("Stop##script")) playback(cmd::Playback::kStop);
  const double duration = std::max(p.duration(), 1e-9);
  char overlay[64];
  std::snprintf(overlay, sizeof(overlay), "%.1f / %.1f s", p.time(), p.duration());
  ImGui::ProgressBar(static_cast<float>(std::min(1.0, p.time() / duration)), ImVec2(-1, 0),
                     overlay);
  const std::size_t next = p.next_line_index();
  if (next < p.script().lines().size()) {
    ImGui::TextColored(kDim, "next: line %zu", p.next_source_line());
    ImGui::SameLine();
    ImGui::TextWrapped("%s", p.script().lines()[next].text.c_str());
  } else {
    ImGui::TextColored(kDim, p.finished() ? "finished" : "all lines fired");
  }
}

void ChainEditor(const AppState& state, CommandQueue& queue) {
  if (!state.scene.controls().chain_shape) return;
  SectionHeader("CHAIN");
  int joints = static_cast<int>(state.lengths.size()) + 1;
  const int shown = std::min(joints, kPanelMaxJoints);
  int edit = shown;
  if (ImGui::SliderInt("joints", &edit, 2, kPanelMaxJoints, "%d", ImGuiSliderFlags_AlwaysClamp) &&
      edit != shown) {
    queue.Push(Command(cmd::Joints{edit}));
  }
  if (joints > kPanelMaxJoints) {
    ImGui::TextColored(kDim, "(%d joints from the command line)", joints);
  }
  float uniform = state.uniform_length;
  if (ImGui::SliderFloat("segment length", &uniform, 0.05f, 5.0f, panel::kNumber,
                         ImGuiSliderFlags_Logarithmic | ImGuiSliderFlags_AlwaysClamp)) {
    queue.Push(Command(cmd::Length{uniform}));
  }
  if (ImGui::TreeNode("per-segment lengths")) {
    std::vector<float> lengths = state.lengths;
    bool changed = false;
    const int n = std::min<int>(static_cast<int>(lengths.size()), kPanelMaxJoints);
    for (int i = 0; i < n; ++i) {
      char label[32];
      std::snprintf(label, sizeof(label), "segment %d", i);
      changed |= ImGui::DragFloat(label, &lengths[i], 0.01f, 0.05f, 20.0f, panel::kNumber,
                                  ImGuiSliderFlags_AlwaysClamp);
    }
    if (changed) queue.Push(Command(cmd::Lengths{std::move(lengths)}));
    ImGui::TreePop();
  }
  ImGui::TextColored(kDim, "reach %.4g", state.chain.total_length());
}

void SolverEditor(const AppState& state, CommandQueue& queue) {
  SectionHeader("SOLVER");
  const char* current = state.tools.two_bone ? kTwoBoneSolverName.data() : SolverName(state.solver);
  const SceneControls controls = state.scene.controls();
  if (!controls.solver_choice) {
    // The scene's own solver, in its shell entry's words.
    const SceneShell* shell = FindSceneShell(state.scene.name());
    const char* note = shell && shell->solver_note ? shell->solver_note : "FABRIK";
    if (controls.two_bone && state.tools.two_bone) note = "two_bone (law of cosines, no limits)";
    ImGui::TextColored(kDim, "%s", note);
  } else if (ImGui::BeginCombo("solver", current)) {
    for (SolverKind kind : AllSolvers()) {
      if (ImGui::Selectable(SolverName(kind), kind == state.solver && !state.tools.two_bone)) {
        queue.Push(Command(cmd::Solver{SolverName(kind)}));
      }
    }
    // The analytic two-bone solver: offered for 3-joint chains (docs/tools.md).
    const bool three = state.chain.joint_count() == 3;
    const std::string label = std::string(kTwoBoneSolverName) + (three ? "" : " (3 joints only)");
    if (ImGui::Selectable(label.c_str(), state.tools.two_bone,
                          three ? 0 : ImGuiSelectableFlags_Disabled)) {
      queue.Push(Command(cmd::Solver{std::string(kTwoBoneSolverName)}));
    }
    ImGui::EndCombo();
  }
  if (controls.solver_choice) panel::ToolsSection(state, queue);
  // docs/accelerated-fabrik.md. Used by FABRIK, the arm's constrained FABRIK and the step
  // view; the race shows both FABRIKs whatever this says.
  // Shown where the scene has FABRIK passes, greyed out (with the reason) while the solver in
  // use has none for it to speed up.
  const char* unused = nullptr;
  if (state.tools.two_bone) {
    unused = "two_bone places the joints in one step: no FABRIK passes to accelerate";
  } else if (controls.solver_choice && state.solver != SolverKind::kFabrik) {
    unused = "accelerate speeds up FABRIK only, not the selected solver";
  } else if (controls.solver_choice && AnyStiffness(state.tools)) {
    unused = "stiffness solves with textbook FABRIK passes";
  }
  bool accelerate = state.settings.accelerate;
  if (controls.accelerate) {
    ImGui::BeginDisabled(unused != nullptr);
    if (ImGui::Checkbox("accelerate FABRIK (bend-scale steps)", &accelerate)) {
      queue.Push(Command(cmd::Extension{"accelerate", {accelerate ? "on" : "off"}}));
    }
    ImGui::EndDisabled();
    if (unused != nullptr && ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled)) {
      ImGui::SetTooltip("%s", unused);
    }
  }
  float moe = state.settings.tolerance;
  if (ImGui::SliderFloat("margin of error", &moe, 1e-4f, 1.0f, panel::kNumber,
                         ImGuiSliderFlags_Logarithmic | ImGuiSliderFlags_AlwaysClamp)) {
    queue.Push(Command(cmd::Moe{moe}));
  }
  int cap = state.settings.max_iterations;
  if (ImGui::SliderInt("iteration cap", &cap, 1, 1000, "%d",
                       ImGuiSliderFlags_Logarithmic | ImGuiSliderFlags_AlwaysClamp)) {
    queue.Push(Command(cmd::Iterations{cap}));
  }
}

void Readouts(const AppState& state, const UiState& ui) {
  SectionHeader("THIS FRAME");
  if (ImGui::BeginTable("readouts", 2, ImGuiTableFlags_SizingStretchProp)) {
    auto row = [](const char* name, const ImVec4* color, const char* fmt, auto... args) {
      ImGui::TableNextRow();
      ImGui::TableSetColumnIndex(0);
      ImGui::TextColored(kDim, "%s", name);
      ImGui::TableSetColumnIndex(1);
      if (color) {
        ImGui::TextColored(*color, fmt, args...);
      } else {
        ImGui::Text(fmt, args...);
      }
    };
    row("FPS", nullptr, "%.0f", state.timing.fps);
    row("frame time", nullptr, "%.2f ms", state.timing.frame_ms);
    row("iterations", nullptr, "%d / %d", state.last.iterations, state.settings.max_iterations);
    row("solve time", nullptr, "%.1f us", state.solve_us);
    row("distance", nullptr, "%.4g", state.last.distance);
    const ImVec4& reach_color = state.last.reachable ? kGood : kBad;
    row("reachable", &reach_color, "%s", state.last.reachable ? "yes" : "no: out of reach");
    const ImVec4& reached_color = state.last.reached ? kGood : kWarn;
    row("reached", &reached_color, "%s", state.last.reached ? "within margin" : "not yet");
    row("target", nullptr, "%.4g  %.4g  %.4g", state.target().x, state.target().y,
        state.target().z);
    row("draw calls", nullptr, "%d", ui.report.draw_calls);
    ImGui::EndTable();
  }
  const float width = ImGui::GetContentRegionAvail().x;
  char overlay[64];
  std::snprintf(overlay, sizeof(overlay), "iterations (max %.0f)", state.iteration_history.max());
  ImGui::PlotHistogram("##iterations", state.iteration_history.data(),
                       state.iteration_history.size(), state.iteration_history.offset(), overlay,
                       0.0f, std::max(4.0f, state.iteration_history.max()), ImVec2(width, 44));
  std::snprintf(overlay, sizeof(overlay), "solve us (mean %.1f)", state.solve_us_history.mean());
  ImGui::PlotLines("##solve", state.solve_us_history.data(), state.solve_us_history.size(),
                   state.solve_us_history.offset(), overlay, 0.0f,
                   std::max(1.0f, state.solve_us_history.max() * 1.1f), ImVec2(width, 44));
  std::snprintf(overlay, sizeof(overlay), "fps (mean %.0f)", state.fps_history.mean());
  ImGui::PlotLines("##fps", state.fps_history.data(), state.fps_history.size(),
                   state.fps_history.offset(), overlay, 0.0f,
                   std::max(1.0f, state.fps_history.max() * 1.1f), ImVec2(width, 44));
}

void CameraSection(CommandQueue& queue) {
  SectionHeader("CAMERA");
  if (ImGui::Button("Reset camera (R)")) queue.Push(Command(cmd::CameraReset{}));
  ImGui::PushStyleColor(ImGuiCol_Text, kDim);
  ImGui::TextWrapped(
      "Right drag: orbit   Middle or Shift+right drag: pan   Wheel: zoom   "
      "1-4: modes   P: step view   `: console   F1: help   F12: screenshot");
  ImGui::PopStyleColor();
}

}  // namespace

const char* panel::ModeHint(const AppState& state) {
  switch (state.mode) {
    case TargetMode::kDrag:
      return "Left-drag the orange effector or the target (or click anywhere).";
    case TargetMode::kSpline:
      return state.spline.follower.has_spline() ? "The target follows the spline at constant speed."
                                                : "Load a spline below (or 'spline load PATH').";
    case TargetMode::kConsole:
      return "Type 'target X Y Z' in the console (` key).";
    case TargetMode::kScript:
      break;
  }
  return "A timed script drives the target.";
}

void DrawPanel(const AppState& state, UiState& ui, CommandQueue& queue) {
  panel::StepCaption(state);
  const ImGuiViewport* viewport = ImGui::GetMainViewport();
  ImGui::SetNextWindowPos(ImVec2(viewport->Pos.x + 10, viewport->Pos.y + 10), ImGuiCond_Always);
  ImGui::SetNextWindowSize(ImVec2(state.view.panel_width, viewport->Size.y - 20), ImGuiCond_Always);
  ImGui::SetNextWindowBgAlpha(0.88f);
  const ImGuiWindowFlags flags =
      ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoResize | ImGuiWindowFlags_NoCollapse;
  if (ImGui::Begin("FABRIK inverse kinematics", nullptr, flags)) {
    ImGui::PushItemWidth(-120);
    panel::HelpButtons(state, queue);
    ModeSelector(state, queue);
    panel::SceneSection(state, ui, queue);
    SplineSection(state, ui, queue);
    ScriptSection(state, ui, queue);
    ChainEditor(state, queue);
    SolverEditor(state, queue);
    panel::OrientSection(state, queue);
    // Only the sections the scene says apply (Scene::controls).
    if (state.scene.controls().step_view) panel::StepSection(state, queue);
    if (state.scene.controls().race) panel::RaceSection(state, queue);
    panel::RecordViewSection(state, ui, queue);
    Readouts(state, ui);
    CameraSection(queue);
    ImGui::PopItemWidth();
    if (!state.message.empty()) {
      ImGui::Spacing();
      ImGui::Separator();
      ImGui::PushStyleColor(ImGuiCol_Text, state.message_is_error ? kBad : kDim);
      ImGui::TextWrapped("%s", state.message.c_str());
      ImGui::PopStyleColor();
    }
  }
  ImGui::End();
}

}  // namespace fabrik
