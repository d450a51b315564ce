// systems.h - the steps of one frame, each a function of the AppState.
//
// Frame order (app.cpp runs them in exactly this order):
//   1. input      HandleInput: camera orbit/pan/zoom, drag grab/move/release, keys
//   2. settings   ApplyPending: chain rebuilds, mode switches, camera reset
//   3. target     UpdateTarget: the active source moves the target (with blending)
//   4. solve      RunSolve: the selected solver on the chain, timed
//   5. render     DrawScene: the 3D scene from the state
//   6. panel      DrawPanel: the ImGui control panel (its changes become pending requests)
//   7. output     state line, screenshot, swap
#pragma once

#include <span>
#include <string>

#include "app/app_state.h"
#include "ik/rotations.h"
#include "render/renderer.h"
#include "skin/tube_mesh.h"

struct GLFWwindow;

namespace fabrik {

// Step 5: turns the state into instanced spheres, bones and lines. Keeps its buffers
// between frames, so drawing allocates nothing once warmed up.
class SceneDrawer {
 public:
  void Draw(const AppState& state, Renderer& renderer);

 private:
  void RebuildGrid(float reach);
  void DrawStepOverlay(const AppState& state, Renderer& renderer, float base);
  void DrawRacers(const AppState& state, Renderer& renderer, float base);
  void DrawChainBody(const AppState& state, Renderer& renderer, std::span<const glm::vec3> p,
                     std::span<const float> len, float base);
  void DrawCreature(const AppState& state, Renderer& renderer, float base);
  void DrawArmExtras(const AppState& state, Renderer& renderer, float base);
  void AddPlinth(const glm::vec3& root, float base);
  void AddTargetMarker(const glm::vec3& target, const glm::vec4& color, float base);
  void AddConstraintOutline(const JointConstraint& c, const Frame& parent, const glm::vec3& at,
                            float radius, bool at_limit);
  std::vector<Frame> frames_;
  float grid_reach_ = -1.0f;
  std::vector<LineVertex> grid_;
  std::vector<LineVertex> lines_;
  std::vector<SphereInstance> spheres_;
  std::vector<BoneInstance> bones_;
  // TEMPORARY preview of the skinned tentacle (env FABRIK_SKIN_PREVIEW=1; FABRIK_AXES_PREVIEW=1
  // adds joint axes) until `skin on|off` lands on the new core.
  bool DrawSkinPreview(const AppState& state, Renderer& renderer, std::span<const glm::vec3> p,
                       float base);
  RotationTracker rotations_;
  SkinMesh skin_;
};

void HandleInput(AppState& state);
// Key taps shorter than a frame (input.cpp): install after ImGui's GLFW backend, and call
// ReplayHeldKeyReleases before each glfwPollEvents.
void InstallKeyDeferral(GLFWwindow* window);
void ReplayHeldKeyReleases(GLFWwindow* window);
void ApplyPending(AppState& state);
void UpdateTarget(AppState& state);
void RunSolve(AppState& state);
void DrawPanel(AppState& state);
// The console panel (console.cpp): HandleConsoleKey right after ImGui::NewFrame, DrawConsole
// with the other panels.
void HandleConsoleKey(AppState& state);
void DrawConsole(AppState& state);

// Recomputes view and projection for the current window size and panel width.
void UpdateViewMatrices(AppState& state);
// Where the camera should look to frame the whole chain's reach.
OrbitCamera::Home HomeFor(const Chain& chain);
// Switches the target mode; the target blends from where it is to the new source.
void SetMode(AppState& state, TargetMode mode);
// Requests new segment lengths (validated; on error sets state.message and changes nothing).
bool RequestLengths(AppState& state, std::vector<float> lengths);
void SetMessage(AppState& state, std::string text, bool is_error);
// The settings one solve of `joint_count` joints runs with: the user's, with the iteration
// cap lowered where needed so that one solve does at most kMaxJointUpdatesPerSolve joint
// updates (README: Limits), so that no cap and chain length can freeze a frame.
inline constexpr long kMaxJointUpdatesPerSolve = 10'000'000;
SolveSettings BoundedSettings(const AppState& state, std::size_t joint_count);
// The lengths the chain will have next frame: a pending request's, else the current ones.
const std::vector<float>& PendingOrCurrentLengths(const AppState& state);

}  // namespace fabrik
