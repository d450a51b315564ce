// panel_widgets.h - what the panel's source files share: colours, a section header, and the
// sections each file draws. Internal to src/app.
#pragma once

#include <imgui.h>

#include "app/ui_state.h"
#include "core/app_state.h"

namespace fabrik::panel {

inline const ImVec4 kGood(0.35f, 0.90f, 0.50f, 1.0f);
inline const ImVec4 kWarn(0.98f, 0.80f, 0.30f, 1.0f);
inline const ImVec4 kBad(0.98f, 0.42f, 0.38f, 1.0f);
inline const ImVec4 kDim(0.62f, 0.65f, 0.70f, 1.0f);

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

}  // namespace fabrik::panel
