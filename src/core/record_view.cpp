#include "core/record_view.h"

#include <cerrno>
#include <cstring>
#include <ctime>

#include "core/app_state.h"
#include "core/commands.h"
#include "core/frame.h"
#include "core/step_view.h"
#include "ik/free_root.h"

namespace fabrik {

Status TargetRecording::Start(const std::string& path, double now) {
  if (path.empty()) return MakeError("record start: the path is empty");
  // Created or emptied; when it fails nothing was created.
  auto opened = io::LineFile::Open(path);
  if (!opened) return MakeError("record start: " + opened.error());
  (void)Stop();
  file_ = std::move(opened).value();
  path_ = path;
  start_time_ = now;
  begun_ = false;
  buffer_.clear();
  return Ok{};
}

Status TargetRecording::Flush() {
  const Status written = file_.Write(buffer_);
  buffer_.clear();
  if (!written) begun_ = false;  // the file is closed: the recording has stopped
  return written;
}

Status TargetRecording::Sample(double now, const glm::vec3& target) {
  if (!file_.is_open()) return Ok{};
  if (!begun_) {
    char when[64] = "";
    const std::time_t t = std::time(nullptr);
    std::strftime(when, sizeof(when), "%Y-%m-%d %H:%M:%S UTC", std::gmtime(&t));
    char tolerance[32];
    std::snprintf(tolerance, sizeof(tolerance), "%g",
                  static_cast<double>(PathRecorder::kTolerance));
    std::string header = "# recorded by fabrik-demo (record start), " + std::string(when) +
                         "\n# the target's path: replay with 'script run " + path_ +
                         "'\n# motion from 1 s on; glides reproduce the dropped samples within " +
                         tolerance + " units\n";
    recorder_.Begin(target, header, buffer_);
    begun_ = true;
    start_time_ = now;  // the first sample is time 0 of the recording
  } else {
    recorder_.Add(now - start_time_, target, buffer_);
  }
  return Flush();
}

Status TargetRecording::Stop() {
  if (!file_.is_open()) return Ok{};
  if (begun_) recorder_.Finish(buffer_);
  const Status flushed = Flush();
  const Status closed = file_.Close();
  begun_ = false;
  if (!flushed) return MakeError("record: " + flushed.error());
  if (!closed) return MakeError("record: " + closed.error());
  return Ok{};
}

void FreeRootState::Push(const glm::vec3& root) {
  if (trail_count > 0 && TrailAt(trail_count - 1) == root) return;
  if (trail_count < kTrailPoints) {
    trail[(trail_start + trail_count) % kTrailPoints] = root;
    ++trail_count;
  } else {
    trail[trail_start] = root;
    trail_start = (trail_start + 1) % kTrailPoints;
  }
}

bool StartRecording(AppState& state, const std::string& path) {
  if (state.script.running) {
    SetMessage(state,
               "record start: a script is playing; recording is refused until it ends (script "
               "stop)",
               true);
    return false;
  }
  if (state.recording.active()) {
    SetMessage(
        state,
        "record start: already recording to '" + state.recording.path() + "' (record stop first)",
        true);
    return false;
  }
  const Status started = state.recording.Start(path, state.timing.time);
  if (!started) {
    SetMessage(state, started.error(), true);
    return false;
  }
  return true;
}

bool StopRecording(AppState& state) {
  if (!state.recording.active()) {
    SetMessage(state, "record stop: not recording", true);
    return false;
  }
  const Status stopped = state.recording.Stop();
  if (!stopped) {
    SetMessage(state, stopped.error(), true);
    return false;
  }
  return true;
}

void RecordTargetSample(AppState& state) {
  if (!state.recording.active()) return;
  const Status sampled = state.recording.Sample(state.timing.time, state.target());
  if (!sampled) {
    // Reported once: the recording has stopped.
    ConsolePrint(state, "record: " + sampled.error(), ConsoleLine::Kind::kError);
    SetMessage(state, "record: " + sampled.error(), true);
    return;
  }
  // A script holds at most Script::kMaxLines timed lines: stop before the file could not be
  // replayed.
  if (state.recording.recorder().lines() + 1 >= Script::kMaxLines) {
    (void)state.recording.Stop();
    SetMessage(state, "record: stopped at the script limit of 100000 lines", false);
  }
}

void SetRootFree(AppState& state, bool free) {
  if (free && !state.root.free) {
    if (state.step.active) SetStepView(state, false);
    if (state.race.active) SetRace(state, false);
  }
  state.root.free = free;
  state.root.Clear();
  if (free) state.root.Push(state.chain.root());
}

bool View2d(const AppState& state) { return state.view.camera.planar(); }

glm::vec3 ConfineTarget(const AppState& state, const glm::vec3& p) {
  return View2d(state) ? glm::vec3(p.x, p.y, 0.0f) : p;
}

void SetView2d(AppState& state, bool planar) {
  state.view.camera.SetPlanar(planar);
  if (planar) {
    // The step view and the race hold copies of the chain's pose: they start again from the
    // flattened chain, towards the flattened target.
    const bool step = state.step.active, race = state.race.active;
    if (step) SetStepView(state, false);
    if (race) SetRace(state, false);
    const glm::vec3 t = state.target();
    if (t.z != 0.0f) state.targeting.Jump(ConfineTarget(state, t));
    if (state.drag.hit) state.drag.hit = ConfineTarget(state, *state.drag.hit);
    if (state.scene.free_chain()) LayChainFlat(state.chain);
    if (race) SetRace(state, true);
    if (step) SetStepView(state, true);
  }
  UpdateViewMatrices(state);
}

}  // namespace fabrik
