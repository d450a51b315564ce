// Step 1 of the frame: mouse and keyboard, read through Dear ImGui's IO so the panel gets
// the input it is over (io.WantCaptureMouse / WantCaptureKeyboard) and the scene the rest.
// Everything becomes a command on the queue; the apply step carries it out.
#include <GLFW/glfw3.h>
#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <glm/geometric.hpp>
#include <string>
#include <vector>

#include "app/systems.h"
#include "camera/unproject.h"

namespace fabrik {
namespace {

constexpr float kPickRadiusPixels = 40.0f;

std::optional<Ray> CursorRay(const AppState& state, glm::vec2 cursor) {
  return ScreenRay(cursor, glm::vec2(state.view.window_size),
                   glm::vec2(state.view.framebuffer_size), state.view.view, state.view.projection);
}

// What a left press grabs: the handle nearest the cursor on screen; a click elsewhere grabs
// the (primary) target at its current depth and brings it under the cursor.
app::DragStart PickGrab(const AppState& state, glm::vec2 cursor, std::vector<Handle>& handles,
                        std::vector<glm::vec2>& on_screen) {
  const glm::vec2 win(state.view.window_size), fb(state.view.framebuffer_size);
  handles.clear();
  if (state.scene.current) state.scene.current->Handles(state, handles);
  on_screen.clear();
  for (const Handle& h : handles) {
    const auto p = ProjectToWindow(h.position, win, fb, state.view.view, state.view.projection);
    on_screen.push_back(p ? glm::vec2(*p) : glm::vec2(-1e9f));
  }
  app::DragStart start;
  start.position = state.target();
  start.grab =
      state.scene.current ? state.scene.current->DefaultGrab() : Grab{Grab::Kind::kTarget, -1};
  if (const auto pick = PickNearest(on_screen, cursor, kPickRadiusPixels)) {
    start.position = handles[*pick].position;
    start.grab = handles[*pick].grab;
  }
  start.plane_normal = state.view.camera.forward();
  return start;
}

// In drag mode with an orientation target, Shift / Ctrl / Alt + wheel turn its yaw / pitch /
// roll by 5 degrees a notch (docs/rotations.md). Returns
// false when the wheel is the camera's.
bool TurnOrientation(const AppState& state, const ImGuiIO& io, CommandQueue& queue) {
  if (state.mode != TargetMode::kDrag || !state.orient.euler_deg) return false;
  const int axis = io.KeyShift ? 0 : io.KeyCtrl ? 1 : io.KeyAlt ? 2 : -1;
  if (axis < 0) return false;
  glm::vec3 angles = *state.orient.euler_deg;
  float a = angles[axis] + 5.0f * io.MouseWheel;
  if (axis == 1) {
    a = std::clamp(a, -90.0f, 90.0f);
  } else {
    a = std::remainder(a, 360.0f);  // into [-180, 180]
  }
  angles[axis] = a;
  std::vector<std::string> args;
  for (int i = 0; i < 3; ++i) {
    char buf[32];
    std::snprintf(buf, sizeof(buf), "%.9g", static_cast<double>(angles[i]));
    args.emplace_back(buf);
  }
  queue.Push(Command(cmd::Extension{"orient", std::move(args)}), CommandSource::kQuiet);
  return true;
}

}  // namespace

void HandleInput(const AppState& state, CommandQueue& queue, ShellReport& report) {
  ImGuiIO& io = ImGui::GetIO();
  const bool cursor_valid =
      ImGui::IsMousePosValid() && std::isfinite(io.MousePos.x) && std::isfinite(io.MousePos.y);
  const glm::vec2 cursor(io.MousePos.x, io.MousePos.y);
  const glm::vec2 delta(io.MouseDelta.x, io.MouseDelta.y);
  const bool scene_has_mouse = !io.WantCaptureMouse;
  report.cursor_valid = cursor_valid;
  report.cursor = cursor_valid ? cursor : glm::vec2(0.0f);
  for (int b = 0; b < 3; ++b) report.buttons[b] = io.MouseDown[b];

  // Camera: right drag orbits, middle drag or Shift + right drag pans, the wheel zooms.
  if (scene_has_mouse && cursor_valid) {
    // The 2D view cannot orbit (docs/scenes.md: The 2D view): there a right drag pans too.
    const bool pan =
        io.MouseDown[2] || (io.MouseDown[1] && (io.KeyShift || state.view.camera.planar()));
    const bool moved = delta.x != 0.0f || delta.y != 0.0f;
    if (pan && moved) {
      queue.Push(app::CameraPan{delta, static_cast<float>(state.view.window_size.y)});
    } else if (io.MouseDown[1] && moved) {
      queue.Push(app::CameraOrbit{delta});
    }
    if (io.MouseWheel != 0.0f && !TurnOrientation(state, io, queue)) {
      queue.Push(app::CameraZoom{io.MouseWheel});
    }
  }

  // Drag mode: press, move, release the left button (rays from the view as last applied).
  if (state.drag.dragging && !io.MouseDown[0]) queue.Push(app::DragEnd{});
  if (io.MouseClicked[0] && scene_has_mouse && cursor_valid) {
    if (state.mode == TargetMode::kDrag) {
      std::vector<Handle> handles;  // a click, not every frame: allocating here is fine
      std::vector<glm::vec2> on_screen;
      queue.Push(PickGrab(state, cursor, handles, on_screen));
      if (const auto ray = CursorRay(state, cursor)) queue.Push(app::DragMove{*ray});
    } else {
      queue.Push(app::Notice{"the target follows " + std::string(ModeName(state.mode)) +
                                 " mode: press 1 (or pick drag in the panel) to drag it",
                             false});
    }
  } else if (state.drag.dragging && cursor_valid && (delta.x != 0.0f || delta.y != 0.0f)) {
    if (const auto ray = CursorRay(state, cursor)) queue.Push(app::DragMove{*ray});
  }

  // F1 and F12 type nothing, so they work whatever has the keyboard; Escape closes the help
  // overlay (docs/settings.md).
  if (ImGui::IsKeyPressed(GLFW_KEY_F1, false)) queue.Push(app::HelpOverlay{!state.help_open});
  if (state.help_open && ImGui::IsKeyPressed(GLFW_KEY_ESCAPE, false)) {
    queue.Push(app::HelpOverlay{false});
  }
  if (ImGui::IsKeyPressed(GLFW_KEY_F12, false)) queue.Push(app::ScreenshotRequest{});

  // Keys, when no text field has the keyboard.
  if (!io.WantCaptureKeyboard) {
    auto language = [&](Command c) { queue.Push(std::move(c)); };
    auto step = [&](cmd::StepAction action) { language(cmd::Step{action, 1}); };
    if (ImGui::IsKeyPressed(GLFW_KEY_R, false)) language(cmd::CameraReset{});
    if (ImGui::IsKeyPressed(GLFW_KEY_1, false)) language(cmd::Mode{TargetMode::kDrag});
    if (ImGui::IsKeyPressed(GLFW_KEY_2, false)) language(cmd::Mode{TargetMode::kSpline});
    if (ImGui::IsKeyPressed(GLFW_KEY_3, false)) language(cmd::Mode{TargetMode::kConsole});
    if (ImGui::IsKeyPressed(GLFW_KEY_4, false)) language(cmd::Mode{TargetMode::kScript});
    if (ImGui::IsKeyPressed(GLFW_KEY_P, false)) {
      step(state.step.active ? cmd::StepAction::kOff : cmd::StepAction::kOn);
    }
    if (state.step.active) {
      const bool shift = io.KeyShift;
      if (ImGui::IsKeyPressed(GLFW_KEY_RIGHT)) {
        step(shift ? cmd::StepAction::kPass : cmd::StepAction::kNext);
      }
      if (ImGui::IsKeyPressed(GLFW_KEY_LEFT)) {
        step(shift ? cmd::StepAction::kBack : cmd::StepAction::kPrev);
      }
      if (ImGui::IsKeyPressed(GLFW_KEY_UP)) step(cmd::StepAction::kIteration);
      if (ImGui::IsKeyPressed(GLFW_KEY_DOWN)) queue.Push(app::StepIterationBack{});
      if (ImGui::IsKeyPressed(GLFW_KEY_HOME, false)) step(cmd::StepAction::kStart);
      if (ImGui::IsKeyPressed(GLFW_KEY_END, false)) step(cmd::StepAction::kEnd);
      if (ImGui::IsKeyPressed(GLFW_KEY_SPACE, false)) {
        step(state.step.playing ? cmd::StepAction::kPause : cmd::StepAction::kPlay);
      }
    }
  }
}

}  // namespace fabrik
