// scene.h - what the demo solves: one interface for every scene (docs/scenes.md).
//
// A scene owns its own state (an arm's constraints, a creature's tree), its solve, the pose
// it hands the renderer and the state line, the handles a drag can grab, and its state-line
// fields. The app's chain (AppState::chain, lengths) is shared: a scene that solves a chain
// builds it in Enter. Scenes are created by name from the registry (scene_registry.h).
//
// Adding a scene: a folder src/scenes/NAME/ with a class deriving from Scene and its
// SceneEntry function, its optional shell files (panel section and drawing), and one line in
// src/scenes/registry.h (docs/architecture.md, "Worked example: a scene"). The shell draws
// any scene from Pose() and Handles(). Add tests in tests/app_core.
#pragma once

#include <any>
#include <glm/vec3.hpp>
#include <map>
#include <memory>
#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <typeindex>
#include <typeinfo>
#include <vector>

#include "camera/orbit_camera.h"
#include "camera/unproject.h"
#include "ik/result.h"

namespace fabrik {

struct AppState;
struct ChainConstraints;  // ik/constraints.h
class Heightmap;          // terrain/heightmap.h
class Tree;               // ik/tree.h

// What a left-drag in drag mode holds.
struct Grab {
  enum class Kind { kNone, kTarget, kEffectorTarget, kPole };
  Kind kind = Kind::kNone;
  int index = -1;  // effector target index for kEffectorTarget
};

// A point a left-drag can grab, world units.
struct Handle {
  glm::vec3 position{0.0f};
  Grab grab;
};

// The panel sections and settings that act on a scene; the panel shows only these, so that a
// control the scene's solve ignores is never offered.
struct SceneControls {
  bool chain_shape = false;    // joints and segment lengths (the panel's CHAIN section)
  bool solver_choice = false;  // `solver`: the scene solves with the chosen solver
  bool accelerate = false;     // `accelerate`: its solve uses FABRIK's bend-scale steps
  bool step_view = false;      // `step`: its solve can be stepped through
  bool race = false;           // `race`: every solver on a copy of its chain
  // `solver two_bone` for a shoulder-elbow-wrist of its own (the arm), whatever its joint count
  bool two_bone = false;
};

// What the bone rotations (core/orient.h, docs/rotations.md) are tracked on: nothing, the
// scene's pose as a chain (with its constraints' twist limits when it has them), or a tree
// (its bones, and the node whose rotation is the effector's).
struct RotationSource {
  enum class Kind { kNone, kChain, kTree };
  Kind kind = Kind::kNone;
  const ChainConstraints* constraints = nullptr;  // kChain: the chain's, or null for none
  const Tree* tree = nullptr;                     // kTree: null while the scene has no tree
  int effector_node = -1;                         // kTree: 1..bones, or -1 for none
};

// A scene. Switching to one (SetScene, core/scene_registry.h) does exactly the steps listed
// there and nothing else: an unknown name changes nothing; the chain's lengths are kept; the
// step view, the race and a drag stop; Enter builds the scene (the arm raises the iteration
// cap to at least 30); a failed Enter keeps the previous scene; the camera goes to the new
// scene's home. The mode, solver, margin of error and a running script are untouched. Each
// step is tested in tests/app_core (test_scene_interface.cpp, test_scenes_step_race.cpp).
class Scene {
 public:
  virtual ~Scene() = default;
  // The name `scene NAME` and the state line's "scene" use, lower case.
  virtual std::string_view name() const = 0;
  // True for the free chain only: any solver, the step view and the race work on it.
  virtual bool free_chain() const { return false; }
  // The panel sections and settings that apply (default: those of the free chain when
  // free_chain(), else none of them).
  virtual SceneControls controls() const {
    const bool all = free_chain();
    return {all, all, all, all, all};
  }
  // Becomes the current scene: builds what it solves (it may replace state.chain and
  // state.lengths, and raise settings.max_iterations it needs) and places the target with
  // PlaceTarget (core/frame.h). Returns false with state.message set if it cannot start.
  virtual bool Enter(AppState& state) = 0;
  // Where the camera looks from when the scene starts or on `camera reset`.
  virtual OrbitCamera::Home CameraHome(const AppState& state) const;
  // The solve step: solves towards state.target() and fills state.last (iterations,
  // distance, reached, reachable) and state.solve_us; on a rejected solve sets the message.
  virtual void Solve(AppState& state) = 0;
  // The joints to draw and to write as the state line's "joints", world units.
  virtual std::span<const glm::vec3> Pose(const AppState& state) const;
  // Appends the handles a left press can grab (default: the target and the effector, which
  // both grab the target).
  virtual void Handles(const AppState& state, std::vector<Handle>& out) const;
  // What a press away from every handle grabs (default: the target).
  virtual Grab DefaultGrab() const { return {Grab::Kind::kTarget, -1}; }
  // A drag moved a handle other than the target to `position`. Returns false if the grab is
  // the target after all (then the target follows the drag). Never allocates.
  virtual bool MoveHandle(const Grab& grab, const glm::vec3& position);
  // Where a drag's cursor ray meets the scene's ground, for scenes whose target lives on a
  // surface (the walker's terrain); nullopt (the default): the drag plane decides.
  virtual std::optional<glm::vec3> SurfaceHit(const Ray&) const { return std::nullopt; }
  // Adds the scene's own fields to the state line (docs/state.md).
  virtual void WriteState(nlohmann::json& line) const;
  // What the bone rotations are tracked on (default: the pose as a chain for the free chain,
  // nothing otherwise). Valid until the scene changes.
  virtual RotationSource Rotations() const {
    return {free_chain() ? RotationSource::Kind::kChain : RotationSource::Kind::kNone};
  }
  // `terrain load` read a new heightmap (never null): a scene that stands on the terrain
  // moves onto it, or refuses with the reason (then nothing changes and the old map stays).
  // Default: nothing to do.
  virtual Status UseTerrain(AppState&, const std::shared_ptr<const Heightmap>&) { return Ok{}; }
  // The scene is being left: another scene has entered and replaces it (EnterScene). Work
  // it runs over frames stops here, saying so (the mocap scene's export). Default: nothing.
  virtual void Leave(AppState&) {}
};

// What scenes keep in the app state while another scene is on (the field's shape, the mocap
// clip): one value of each type T, T{} until first set. A scene's folder defines its T
// (FieldConfig in scenes/field/field_scene.h) and reads and sets it as
// state.scene.configs.Get<FieldConfig>(); the core names none. The start-up sets each from the
// command line (SceneEntry::start, core/scene_registry.h), so later reads allocate nothing.
class SceneConfigs {
 public:
  template <class T>
  T& Get() {
    std::any& slot = slots_[std::type_index(typeid(T))];
    if (!slot.has_value()) slot.emplace<T>();
    return *std::any_cast<T>(&slot);
  }
  // T{} when never set.
  template <class T>
  const T& Get() const {
    const auto it = slots_.find(std::type_index(typeid(T)));
    if (it == slots_.end()) {
      static const T kDefault{};
      return kDefault;
    }
    return *std::any_cast<T>(&it->second);
  }

 private:
  std::map<std::type_index, std::any> slots_;
};

// The current scene and what the switch keeps.
struct SceneState {
  std::unique_ptr<Scene> current;
  SceneConfigs configs;              // each scene's configuration, kept across switches
  std::vector<float> chain_lengths;  // the chain scene's lengths while another scene is on
  Grab grab;                         // what the drag holds

  std::string_view name() const { return current ? current->name() : "chain"; }
  bool free_chain() const { return !current || current->free_chain(); }
  SceneControls controls() const {
    return current ? current->controls() : SceneControls{true, true, true, true, true};
  }
  template <class T>
  const T* As() const {
    return dynamic_cast<const T*>(current.get());
  }
  template <class T>
  T* As() {
    return dynamic_cast<T*>(current.get());
  }
};

}  // namespace fabrik
