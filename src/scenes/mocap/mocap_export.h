// mocap_export.h - the mocap scene's export (docs/mocap.md: Exporting from the demo): the
// scene's clip baked with the scene's IK (mocap/bake.h) a few clip frames per demo frame, and
// written as BVH (mocap/bvh_write.h, atomically) once every frame is baked. No GL, no window.
#pragma once

#include <memory>
#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <string>

#include "ik/result.h"
#include "mocap/bake.h"
#include "terrain/heightmap.h"

namespace fabrik {

// Clip frames an export bakes in one frame of the demo (docs/limits.md): a frame stays
// interactive, and a clip of N frames takes N / 32 demo frames.
inline constexpr int kExportFramesPerFrame = 32;

// One export: running, then done (the file written) or failed (nothing written).
class ClipExport {
 public:
  enum class State { kRunning, kDone, kFailed };

  // Checks `path` (io::CheckExportPath against `clip_path`) and makes the baker from `rig` and
  // `options`; `ground` (null: flat ground) is kept alive here and becomes options.terrain.
  // Fails with one line (the path's problem or the baker's refusal); nothing is started.
  static Result<ClipExport> Start(const std::string& path, const std::string& clip_path,
                                  std::shared_ptr<const mocap::Rig> rig,
                                  std::shared_ptr<const Heightmap> ground,
                                  mocap::BakeOptions options);

  // Bakes up to `frames` (>= 1) more clip frames; after the last one writes the file (done,
  // or failed with the writer's message). Returns true once the export has finished.
  bool Advance(int frames);
  // Stops a running export (failed with `why`); nothing is written.
  void Cancel(const std::string& why);

  State state() const { return state_; }
  bool running() const { return state_ == State::kRunning; }
  const std::string& path() const { return path_; }
  // The error when failed, else "".
  const std::string& error() const { return error_; }
  int frame_count() const { return frame_count_; }
  int frames_done() const { return frames_done_; }
  // Baked frames over all frames, 0..1.
  float progress() const;
  // The state line's "export" object (docs/state.md): path, state, progress, frames,
  // frames_done, and error when failed.
  nlohmann::json Json() const;

 private:
  ClipExport() = default;

  std::string path_;
  std::shared_ptr<const mocap::Rig> rig_;
  std::shared_ptr<const Heightmap> ground_;
  std::optional<mocap::Baker> baker_;  // released once finished
  State state_ = State::kRunning;
  std::string error_;
  int frame_count_ = 0;
  int frames_done_ = 0;
};

}  // namespace fabrik
