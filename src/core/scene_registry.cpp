#include "core/scene_registry.h"

#include <nlohmann/json.hpp>
#include <vector>

#include "core/app_state.h"
#include "core/frame.h"
#include "core/step_view.h"
#include "scenes/registry.h"

namespace fabrik {

// Each registry line's core function, defined in the scene's folder.
#define FABRIK_DECLARE_SCENE(NAME, CORE, SHELL) SceneEntry CORE();
FABRIK_SCENES(FABRIK_DECLARE_SCENE)
#undef FABRIK_DECLARE_SCENE

namespace {

struct Registry {
  std::vector<SceneEntry> scenes;
  std::vector<std::string_view> names;
};

// Built once, on first use, from the registry's lines (constants; nothing is added later).
const Registry& TheRegistry() {
  static const Registry registry = [] {
    Registry r;
#define FABRIK_ENTRY(NAME, CORE, SHELL) \
  r.scenes.push_back(CORE());           \
  r.scenes.back().name = #NAME;
    FABRIK_SCENES(FABRIK_ENTRY)
#undef FABRIK_ENTRY
    for (const SceneEntry& e : r.scenes) r.names.push_back(e.name);
    return r;
  }();
  return registry;
}

}  // namespace

std::span<const SceneEntry> RegisteredScenes() { return TheRegistry().scenes; }
std::span<const std::string_view> RegisteredSceneNames() { return TheRegistry().names; }

bool SceneOnTerrain(std::string_view name) {
  for (const SceneEntry& e : RegisteredScenes()) {
    if (e.name == name) return e.on_terrain;
  }
  return false;
}

std::string ScenesOnTerrainText() {
  std::vector<std::string_view> on;
  for (const SceneEntry& e : RegisteredScenes()) {
    if (e.on_terrain) on.push_back(e.name);
  }
  std::string text;
  for (std::size_t i = 0; i < on.size(); ++i) {
    text += (i == 0 ? "" : i + 1 == on.size() ? " and " : ", ") + std::string(on[i]);
  }
  return text;
}

std::unique_ptr<Scene> MakeScene(std::string_view name) {
  for (const SceneEntry& e : RegisteredScenes()) {
    if (e.name == name) return e.make();
  }
  return nullptr;
}

// Defaults of the Scene interface (scene.h).
OrbitCamera::Home Scene::CameraHome(const AppState& state) const { return HomeFor(state.chain); }

std::span<const glm::vec3> Scene::Pose(const AppState& state) const { return state.chain.joints(); }

void Scene::Handles(const AppState& state, std::vector<Handle>& out) const {
  out.push_back({state.target(), {Grab::Kind::kTarget, -1}});
  out.push_back({state.chain.effector(), {Grab::Kind::kTarget, -1}});
}

bool Scene::MoveHandle(const Grab&, const glm::vec3&) { return false; }

void Scene::WriteState(nlohmann::json&) const {}

Result<std::string> ExportScene(AppState& state, const std::string& path) {
  for (const SceneEntry& e : RegisteredScenes()) {
    if (e.name != state.scene.name()) continue;
    if (e.export_file == nullptr) break;
    return e.export_file(state, path);
  }
  return MakeError("the " + std::string(state.scene.name()) +
                   " scene has nothing to export (--scene mocap or --bvh PATH bakes a clip)");
}

bool SetScene(AppState& state, std::string_view name) {
  std::unique_ptr<Scene> next = MakeScene(name);
  if (!next) {
    SetMessage(state, "scene: '" + std::string(name) + "' is not in this build", true);
    return false;
  }
  return EnterScene(state, std::move(next));
}

bool EnterScene(AppState& state, std::unique_ptr<Scene> next) {
  if (!next) return false;
  SceneState& scene = state.scene;
  if (scene.free_chain()) scene.chain_lengths = state.lengths;
  SetStepView(state, false);
  SetRace(state, false);
  state.drag.plane.End();
  state.drag.dragging = false;
  scene.grab = {};
  // Enter may fail before changing anything (the creature's tree not building): then the
  // previous scene stays.
  if (!next->Enter(state)) return false;
  if (scene.current) scene.current->Leave(state);
  scene.current = std::move(next);
  state.view.camera.SetHome(scene.current->CameraHome(state));
  state.view.camera.Reset();
  return true;
}

}  // namespace fabrik
