// The panel's view, root and recording section (docs/scenes.md: The 2D view, Free root;
// docs/settings.md: Record and replay). Every widget sends the console line its action is, so the
// panel, the console and scripts behave the same.
#include <cstdio>
#include <string>

#include "app/panel_widgets.h"
#include "core/view_2d.h"

namespace fabrik::panel {
namespace {

std::string Quoted(const char* path) {
  const std::string p(path);
  return p.find_first_of(" \t#\"") == std::string::npos ? p : "\"" + p + "\"";
}

}  // namespace

void RecordViewSection(const AppState& state, UiState& ui, CommandQueue& queue) {
  SectionHeader("VIEW, ROOT, RECORDING");
  // Quiet lines: no echo in the console; errors still show (CommandSource::kQuiet).
  auto line = [&](std::string text, CommandSource source = CommandSource::kQuiet) {
    queue.Push(app::Line{std::move(text)}, source);
  };
  int view = View2d(state) ? 1 : 0;
  ImGui::TextUnformatted("View");
  ImGui::SameLine();
  if (ImGui::RadioButton("3D", &view, 0)) line("view 3d");
  ImGui::SameLine();
  if (ImGui::RadioButton("2D (XY plane)", &view, 1)) line("view 2d");

  bool free = state.root.free;
  if (ImGui::Checkbox("Free root: pull the chain like a rope", &free)) {
    line(free ? "root free" : "root fixed");
  }

  const bool recording = state.recording.active();
  if (recording) {
    ImGui::PushStyleColor(ImGuiCol_Button, ImVec4(0.70f, 0.18f, 0.18f, 1.0f));
    if (ImGui::Button("Stop recording")) line("record stop", CommandSource::kConsole);
    ImGui::PopStyleColor();
    ImGui::SameLine();
    ImGui::TextColored(kBad, "REC %s (%zu lines)", state.recording.path().c_str(),
                       state.recording.recorder().lines());
  } else {
    if (ImGui::Button("Record")) {
      line("record start " + Quoted(ui.record_path), CommandSource::kConsole);
    }
    ImGui::SameLine();
    ImGui::SetNextItemWidth(-1);
    ImGui::InputText("##record_path", ui.record_path, sizeof(ui.record_path));
    ImGui::TextColored(kDim, "replay: the Script section or 'script run PATH'");
  }
}

}  // namespace fabrik::panel
