// Step 6 of the frame: the control panel. Widgets never change the chain directly; they
// request changes (pending_*) that the next frame applies at its settings step.
#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "app/commands.h"
#include "app/step_view.h"
#include <glm/geometric.hpp>
#include "app/systems.h"
#include "ik/chain_rebuild.h"
#include "targets/spline_file.h"

namespace fabrik {
namespace {

const ImVec4 kGood(0.35f, 0.90f, 0.50f, 1.0f);
const ImVec4 kWarn(0.98f, 0.80f, 0.30f, 1.0f);
const ImVec4 kBad(0.98f, 0.42f, 0.38f, 1.0f);
const ImVec4 kDim(0.62f, 0.65f, 0.70f, 1.0f);

void SectionHeader(const char* text) {
  ImGui::Spacing();
  ImGui::PushStyleColor(ImGuiCol_Text, kDim);
  ImGui::TextUnformatted(text);
  ImGui::PopStyleColor();
  ImGui::Separator();
}

void ModeSelector(AppState& state) {
  SectionHeader("TARGET MODE");
  const TargetMode modes[] = {TargetMode::kDrag, TargetMode::kSpline, TargetMode::kConsole,
                              TargetMode::kScript};
  const char* labels[] = {"Drag", "Spline", "Console", "Script"};
  for (int i = 0; i < 4; ++i) {
    if (i > 0) ImGui::SameLine();
    if (ImGui::RadioButton(labels[i], state.mode == modes[i])) state.pending_mode = modes[i];
  }
  ImGui::PushStyleColor(ImGuiCol_Text, kDim);
  switch (state.mode) {
    case TargetMode::kDrag:
      ImGui::TextWrapped("Left-drag the orange effector or the target (or click anywhere).");
      break;
    case TargetMode::kSpline:
      ImGui::TextWrapped(state.spline.follower.has_spline()
                             ? "The target follows the spline at constant speed."
                             : "Load a spline below (or 'spline load PATH').");
      break;
    case TargetMode::kConsole:
      ImGui::TextWrapped("Type 'target X Y Z' in the console (` key).");
      break;
    case TargetMode::kScript:
      ImGui::TextWrapped("A timed script drives the target.");
      break;
  }
  ImGui::PopStyleColor();
}

// File picker + path field + button. Returns true when the user asked to load `input`.
bool FilePicker(const char* id, const std::vector<std::string>& files, int& picked,
                char* input, std::size_t input_size, const char* button) {
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

void SplineSection(AppState& state) {
  SplineState& sp = state.spline;
  if (!ImGui::CollapsingHeader("Spline follow", state.mode == TargetMode::kSpline
                                                    ? ImGuiTreeNodeFlags_DefaultOpen
                                                    : 0)) {
    return;
  }
  if (FilePicker("spline", state.spline_files, sp.picked, sp.path_input, sizeof(sp.path_input),
                 "Load")) {
    RunConsoleLine(state, "spline load \"" + std::string(sp.path_input) + "\"");
  }
  SplineFollower& f = sp.follower;
  if (!f.has_spline()) {
    ImGui::TextColored(kDim, "no spline loaded");
    return;
  }
  ImGui::TextColored(kDim, "%s: %d points, %s, length %.2f", sp.path.c_str(),
                     static_cast<int>(f.spline().points().size()),
                     f.spline().closed() ? "closed" : "open", f.spline().length());
  if (ImGui::Button(f.playing() ? "Pause##spline" : "Play##spline")) {
    f.playing() ? f.Pause() : f.Play();
  }
  ImGui::SameLine();
  if (ImGui::Button("Restart##spline")) f.Restart();
  ImGui::SameLine();
  int end = f.end_behavior() == EndBehavior::kLoop ? 0 : 1;
  if (ImGui::RadioButton("loop", &end, 0)) f.SetEndBehavior(EndBehavior::kLoop);
  ImGui::SameLine();
  if (ImGui::RadioButton("ping-pong", &end, 1)) f.SetEndBehavior(EndBehavior::kPingPong);
  float speed = f.speed();
  if (ImGui::SliderFloat("speed", &speed, 0.05f, 20.0f, "%.2f u/s",
                         ImGuiSliderFlags_Logarithmic | ImGuiSliderFlags_AlwaysClamp)) {
    (void)f.SetSpeed(speed);
  }
  ImGui::ProgressBar(static_cast<float>(f.progress()), ImVec2(-1, 0));
}

void ScriptSection(AppState& state) {
  ScriptState& sc = state.script;
  if (!ImGui::CollapsingHeader("Script", state.mode == TargetMode::kScript
                                             ? ImGuiTreeNodeFlags_DefaultOpen
                                             : 0)) {
    return;
  }
  if (FilePicker("script", state.script_files, sc.picked, sc.path_input, sizeof(sc.path_input),
                 "Run")) {
    RunConsoleLine(state, "script run \"" + std::string(sc.path_input) + "\"");
  }
  ScriptPlayer& p = sc.player;
  if (!p.has_script()) {
    ImGui::TextColored(kDim, "no script loaded");
    return;
  }
  if (ImGui::Button(p.playing() ? "Pause##script" : "Play##script")) {
    RunConsoleLine(state, p.playing() ? "script pause" : "script play");
  }
  ImGui::SameLine();
  if (ImGui::Button("Restart##script")) RunConsoleLine(state, "script restart");
  ImGui::SameLine();
  if (ImGui::Button("Stop##script")) RunConsoleLine(state, "script stop");
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

void ConstraintEditor(JointConstraint& c, bool allow_world) {
  int type = static_cast<int>(c.type);
  const char* types[] = {"none", "ball (elliptical cone)", "hinge"};
  if (ImGui::Combo("type", &type, types, 3)) {
    JointConstraint next;
    if (type == 1) next = JointConstraint::Ball(0.8f, 0.8f, 0.8f, 0.8f);
    if (type == 2) next = JointConstraint::Hinge({1.0f, 0.0f, 0.0f}, -1.5f, 1.5f);
    c = next;
  }
  if (c.type == ConstraintType::kBall) {
    ImGui::SliderAngle("up", &c.cone.up, 0.0f, 180.0f);
    ImGui::SliderAngle("down", &c.cone.down, 0.0f, 180.0f);
    ImGui::SliderAngle("left", &c.cone.left, 0.0f, 180.0f);
    ImGui::SliderAngle("right", &c.cone.right, 0.0f, 180.0f);
  } else if (c.type == ConstraintType::kHinge) {
    ImGui::SliderAngle("clockwise limit", &c.hinge.min_angle, -180.0f, 180.0f);
    ImGui::SliderAngle("anticlockwise", &c.hinge.max_angle, -180.0f, 180.0f);
    if (c.hinge.max_angle < c.hinge.min_angle) c.hinge.max_angle = c.hinge.min_angle;
    float axis[3] = {c.hinge.axis.x, c.hinge.axis.y, c.hinge.axis.z};
    if (ImGui::DragFloat3("axis", axis, 0.01f, -1.0f, 1.0f)) {
      const glm::vec3 a(axis[0], axis[1], axis[2]);
      if (glm::dot(a, a) > 1e-6f) c.hinge.axis = a;  // a zero axis is refused
    }
    if (allow_world) {
      int space = c.hinge.space == HingeSpace::kWorld ? 1 : 0;
      const char* spaces[] = {"relative to the parent", "fixed in the world"};
      if (ImGui::Combo("axis space", &space, spaces, 2)) {
        c.hinge.space = space == 1 ? HingeSpace::kWorld : HingeSpace::kParent;
      }
    }
  }
}

// A readable name for a creature effector, from where it sits on the rest pose.
const char* EffectorLabel(const Tree& tree, int node) {
  const glm::vec3 p = tree.positions()[static_cast<std::size_t>(node)];
  const glm::vec3 root = tree.root();
  const float side = p.x - root.x;
  const float scale = tree.total_length() / 16.0f;
  if (p.y < root.y - scale) return side < 0.0f ? "left foot" : "right foot";
  if (std::fabs(side) < scale) return "head";
  return side < 0.0f ? "left hand" : "right hand";
}

void SceneSection(AppState& state) {
  SectionHeader("SCENE");
  SceneState& scene = state.scene;
  int kind = static_cast<int>(scene.kind);
  const char* names[] = {"chain", "robot arm (hinges, pole)", "creature (5 effectors)"};
  if (ImGui::Combo("scene", &kind, names, 3) && kind != static_cast<int>(scene.kind)) {
    RunConsoleLine(state, std::string("scene ") + SceneName(static_cast<SceneKind>(kind)));
  }
  if (scene.kind == SceneKind::kArm) {
    ArmScene& arm = scene.arm;
    ImGui::Checkbox("turntable faces the target", &arm.turntable);
    ImGui::Checkbox("pole (violet) picks the elbow side", &arm.use_pole);
    if (arm.use_pole) {
      float pole[3] = {arm.pole.x, arm.pole.y, arm.pole.z};
      if (ImGui::DragFloat3("pole", pole, 0.02f, -100.0f, 100.0f)) {
        arm.pole = glm::vec3(pole[0], pole[1], pole[2]);
      }
    }
    const int n = static_cast<int>(arm.constraints.joints.size());
    ImGui::SliderInt("joint", &arm.selected_joint, 0, std::max(0, n - 1));
    arm.selected_joint = std::clamp(arm.selected_joint, 0, std::max(0, n - 1));
    if (n > 0) {
      ImGui::PushID("arm_joint");
      JointConstraint edited = arm.constraints.joints[static_cast<std::size_t>(arm.selected_joint)];
      ConstraintEditor(edited, true);
      if (ValidateJointConstraint(edited) == nullptr) {
        arm.constraints.joints[static_cast<std::size_t>(arm.selected_joint)] = edited;
      }
      ImGui::PopID();
    }
    if (arm.last.limited) {
      ImGui::TextColored(kWarn, "reachable, but the limits hold the arm back");
    }
    // Joint 0 is the rigid pedestal, always "at its limit": not worth counting.
    int at_limit = 0;
    for (std::size_t i = 1; i < arm.at_limit.size(); ++i) at_limit += arm.at_limit[i] ? 1 : 0;
    ImGui::TextColored(kDim, "joints at their limit: %d (red); drag the violet pole", at_limit);
  } else if (scene.kind == SceneKind::kCreature && scene.creature.tree) {
    CreatureScene& c = scene.creature;
    if (ImGui::BeginTable("effectors", 4, ImGuiTableFlags_SizingStretchProp)) {
      ImGui::TableSetupColumn("effector");
      ImGui::TableSetupColumn("driven");
      ImGui::TableSetupColumn("distance");
      ImGui::TableSetupColumn("weight");
      ImGui::TableHeadersRow();
      for (std::size_t k = 0; k < c.targets.size(); ++k) {
        ImGui::PushID(static_cast<int>(k));
        ImGui::TableNextRow();
        ImGui::TableSetColumnIndex(0);
        ImGui::Text("%s", EffectorLabel(*c.tree, c.targets[k].node));
        ImGui::TableSetColumnIndex(1);
        if (ImGui::RadioButton("##primary", c.primary == static_cast<int>(k))) {
          c.primary = static_cast<int>(k);
          state.target = state.source_target = c.targets[k].position;
        }
        ImGui::TableSetColumnIndex(2);
        ImGui::TextColored(c.distances[k] <= state.settings.tolerance ? kGood : kWarn, "%.3f",
                           c.distances[k]);
        ImGui::TableSetColumnIndex(3);
        ImGui::SetNextItemWidth(-1);
        ImGui::SliderFloat("##w", &c.targets[k].weight, 0.0f, 5.0f, "%.1f");
        ImGui::PopID();
      }
      ImGui::EndTable();
    }
    ImGui::TextColored(kDim, "'driven': the effector the modes move. Drag any effector or target.");
    if (c.last.limited) ImGui::TextColored(kWarn, "the limits hold the creature back");
  }
}

void ChainEditor(AppState& state) {
  if (state.scene.kind != SceneKind::kChain) return;
  SectionHeader("CHAIN");
  int joints = static_cast<int>(state.lengths.size()) + 1;
  const int shown = std::min(joints, kPanelMaxJoints);
  int edit = shown;
  if (ImGui::SliderInt("joints", &edit, 2, kPanelMaxJoints, "%d", ImGuiSliderFlags_AlwaysClamp) &&
      edit != shown) {
    std::vector<float> lengths = state.lengths;
    lengths.resize(static_cast<std::size_t>(edit - 1), state.uniform_length);
    RequestLengths(state, std::move(lengths));
  }
  if (joints > kPanelMaxJoints) {
    ImGui::TextColored(kDim, "(%d joints from the command line)", joints);
  }
  float uniform = state.uniform_length;
  if (ImGui::SliderFloat("segment length", &uniform, 0.05f, 5.0f, "%.2f",
                         ImGuiSliderFlags_Logarithmic | ImGuiSliderFlags_AlwaysClamp)) {
    state.uniform_length = uniform;
    RequestLengths(state, UniformLengths(static_cast<int>(state.lengths.size()), uniform));
  }
  if (ImGui::TreeNode("per-segment lengths")) {
    std::vector<float> lengths = state.lengths;
    bool changed = false;
    const int n = std::min<int>(static_cast<int>(lengths.size()), kPanelMaxJoints);
    for (int i = 0; i < n; ++i) {
      char label[32];
      std::snprintf(label, sizeof(label), "segment %d", i);
      changed |= ImGui::DragFloat(label, &lengths[i], 0.01f, 0.05f, 20.0f, "%.3f",
                                  ImGuiSliderFlags_AlwaysClamp);
    }
    if (changed) RequestLengths(state, std::move(lengths));
    ImGui::TreePop();
  }
  ImGui::TextColored(kDim, "reach %.3f", state.chain.total_length());
}

void SolverEditor(AppState& state) {
  SectionHeader("SOLVER");
  const char* current = SolverName(state.solver);
  if (state.scene.kind != SceneKind::kChain) {
    ImGui::TextColored(kDim, state.scene.kind == SceneKind::kArm
                                 ? "constrained FABRIK (limits applied in both passes)"
                                 : "FABRIK for trees (centroid of the sub-bases)");
  } else if (ImGui::BeginCombo("solver", current)) {
    for (SolverKind kind : AllSolvers()) {
      if (ImGui::Selectable(SolverName(kind), kind == state.solver)) state.solver = kind;
    }
    ImGui::EndCombo();
  }
  float moe = state.settings.tolerance;
  if (ImGui::SliderFloat("margin of error", &moe, 1e-4f, 1.0f, "%.4f",
                         ImGuiSliderFlags_Logarithmic | ImGuiSliderFlags_AlwaysClamp)) {
    state.settings.tolerance = moe;
  }
  int cap = state.settings.max_iterations;
  if (ImGui::SliderInt("iteration cap", &cap, 1, 1000, "%d",
                       ImGuiSliderFlags_Logarithmic | ImGuiSliderFlags_AlwaysClamp)) {
    state.settings.max_iterations = cap;
  }
}

void Readouts(AppState& state) {
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
    row("distance", nullptr, "%.5f", state.last.distance);
    const ImVec4& reach_color = state.last.reachable ? kGood : kBad;
    row("reachable", &reach_color, "%s", state.last.reachable ? "yes" : "no: out of reach");
    const ImVec4& reached_color = state.last.reached ? kGood : kWarn;
    row("reached", &reached_color, "%s", state.last.reached ? "within margin" : "not yet");
    row("target", nullptr, "%.2f  %.2f  %.2f", state.target.x, state.target.y, state.target.z);
    row("draw calls", nullptr, "%d", state.draw_calls);
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

void StepSection(AppState& state) {
  StepState& s = state.step;
  if (!ImGui::CollapsingHeader("Step through a solve (P)",
                               s.active ? ImGuiTreeNodeFlags_DefaultOpen : 0)) {
    return;
  }
  bool active = s.active;
  if (ImGui::Checkbox("pause and step", &active)) SetStepView(state, active);
  if (!s.active) {
    ImGui::TextColored(kDim, "Freezes the target and replays one solve reach by reach.");
    return;
  }
  const RecordingObserver& r = s.recording;
  ImGui::SameLine();
  ImGui::TextColored(kDim, "step %zu / %zu", s.step, r.reach_count());
  // |<  <<  <  >  >>  >|   iteration, half-pass and reach steps, both ways.
  if (ImGui::Button("|<")) StepToStart(state);
  ImGui::SameLine();
  if (ImGui::Button("-it")) StepIteration(state, -1);
  ImGui::SameLine();
  if (ImGui::Button("-pass")) StepHalfPass(state, -1);
  ImGui::SameLine();
  if (ImGui::Button("-1")) StepBy(state, -1);
  ImGui::SameLine();
  if (ImGui::Button("+1")) StepBy(state, +1);
  ImGui::SameLine();
  if (ImGui::Button("+pass")) StepHalfPass(state, +1);
  ImGui::SameLine();
  if (ImGui::Button("+it")) StepIteration(state, +1);
  ImGui::SameLine();
  if (ImGui::Button(">|")) StepToEnd(state);
  if (ImGui::Button(s.playing ? "Pause##step" : "Play##step")) s.playing = !s.playing;
  ImGui::SameLine();
  ImGui::SetNextItemWidth(-1);
  ImGui::SliderFloat("##rate", &s.reaches_per_second, 0.5f, 60.0f, "%.1f reaches/s",
                     ImGuiSliderFlags_Logarithmic);
  ImGui::TextWrapped("%s", DescribeStep(state).c_str());
  // Distance to the target after each iteration of the recorded solve.
  if (r.recorded() && ImGui::BeginTable("iterations", 3, ImGuiTableFlags_BordersInnerH |
                                                           ImGuiTableFlags_ScrollY,
                                        ImVec2(0, 110))) {
    ImGui::TableSetupColumn("iteration");
    ImGui::TableSetupColumn("after pass");
    ImGui::TableSetupColumn("distance");
    ImGui::TableHeadersRow();
    const std::size_t current = s.step == 0 ? static_cast<std::size_t>(-1)
                                            : r.reach(s.step - 1).half_pass;
    for (std::size_t h = 0; h < r.half_pass_count(); ++h) {
      const RecordingObserver::HalfPass pass = r.half_pass(h);
      ImGui::TableNextRow();
      const ImVec4 color = h == current ? ImVec4(1.0f, 0.92f, 0.3f, 1.0f) : kDim;
      ImGui::TableSetColumnIndex(0);
      ImGui::TextColored(color, "%d", pass.iteration);
      ImGui::TableSetColumnIndex(1);
      ImGui::TextColored(color, "%s", pass.kind == PassKind::kBackward  ? "backward"
                                      : pass.kind == PassKind::kForward ? "forward"
                                                                        : "straighten");
      ImGui::TableSetColumnIndex(2);
      ImGui::TextColored(color, "%.5f", pass.distance);
    }
    ImGui::EndTable();
  }
  ImGui::TextColored(kDim, "Keys: Left/Right reach, Shift+Left/Right pass, Up/Down iteration,");
  ImGui::TextColored(kDim, "Home/End, Space play.");
}

void RaceSection(AppState& state) {
  RaceState& race = state.race;
  if (!ImGui::CollapsingHeader("Race the solvers", race.active ? ImGuiTreeNodeFlags_DefaultOpen
                                                               : 0)) {
    return;
  }
  bool active = race.active;
  if (ImGui::Checkbox("run every solver on the same target", &active)) SetRace(state, active);
  if (!race.active) return;
  if (ImGui::BeginTable("race", 4, ImGuiTableFlags_SizingStretchProp)) {
    ImGui::TableSetupColumn("solver");
    ImGui::TableSetupColumn("iter");
    ImGui::TableSetupColumn("us");
    ImGui::TableSetupColumn("distance");
    ImGui::TableHeadersRow();
    for (const RaceEntry& e : race.entries) {
      const glm::vec4 c = RacerColor(e.kind);
      ImGui::TableNextRow();
      ImGui::TableSetColumnIndex(0);
      ImGui::TextColored(ImVec4(c.r, c.g, c.b, 1.0f), "%s", SolverName(e.kind));
      ImGui::TableSetColumnIndex(1);
      ImGui::Text("%d", e.last.iterations);
      ImGui::TableSetColumnIndex(2);
      ImGui::Text("%.1f", e.solve_us);
      ImGui::TableSetColumnIndex(3);
      ImGui::TextColored(e.last.reached ? kGood : kWarn, "%.4f", e.last.distance);
    }
    ImGui::EndTable();
  }
  const float width = ImGui::GetContentRegionAvail().x;
  for (const RaceEntry& e : race.entries) {
    const glm::vec4 c = RacerColor(e.kind);
    char overlay[64];
    std::snprintf(overlay, sizeof(overlay), "%s iterations (mean %.1f)", SolverName(e.kind),
                  e.iteration_history.mean());
    ImGui::PushStyleColor(ImGuiCol_PlotLines, ImVec4(c.r, c.g, c.b, 1.0f));
    const std::string id = std::string("##race_") + SolverName(e.kind);
    ImGui::PlotLines(id.c_str(),
                     e.iteration_history.data(), e.iteration_history.size(),
                     e.iteration_history.offset(), overlay, 0.0f,
                     std::max(2.0f, e.iteration_history.max()), ImVec2(width, 32));
    ImGui::PopStyleColor();
  }
}

void CameraSection(AppState& state) {
  SectionHeader("CAMERA");
  if (ImGui::Button("Reset camera (R)")) state.pending_camera_reset = true;
  ImGui::PushStyleColor(ImGuiCol_Text, kDim);
  ImGui::TextWrapped(
      "Right drag: orbit   Middle or Shift+right drag: pan   Wheel: zoom   "
      "1-4: modes   P: step view   `: console");
  ImGui::PopStyleColor();
}

}  // namespace

// A caption over the scene while stepping: what the reach on screen does.
void StepCaption(AppState& state) {
  if (!state.step.active) return;
  const ImGuiViewport* vp = ImGui::GetMainViewport();
  const float left = state.view.panel_width + 20.0f;
  const float width = std::max(200.0f, vp->Size.x - left - 10.0f);
  ImGui::SetNextWindowPos(ImVec2(vp->Pos.x + left, vp->Pos.y + 10), ImGuiCond_Always);
  ImGui::SetNextWindowSize(ImVec2(width, 0), ImGuiCond_Always);
  ImGui::SetNextWindowBgAlpha(0.75f);
  const ImGuiWindowFlags flags = ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoMove |
                                 ImGuiWindowFlags_NoInputs | ImGuiWindowFlags_NoSavedSettings |
                                 ImGuiWindowFlags_AlwaysAutoResize;
  if (ImGui::Begin("##step_caption", nullptr, flags)) {
    ImGui::PushTextWrapPos(width - 16.0f);
    ImGui::TextColored(ImVec4(1.0f, 0.92f, 0.3f, 1.0f), "STEP %zu / %zu",
                       state.step.step, state.step.recording.reach_count());
    ImGui::SameLine();
    ImGui::TextColored(kDim, "   yellow: the joint moved and the line it slides along;  "
                             "pink: the segment's length;  pale: the pose before");
    ImGui::TextUnformatted(DescribeStep(state).c_str());
    ImGui::PopTextWrapPos();
  }
  ImGui::End();
}

void DrawPanel(AppState& state) {
  StepCaption(state);
  const ImGuiViewport* viewport = ImGui::GetMainViewport();
  ImGui::SetNextWindowPos(ImVec2(viewport->Pos.x + 10, viewport->Pos.y + 10), ImGuiCond_Always);
  ImGui::SetNextWindowSize(ImVec2(state.view.panel_width, viewport->Size.y - 20),
                           ImGuiCond_Always);
  ImGui::SetNextWindowBgAlpha(0.88f);
  const ImGuiWindowFlags flags =
      ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoResize | ImGuiWindowFlags_NoCollapse;
  if (ImGui::Begin("FABRIK inverse kinematics", nullptr, flags)) {
    ImGui::PushItemWidth(-120);
    ModeSelector(state);
    SceneSection(state);
    SplineSection(state);
    ScriptSection(state);
    ChainEditor(state);
    SolverEditor(state);
    StepSection(state);
    RaceSection(state);
    Readouts(state);
    CameraSection(state);
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
