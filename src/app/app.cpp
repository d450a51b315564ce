#include "app/app.h"

// glad must come before GLFW (it refuses a gl.h included first).
// clang-format off
#include <glad/gl.h>
#include <GLFW/glfw3.h>
// clang-format on
#include <backends/imgui_impl_glfw.h>
#include <backends/imgui_impl_opengl3.h>
#include <imgui.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <filesystem>
#include <glm/common.hpp>
#include <memory>
#include <optional>
#include <utility>

#include "app/data_dir.h"
#include "app/imgui_ini.h"
#include "app/key_deferral.h"
#include "app/panel_font.h"
#include "app/systems.h"
#include "app/ui_state.h"
#include "core/app_core.h"
#include "core/settings.h"
#include "core/startup.h"
#include "core/state_writer.h"
#include "core/stop_request.h"
#include "core/window_limits.h"
#include "render/renderer.h"
#include "render/window.h"

namespace fabrik {
namespace {

// SIGINT (Ctrl+C), SIGTERM and SIGHUP close the window like its close button, so the settings
// are still saved (docs/settings.md).
void OnStopSignal(int) { RequestStop(); }

// `position` (a window's top-left corner, screen coordinates) moved onto a monitor: kept when
// it lies on one, otherwise the nearest point of the nearest monitor's work area, so a saved
// place never opens the window off every screen (X11 also wraps coordinates beyond 16 bits).
glm::ivec2 OnAMonitor(glm::ivec2 position) {
  int count = 0;
  GLFWmonitor** monitors = glfwGetMonitors(&count);
  std::optional<glm::ivec2> best;
  long long best_distance = 0;
  for (int k = 0; k < count; ++k) {
    int x = 0, y = 0, w = 0, h = 0;
    glfwGetMonitorWorkarea(monitors[k], &x, &y, &w, &h);
    if (w <= 0 || h <= 0) continue;
    const glm::ivec2 lo(x, y), hi(x + w - 1, y + h - 1);
    const glm::ivec2 p = glm::clamp(position, lo, hi);
    const long long dx = p.x - position.x, dy = p.y - position.y;
    if (!best || dx * dx + dy * dy < best_distance) {
      best = p;
      best_distance = dx * dx + dy * dy;
    }
  }
  return best.value_or(position);
}

// The window's size (when it is a size worth restoring) and place, for the settings.
std::pair<std::optional<glm::ivec2>, std::optional<glm::ivec2>> WindowPlacement(
    const Window& window) {
  int x = 0, y = 0;
  glfwGetWindowPos(window.handle(), &x, &y);
  const glm::ivec2 size = window.window_size();
  const bool sized = size.x >= kMinWindowSize.x && size.y >= kMinWindowSize.y &&
                     size.x <= kMaxWindowSize.x && size.y <= kMaxWindowSize.y;
  return {sized ? std::optional<glm::ivec2>(size) : std::nullopt, OnAMonitor({x, y})};
}

int Fail(int code, const std::string& message) {
  std::fprintf(stderr, "fabrik-demo: %s\n", message.c_str());
  return code;
}

// `ini`: the settings folder's imgui.ini, or null (--no-settings): ImGui's layout is never read
// from or written to the working folder. *save_ini is set false when the file there must be
// left alone (not a regular file).
void SetUpImGui(GLFWwindow* window, float content_scale, const std::string* ini, bool* save_ini) {
  IMGUI_CHECKVERSION();
  ImGui::CreateContext();
  ImGuiIO& io = ImGui::GetIO();
  // The layout file is read and written by the demo (imgui_ini.h), never by ImGui itself.
  io.IniFilename = nullptr;
  if (ini != nullptr && !LoadImGuiIni(*ini)) *save_ini = false;
  ImGui::StyleColorsDark();
  ImGuiStyle& style = ImGui::GetStyle();
  style.WindowRounding = 6.0f;
  style.FrameRounding = 4.0f;
  style.GrabRounding = 4.0f;
  style.WindowPadding = ImVec2(12, 10);
  style.ItemSpacing = ImVec2(8, 6);
  style.Colors[ImGuiCol_WindowBg] = ImVec4(0.09f, 0.10f, 0.12f, 1.0f);
  style.Colors[ImGuiCol_TitleBgActive] = ImVec4(0.16f, 0.29f, 0.48f, 1.0f);
  style.ScaleAllSizes(content_scale);
  // A proportional font reads better than the built-in bitmap one (app/panel_font.h).
  AddPanelFont(*io.Fonts, kPanelFontPath, 15.0f * content_scale);
  ImGui_ImplGlfw_InitForOpenGL(window, true);
  ImGui_ImplOpenGL3_Init("#version 330 core");
}

StartOptions ToStartOptions(const Options& o) {
  StartOptions start;
  start.mode = o.mode;
  start.spline_path = o.spline_path;
  start.script_path = o.script_path;
  start.joints = o.joints;
  start.lengths = o.lengths;
  start.length = o.length;
  start.moe = o.moe;
  start.max_iterations = o.max_iterations;
  start.fixed_dt = o.fixed_dt;
  start.scene = o.scene;
  start.terrain_path = o.terrain_path;
  start.terrain_size = o.terrain_size;
  start.terrain_height = o.terrain_height;
  start.scene_options = o.scene_options;
  start.given = o.given;
  start.solver = o.solver;
  start.exec = o.exec;
  start.screenshot_dir = o.screenshot_dir;
  return start;
}

// The window's part of each frame (core/frame.h's FrameShell): it reads the state, draws
// and enqueues; SimulateFrame runs it in the frame order.
class WindowShell : public FrameShell {
 public:
  WindowShell(Window& window, KeyDeferral& keys, Renderer& renderer, UiState& ui,
              StateWriter* writer, float panel_width)
      : window_(window),
        keys_(keys),
        renderer_(renderer),
        ui_(ui),
        writer_(writer),
        panel_width_(panel_width) {}

  // 1. input: read only, everything enqueued.
  void Input(const AppState& state, CommandQueue& queue) override {
    keys_.BeginFrame();
    glfwPollEvents();
    if (window_.window_size() != state.view.window_size ||
        window_.framebuffer_size() != state.view.framebuffer_size) {
      queue.Push(app::Viewport{window_.window_size(), window_.framebuffer_size(), panel_width_});
    }
    ImGui_ImplOpenGL3_NewFrame();
    ImGui_ImplGlfw_NewFrame();
    ImGui::NewFrame();
    HandleConsoleKey(ui_.console);
    HandleInput(state, queue, ui_.report);
  }

  // 5. render the scene, 6. panel (its changes are enqueued for the next frame's apply
  // step), 7. output.
  void Present(const AppState& state, CommandQueue& queue) override {
    renderer_.BeginFrame(state.view.framebuffer_size);
    scene_.Draw(state, renderer_);
    ui_.report.draw_calls = renderer_.draw_calls();
    ui_.report.drawn_items = renderer_.drawn_items();
    DrawPanel(state, ui_, queue);
    DrawConsole(state, ui_.console, queue);
    // A screenshot frame leaves the help overlay out (docs/settings.md).
    if (state.help_open && state.screenshot_pending.empty()) DrawHelpOverlay(state, queue);
    ImGui::Render();
    ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
    if (!state.screenshot_pending.empty()) {
      const auto pixels = renderer_.ReadPixels(state.view.framebuffer_size);
      const Status written =
          WritePng(state.screenshot_pending, pixels, state.view.framebuffer_size);
      queue.Push(app::ScreenshotDone{state.screenshot_pending, written ? "" : written.error()});
    }
    ui_.report.console_open = ui_.console.open;
    ui_.report.console_ready = ui_.console.open && ui_.console.ready;
    if (writer_ != nullptr) {
      const Status streamed = writer_->Write(state, ui_.report);
      if (!streamed) std::fprintf(stderr, "fabrik-demo: %s\n", streamed.error().c_str());
    }
  }

 private:
  Window& window_;
  KeyDeferral& keys_;
  Renderer& renderer_;
  UiState& ui_;
  StateWriter* writer_;
  float panel_width_;
  SceneDrawer scene_;
};

// The window, sized and placed as the saved settings say (else as the options), resizable
// within the same bounds as --size (docs/limits.md).
Result<std::unique_ptr<Window>> OpenWindow(const Options& options,
                                           const SettingsSession& settings) {
  WindowDesc desc;
  desc.width = settings.window_size ? settings.window_size->x : options.width;
  desc.height = settings.window_size ? settings.window_size->y : options.height;
  desc.vsync = options.vsync;
  desc.visible = !options.hidden;
  desc.samples = options.msaa;
  auto window = Window::Create(desc);
  if (!window) return window;
  GLFWwindow* handle = window.value()->handle();
  if (settings.window_position) {
    const glm::ivec2 place = OnAMonitor(*settings.window_position);
    glfwSetWindowPos(handle, place.x, place.y);
  }
  glfwSetWindowSizeLimits(handle, kMinWindowSize.x, kMinWindowSize.y, kMaxWindowSize.x,
                          kMaxWindowSize.y);
  return window;
}

// At the end of the run: the settings and, when `ini` is set, the panel layout; a file that
// cannot be written is reported on stderr.
void SaveOnExit(const SettingsSession& settings, const AppState& state, Window& window,
                const std::string* ini) {
  const auto [size, position] = WindowPlacement(window);
  const std::string unsaved = SaveSettings(settings, state, size, position);
  if (!unsaved.empty()) std::fprintf(stderr, "fabrik-demo: %s\n", unsaved.c_str());
  if (ini) {
    const std::string layout = SaveImGuiIni(*ini);
    if (!layout.empty()) std::fprintf(stderr, "fabrik-demo: %s\n", layout.c_str());
  }
}

}  // namespace

int RunApp(const Options& options) {
  // First, so a stop at any time after start (during loading too) ends the loop after one
  // frame and the settings are saved. SIGHUP: the terminal was closed. A file-size limit
  // makes a write fail (and be reported) rather than end the process.
  std::signal(SIGINT, OnStopSignal);
  std::signal(SIGTERM, OnStopSignal);
  std::signal(SIGHUP, OnStopSignal);
  std::signal(SIGXFSZ, SIG_IGN);
  // Everything that can fail because of the user's input is checked before a window opens.
  const auto data_dir = FindDataDir();
  if (!data_dir) {
    return Fail(1, "cannot find the shaders/ folder (set FABRIK_DATA_DIR to the project folder)");
  }
  StartOptions start = ToStartOptions(options);
  // docs/settings.md: the saved settings, less what the options set.
  const SettingsSession settings = LoadStartSettings(!options.no_settings, options.given, start);
  SettingsAutosave autosave;
  if (!start.settings_problem.empty()) {
    std::fprintf(stderr, "fabrik-demo: %s\n", start.settings_problem.c_str());
  }
  auto started = StartApp(start, *data_dir);
  if (!started) return Fail(2, started.error());
  // The shell reads the state; it changes it only through `core` (frames and commands).
  AppCore core(std::move(started).value());
  if (!options.export_path.empty()) {
    // Headless (docs/mocap.md: Exporting from the demo): no window, GLFW or GL.
    const Result<std::string> exported = core.Export(options.export_path);
    if (!exported) return Fail(2, exported.error());
    std::printf("fabrik-demo: %s\n", exported.value().c_str());
    return 0;
  }
  const AppState& state = core.state();
  CommandQueue queue;
  UiState ui;

  std::unique_ptr<StateWriter> writer;
  if (!options.state_out_path.empty()) {
    auto opened = StateWriter::Open(options.state_out_path);
    if (!opened) return Fail(2, opened.error());
    writer = std::move(opened).value();
  }

  auto window_result = OpenWindow(options, settings);
  if (!window_result) return Fail(1, window_result.error());
  std::unique_ptr<Window> window = std::move(window_result).value();
  auto renderer_result = Renderer::Create(state.data_dir + "/shaders");
  if (!renderer_result) return Fail(1, renderer_result.error());
  std::unique_ptr<Renderer> renderer = std::move(renderer_result).value();

  float scale_x = 1.0f, scale_y = 1.0f;
  glfwGetWindowContentScale(window->handle(), &scale_x, &scale_y);
  const float content_scale = std::clamp(scale_x, 1.0f, 4.0f);
  const std::string ini = settings.folder ? *settings.folder + "/imgui.ini" : std::string();
  if (settings.folder) {
    std::error_code ec;  // ImGui writes imgui.ini on exit only if its folder exists
    std::filesystem::create_directories(*settings.folder, ec);
  }
  bool save_ini = settings.folder.has_value();
  SetUpImGui(window->handle(), content_scale, settings.folder ? &ini : nullptr, &save_ini);
  KeyDeferral keys(window->handle());
  const float panel_width = 340.0f * content_scale;
  // The first frame's view matrices, before any input is read.
  (void)core.Apply(app::Viewport{window->window_size(), window->framebuffer_size(), panel_width},
                   CommandSource::kQuiet);

  WindowShell shell(*window, keys, *renderer, ui, writer.get(), panel_width);
  auto last = std::chrono::steady_clock::now();
  bool first = true;
  while (!window->ShouldClose()) {
    // Timing: wall clock for FPS, fixed or real dt for the simulation.
    const auto now = std::chrono::steady_clock::now();
    const float real_dt = first ? 1.0f / 60.0f : std::chrono::duration<float>(now - last).count();
    last = now;
    first = false;
    core.Frame(queue, real_dt, shell);
    const long frame = state.timing.frame;
    const bool last_frame = options.frames > 0 && frame >= options.frames;
    if (last_frame && !options.screenshot_path.empty()) {
      const auto pixels = renderer->ReadPixels(state.view.framebuffer_size);
      const Status written = WritePng(options.screenshot_path, pixels, state.view.framebuffer_size);
      if (!written) std::fprintf(stderr, "fabrik-demo: %s\n", written.error().c_str());
    }
    window->SwapBuffers();
    if (last_frame || state.quit_requested || StopRequested()) window->RequestClose();
    // Saved every few seconds too, so a crash or a kill loses little.
    if (autosave.Due(glfwGetTime())) {
      const auto [size, position] = WindowPlacement(*window);
      const std::string unsaved = autosave.Save(settings, state, size, position);
      if (!unsaved.empty()) std::fprintf(stderr, "fabrik-demo: %s\n", unsaved.c_str());
    }
  }

  SaveOnExit(settings, state, *window, save_ini ? &ini : nullptr);
  ImGui_ImplOpenGL3_Shutdown();
  ImGui_ImplGlfw_Shutdown();
  ImGui::DestroyContext();
  return 0;
}

}  // namespace fabrik
