// Placeholder until the demo lands: opens a window and clears it.
#include <glad/gl.h>
#include <GLFW/glfw3.h>

#include <cstdio>

int main() {
  if (!glfwInit()) {
    std::fprintf(stderr, "fabrik-demo: could not initialise GLFW\n");
    return 1;
  }
  glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 3);
  glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 3);
  glfwWindowHint(GLFW_OPENGL_PROFILE, GLFW_OPENGL_CORE_PROFILE);
  GLFWwindow* window = glfwCreateWindow(1280, 800, "FABRIK", nullptr, nullptr);
  if (!window) {
    std::fprintf(stderr, "fabrik-demo: could not create an OpenGL 3.3 window\n");
    glfwTerminate();
    return 1;
  }
  glfwMakeContextCurrent(window);
  gladLoadGL(glfwGetProcAddress);
  while (!glfwWindowShouldClose(window)) {
    glClearColor(0.1f, 0.1f, 0.12f, 1.0f);
    glClear(GL_COLOR_BUFFER_BIT);
    glfwSwapBuffers(window);
    glfwPollEvents();
  }
  glfwTerminate();
  return 0;
}
