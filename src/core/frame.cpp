#include "core/frame.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <glm/geometric.hpp>

#include "core/step_view.h"
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
  if (state.dragging) {
    state.drag.End();
    state.dragging = false;
  }
  state.mode = mode;
  state.blend.active = true;
  state.blend.from = state.target;
  state.blend.elapsed = 0.0f;
  state.source_target = state.target;
}

bool ApplyLengths(AppState& state, std::vector<float> lengths) {
  if (lengths.empty() || static_cast<int>(lengths.size()) + 1 > kMaxJoints) {
    SetMessage(state, "joint count must be from 2 to " + std::to_string(kMaxJoints), true);
    return false;
  }
  for (float l : lengths) {
    if (!std::isfinite(l) || l <= 0.0f || l > 1000.0f) {
      SetMessage(state, "segment lengths must be in (0, 1000]", true);
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
  state.view.camera.SetHome(HomeFor(state.chain));
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

void SimulateFrame(AppState& state, CommandQueue& queue, float real_dt) {
  BeginFrame(state, real_dt);
  ApplyCommands(state, queue);
  UpdateTarget(state);
  RunSolve(state);
  UpdateViewMatrices(state);
  EndFrame(state);
}

void UpdateTarget(AppState& state) {
  // The step view pauses time for the target sources (a drag or a typed target still work).
  // A running script was advanced at the apply step; its target is script.target.
  const float dt = state.step.active ? 0.0f : state.timing.dt;
  ScriptState& script = state.script;
  // Sources that drive the target by themselves update state.source_target here; drag and
  // console set it when the user acts.
  switch (state.mode) {
    case TargetMode::kSpline:
      if (state.spline.follower.has_spline()) {
        state.source_target = state.spline.follower.Advance(dt);
      }
      break;
    case TargetMode::kScript:
      if (script.target) state.source_target = *script.target;
      break;
    case TargetMode::kDrag:
    case TargetMode::kConsole:
      break;
  }
  glm::vec3 wanted = state.source_target;
  // While stepping, a new target is taken at once (one new recording, not one per frame).
  if (state.step.active) state.blend.active = false;
  if (state.blend.active) {
    state.blend.elapsed += state.timing.dt;
    const float t = std::clamp(state.blend.elapsed / state.blend.duration, 0.0f, 1.0f);
    const float s = t * t * (3.0f - 2.0f * t);  // smoothstep: no velocity jump at either end
    wanted = state.blend.from + (wanted - state.blend.from) * s;
    if (t >= 1.0f) state.blend.active = false;
  }
  if (std::isfinite(wanted.x) && std::isfinite(wanted.y) && std::isfinite(wanted.z)) {
    state.target = wanted;
  }
}

void RunSolve(AppState& state) {
  if (state.scene.kind != SceneKind::kChain) {
    const auto start = std::chrono::steady_clock::now();
    SolveScene(state);
    state.solve_us =
        std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - start).count();
    state.iteration_history.Push(static_cast<float>(state.last.iterations));
    state.solve_us_history.Push(static_cast<float>(state.solve_us));
    return;
  }
  if (state.step.active) {
    UpdateStepView(state);
    return;
  }
  const auto start = std::chrono::steady_clock::now();
  const SolveResult result = Solve(state.solver, state.chain, state.target, state.settings);
  const auto end = std::chrono::steady_clock::now();
  state.solve_us = std::chrono::duration<double, std::micro>(end - start).count();
  if (!result.ok) {
    SetMessage(state, std::string("solve rejected: ") + result.error, true);
    return;
  }
  state.last = result;
  state.iteration_history.Push(static_cast<float>(result.iterations));
  state.solve_us_history.Push(static_cast<float>(state.solve_us));
  UpdateRace(state);
}

}  // namespace fabrik
