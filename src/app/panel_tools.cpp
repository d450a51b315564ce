// The chain scene's tools in the panel's solver section (docs/tools.md: In the demo): soften,
// stretch, turn limit, look-at (aim), spline IK, per-joint stiffness and the two-bone pole. Every
// widget sends the command the console would (typed, as the command table's entries), so the panel,
// the console and scripts behave the same and a bad value is refused the same way.
#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

#include "app/panel_widgets.h"

namespace fabrik::panel {
namespace {

std::string Word(float v) {
  char buf[32];
  std::snprintf(buf, sizeof(buf), "%.4g", static_cast<double>(v));
  return buf;
}

void Send(CommandQueue& queue, std::string name, std::vector<std::string> args) {
  queue.Push(Command(cmd::Extension{std::move(name), std::move(args)}), CommandSource::kQuiet);
}

// A checkbox that turns a tool off, and when on a slider for its value.
void ToolSlider(CommandQueue& queue, const char* label, const char* command, bool on, float value,
                float off_value, float on_value, float low, float high, const char* format,
                const std::vector<std::string>& prefix = {}) {
  bool enabled = on;
  ImGui::PushID(command);
  if (ImGui::Checkbox("##on", &enabled)) {
    std::vector<std::string> args = prefix;
    args.push_back(enabled ? Word(on_value) : "off");
    Send(queue, command, std::move(args));
  }
  ImGui::SameLine();
  ImGui::BeginDisabled(!on);
  float v = on ? value : off_value;
  if (ImGui::SliderFloat(label, &v, low, high, format, ImGuiSliderFlags_AlwaysClamp) && on) {
    std::vector<std::string> args = prefix;
    args.push_back(Word(v));
    Send(queue, command, std::move(args));
  }
  ImGui::EndDisabled();
  ImGui::PopID();
}

// Look-at: on/off with its point, the axis in the effector's frame and how many joints turn.
void AimControls(const AppState& state, CommandQueue& queue) {
  const ToolState& t = state.tools;
  bool on = t.aim_at.has_value();
  if (ImGui::Checkbox("##aim_on", &on)) {
    // Switched on: a point above and beside the chain's reach, easy to see and to drag.
    const float r = state.chain.total_length();
    Send(queue, "aim",
         on ? std::vector<std::string>{Word(0.6f * r), Word(1.1f * r), Word(0.6f * r)}
            : std::vector<std::string>{"off"});
  }
  ImGui::SameLine();
  ImGui::BeginDisabled(!on);
  float at[3] = {0.0f, 0.0f, 0.0f};
  if (t.aim_at) at[0] = t.aim_at->x, at[1] = t.aim_at->y, at[2] = t.aim_at->z;
  if (ImGui::DragFloat3("aim at", at, 0.05f, -100.0f, 100.0f, kNumber) && on) {
    Send(queue, "aim", {Word(at[0]), Word(at[1]), Word(at[2])});
  }
  float axis[3] = {t.aim_axis.x, t.aim_axis.y, t.aim_axis.z};
  if (ImGui::DragFloat3("aim axis", axis, 0.02f, -1.0f, 1.0f, kNumber) &&
      (axis[0] != 0.0f || axis[1] != 0.0f || axis[2] != 0.0f)) {  // a zero axis is refused
    Send(queue, "aim", {"axis", Word(axis[0]), Word(axis[1]), Word(axis[2])});
  }
  if (ImGui::IsItemHovered()) {
    ImGui::SetTooltip("in the effector's frame: +Y runs along the last bone");
  }
  const int segments = static_cast<int>(state.chain.joint_count()) - 1;
  int joints = std::min(t.aim_joints, segments);
  if (ImGui::SliderInt("aim joints", &joints, 1,
                       std::max(1, std::min(segments, ToolState::kMaxAimJoints)), "%d",
                       ImGuiSliderFlags_AlwaysClamp)) {
    Send(queue, "aim", {"joints", std::to_string(joints)});
  }
  if (ImGui::IsItemHovered()) {
    ImGui::SetTooltip("how many of the last joints share the turn (2 or more aim any axis)");
  }
  if (t.aim_error_deg) ImGui::TextColored(kDim, "aim off by %.2f deg", *t.aim_error_deg);
  ImGui::EndDisabled();
}

}  // namespace

void SoftenControl(const AppState& state, CommandQueue& queue) {
  const ToolState& t = state.tools;
  ToolSlider(queue, "soften", "soften", t.soften < 1.0f, t.soften, 1.0f, 0.9f, 0.5f, 1.0f, "%.3f");
}

void ToolsSection(const AppState& state, CommandQueue& queue) {
  const ToolState& t = state.tools;
  if (!ImGui::TreeNode("tools: soften, stretch, turn limit, aim, stiffness, spline IK")) return;
  SoftenControl(state, queue);
  ToolSlider(queue, "stretch", "stretch", t.stretch > 1.0f, t.stretch, 1.0f, 1.5f, 1.0f, 3.0f,
             "%.2f x");
  ToolSlider(queue, "turn limit", "turn", t.turn_limit_deg > 0.0f, t.turn_limit_deg, 10.0f, 10.0f,
             0.5f, 180.0f, "%.1f deg", {"limit"});
  if (t.stretch_factor > 1.0f) ImGui::TextColored(kWarn, "stretched x %.3f", t.stretch_factor);
  AimControls(state, queue);

  bool spline_ik = t.spline_ik;
  if (ImGui::Checkbox("spline IK: lie along the spline", &spline_ik)) {
    Send(queue, "spline ik", {spline_ik ? "on" : "off"});
  }
  if (t.spline_ik && !state.spline.follower.has_spline()) {
    ImGui::TextColored(kWarn, "load a spline (Spline section)");
  }

  if (t.two_bone) {
    float pole[3] = {0.0f, 0.0f, 0.0f};
    if (t.pole) pole[0] = t.pole->x, pole[1] = t.pole->y, pole[2] = t.pole->z;
    bool has_pole = t.pole.has_value();
    if (ImGui::Checkbox("##pole_on", &has_pole)) {
      Send(queue, "pole",
           has_pole ? std::vector<std::string>{"0", "0", "1"} : std::vector<std::string>{"off"});
    }
    ImGui::SameLine();
    ImGui::BeginDisabled(!t.pole);
    if (ImGui::DragFloat3("pole", pole, 0.05f, -100.0f, 100.0f, kNumber) && t.pole) {
      Send(queue, "pole", {Word(pole[0]), Word(pole[1]), Word(pole[2])});
    }
    ImGui::EndDisabled();
  }

  // Per joint: 0 free, 1 keeps its bend; the effector has none. Long chains: the first 32.
  const std::size_t n = state.chain.joint_count();
  if (ImGui::TreeNode("stiffness per joint")) {
    const std::size_t shown = std::min<std::size_t>(n - 1, 32);
    for (std::size_t i = 0; i < shown; ++i) {
      float s = i < t.stiffness.size() ? t.stiffness[i] : 0.0f;
      char label[32];
      std::snprintf(label, sizeof(label), i == 0 ? "root %zu" : "joint %zu", i);
      if (ImGui::SliderFloat(label, &s, 0.0f, 1.0f, "%.2f", ImGuiSliderFlags_AlwaysClamp)) {
        Send(queue, "stiffness", {std::to_string(i), Word(s)});
      }
    }
    if (ImGui::Button("all free")) Send(queue, "stiffness", {"off"});
    ImGui::TreePop();
  }
  ImGui::TreePop();
}

}  // namespace fabrik::panel
