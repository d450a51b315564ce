// The panel's scene section: the scene selector, then the current scene's own section from
// its shell entry (scene_shell.h).
#include <imgui.h>

#include <string>

#include "app/panel_widgets.h"
#include "app/scene_shell.h"
#include "core/scene_registry.h"

namespace fabrik::panel {
namespace {

// The combo's words for a scene; a scene without one shows its name.
const char* SceneLabel(std::string_view name) {
  if (const SceneShell* shell = FindSceneShell(name); shell && shell->label) return shell->label;
  for (const SceneEntry& entry : RegisteredScenes()) {
    if (entry.name == name) return entry.name.data();  // the table's literals end in '\0'
  }
  return "chain";
}

}  // namespace

void SceneSection(const AppState& state, UiState& ui, CommandQueue& queue) {
  SectionHeader("SCENE");
  const SceneState& scene = state.scene;
  if (ImGui::BeginCombo("scene", SceneLabel(scene.name()))) {
    for (const SceneEntry& entry : RegisteredScenes()) {
      if (ImGui::Selectable(SceneLabel(entry.name), entry.name == scene.name()) &&
          entry.name != scene.name()) {
        // As the console line would, echo included.
        queue.Push(Command(cmd::Scene{std::string(entry.name)}), CommandSource::kConsole);
      }
    }
    ImGui::EndCombo();
  }
  // The scene's own section, from its shell entry.
  if (const SceneShell* shell = FindSceneShell(scene.name()); shell && shell->panel) {
    shell->panel(state, ui, queue);
  }
}

}  // namespace fabrik::panel
