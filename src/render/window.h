// window.h - the GLFW window and its OpenGL 3.3 core context, loaded through glad.
//
// Create() asks for 4x MSAA and falls back to none if the driver refuses; it fails with a
// message (never a crash) when GLFW cannot start or no OpenGL 3.3 core context exists.
#pragma once

#include <memory>
#include <string>

#include <glm/vec2.hpp>

#include "ik/result.h"

struct GLFWwindow;

namespace fabrik {

struct WindowDesc {
  int width = 1280;   // screen coordinates
  int height = 800;
  std::string title = "FABRIK";
  bool vsync = true;
  int samples = 4;     // MSAA; 0 disables
  bool visible = true;
};

class Window {
 public:
  static Result<std::unique_ptr<Window>> Create(const WindowDesc& desc);
  ~Window();
  Window(const Window&) = delete;
  Window& operator=(const Window&) = delete;

  GLFWwindow* handle() const { return window_; }
  bool ShouldClose() const;
  void RequestClose();
  void SwapBuffers();
  // Window size in screen coordinates and framebuffer size in pixels; both at least 1x1
  // (a minimised window reports 0, which would make aspect ratios NaN).
  glm::ivec2 window_size() const;
  glm::ivec2 framebuffer_size() const;
  int samples() const { return samples_; }

 private:
  Window() = default;
  GLFWwindow* window_ = nullptr;
  int samples_ = 0;
};

}  // namespace fabrik
