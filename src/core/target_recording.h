// target_recording.h - recording the target's path to a script (docs/settings.md: Record and
// replay): its state in AppState and the functions the apply and frame steps call. Its console
// commands are in commands/record.cpp.
#pragma once

#include <cstdio>
#include <glm/vec3.hpp>
#include <memory>
#include <string>

#include "ik/result.h"
#include "io/line_file.h"
#include "targets/path_recorder.h"

namespace fabrik {

struct AppState;

// `record start PATH` .. `record stop`: the target, every frame in any mode, written to PATH
// as a script (targets/path_recorder.h) as the recording goes. Destroying an active recording
// finishes its file (the demo's exit).
class TargetRecording {
 public:
  TargetRecording() = default;
  TargetRecording(TargetRecording&&) = default;
  TargetRecording& operator=(TargetRecording&&) = default;
  ~TargetRecording() { (void)Stop(); }

  // Opens `path` for writing (created or emptied); the first Sample call is time 0 of the
  // recording (`now` is kept only until then). Fails, changing nothing and creating no
  // file, when the path cannot be opened for writing ("cannot write 'x': reason"); a FIFO,
  // socket or folder is refused without blocking (io/line_file.h).
  Status Start(const std::string& path, double now);
  // The target at simulated time `now`; writes the lines that became final, whole lines
  // only. The first failed write (full disk) stops the recording, leaves the file ending
  // with its last complete line, and is returned; later calls do nothing.
  Status Sample(double now, const glm::vec3& target);
  // Writes the last glide and closes the file. Returns an error if the file could not be
  // written completely; does nothing when not recording.
  Status Stop();

  bool active() const { return file_.is_open(); }
  const std::string& path() const { return path_; }
  const PathRecorder& recorder() const { return recorder_; }

 private:
  Status Flush();

  io::LineFile file_;
  std::string path_;
  PathRecorder recorder_;
  std::string buffer_;
  double start_time_ = 0.0;
  bool begun_ = false;
};

// Starts or stops recording (the `record` command). Refused, with state.message set and
// nothing changed, while a script plays, while already recording, or for a path that cannot
// be written. Stop refuses when not recording.
bool StartRecording(AppState& state, const std::string& path);
bool StopRecording(AppState& state);
// Frame step 3, after the target moved: the recording's sample.
void RecordTargetSample(AppState& state);

}  // namespace fabrik
