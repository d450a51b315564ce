// panel_widgets.h - what the panel's source files share: colours, a section header, and the
// sections each file draws. Internal to src/app.
#pragma once

#include <imgui.h>

#include <cstdio>
#include <string>
#include <vector>

#include "app/ui_state.h"
#include "core/app_state.h"

namespace fabrik::panel {

inline const ImVec4 kGood(0.35f, 0.90f, 0.50f, 1.0f);
inline const ImVec4 kWarn(0.98f, 0.80f, 0.30f, 1.0f);
inline const ImVec4 kBad(0.98f, 0.42f, 0.38f, 1.0f);
inline const ImVec4 kDim(0.62f, 0.65f, 0.70f, 1.0f);

// The format of the panel's number fields: four significant digits, so a length of 0.001
// shows as 0.001 (not 0.00) and one of 12.5 as 12.5.
inline constexpr const char* kNumber = "%.4g";

// Sends the command `name args...` as the console would parse it, quietly (no echo in the
// console; errors still show).
inline void SendCommand(CommandQueue& queue, std::string name, std::vector<std::string> args) {
  queue.Push(Command(cmd::Extension{std::move(name), std::move(args)}), CommandSource::kQuiet);
}

// A float as a command's argument: 9 significant digits, so the apply step reads it back
// exactly.
inline std::string CommandNumber(float v) {
  char buf[32];
  std::snprintf(buf, sizeof(buf), "%.9g", static_cast<double>(v));
  return buf;
}

// The current target mode's one-line hint (the panel's mode section and the help overlay).
const char* ModeHint(const AppState& state);

// A dim capital-letter title with a rule under it.
inline void SectionHeader(const char* text) {
  ImGui::Spacing();
  ImGui::PushStyleColor(ImGuiCol_Text, kDim);
  ImGui::TextUnformatted(text);
  ImGui::PopStyleColor();
  ImGui::Separator();
}

// panel_scene.cpp: the scene selector and the scene's own section (scene_shell.h).
void SceneSection(const AppState& state, UiState& ui, CommandQueue& queue);
// panel_step.cpp: the step-through view's controls and caption, and the solver race.
void StepSection(const AppState& state, CommandQueue& queue);
void RaceSection(const AppState& state, CommandQueue& queue);
void StepCaption(const AppState& state);
// panel_record_view.cpp: 2D/3D view, free root, record and stop.
void RecordViewSection(const AppState& state, UiState& ui, CommandQueue& queue);
// panel_orient.cpp: skinned tentacle, joint axes, orientation target.
void OrientSection(const AppState& state, CommandQueue& queue);
// panel_tools.cpp: soften, stretch, turn limit, spline IK, stiffness, two-bone pole.
void ToolsSection(const AppState& state, CommandQueue& queue);
// Just the soften control of that section (the arm's two_bone offers it too).
void SoftenControl(const AppState& state, CommandQueue& queue);
// help_overlay.cpp: the help (?) and screenshot buttons at the top of the panel.
void HelpButtons(const AppState& state, CommandQueue& queue);

}  // namespace fabrik::panel
