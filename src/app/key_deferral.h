// key_deferral.h - keeps key taps shorter than a frame visible to Dear ImGui 1.86.
//
// ImGui 1.86 samples key state once per frame, so a key pressed and released between two
// frames (a quick tap, or xdotool's key command) would never be seen as pressed, and
// "Up Up Return" typed within one frame would count as one Up. So key and character events
// go through a queue that keeps their order and lets through, per frame:
//   * at most one event per key (a tap is then down for at least one frame);
//   * nothing after an editing key (Enter, Tab, arrows, Backspace...), which ends the frame;
//   * nothing for two more frames after Enter or the console key: the console's input line
//     loses and regains the keyboard over those frames, and ImGui drops characters typed
//     while no text field is active.
// A person typing at human speed never notices; scripted typing is spread over frames.
#pragma once

#include <vector>

struct GLFWwindow;

namespace fabrik {

// Owned by the shell, one per window; the window's user pointer points at it.
class KeyDeferral {
 public:
  // Installs the key and character callbacks on `window` (after ImGui's GLFW backend).
  explicit KeyDeferral(GLFWwindow* window);
  KeyDeferral(const KeyDeferral&) = delete;
  KeyDeferral& operator=(const KeyDeferral&) = delete;
  // Call before each glfwPollEvents: starts a frame and lets through what waited.
  void BeginFrame();

 private:
  struct KeyEvent {
    int key, scancode, action, mods;
    unsigned codepoint;  // a typed character when key == -1
  };
  static void OnKey(GLFWwindow* window, int key, int scancode, int action, int mods);
  static void OnChar(GLFWwindow* window, unsigned codepoint);
  bool PassThrough(const KeyEvent& e);
  void Offer(const KeyEvent& e);

  GLFWwindow* window_;
  std::vector<int> keys_this_frame_;
  std::vector<KeyEvent> waiting_;
  bool frame_closed_ = false;
  int hold_frames_ = 0;
};

}  // namespace fabrik
