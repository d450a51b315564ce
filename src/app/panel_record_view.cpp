// The panel's view, root and recording section (docs/scenes.md: The 2D view, Free root;
// docs/settings.md: Record and replay). Every widget sends the command its action is (typed, as
// the command table's view, root and record entries), so the panel, the console and scripts
// behave the same.
#include <cstdio>
#include <string>

#include "app/panel_widgets.h"
#include "core/view_2d.h"

namespace fabrik::panel {
namespace {}  // namespace

void RecordViewSection(const AppState& state, UiState& ui, CommandQueue& queue) {
  SectionHeader("VIEW, ROOT, RECORDING");
  // Quiet unless said: no echo in the console; errors still show (CommandSource::kQuiet).
  auto send = [&](std::string name, std::vector<std::string> args,
                  CommandSource source = CommandSource::kQuiet) {
    queue.Push(Command(cmd::Extension{std::move(name), std::move(args)}), source);
  };
  int view = View2d(state) ? 1 : 0;
  ImGui::TextUnformatted("View");
  ImGui::SameLine();
  if (ImGui::RadioButton("3D", &view, 0)) send("view", {"3d"});
  ImGui::SameLine();
  if (ImGui::RadioButton("2D (XY plane)", &view, 1)) send("view", {"2d"});

  bool free = state.root.free;
  if (ImGui::Checkbox("Free root: pull the chain like a rope", &free)) {
    send("root", {free ? "free" : "fixed"});
  }

  const bool recording = state.recording.active();
  if (recording) {
    ImGui::PushStyleColor(ImGuiCol_Button, ImVec4(0.70f, 0.18f, 0.18f, 1.0f));
    if (ImGui::Button("Stop recording")) send("record", {"stop"}, CommandSource::kConsole);
    ImGui::PopStyleColor();
    ImGui::SameLine();
    ImGui::TextColored(kBad, "REC %s (%zu lines)", state.recording.path().c_str(),
                       state.recording.recorder().lines());
  } else {
    if (ImGui::Button("Record")) {
      send("record", {"start", ui.record_path}, CommandSource::kConsole);
    }
    ImGui::SameLine();
    ImGui::SetNextItemWidth(-1);
    ImGui::InputText("##record_path", ui.record_path, sizeof(ui.record_path));
    ImGui::TextColored(kDim, "replay: the Script section or 'script run PATH'");
  }
}

}  // namespace fabrik::panel
