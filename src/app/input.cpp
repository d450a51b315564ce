// Step 1 of the frame: mouse and keyboard, read through Dear ImGui's IO so the panel gets
// the input it is over (io.WantCaptureMouse / WantCaptureKeyboard) and the scene the rest.
#include <GLFW/glfw3.h>
#include <backends/imgui_impl_glfw.h>
#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include <glm/geometric.hpp>

#include "app/step_view.h"
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

// Everything a left-drag can grab in the current scene: the target and the effector (which
// grabs the target), the arm's pole, every creature effector and its target.
struct Handle {
  glm::vec3 position;
  Grab grab;
};

void CollectHandles(const AppState& state, std::vector<Handle>& out) {
  out.clear();
  const SceneState& scene = state.scene;
  if (scene.kind == SceneKind::kCreature && scene.creature.tree) {
    const CreatureScene& c = scene.creature;
    for (std::size_t k = 0; k < c.targets.size(); ++k) {
      const Grab grab{Grab::Kind::kEffectorTarget, static_cast<int>(k)};
      out.push_back({c.targets[k].position, grab});
      out.push_back({c.tree->positions()[static_cast<std::size_t>(c.targets[k].node)], grab});
    }
    return;
  }
  out.push_back({state.target, {Grab::Kind::kTarget, -1}});
  out.push_back({state.chain.effector(), {Grab::Kind::kTarget, -1}});
  if (scene.kind == SceneKind::kArm && scene.arm.use_pole) {
    out.push_back({scene.arm.pole, {Grab::Kind::kPole, -1}});
  }
}

void BeginDrag(AppState& state, glm::vec2 cursor) {
  const glm::vec2 win(state.view.window_size), fb(state.view.framebuffer_size);
  static std::vector<Handle> handles;
  static std::vector<glm::vec2> on_screen;
  CollectHandles(state, handles);
  on_screen.clear();
  for (const Handle& h : handles) {
    const auto p = ProjectToWindow(h.position, win, fb, state.view.view, state.view.projection);
    on_screen.push_back(p ? glm::vec2(*p) : glm::vec2(-1e9f));
  }
  // Grab the handle nearest the cursor on screen; a click elsewhere grabs the (primary)
  // target at its current depth and brings it under the cursor.
  glm::vec3 grabbed = state.target;
  Grab grab{Grab::Kind::kTarget, -1};
  if (state.scene.kind == SceneKind::kCreature) {
    grab = {Grab::Kind::kEffectorTarget, state.scene.creature.primary};
  }
  if (const auto pick = PickNearest(on_screen, cursor, kPickRadiusPixels)) {
    grabbed = handles[*pick].position;
    grab = handles[*pick].grab;
  }
  state.scene.grab = grab;
  state.drag.Begin(grabbed, state.view.camera.forward());
  state.dragging = state.drag.active();
  state.blend.active = false;
}

void UpdateDrag(AppState& state, glm::vec2 cursor) {
  const auto ray = CursorRay(state, cursor);
  if (!ray) return;
  const auto hit = state.drag.Update(*ray);
  if (!hit) return;
  SceneState& scene = state.scene;
  switch (scene.grab.kind) {
    case Grab::Kind::kPole:
      scene.arm.pole = *hit;
      return;
    case Grab::Kind::kEffectorTarget:
      if (scene.kind == SceneKind::kCreature && scene.grab.index != scene.creature.primary) {
        scene.creature.targets[static_cast<std::size_t>(scene.grab.index)].position = *hit;
        return;
      }
      break;
    case Grab::Kind::kTarget:
    case Grab::Kind::kNone:
      break;
  }
  state.source_target = *hit;
  state.target = *hit;
}

}  // namespace

void HandleInput(AppState& state) {
  ImGuiIO& io = ImGui::GetIO();
  const bool cursor_valid = ImGui::IsMousePosValid() && std::isfinite(io.MousePos.x) &&
                            std::isfinite(io.MousePos.y);
  const glm::vec2 cursor(io.MousePos.x, io.MousePos.y);
  const glm::vec2 delta(io.MouseDelta.x, io.MouseDelta.y);
  const bool scene_has_mouse = !io.WantCaptureMouse;
  state.view.cursor_valid = cursor_valid;
  state.view.cursor = cursor_valid ? cursor : glm::vec2(0.0f);
  for (int b = 0; b < 3; ++b) state.view.buttons[b] = io.MouseDown[b];
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
    state.scene.grab = {};
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
    if (ImGui::IsKeyPressed(GLFW_KEY_P, false)) SetStepView(state, !state.step.active);
    if (state.step.active) {
      const bool shift = io.KeyShift;
      if (ImGui::IsKeyPressed(GLFW_KEY_RIGHT)) {
        shift ? StepHalfPass(state, +1) : StepBy(state, +1);
      }
      if (ImGui::IsKeyPressed(GLFW_KEY_LEFT)) {
        shift ? StepHalfPass(state, -1) : StepBy(state, -1);
      }
      if (ImGui::IsKeyPressed(GLFW_KEY_UP)) StepIteration(state, +1);
      if (ImGui::IsKeyPressed(GLFW_KEY_DOWN)) StepIteration(state, -1);
      if (ImGui::IsKeyPressed(GLFW_KEY_HOME, false)) StepToStart(state);
      if (ImGui::IsKeyPressed(GLFW_KEY_END, false)) StepToEnd(state);
      if (ImGui::IsKeyPressed(GLFW_KEY_SPACE, false)) state.step.playing = !state.step.playing;
    }
  }
}

}  // namespace fabrik

// Dear ImGui 1.86 samples key state once per frame, so a key pressed and released between
// two frames (a quick tap, or xdotool's key command) would never be seen as pressed, and
// "Up Up Return" typed within one frame would count as one Up. So key and character events
// go through a queue that keeps their order and lets through, per frame:
//   * at most one event per key (a tap is then down for at least one frame);
//   * nothing after an editing key (Enter, Tab, arrows, Backspace...), which ends the frame;
//   * nothing for two more frames after Enter or the console key: the console's input line
//     loses and regains the keyboard over those frames, and ImGui drops characters typed
//     while no text field is active.
// A person typing at human speed never notices; scripted typing is spread over frames.
namespace fabrik {
namespace {

struct KeyEvent {
  int key, scancode, action, mods;
  unsigned codepoint;  // a typed character when key == -1
};
std::vector<int> g_keys_this_frame;
std::vector<KeyEvent> g_waiting;
bool g_frame_closed = false;
int g_hold_frames = 0;

bool EndsFrame(int key) {
  switch (key) {
    case GLFW_KEY_ENTER: case GLFW_KEY_KP_ENTER: case GLFW_KEY_TAB: case GLFW_KEY_UP:
    case GLFW_KEY_DOWN: case GLFW_KEY_LEFT: case GLFW_KEY_RIGHT: case GLFW_KEY_BACKSPACE:
    case GLFW_KEY_DELETE: case GLFW_KEY_HOME: case GLFW_KEY_END: case GLFW_KEY_ESCAPE:
    case GLFW_KEY_GRAVE_ACCENT:
      return true;
    default:
      return false;
  }
}

bool PassThrough(GLFWwindow* window, const KeyEvent& e) {
  if (g_frame_closed || g_hold_frames > 0) return false;
  if (e.key == -1) {  // characters queue up inside ImGui: one frame takes many
    ImGui_ImplGlfw_CharCallback(window, e.codepoint);
    return true;
  }
  if (std::find(g_keys_this_frame.begin(), g_keys_this_frame.end(), e.key) !=
      g_keys_this_frame.end()) {
    return false;
  }
  g_keys_this_frame.push_back(e.key);
  ImGui_ImplGlfw_KeyCallback(window, e.key, e.scancode, e.action, e.mods);
  if (e.action == GLFW_PRESS && EndsFrame(e.key)) {
    g_frame_closed = true;
    if (e.key == GLFW_KEY_ENTER || e.key == GLFW_KEY_KP_ENTER || e.key == GLFW_KEY_GRAVE_ACCENT) {
      g_hold_frames = 2;
    }
  }
  return true;
}

void DeferringKeyCallback(GLFWwindow* window, int key, int scancode, int action, int mods) {
  if (action == GLFW_REPEAT) {  // auto-repeat while held: straight through
    ImGui_ImplGlfw_KeyCallback(window, key, scancode, action, mods);
    return;
  }
  const KeyEvent e{key, scancode, action, mods, 0};
  if (!g_waiting.empty() || !PassThrough(window, e)) g_waiting.push_back(e);
}

void DeferringCharCallback(GLFWwindow* window, unsigned codepoint) {
  const KeyEvent e{-1, 0, 0, 0, codepoint};
  if (!g_waiting.empty() || !PassThrough(window, e)) g_waiting.push_back(e);
}

}  // namespace

void InstallKeyDeferral(GLFWwindow* window) {
  glfwSetKeyCallback(window, DeferringKeyCallback);
  glfwSetCharCallback(window, DeferringCharCallback);
}

void ReplayHeldKeyReleases(GLFWwindow* window) {
  g_keys_this_frame.clear();
  g_frame_closed = false;
  if (g_hold_frames > 0) {
    --g_hold_frames;
    return;
  }
  std::size_t passed = 0;
  while (passed < g_waiting.size() && PassThrough(window, g_waiting[passed])) ++passed;
  g_waiting.erase(g_waiting.begin(), g_waiting.begin() + static_cast<std::ptrdiff_t>(passed));
}

}  // namespace fabrik
