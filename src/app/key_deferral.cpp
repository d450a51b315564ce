#include "app/key_deferral.h"

#include <GLFW/glfw3.h>
#include <backends/imgui_impl_glfw.h>

#include <algorithm>

namespace fabrik {
namespace {

bool EndsFrame(int key) {
  switch (key) {
    case GLFW_KEY_ENTER:
    case GLFW_KEY_KP_ENTER:
    case GLFW_KEY_TAB:
    case GLFW_KEY_UP:
    case GLFW_KEY_DOWN:
    case GLFW_KEY_LEFT:
    case GLFW_KEY_RIGHT:
    case GLFW_KEY_BACKSPACE:
    case GLFW_KEY_DELETE:
    case GLFW_KEY_HOME:
    case GLFW_KEY_END:
    case GLFW_KEY_ESCAPE:
    case GLFW_KEY_GRAVE_ACCENT:
      return true;
    default:
      return false;
  }
}

}  // namespace

KeyDeferral::KeyDeferral(GLFWwindow* window) : window_(window) {
  keys_this_frame_.reserve(16);
  waiting_.reserve(64);
  glfwSetWindowUserPointer(window, this);
  glfwSetKeyCallback(window, OnKey);
  glfwSetCharCallback(window, OnChar);
}

bool KeyDeferral::PassThrough(const KeyEvent& e) {
  if (frame_closed_ || hold_frames_ > 0) return false;
  if (e.key == -1) {  // characters queue up inside ImGui: one frame takes many
    ImGui_ImplGlfw_CharCallback(window_, e.codepoint);
    return true;
  }
  if (std::find(keys_this_frame_.begin(), keys_this_frame_.end(), e.key) !=
      keys_this_frame_.end()) {
    return false;
  }
  keys_this_frame_.push_back(e.key);
  ImGui_ImplGlfw_KeyCallback(window_, e.key, e.scancode, e.action, e.mods);
  if (e.action == GLFW_PRESS && EndsFrame(e.key)) {
    frame_closed_ = true;
    if (e.key == GLFW_KEY_ENTER || e.key == GLFW_KEY_KP_ENTER || e.key == GLFW_KEY_GRAVE_ACCENT) {
      hold_frames_ = 2;
    }
  }
  return true;
}

void KeyDeferral::Offer(const KeyEvent& e) {
  if (!waiting_.empty() || !PassThrough(e)) waiting_.push_back(e);
}

void KeyDeferral::OnKey(GLFWwindow* window, int key, int scancode, int action, int mods) {
  if (action == GLFW_REPEAT) {  // auto-repeat while held: straight through
    ImGui_ImplGlfw_KeyCallback(window, key, scancode, action, mods);
    return;
  }
  auto* self = static_cast<KeyDeferral*>(glfwGetWindowUserPointer(window));
  if (self != nullptr) self->Offer({key, scancode, action, mods, 0});
}

void KeyDeferral::OnChar(GLFWwindow* window, unsigned codepoint) {
  auto* self = static_cast<KeyDeferral*>(glfwGetWindowUserPointer(window));
  if (self != nullptr) self->Offer({-1, 0, 0, 0, codepoint});
}

void KeyDeferral::BeginFrame() {
  keys_this_frame_.clear();
  frame_closed_ = false;
  if (hold_frames_ > 0) {
    --hold_frames_;
    return;
  }
  std::size_t passed = 0;
  while (passed < waiting_.size() && PassThrough(waiting_[passed])) ++passed;
  waiting_.erase(waiting_.begin(), waiting_.begin() + static_cast<std::ptrdiff_t>(passed));
}

}  // namespace fabrik
