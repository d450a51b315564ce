// The help overlay (F1, the panel's ? button; F1 or Escape closes it) and the panel's help
// and screenshot buttons (docs/settings.md). The shell leaves the
// overlay out of a frame that takes a screenshot.
#include <imgui.h>

#include "app/key_table.h"
#include "app/panel_widgets.h"
#include "app/systems.h"

namespace fabrik {
namespace {

// One section's rows of the key table (key_table.h). Every section's key column has the same
// width, so they line up; a longer key text wraps.
void KeyTable(const char* id, keys::Section section) {
  if (!ImGui::BeginTable(id, 2, ImGuiTableFlags_SizingFixedFit | ImGuiTableFlags_RowBg)) return;
  const float key_width = ImGui::CalcTextSize("Middle drag, Shift + right drag").x;
  ImGui::TableSetupColumn("key", ImGuiTableColumnFlags_WidthFixed, key_width);
  ImGui::TableSetupColumn("action", ImGuiTableColumnFlags_WidthStretch);
  for (const keys::Binding& b : keys::kBindings) {
    if (b.section != section) continue;
    ImGui::TableNextRow();
    ImGui::TableSetColumnIndex(0);
    ImGui::PushTextWrapPos(0.0f);
    ImGui::PushStyleColor(ImGuiCol_Text, panel::kWarn);
    ImGui::TextUnformatted(keys::PlainText(b.keys).c_str());
    ImGui::PopStyleColor();
    ImGui::PopTextWrapPos();
    ImGui::TableSetColumnIndex(1);
    ImGui::TextUnformatted(b.text.data(), b.text.data() + b.text.size());
  }
  ImGui::EndTable();
}

}  // namespace

void DrawHelpOverlay(const AppState& state, CommandQueue& queue) {
  // Centred over the scene, which lies to the right of the panel.
  const ImGuiViewport* viewport = ImGui::GetMainViewport();
  const float left = viewport->Pos.x + state.view.panel_width + 20.0f;
  const float width = viewport->Size.x - state.view.panel_width - 20.0f;
  const ImVec2 centre(left + width * 0.5f, viewport->Pos.y + viewport->Size.y * 0.5f);
  ImGui::SetNextWindowPos(centre, ImGuiCond_Always, ImVec2(0.5f, 0.5f));
  ImGui::SetNextWindowBgAlpha(0.94f);
  bool open = true;
  const ImGuiWindowFlags flags = ImGuiWindowFlags_AlwaysAutoResize | ImGuiWindowFlags_NoMove |
                                 ImGuiWindowFlags_NoCollapse | ImGuiWindowFlags_NoSavedSettings;
  if (ImGui::Begin("Help  (F1 or Escape closes)", &open, flags)) {
    if (ImGui::IsWindowAppearing()) ImGui::SetWindowFocus();  // in front of the panels
    panel::SectionHeader("NOW");
    const std::string_view mode = ModeName(state.mode);
    ImGui::Text("Mode: %.*s", static_cast<int>(mode.size()), mode.data());
    ImGui::PushStyleColor(ImGuiCol_Text, panel::kGood);
    ImGui::TextUnformatted(panel::ModeHint(state));
    ImGui::PopStyleColor();
    panel::SectionHeader("MOUSE (over the scene)");
    KeyTable("mouse", keys::Section::kMouse);
    panel::SectionHeader("KEYS (when no text field has the keyboard)");
    KeyTable("keys", keys::Section::kKeys);
    panel::SectionHeader(state.step.active ? "STEP VIEW (on)" : "STEP VIEW (press P)");
    KeyTable("step", keys::Section::kStep);
    panel::SectionHeader("CONSOLE");
    KeyTable("console", keys::Section::kConsole);
    ImGui::TextUnformatted(
        "Press ` (backtick) to open it. Type 'help' for the commands, 'help NAME' for one;\n"
        "Tab completes, Up/Down walk the history. Settings are saved on exit.");
  }
  ImGui::End();
  if (!open) queue.Push(app::HelpOverlay{false});
}

void panel::HelpButtons(const AppState& state, CommandQueue& queue) {
  if (ImGui::Button("? Help (F1)")) queue.Push(app::HelpOverlay{!state.help_open});
  ImGui::SameLine();
  if (ImGui::Button("Screenshot (F12)")) queue.Push(app::ScreenshotRequest{});
}

}  // namespace fabrik
