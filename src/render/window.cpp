#include "render/window.h"

#include <GLFW/glfw3.h>
#include <glad/gl.h>
#include <sys/resource.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>

namespace fabrik {
namespace {

void OnGlfwError(int code, const char* description) {
  std::fprintf(stderr, "GLFW error %d: %s\n", code, description);
}

GLFWwindow* TryCreate(const WindowDesc& desc, int samples) {
  glfwDefaultWindowHints();
  glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 3);
  glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 3);
  glfwWindowHint(GLFW_OPENGL_PROFILE, GLFW_OPENGL_CORE_PROFILE);
  glfwWindowHint(GLFW_OPENGL_FORWARD_COMPAT, GLFW_TRUE);
  glfwWindowHint(GLFW_SAMPLES, samples);
  glfwWindowHint(GLFW_VISIBLE, desc.visible ? GLFW_TRUE : GLFW_FALSE);
  glfwWindowHint(GLFW_SCALE_TO_MONITOR, GLFW_TRUE);
  return glfwCreateWindow(desc.width, desc.height, desc.title.c_str(), nullptr, nullptr);
}

// Mesa's software renderers (llvmpipe, softpipe) end the program, a segmentation fault while
// they compile shaders, instead of failing when the address space runs out: measured here,
// every scene crashed under `ulimit -v` 600000 and ran from 700000. Under a limit below
// kSoftwareGlAddressSpace the demo stops before its first shader, with one line.
constexpr std::uint64_t kSoftwareGlAddressSpace = 768ull << 20;

Status CheckAddressSpaceForSoftwareGl() {
  const auto* renderer = reinterpret_cast<const char*>(glGetString(GL_RENDERER));
  if (renderer == nullptr || (std::strstr(renderer, "llvmpipe") == nullptr &&
                              std::strstr(renderer, "softpipe") == nullptr)) {
    return Ok{};
  }
  rlimit limit{};
  if (getrlimit(RLIMIT_AS, &limit) != 0 || limit.rlim_cur == RLIM_INFINITY ||
      limit.rlim_cur >= kSoftwareGlAddressSpace) {
    return Ok{};
  }
  return MakeError("the address-space limit (ulimit -v " + std::to_string(limit.rlim_cur >> 10) +
                   ") is below the " + std::to_string(kSoftwareGlAddressSpace >> 10) +
                   " KiB software OpenGL needs (renderer: " + std::string(renderer).substr(0, 40) +
                   "): raise it");
}

}  // namespace

Result<std::unique_ptr<Window>> Window::Create(const WindowDesc& desc) {
  glfwSetErrorCallback(OnGlfwError);
  if (!glfwInit()) return MakeError("could not initialise GLFW (is a display available?)");
  std::unique_ptr<Window> window(new Window());
  window->samples_ = std::max(0, desc.samples);
  window->window_ = TryCreate(desc, window->samples_);
  if (!window->window_ && window->samples_ > 0) {
    window->samples_ = 0;
    window->window_ = TryCreate(desc, 0);
  }
  if (!window->window_) {
    glfwTerminate();
    return MakeError("could not create a window with an OpenGL 3.3 core context");
  }
  glfwMakeContextCurrent(window->window_);
  const int version = gladLoadGL(glfwGetProcAddress);
  if (version == 0 || GLAD_VERSION_MAJOR(version) * 10 + GLAD_VERSION_MINOR(version) < 33) {
    return MakeError("OpenGL 3.3 core is not available (glad could not load it)");
  }
  if (Status room = CheckAddressSpaceForSoftwareGl(); !room.ok()) return MakeError(room.error());
  glfwSwapInterval(desc.vsync ? 1 : 0);
  if (window->samples_ > 0) glEnable(GL_MULTISAMPLE);
  glfwFocusWindow(window->window_);
  return window;
}

Window::~Window() {
  if (window_) glfwDestroyWindow(window_);
  glfwTerminate();
}

bool Window::ShouldClose() const { return glfwWindowShouldClose(window_) != 0; }
void Window::RequestClose() { glfwSetWindowShouldClose(window_, GLFW_TRUE); }
void Window::SwapBuffers() { glfwSwapBuffers(window_); }

glm::ivec2 Window::window_size() const {
  int w = 0, h = 0;
  glfwGetWindowSize(window_, &w, &h);
  return {std::max(w, 1), std::max(h, 1)};
}

glm::ivec2 Window::framebuffer_size() const {
  int w = 0, h = 0;
  glfwGetFramebufferSize(window_, &w, &h);
  return {std::max(w, 1), std::max(h, 1)};
}

}  // namespace fabrik
