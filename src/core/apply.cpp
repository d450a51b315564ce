// Step 2 of the frame: the one place queued commands change the AppState.
#include <algorithm>
#include <cmath>

#include "core/command_table.h"
#include "core/execute.h"
#include "core/frame.h"
#include "core/orient.h"
#include "core/screenshot.h"
#include "core/step_view.h"
#include "core/stop_request.h"
#include "core/view_2d.h"
#include "ik/vec_util.h"

namespace fabrik {
namespace {

template <class... Ts>
struct Overloaded : Ts... {
  using Ts::operator()...;
};
template <class... Ts>
Overloaded(Ts...) -> Overloaded<Ts...>;

void EndDrag(AppState& state) {
  state.drag.plane.End();
  state.drag.dragging = false;
  state.scene.grab = {};
}

void StartDrag(AppState& state, const app::DragStart& c) {
  if (state.mode != TargetMode::kDrag || !IsFinite(c.position) || !IsFinite(c.plane_normal)) return;
  state.scene.grab = c.grab;
  // The 2D view drags on the plane z = 0 (docs/scenes.md: The 2D view).
  const bool planar = View2d(state);
  state.drag.plane.Begin(ConfineTarget(state, c.position),
                         planar ? glm::vec3(0.0f, 0.0f, -1.0f) : c.plane_normal);
  state.drag.dragging = state.drag.plane.active();
  state.targeting.CancelGlide();
}

void MoveDrag(AppState& state, const app::DragMove& c) {
  if (!state.drag.dragging) return;
  auto hit = state.drag.plane.Update(c.ray);
  SceneState& scene = state.scene;
  // A scene with a ground (the walker's hills) takes the point under the cursor instead.
  if (scene.current) {
    if (const auto ground = scene.current->SurfaceHit(c.ray)) hit = ground;
  }
  if (!hit) return;
  hit = ConfineTarget(state, *hit);
  // The pole, another effector's target: the scene's own handles.
  if (scene.current && scene.current->MoveHandle(scene.grab, *hit)) return;
  state.drag.hit = *hit;  // the target step takes it (targets/target_sources.h)
}

}  // namespace

bool ApplyCommand(AppState& state, const AppCommand& command, CommandSource source) {
  bool ok = true;
  std::visit(Overloaded{
                 [&](const Command& c) { ok = Execute(state, c, source); },
                 [&](const app::Line& c) { ok = RunConsoleLine(state, c.text, source); },
                 [&](const app::DragStart& c) { StartDrag(state, c); },
                 [&](const app::DragMove& c) { MoveDrag(state, c); },
                 [&](const app::DragEnd&) { EndDrag(state); },
                 [&](const app::CameraOrbit& c) { state.view.camera.Orbit(c.pixels); },
                 [&](const app::CameraPan& c) { state.view.camera.Pan(c.pixels, c.window_height); },
                 [&](const app::CameraZoom& c) { state.view.camera.Zoom(c.wheel); },
                 [&](const app::Viewport& c) {
                   state.view.window_size = glm::max(c.window, glm::ivec2(1));
                   state.view.framebuffer_size = glm::max(c.framebuffer, glm::ivec2(1));
                   if (std::isfinite(c.panel_width)) state.view.panel_width = c.panel_width;
                   UpdateViewMatrices(state);
                 },
                 [&](const app::StepIterationBack&) { StepIteration(state, -1); },
                 [&](const app::StepRate& c) {
                   if (std::isfinite(c.reaches_per_second)) {
                     state.step.reaches_per_second = std::clamp(c.reaches_per_second, 0.5f, 60.0f);
                   }
                 },
                 [&](const app::Print& c) { ConsolePrint(state, c.text); },
                 [&](const app::Notice& c) { SetMessage(state, c.text, c.is_error); },
                 [&](const app::HelpOverlay& c) { state.help_open = c.open; },
                 [&](const app::ScreenshotRequest&) { RequestScreenshot(state); },
                 [&](const app::ScreenshotDone& c) { ok = FinishScreenshot(state, c); },
                 [&](const app::CameraPose& c) {
                   state.view.camera.SetPose(c.pivot, c.yaw, c.pitch, c.distance);
                   UpdateViewMatrices(state);
                 },
                 // A scene panel's own edit: its apply is in the scene's folder.
                 [&](const app::ScenePanelEdit& c) { c.Apply(state); },
             },
             command);
  return ok;
}

namespace {

// What one due script line costs of a frame's budget (kScriptFrameUnits). A line that switches
// the scene, or that its command's entry says rebuilds or re-reads something large
// (CommandEntry::whole_frame: the field's `chains` rebuild up to 2,000,000 joints, about
// 43 ms; `terrain load` reads up to an 8192 x 8192 PNG, about half a second; the crowd's
// `characters` rebuilds up to 5,000 characters, about 0.3 s; `mocap load` and `mocap scale`
// read or re-measure a clip; `screenshot` encodes up to a 4096 x 4096 PNG, and one a frame
// keeps every screenshot line its own picture) takes a whole frame's budget, so one such line
// runs a frame and 600 lines of `at 0 chains 100000 20` run over 600 frames instead of
// freezing the first. Rebuilding the chain (at most 10,000 joints) and `state` (the whole
// state as text) cost 16 and 8: a script's set-up lines at time 0 still run together in its
// first frame.
std::size_t ScriptLineCost(const Command& command) {
  if (std::holds_alternative<cmd::Scene>(command)) return kScriptFrameUnits;
  if (const auto* ext = std::get_if<cmd::Extension>(&command)) {
    const CommandEntry* entry = FindCommandEntry(ext->name);
    if (entry != nullptr && entry->whole_frame != nullptr && entry->whole_frame(ext->args)) {
      return kScriptFrameUnits;
    }
  }
  if (std::holds_alternative<cmd::Joints>(command) ||
      std::holds_alternative<cmd::Length>(command) ||
      std::holds_alternative<cmd::Lengths>(command) ||
      std::holds_alternative<cmd::SplineLoad>(command)) {
    return 16;
  }
  if (std::holds_alternative<cmd::State>(command)) return 8;
  return 1;
}

// A started script keeps running until it ends or is stopped, whatever the mode, so a script
// can switch modes (a tour); its target drives the chain only in script mode. The step view
// pauses script time.
void AdvanceScript(AppState& state) {
  ScriptTarget& script = state.script;
  if (!script.running || !script.player.has_script()) return;
  const float dt = state.step.active ? 0.0f : state.timing.dt;
  const ScriptBudget budget{kScriptFrameUnits, ScriptLineCost};
  ScriptStep step = script.player.Advance(dt, state.target(), budget);
  for (const Command& command : step.commands) {
    // A quit signal ends the demo after this frame: the rest of the lines do not matter.
    if (StopRequested()) break;
    Execute(state, command, CommandSource::kScript);
  }
  if (step.target) script.target = step.target;
  // A target line's angles set the orientation when the line fires (the parser keeps them in
  // range, so SetOrientation accepts them).
  if (step.target_angles_deg) (void)SetOrientation(state, step.target_angles_deg);
  if (script.player.finished()) script.running = false;
}

}  // namespace

void ApplyCommands(AppState& state, CommandQueue& queue) {
  std::vector<QueuedCommand>& batch = queue.TakeAll();
  for (const QueuedCommand& q : batch) (void)ApplyCommand(state, q.command, q.source);
  batch.clear();
  AdvanceScript(state);
}

}  // namespace fabrik
