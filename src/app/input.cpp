// Step 1 of the frame: mouse and keyboard, read through Dear ImGui's IO so the panel gets
// the input it is over (io.WantCaptureMouse / WantCaptureKeyboard) and the scene the rest.
#include <GLFW/glfw3.h>
#include <imgui.h>

#include <cmath>

#include <glm/geometric.hpp>

#include "app/systems.h"
#include "camera/unproject.h"

namespace fabrik {
namespace {

constexpr float kPickRadiusPixels = 40.0f;

std::optional<Ray> CursorRay(const AppState& state, glm::vec2 cursor) {
  return ScreenRay(cursor, glm::vec2(state.view.window_size),
                   glm::vec2(state.view.framebuffer_size), state.view.view,
                   state.view.projection);
}

void BeginDrag(AppState& state, glm::vec2 cursor) {
  const glm::vec2 win(state.view.window_size), fb(state.view.framebuffer_size);
  // Grab whichever of the effector and the target is nearer the cursor on screen; a click
  // elsewhere grabs the target at its current depth and brings it under the cursor.
  glm::vec3 grabbed = state.target;
  const glm::vec3 candidates[] = {state.target, state.chain.effector()};
  glm::vec2 on_screen[2];
  int n = 0;
  for (const glm::vec3& c : candidates) {
    const auto p = ProjectToWindow(c, win, fb, state.view.view, state.view.projection);
    on_screen[n++] = p ? glm::vec2(*p) : glm::vec2(-1e9f);
  }
  if (const auto pick = PickNearest(on_screen, cursor, kPickRadiusPixels)) {
    grabbed = candidates[*pick];
  }
  state.drag.Begin(grabbed, state.view.camera.forward());
  state.dragging = state.drag.active();
  state.blend.active = false;
}

void UpdateDrag(AppState& state, glm::vec2 cursor) {
  const auto ray = CursorRay(state, cursor);
  if (!ray) return;
  if (const auto hit = state.drag.Update(*ray)) {
    state.source_target = *hit;
    state.target = *hit;
  }
}

}  // namespace

void HandleInput(AppState& state) {
  ImGuiIO& io = ImGui::GetIO();
  const bool cursor_valid = ImGui::IsMousePosValid() && std::isfinite(io.MousePos.x) &&
                            std::isfinite(io.MousePos.y);
  const glm::vec2 cursor(io.MousePos.x, io.MousePos.y);
  const glm::vec2 delta(io.MouseDelta.x, io.MouseDelta.y);
  const bool scene_has_mouse = !io.WantCaptureMouse;
  OrbitCamera& camera = state.view.camera;

  // Camera: right drag orbits, middle drag or Shift + right drag pans, the wheel zooms.
  if (scene_has_mouse && cursor_valid) {
    const bool pan = io.MouseDown[2] || (io.MouseDown[1] && io.KeyShift);
    if (pan) {
      camera.Pan(delta, static_cast<float>(state.view.window_size.y));
    } else if (io.MouseDown[1]) {
      camera.Orbit(delta);
    }
    if (io.MouseWheel != 0.0f) camera.Zoom(io.MouseWheel);
  }

  // Drag mode: press, move, release the left button.
  if (state.dragging && !io.MouseDown[0]) {
    state.drag.End();
    state.dragging = false;
  }
  if (io.MouseClicked[0] && scene_has_mouse && cursor_valid) {
    if (state.mode == TargetMode::kDrag) {
      UpdateViewMatrices(state);
      BeginDrag(state, cursor);
      UpdateDrag(state, cursor);
    } else {
      SetMessage(state, "the target follows " + std::string(ModeName(state.mode)) +
                            " mode: press 1 (or pick drag in the panel) to drag it",
                 false);
    }
  } else if (state.dragging && cursor_valid && (delta.x != 0.0f || delta.y != 0.0f)) {
    UpdateViewMatrices(state);
    UpdateDrag(state, cursor);
  }

  // Keys, when no text field has the keyboard.
  if (!io.WantCaptureKeyboard) {
    if (ImGui::IsKeyPressed(GLFW_KEY_R, false)) state.pending_camera_reset = true;
    if (ImGui::IsKeyPressed(GLFW_KEY_1, false)) state.pending_mode = TargetMode::kDrag;
    if (ImGui::IsKeyPressed(GLFW_KEY_2, false)) state.pending_mode = TargetMode::kSpline;
    if (ImGui::IsKeyPressed(GLFW_KEY_3, false)) state.pending_mode = TargetMode::kConsole;
    if (ImGui::IsKeyPressed(GLFW_KEY_4, false)) state.pending_mode = TargetMode::kScript;
  }
}

}  // namespace fabrik
