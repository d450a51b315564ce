#include "app/systems.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <glm/geometric.hpp>

#include "app/commands.h"
#include "app/step_view.h"
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

const std::vector<float>& PendingOrCurrentLengths(const AppState& state) {
  return state.pending_lengths ? *state.pending_lengths : state.lengths;
}

bool RequestLengths(AppState& state, std::vector<float> lengths) {
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
  state.pending_lengths = std::move(lengths);
  return true;
}

void ApplyPending(AppState& state) {
  if (state.pending_lengths) {
    auto rebuilt = RebuildChain(state.chain, *state.pending_lengths);
    if (rebuilt.ok()) {
      state.chain = std::move(rebuilt).value();
      state.lengths = *state.pending_lengths;
      state.view.camera.SetHome(HomeFor(state.chain));
    } else {
      SetMessage(state, rebuilt.error(), true);
    }
    state.pending_lengths.reset();
  }
  if (state.pending_mode) {
    SetMode(state, *state.pending_mode);
    state.pending_mode.reset();
  }
  if (state.pending_camera_reset) {
    state.view.camera.SetHome(HomeFor(state.chain));
    state.view.camera.Reset();
    state.pending_camera_reset = false;
  }
}

void UpdateTarget(AppState& state) {
  // A started script keeps running until it ends or is stopped, whatever the mode, so a
  // script can switch modes (a tour); its target drives the chain only in script mode.
  // The step view pauses time for the target sources (a drag or a typed target still work).
  const float dt = state.step.active ? 0.0f : state.timing.dt;
  ScriptState& script = state.script;
  if (script.running && script.player.has_script()) {
    ScriptStep step = script.player.Advance(dt, state.target);
    for (const Command& command : step.commands) {
      Execute(state, command, CommandSource::kScript);
    }
    if (step.target) script.target = step.target;
    if (script.player.finished()) script.running = false;
  }
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
  const SolveResult result = Solve(state.solver, state.chain, state.target,
                                   BoundedSettings(state, state.chain.joint_count()));
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

SolveSettings BoundedSettings(const AppState& state, std::size_t joint_count) {
  SolveSettings settings = state.settings;
  const long affordable =
      kMaxJointUpdatesPerSolve / std::max<long>(1, static_cast<long>(joint_count));
  settings.max_iterations =
      static_cast<int>(std::max<long>(1, std::min<long>(settings.max_iterations, affordable)));
  return settings;
}

}  // namespace fabrik
