// systems.h - the shell's parts of a frame (window, input, renderer, ImGui panel). They read
// the AppState and enqueue AppCommands (core/app_command.h); they never write the state.
// The frame order is in core/frame.h.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <typeindex>
#include <typeinfo>
#include <vector>

#include "app/ui_state.h"
#include "core/frame.h"
#include "ik/rotations.h"
#include "render/renderer.h"
#include "skin/tube_mesh.h"

namespace fabrik {

// Step 5: turns the state into instanced spheres, bones and lines. Keeps its buffers
// between frames, so drawing allocates nothing once warmed up.
class SceneDrawer;

// How a scene drawn as a chain through the pose looks: the default drawing, with the scene's
// own touches (scene_shell.h). Empty: a plain chain.
struct ChainLook {
  // A step of the drawing, given the joint size `base` (world units).
  using Step = void (*)(SceneDrawer& drawer, const AppState& state, Renderer& renderer, float base);
  const std::vector<std::uint8_t>* at_limit = nullptr;  // joints drawn in the at-limit colour
  Step body = nullptr;                // instead of the chain through the pose (the creature's tree)
  Step extras = nullptr;              // after the body (the arm's limit arcs and pole)
  Step markers = nullptr;             // beside the target's marker (more targets, AddTargetMarker)
  std::optional<glm::vec3> effector;  // where the line to an unreached target starts
  bool reach = true;                  // the faint reach shell and its circle
};

class SceneDrawer {
 public:
  // Draws the current scene: by its shell entry's draw (scene_shell.h), else as a chain.
  void Draw(const AppState& state, Renderer& renderer);

  // The pieces a scene's draw function (its SceneShell::draw, in src/scenes/NAME/) uses.
  void DrawChainScene(const AppState& state, Renderer& renderer, const ChainLook& look);
  // Adds a target's marker (a ball and its cross-hair lines) to spheres() and lines().
  void AddTargetMarker(const glm::vec3& target, const glm::vec4& color, float base,
                       bool planar = false);
  // Adds the outline of a joint's limits to lines(): a hinge's allowed arc or a ball joint's
  // cone rim, `radius` world units around `at`, red when `at_limit` (scene_draw_limits.cpp).
  void AddConstraintOutline(const JointConstraint& c, const Frame& parent, const glm::vec3& at,
                            float radius, bool at_limit);
  // The ground grid, `reach` world units around `root`, rebuilt only when these change.
  void DrawGrid(const AppState& state, Renderer& renderer, float reach, const glm::vec3& root);
  // The loaded spline's curve and control points (when one is loaded), `base` the joint size.
  void DrawSpline(const AppState& state, Renderer& renderer, float base);
  // Scratch buffers shared by every draw: whoever fills one clears it first, then hands it to
  // the renderer; nothing is kept in them between draws.
  std::vector<SphereInstance>& spheres() { return spheres_; }
  std::vector<BoneInstance>& bones() { return bones_; }
  std::vector<LineVertex>& lines() { return lines_; }
  std::vector<Frame>& frames() { return frames_; }
  // A scene's own drawing state of type T (GL objects, caches between frames): made on first
  // use, then the same object every frame until the drawer goes, before the GL context does.
  template <class T>
  T& Own() {
    std::shared_ptr<void>& slot = owned_[std::type_index(typeid(T))];
    if (!slot) slot = std::make_shared<T>();
    return *static_cast<T*>(slot.get());
  }

 private:
  void RebuildGrid(float reach, bool planar, const glm::vec3& root);
  bool GridStale(float reach, bool planar, const glm::vec3& root) const;
  void DrawRootTrail(const AppState& state, Renderer& renderer);
  void DrawStepOverlay(const AppState& state, Renderer& renderer, float base);
  void DrawRacers(const AppState& state, Renderer& renderer, float base);
  void DrawChainBody(const AppState& state, Renderer& renderer, std::span<const glm::vec3> p,
                     std::span<const float> len, float base,
                     const std::vector<std::uint8_t>* at_limit);
  void AddPlinth(const glm::vec3& root, float base);
  std::map<std::type_index, std::shared_ptr<void>> owned_;
  std::vector<Frame> frames_;
  float grid_reach_ = -1.0f;
  bool grid_planar_ = false;
  glm::vec3 grid_centre_{0.0f};
  std::vector<LineVertex> grid_;
  std::vector<LineVertex> lines_;
  std::vector<SphereInstance> spheres_;
  std::vector<float> joint_radii_;  // DrawChainBody: every joint's radius, drawn or not
  std::vector<BoneInstance> bones_;
  // scene_draw_orient.cpp. The chain scene as the skinned tentacle (`skin on`); false when it
  // is not drawn (then the bones are).
  bool DrawSkin(const AppState& state, Renderer& renderer, std::span<const glm::vec3> p,
                float base);
  // Joint axes (`axes on`) and the orientation target's gizmo (while one is set).
  void DrawOrientOverlay(const AppState& state, Renderer& renderer, float base);
  SkinMesh skin_;             // the tube for the chain's lengths (rebuilt when they change)
  float plinth_base_ = 0.0f;  // the plinth's size under the tube (half its base radius)
};

// Step 1: camera, drag and keys, read through ImGui's IO, enqueued as commands; the pointer
// and buttons as seen go to `report` (the state line's cursor and buttons).
void HandleInput(const AppState& state, CommandQueue& queue, ShellReport& report);
// Step 6: the ImGui control panel; its changes are enqueued.
void DrawPanel(const AppState& state, UiState& ui, CommandQueue& queue);
// The console panel (console.cpp): HandleConsoleKey right after ImGui::NewFrame, DrawConsole
// with the other panels. Typed lines are enqueued as app::Line.
void HandleConsoleKey(ConsoleUi& console);
void DrawConsole(const AppState& state, ConsoleUi& console, CommandQueue& queue);
// The help overlay (help_overlay.cpp): every key and mouse action, the mode's hint and how to
// open the console, centred over the scene; its close button enqueues app::HelpOverlay.
void DrawHelpOverlay(const AppState& state, CommandQueue& queue);

}  // namespace fabrik
