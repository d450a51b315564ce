#include "core/frame.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <glm/geometric.hpp>

#include "core/step_view.h"
#include "core/view_2d.h"
#include "ik/chain_rebuild.h"

namespace fabrik {

void SetMessage(AppState& state, std::string text, bool is_error) {
  state.message = std::move(text);
  state.message_is_error = is_error;
}

OrbitCamera::Home HomeFor(const Chain& chain) {
  OrbitCamera::Home home;
  const float reach = chain.total_length();
  home.pivot = chain.root() + glm::vec3(0.0f, reach * 0.42f, 0.0f);
  home.distance = std::clamp(reach * 2.0f, 3.0f, OrbitCamera::kMaxDistance);
  return home;
}

void UpdateViewMatrices(AppState& state) {
  ViewState& v = state.view;
  const float aspect = static_cast<float>(v.framebuffer_size.x) / v.framebuffer_size.y;
  // Centre the scene in the free area right of the panel: shift the image by half the
  // panel's share of the window (in NDC, where the full width is 2).
  const float shift = std::clamp(v.panel_width / static_cast<float>(v.window_size.x), 0.0f, 0.6f);
  v.view = v.camera.View();
  v.projection = v.camera.Projection(aspect, shift);
}

void SetMode(AppState& state, TargetMode mode) {
  if (mode == state.mode) return;
  if (state.drag.dragging) {
    state.drag.plane.End();
    state.drag.dragging = false;
  }
  state.mode = mode;
  state.source(mode).Activate();
  state.targeting.BeginGlide();
}

bool ApplyLengths(AppState& state, std::vector<float> lengths) {
  if (lengths.empty() || static_cast<int>(lengths.size()) + 1 > kMaxJoints) {
    SetMessage(state, "joint count must be from 2 to " + std::to_string(kMaxJoints), true);
    return false;
  }
  for (float l : lengths) {
    if (!std::isfinite(l) || l < kMinSegmentLength || l > kMaxSegmentLength) {
      SetMessage(state, "segment lengths must be from 0.0001 to 1000", true);
      return false;
    }
  }
  auto rebuilt = RebuildChain(state.chain, lengths);
  if (!rebuilt.ok()) {
    SetMessage(state, rebuilt.error(), true);
    return false;
  }
  state.chain = std::move(rebuilt).value();
  state.lengths = std::move(lengths);
  // A camera the user has not moved follows the chain's new reach (a longer chain would
  // otherwise fill the window); one the user placed stays where it is.
  const bool reframe = state.view.camera.AtHome();
  state.view.camera.SetHome(HomeFor(state.chain));
  if (reframe) state.view.camera.Reset();
  return true;
}

void BeginFrame(AppState& state, float real_dt) {
  FrameTiming& t = state.timing;
  t.real_dt = real_dt;
  t.dt =
      state.fixed_dt > 0.0 ? static_cast<float>(state.fixed_dt) : std::clamp(real_dt, 0.0f, 0.1f);
  t.time += t.dt;
  if (real_dt > 0.0f) {
    const float fps = 1.0f / real_dt;
    t.fps = t.fps == 0.0f ? fps : t.fps + (fps - t.fps) * 0.1f;
    t.frame_ms = 1000.0f / t.fps;
  }
  state.fps_history.Push(t.fps);
}

void EndFrame(AppState& state) { ++state.timing.frame; }

void SimulateFrame(AppState& state, CommandQueue& queue, float real_dt, FrameShell* shell) {
  BeginFrame(state, real_dt);
  if (shell != nullptr) shell->Input(state, queue);  // 1. input
  ApplyCommands(state, queue);                       // 2. apply
  UpdateTarget(state);                               // 3. target
  RunSolve(state);                                   // 4. solve
  UpdateViewMatrices(state);
  if (shell != nullptr) shell->Present(state, queue);  // 5. render, 6. panel, 7. output
  EndFrame(state);
}

void PlaceTarget(AppState& state, const glm::vec3& position) {
  state.targeting.Jump(position);
  state.source(state.mode).Activate();
}

void UpdateTarget(AppState& state) {
  // The step view pauses time for the target sources (a drag or a typed target still work),
  // and takes a new target at once (one new recording, not one per frame of a glide).
  const float dt = state.step.active ? 0.0f : state.timing.dt;
  std::optional<glm::vec3> wanted = state.source(state.mode).Wanted(dt);
  // The 2D view keeps every target at z = 0 (docs/scenes.md: The 2D view).
  if (wanted) wanted = ConfineTarget(state, *wanted);
  state.targeting.Update(wanted, state.timing.dt, state.step.active);
  RecordTargetSample(state);
}

void RecordSolveTime(AppState& state, std::chrono::steady_clock::time_point start) {
  state.solve_us =
      std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - start).count();
}

SolveSettings BoundedSettings(const AppState& state, std::size_t joint_count, std::size_t shares) {
  SolveSettings settings = state.settings;
  const long affordable = kMaxJointUpdatesPerSolve /
                          std::max<long>(1, static_cast<long>(joint_count)) /
                          std::max<long>(1, static_cast<long>(shares));
  settings.max_iterations =
      static_cast<int>(std::max<long>(1, std::min<long>(settings.max_iterations, affordable)));
  return settings;
}

void RunSolve(AppState& state) {
  if (state.scene.current) state.scene.current->Solve(state);
  UpdateRotations(state);
}

}  // namespace fabrik
