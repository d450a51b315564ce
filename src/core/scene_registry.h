// scene_registry.h - every scene by name, and the scene switch.
#pragma once

#include <memory>
#include <span>
#include <string>
#include <string_view>

#include "core/scene.h"
#include "core/scene_options.h"
#include "ik/result.h"

namespace fabrik {

struct AppState;

struct CommandEntry;  // core/command_table.h
struct StartOptions;  // core/startup.h

// One scene of the registry (scenes/registry.h): what its core half gives. The scene's folder
// defines the function its registry line names, e.g.
//   SceneEntry WalkerSceneEntry() { return {.make = MakeSceneOf<WalkerScene>}; }
struct SceneEntry {
  std::string_view name{};  // as `scene NAME` types it; filled in from the registry line
  std::unique_ptr<Scene> (*make)() = nullptr;
  // The commands the scene adds to the command registry (its own group of CommandEntry,
  // core/command_table.h), or null. They are known in every scene; their apply says when the
  // scene is not on.
  std::span<const CommandEntry> (*commands)() = nullptr;
  // The scene's own command-line options (core/scene_options.h), in --help's order; empty:
  // none. The app lists and reads them; the start-up checks their files.
  std::span<const SceneOption> options{};
  // Takes the scene's configuration from the command line at start (before the saved
  // settings and --scene), into state.scene.configs (core/scene.h), or null. Its own options'
  // values are options.scene_options.
  void (*start)(AppState& state, const StartOptions& options) = nullptr;
  // Writes what the scene exports to `path`, headless and to completion (--export OUT), or
  // null when the scene exports nothing. Returns the line to print when written, or one
  // error line (nothing written).
  Result<std::string> (*export_file)(AppState& state, const std::string& path) = nullptr;
  // The scene stands on the terrain (`terrain load` shows there; Scene::UseTerrain).
  bool on_terrain = false;
};

// A new T, for SceneEntry::make.
template <class T>
std::unique_ptr<Scene> MakeSceneOf() {
  return std::make_unique<T>();
}

// The registered scenes, in the registry's order (the panel's and `help scene`'s); "chain"
// first.
std::span<const SceneEntry> RegisteredScenes();
// Their names, same order (for CommandContext::scene_names and error texts).
std::span<const std::string_view> RegisteredSceneNames();
// Whether the registered scene `name` stands on the terrain (SceneEntry::on_terrain).
bool SceneOnTerrain(std::string_view name);
// The scenes that stand on the terrain, in the registry's order: "walker, mocap and crowd".
std::string ScenesOnTerrainText();
// A new scene by name, or null for a name not registered.
std::unique_ptr<Scene> MakeScene(std::string_view name);

// The current scene's export_file (--export OUT): its line when written, or one error line,
// also for a scene without one.
Result<std::string> ExportScene(AppState& state, const std::string& path);

// Switches to the scene `name` (the `scene` command; --scene). Exactly this, in order:
//   1. unknown name: an error in the message, nothing changed, returns false;
//   2. leaving the chain scene keeps its lengths for when it comes back;
//   3. the step view and the race stop (they work on the free chain only), a drag ends;
//   4. the new scene's Enter builds it and places the target (Scene::Enter; the arm raises
//      the iteration cap to 30); if it fails, the previous scene stays (returns false);
//   5. the camera's home becomes the scene's, and the camera goes there.
// The target mode, solver, margin of error and the running script are untouched.
bool SetScene(AppState& state, std::string_view name);
// Steps 2 to 5 with a scene already made (SetScene uses it; tests use it with their own).
bool EnterScene(AppState& state, std::unique_ptr<Scene> next);

}  // namespace fabrik
