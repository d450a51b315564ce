// The help overlay (F1, the panel's ? button; F1 or Escape closes it) and the panel's help
// and screenshot buttons (docs/settings.md). The shell leaves the
// overlay out of a frame that takes a screenshot.
#include <imgui.h>

#include <iterator>

#include "app/panel_widgets.h"
#include "app/systems.h"

namespace fabrik {
namespace {

struct KeyHelp {
  const char* keys;
  const char* action;
};

constexpr KeyHelp kMouse[] = {
    {"Left drag", "drag mode: move the target, the effector or a scene's handle"},
    {"Left click", "drag mode: bring the target under the cursor"},
    {"Right drag", "orbit the camera (in the 2D view: pan)"},
    {"Middle drag, Shift + right drag", "pan the camera"},
    {"Wheel", "zoom"},
};

constexpr KeyHelp kKeys[] = {
    {"1  2  3  4", "target mode: drag, spline, console, script"},
    {"R", "reset the camera"},
    {"P", "step view on / off"},
    {"`  (backtick)", "open / close the console; type 'help' there for every command"},
    {"F1", "this help (F1 or Escape closes it)"},
    {"F12", "save a screenshot (PNG) in --screenshot-dir"},
};

constexpr KeyHelp kStepKeys[] = {
    {"Right / Left", "next / previous reach"},
    {"Shift + Right / Left", "next / previous half-pass"},
    {"Up / Down", "next / previous iteration"},
    {"Home / End", "start / end of the solve"},
    {"Space", "play / pause"},
};

// Every table's key column has the width of the longest key text, so the three line up.
void KeyTable(const char* id, const KeyHelp* rows, std::size_t count) {
  if (!ImGui::BeginTable(id, 2, ImGuiTableFlags_SizingFixedFit | ImGuiTableFlags_RowBg)) return;
  const float key_width = ImGui::CalcTextSize("Middle drag, Shift + right drag").x;
  ImGui::TableSetupColumn("key", ImGuiTableColumnFlags_WidthFixed, key_width);
  ImGui::TableSetupColumn("action", ImGuiTableColumnFlags_WidthStretch);
  for (std::size_t i = 0; i < count; ++i) {
    ImGui::TableNextRow();
    ImGui::TableSetColumnIndex(0);
    ImGui::TextColored(panel::kWarn, "%s", rows[i].keys);
    ImGui::TableSetColumnIndex(1);
    ImGui::TextUnformatted(rows[i].action);
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
    KeyTable("mouse", kMouse, std::size(kMouse));
    panel::SectionHeader("KEYS (when no text field has the keyboard)");
    KeyTable("keys", kKeys, std::size(kKeys));
    panel::SectionHeader(state.step.active ? "STEP VIEW (on)" : "STEP VIEW (press P)");
    KeyTable("step", kStepKeys, std::size(kStepKeys));
    panel::SectionHeader("CONSOLE");
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
