#include "core/target_recording.h"

#include <cerrno>
#include <cstring>
#include <ctime>

#include "core/app_state.h"
#include "core/execute.h"
#include "core/frame.h"

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

}  // namespace fabrik
