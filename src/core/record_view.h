// record_view.h - record and replay, the free root and the 2D view (docs/settings.md: Record and
// replay; docs/scenes.md: Free root, The 2D view): their state in AppState and the functions the
// apply and frame steps call. Their console commands are in commands_record.cpp.
#pragma once

#include <array>
#include <cstddef>
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

// `root free|fixed`: the chain scene pulls the chain by its head (ik/free_root.h) and keeps
// the root's recent positions for drawing.
struct FreeRootState {
  static constexpr std::size_t kTrailPoints = 240;  // 4 s at 60 fps
  bool free = false;
  std::array<glm::vec3, kTrailPoints> trail{};  // a ring: oldest at trail_start
  std::size_t trail_start = 0;
  std::size_t trail_count = 0;
  // Adds a root position (skipped when it has not moved since the last one).
  void Push(const glm::vec3& root);
  void Clear() { trail_start = trail_count = 0; }
  // The i-th oldest point, i < trail_count.
  const glm::vec3& TrailAt(std::size_t i) const { return trail[(trail_start + i) % kTrailPoints]; }
};

// Starts or stops recording (the `record` command). Refused, with state.message set and
// nothing changed, while a script plays, while already recording, or for a path that cannot
// be written. Stop refuses when not recording.
bool StartRecording(AppState& state, const std::string& path);
bool StopRecording(AppState& state);
// Frame step 3, after the target moved: the recording's sample.
void RecordTargetSample(AppState& state);

// `root free|fixed`. Freeing the root turns the step view and the race off (they solve with
// a fixed root); fixing it pins the root where it is now.
void SetRootFree(AppState& state, bool free);

// `view 2d|3d`. 2D: the camera looks down -Z at the XY plane orthographically
// (OrbitCamera's planar mode), the target is put at z = 0 and the chain scene's chain is laid
// flat there (LayChainFlat), and from then on targets and drags stay at z = 0 (ConfineTarget).
void SetView2d(AppState& state, bool planar);
bool View2d(const AppState& state);
// The point the 2D view allows for `p`: p with z = 0 in 2D, p itself in 3D.
glm::vec3 ConfineTarget(const AppState& state, const glm::vec3& p);

}  // namespace fabrik
