// scene_shell.h - what the shell adds to each scene: its words in the panel's scene list, its
// panel section and how it is drawn. One entry per scene, made in the scene's own file
// (src/app/shell_NAME.cpp) and listed once in kShells in scene_shell.cpp, so adding a scene's
// look touches no other scene's code. A scene without an entry (the plain chain) is listed by
// its name, has no section of its own and is drawn as a chain through its pose.
#pragma once

#include <string_view>

#include "app/systems.h"
#include "app/ui_state.h"
#include "core/app_command.h"
#include "core/app_state.h"

namespace fabrik {

struct SceneShell {
  std::string_view name;        // the core scene's name (core/scene_registry.h)
  const char* label = nullptr;  // in the panel's scene list; null: the name
  // The panel's words for the scene's own solver (scenes other than the free chain).
  const char* solver_note = nullptr;
  // Its section in the panel, under the scene list (reads the state, enqueues changes).
  void (*panel)(const AppState& state, UiState& ui, CommandQueue& queue) = nullptr;
  // Draws the scene (SceneDrawer's pieces); null: as a chain through its pose.
  void (*draw)(SceneDrawer& drawer, const AppState& state, Renderer& renderer) = nullptr;
};

// One function per scene with a look of its own, in its file.
SceneShell ArmShell();       // shell_arm.cpp
SceneShell CreatureShell();  // shell_creature.cpp
SceneShell FieldShell();     // shell_field.cpp
SceneShell WalkerShell();    // shell_walker.cpp
SceneShell MocapShell();     // scenes/mocap/mocap_shell.cpp
SceneShell CrowdShell();     // scenes/crowd/crowd_shell.cpp

// The entry of the scene named `name`, or null.
const SceneShell* FindSceneShell(std::string_view name);

}  // namespace fabrik
