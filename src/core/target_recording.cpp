#include "core/target_recording.h"

#include <cerrno>
#include <cstring>
#include <ctime>

#include "core/app_state.h"
#include "core/frame.h"

namespace fabrik {

Status TargetRecording::Start(const std::string& path, double now) {
  if (path.empty()) return MakeError("record start: the path is empty");
  // "w" creates or empties the file; when it fails nothing was created.
  std::FILE* f = std::fopen(path.c_str(), "w");
  if (f == nullptr) {
    return MakeError("record start: cannot write '" + path + "' (" + std::strerror(errno) + ")");
  }
  (void)Stop();
  file_.reset(f);
  path_ = path;
  start_time_ = now;
  begun_ = false;
  buffer_.clear();
  return Ok{};
}

void TargetRecording::Flush() {
  if (!file_ || buffer_.empty()) return;
  std::fwrite(buffer_.data(), 1, buffer_.size(), file_.get());
  std::fflush(file_.get());
  buffer_.clear();
}

void TargetRecording::Sample(double now, const glm::vec3& target) {
  if (!file_) return;
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
  Flush();
}

Status TargetRecording::Stop() {
  if (!file_) return Ok{};
  if (begun_) recorder_.Finish(buffer_);
  Flush();
  const bool failed = std::ferror(file_.get()) != 0;
  file_.reset();  // closes
  begun_ = false;
  if (failed) return MakeError("record: writing '" + path_ + "' failed; the file is incomplete");
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
  state.recording.Sample(state.timing.time, state.target());
  // A script holds at most Script::kMaxLines timed lines: stop before the file could not be
  // replayed.
  if (state.recording.recorder().lines() + 1 >= Script::kMaxLines) {
    (void)state.recording.Stop();
    SetMessage(state, "record: stopped at the script limit of 100000 lines", false);
  }
}

}  // namespace fabrik
