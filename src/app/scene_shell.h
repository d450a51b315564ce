// scene_shell.h - what the shell adds to each scene: its words in the panel's scene list, its
// panel section and how it is drawn. Each scene's folder makes its entry in
// src/scenes/NAME/NAME_shell.cpp, in the function its line in scenes/registry.h names, so
// adding a scene's look touches no other scene's code. An entry left at its defaults (the
// plain chain's) is listed by the scene's name, has no section of its own and is drawn as a
// chain through the scene's pose.
#pragma once

#include <span>
#include <string_view>

#include "app/options.h"
#include "app/systems.h"
#include "app/ui_state.h"
#include "core/app_command.h"
#include "core/app_state.h"

namespace fabrik {

struct SceneShell {
  const char* label = nullptr;  // in the panel's scene list; null: the scene's name
  // The panel's words for the scene's own solver (scenes other than the free chain).
  const char* solver_note = nullptr;
  // Its section in the panel, under the scene list (reads the state, enqueues changes).
  void (*panel)(const AppState& state, UiState& ui, CommandQueue& queue) = nullptr;
  // Draws the scene (SceneDrawer's pieces); null: as a chain through its pose.
  void (*draw)(SceneDrawer& drawer, const AppState& state, Renderer& renderer) = nullptr;
  // The command line (app/options.h, OptionScene): the options this scene cannot start with
  // (its own rows are its SceneEntry::options, core/scene_registry.h).
  std::string (*check_options)(const Options& options) = nullptr;
};

// The entry of the registered scene named `name` (scenes/registry.h), or null for a name not
// registered.
const SceneShell* FindSceneShell(std::string_view name);

// Every registered scene as the command line sees it, in the registry's order: its name, its
// option rows (SceneEntry::options) and its shell's check_options (main passes them to
// ParseOptions).
std::span<const OptionScene> OptionScenes();

}  // namespace fabrik
