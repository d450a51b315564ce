// systems.h - the shell's parts of a frame (window, input, renderer, ImGui panel). They read
// the AppState and enqueue AppCommands (core/app_command.h); they never write the state.
// The frame order is in core/frame.h.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>

#include "app/ui_state.h"
#include "app/walker_draw.h"
#include "core/frame.h"
#include "core/scene_arm.h"
#include "core/scene_creature.h"
#include "core/scene_field.h"
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

  // The pieces a scene's draw function uses.
  void DrawChainScene(const AppState& state, Renderer& renderer, const ChainLook& look);
  void DrawCreature(const CreatureScene& creature, Renderer& renderer, float base);
  // The field scene (scene_draw_field.cpp): every chain as lines in one draw, the chains
  // near the target and the sampled ones as lit bones and joints.
  void DrawField(const AppState& state, const FieldScene& field, Renderer& renderer);
  void DrawArmExtras(const AppState& state, const ArmScene& arm, Renderer& renderer, float base);
  void AddTargetMarker(const glm::vec3& target, const glm::vec4& color, float base,
                       bool planar = false);
  WalkerDrawer& walker() { return walker_; }
  // A scene's own drawing state kept between frames (GL meshes, instance buffers), one per
  // type, made on first use and destroyed with the drawer, while the GL context is alive.
  template <class T>
  T& Keep() {
    for (const auto& kept : kept_) {
      if (auto* held = dynamic_cast<Held<T>*>(kept.get())) return held->value;
    }
    kept_.push_back(std::make_unique<Held<T>>());
    return static_cast<Held<T>*>(kept_.back().get())->value;
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
  void DrawSpline(const AppState& state, Renderer& renderer, float base);
  void AddPlinth(const glm::vec3& root, float base);
  void AddConstraintOutline(const JointConstraint& c, const Frame& parent, const glm::vec3& at,
                            float radius, bool at_limit);
  WalkerDrawer walker_;
  struct KeptState {
    virtual ~KeptState() = default;
  };
  template <class T>
  struct Held final : KeptState {
    T value;
  };
  std::vector<std::unique_ptr<KeptState>> kept_;
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

  std::vector<LineVertex> field_lines_;
  float field_grid_extent_ = -1.0f;
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
