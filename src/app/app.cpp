#include "app/app.h"

#include <glad/gl.h>
#include <GLFW/glfw3.h>
#include <backends/imgui_impl_glfw.h>
#include <backends/imgui_impl_opengl3.h>
#include <imgui.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <memory>

#include "app/commands.h"
#include "app/data_dir.h"
#include "app/state_writer.h"
#include "app/systems.h"
#include "ik/chain_rebuild.h"
#include "ik/fabrik.h"
#include "render/renderer.h"
#include "render/window.h"
#include "targets/script.h"
#include "targets/spline_file.h"

namespace fabrik {
namespace {

int Fail(int code, const std::string& message) {
  std::fprintf(stderr, "fabrik-demo: %s\n", message.c_str());
  return code;
}

// The chain at start: rising from the origin, then bent once towards a pleasant target so
// the first frame shows a curved arm rather than a stick.
Result<Chain> InitialChain(const std::vector<float>& lengths, glm::vec3& target) {
  auto chain = Chain::Straight(glm::vec3(0.0f), glm::vec3(0.0f, 1.0f, 0.0f), lengths);
  if (!chain) return chain;
  const float reach = chain.value().total_length();
  target = glm::vec3(0.45f, 0.5f, 0.25f) * reach;
  SolveSettings settings;
  settings.tolerance = 1e-4f * reach;
  settings.max_iterations = 200;
  (void)SolveFabrik(chain.value(), target, settings);
  return chain;
}

std::vector<std::string> ListTextFiles(const std::string& data_dir, const std::string& folder) {
  std::vector<std::string> files;
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator(data_dir + "/" + folder, ec)) {
    if (entry.path().extension() == ".txt") {
      files.push_back(folder + "/" + entry.path().filename().string());
    }
  }
  std::sort(files.begin(), files.end());
  return files;
}

void SetUpImGui(GLFWwindow* window, float content_scale) {
  IMGUI_CHECKVERSION();
  ImGui::CreateContext();
  ImGuiIO& io = ImGui::GetIO();
  io.IniFilename = nullptr;  // no imgui.ini dropped into the working directory
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
  // A proportional font reads better than the built-in bitmap one; fall back if missing.
  const char* font = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf";
  if (std::filesystem::exists(font)) {
    io.Fonts->AddFontFromFileTTF(font, 15.0f * content_scale);
  } else {
    io.Fonts->AddFontDefault();
  }
  ImGui_ImplGlfw_InitForOpenGL(window, true);
  ImGui_ImplOpenGL3_Init("#version 330 core");
}

}  // namespace

int RunApp(const Options& options) {
  // Everything that can fail because of the user's input is checked before a window opens.
  const auto data_dir = FindDataDir();
  if (!data_dir) {
    return Fail(1, "cannot find the shaders/ folder (set FABRIK_DATA_DIR to the project folder)");
  }
  const auto solver = ParseSolverKind(options.solver);
  if (!solver) return Fail(2, "--solver: unknown or unavailable solver '" + options.solver + "'");
  std::vector<float> lengths = options.lengths.empty()
                                   ? UniformLengths(options.joints - 1, options.length)
                                   : options.lengths;
  glm::vec3 start_target(0.0f);
  auto chain = InitialChain(lengths, start_target);
  if (!chain) return Fail(2, chain.error());

  AppState state(std::move(chain).value());
  state.options = options;
  state.data_dir = *data_dir;
  state.lengths = lengths;
  state.uniform_length = options.length;
  state.settings.tolerance = options.moe;
  state.settings.max_iterations = options.max_iterations;
  state.settings.accelerate = true;  // README: Accelerated FABRIK (console: accelerate off)
  state.solver = *solver;
  state.mode = options.mode;
  state.target = state.source_target = start_target;
  state.view.camera.SetHome(HomeFor(state.chain));
  state.view.camera.Reset();
  state.command_context.search_roots = {state.data_dir};
  state.spline_files = ListTextFiles(state.data_dir, "assets/splines");
  state.script_files = ListTextFiles(state.data_dir, "assets/scripts");

  // Start-up files: a file that cannot be read or parsed is a bad option (exit 2).
  if (!options.spline_path.empty()) {
    auto spline = LoadSplineFile(ResolveDataPath(options.spline_path,
                                                 state.command_context.search_roots));
    if (!spline) return Fail(2, spline.error());
    UseSpline(state, std::move(spline).value(), options.spline_path);
  }
  if (!options.script_path.empty()) {
    auto script = LoadScriptFile(ResolveDataPath(options.script_path,
                                                 state.command_context.search_roots),
                                 state.command_context);
    if (!script) return Fail(2, script.error());
    UseScript(state, std::make_shared<const Script>(std::move(script).value()),
              options.script_path);
  }
  if (state.mode == TargetMode::kSpline && state.spline.follower.has_spline()) {
    // Start on the curve: no glide from the default pose's target.
    state.target = state.source_target = state.spline.follower.position();
  }
  if (options.scene != "chain") SetScene(state, *ParseScene(options.scene));
  ConsolePrint(state, "FABRIK console. Type 'help' for the commands; ` closes.");
  for (const std::string& line : options.exec) {
    if (!RunConsoleLine(state, line, CommandSource::kStartup)) {
      return Fail(2, "--exec '" + line + "': " + state.console.log.back().text);
    }
  }

  std::unique_ptr<StateWriter> writer;
  if (!options.state_out_path.empty()) {
    auto opened = StateWriter::Open(options.state_out_path);
    if (!opened) return Fail(2, opened.error());
    writer = std::move(opened).value();
  }

  WindowDesc desc;
  desc.width = options.width;
  desc.height = options.height;
  desc.vsync = options.vsync;
  desc.visible = !options.hidden;
  desc.samples = options.msaa;
  auto window_result = Window::Create(desc);
  if (!window_result) return Fail(1, window_result.error());
  std::unique_ptr<Window> window = std::move(window_result).value();
  auto renderer_result = Renderer::Create(state.data_dir + "/shaders");
  if (!renderer_result) return Fail(1, renderer_result.error());
  std::unique_ptr<Renderer> renderer = std::move(renderer_result).value();

  float scale_x = 1.0f, scale_y = 1.0f;
  glfwGetWindowContentScale(window->handle(), &scale_x, &scale_y);
  const float content_scale = std::clamp(scale_x, 1.0f, 4.0f);
  SetUpImGui(window->handle(), content_scale);
  InstallKeyDeferral(window->handle());
  state.view.panel_width = 340.0f * content_scale;

  SceneDrawer scene;
  auto last = std::chrono::steady_clock::now();
  bool first = true;
  while (!window->ShouldClose()) {
    // Timing: wall clock for FPS, fixed or real dt for the simulation.
    const auto now = std::chrono::steady_clock::now();
    const float real_dt = first ? 1.0f / 60.0f : std::chrono::duration<float>(now - last).count();
    last = now;
    first = false;
    FrameTiming& t = state.timing;
    t.real_dt = real_dt;
    t.dt = options.fixed_dt > 0.0 ? static_cast<float>(options.fixed_dt)
                                  : std::clamp(real_dt, 0.0f, 0.1f);
    t.time += t.dt;
    if (real_dt > 0.0f) {
      const float fps = 1.0f / real_dt;
      t.fps = t.fps == 0.0f ? fps : t.fps + (fps - t.fps) * 0.1f;
      t.frame_ms = 1000.0f / t.fps;
    }
    state.fps_history.Push(t.fps);

    // 1. input
    ReplayHeldKeyReleases(window->handle());
    glfwPollEvents();
    state.view.window_size = window->window_size();
    state.view.framebuffer_size = window->framebuffer_size();
    ImGui_ImplOpenGL3_NewFrame();
    ImGui_ImplGlfw_NewFrame();
    ImGui::NewFrame();
    HandleConsoleKey(state);
    UpdateViewMatrices(state);
    HandleInput(state);
    // 2. settings
    ApplyPending(state);
    // 3. target
    UpdateTarget(state);
    // 4. solve
    RunSolve(state);
    // 5. render the scene
    UpdateViewMatrices(state);
    renderer->BeginFrame(state.view.framebuffer_size);
    scene.Draw(state, *renderer);
    state.draw_calls = renderer->draw_calls();
    // 6. panel
    DrawPanel(state);
    DrawConsole(state);
    ImGui::Render();
    ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
    // 7. output
    if (writer) writer->Write(state);
    ++t.frame;
    const bool last_frame = options.frames > 0 && t.frame >= options.frames;
    if (last_frame && !options.screenshot_path.empty()) {
      const auto pixels = renderer->ReadPixels(state.view.framebuffer_size);
      const Status written = WritePng(options.screenshot_path, pixels, state.view.framebuffer_size);
      if (!written) std::fprintf(stderr, "fabrik-demo: %s\n", written.error().c_str());
    }
    window->SwapBuffers();
    if (last_frame || state.quit_requested) window->RequestClose();
  }

  ImGui_ImplOpenGL3_Shutdown();
  ImGui_ImplGlfw_Shutdown();
  ImGui::DestroyContext();
  return 0;
}

}  // namespace fabrik
