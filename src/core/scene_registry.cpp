#include "core/scene_registry.h"

#include <array>
#include <nlohmann/json.hpp>

#include "core/app_state.h"
#include "core/frame.h"
#include "core/scene_arm.h"
#include "core/scene_chain.h"
#include "core/scene_creature.h"
#include "core/scene_field.h"
#include "core/scene_walker.h"
#include "core/step_view.h"
#include "scenes/crowd/crowd_scene.h"
#include "scenes/mocap/mocap_scene.h"

namespace fabrik {
namespace {

template <class T>
std::unique_ptr<Scene> Make() {
  return std::make_unique<T>();
}

// One line per scene.
constexpr std::array<SceneEntry, 7> kScenes = {{
    {"chain", Make<ChainScene>},
    {"arm", Make<ArmScene>},
    {"creature", Make<CreatureScene>},
    {"field", Make<FieldScene>},
    {"walker", Make<WalkerScene>},
    {"mocap", Make<MocapScene>},
    {"crowd", Make<CrowdScene>},
}};

}  // namespace

std::span<const SceneEntry> RegisteredScenes() { return kScenes; }

std::unique_ptr<Scene> MakeScene(std::string_view name) {
  for (const SceneEntry& e : kScenes) {
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
  scene.current = std::move(next);
  state.view.camera.SetHome(scene.current->CameraHome(state));
  state.view.camera.Reset();
  return true;
}

}  // namespace fabrik
