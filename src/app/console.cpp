// The console panel: opened and focused with the grave/backtick key, Enter runs a line and
// keeps the focus, Up/Down walk the history, Tab completes command names and paths.
#include <GLFW/glfw3.h>
#include <imgui.h>

#include <algorithm>
#include <cstring>

#include "app/key_table.h"
#include "app/systems.h"

namespace fabrik {
namespace {

// What the input line's callback needs: the state to complete against, the console's UI
// state and the queue for the list of completions.
struct CallbackContext {
  const AppState* state;
  ConsoleUi* console;
  CommandQueue* queue;
};

int InputCallback(ImGuiInputTextCallbackData* data) {
  auto* context = static_cast<CallbackContext*>(data->UserData);
  const AppState* state = context->state;
  ConsoleUi& console = *context->console;
  if (data->EventFlag == ImGuiInputTextFlags_CallbackCompletion) {
    const std::string prefix(data->Buf, static_cast<std::size_t>(data->CursorPos));
    const std::vector<std::string> options = CompleteCommand(prefix, state->command_context);
    if (options.empty()) return 0;
    const std::string common = options.size() == 1 ? options[0] : CommonPrefix(options);
    if (common.size() > prefix.size()) {
      data->DeleteChars(0, data->CursorPos);
      data->InsertChars(0, common.c_str());
    }
    if (options.size() > 1) {
      std::string list;
      for (const std::string& o : options) list += (list.empty() ? "" : "   ") + o;
      context->queue->Push(app::Print{list});
    }
  } else if (data->EventFlag == ImGuiInputTextFlags_CallbackHistory) {
    const int n = static_cast<int>(console.history.size());
    if (n == 0) return 0;
    int pos = console.history_pos;
    if (data->EventKey == ImGuiKey_UpArrow) {
      pos = pos < 0 ? n - 1 : std::max(0, pos - 1);
    } else if (data->EventKey == ImGuiKey_DownArrow) {
      pos = pos < 0 ? -1 : (pos + 1 >= n ? -1 : pos + 1);
    }
    if (pos != console.history_pos) {
      console.history_pos = pos;
      data->DeleteChars(0, data->BufTextLen);
      if (pos >= 0) data->InsertChars(0, console.history[static_cast<std::size_t>(pos)].c_str());
    }
  }
  return 0;
}

}  // namespace

// Called right after ImGui::NewFrame, before any widget: the backtick toggles the console
// and is removed from the typed characters so it never lands in the input line.
void HandleConsoleKey(ConsoleUi& console) {
  ImGuiIO& io = ImGui::GetIO();
  if (ImGui::IsKeyPressed(keys::Find(keys::Action::kConsole).codes[0], false)) {
    // Closing only when the console already has the keyboard: a backtick pressed while the
    // console is open but unfocused focuses it instead.
    if (console.open && io.WantTextInput) {
      console.open = false;
    } else {
      console.open = true;
      console.focus_input = true;
    }
  }
  auto& queue = io.InputQueueCharacters;
  for (int i = 0; i < queue.Size;) {
    if (queue[i] == '`') {
      queue.erase(queue.Data + i);
    } else {
      ++i;
    }
  }
}

void DrawConsole(const AppState& state, ConsoleUi& console, CommandQueue& queue) {
  console.ready = false;
  if (!console.open) return;
  const ImGuiViewport* vp = ImGui::GetMainViewport();
  const float left = state.view.panel_width + 20.0f;
  const float height = std::min(260.0f, vp->Size.y * 0.4f);
  ImGui::SetNextWindowPos(ImVec2(vp->Pos.x + left, vp->Pos.y + vp->Size.y - height - 10),
                          ImGuiCond_Always);
  ImGui::SetNextWindowSize(ImVec2(std::max(200.0f, vp->Size.x - left - 10), height),
                           ImGuiCond_Always);
  ImGui::SetNextWindowBgAlpha(0.9f);
  if (!ImGui::Begin(
          "Console   (` to close, Tab completes, Up/Down history)", &console.open,
          ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoResize | ImGuiWindowFlags_NoCollapse)) {
    ImGui::End();
    return;
  }
  const float footer = ImGui::GetStyle().ItemSpacing.y + ImGui::GetFrameHeightWithSpacing();
  ImGui::BeginChild("log", ImVec2(0, -footer), false, ImGuiWindowFlags_HorizontalScrollbar);
  for (const ConsoleLine& line : state.console.log) {
    ImVec4 color(0.85f, 0.87f, 0.90f, 1.0f);
    if (line.kind == ConsoleLine::Kind::kInput) color = ImVec4(0.55f, 0.75f, 1.0f, 1.0f);
    if (line.kind == ConsoleLine::Kind::kError) color = ImVec4(1.0f, 0.45f, 0.40f, 1.0f);
    ImGui::PushStyleColor(ImGuiCol_Text, color);
    ImGui::TextUnformatted(line.text.c_str());
    ImGui::PopStyleColor();
  }
  if (console.printed_seen != state.console.printed) {
    ImGui::SetScrollHereY(1.0f);
    console.printed_seen = state.console.printed;
  }
  ImGui::EndChild();
  ImGui::Separator();
  ImGui::PushItemWidth(-1);
  const ImGuiInputTextFlags flags = ImGuiInputTextFlags_EnterReturnsTrue |
                                    ImGuiInputTextFlags_CallbackCompletion |
                                    ImGuiInputTextFlags_CallbackHistory;
  CallbackContext context{&state, &console, &queue};
  const bool entered = ImGui::InputText("##input", console.input, sizeof(console.input), flags,
                                        InputCallback, &context);
  const bool active = ImGui::IsItemActive();
  if (entered) {
    const std::string line = console.input;
    console.input[0] = '\0';
    console.history_pos = -1;
    if (!line.empty()) {
      if (console.history.empty() || console.history.back() != line) {
        console.history.push_back(line);
      }
      queue.Push(app::Line{line}, CommandSource::kConsole);
    }
    console.focus_input = true;  // keep typing: the input keeps the keyboard after Enter
  }
  ImGui::PopItemWidth();
  console.ready = active && !console.focus_input;
  ImGui::SetItemDefaultFocus();
  if (console.focus_input) {
    ImGui::SetKeyboardFocusHere(-1);
    console.focus_input = false;
  }
  ImGui::End();
}

}  // namespace fabrik
