// mocap_export.cpp - see mocap_export.h.
#include "scenes/mocap/mocap_export.h"

#include <algorithm>
#include <nlohmann/json.hpp>

#include "core/json_util.h"
#include "io/file_write.h"
#include "io/writable_path.h"

namespace fabrik {

Result<ClipExport> ClipExport::Start(const std::string& path, const std::string& clip_path,
                                     std::shared_ptr<const mocap::Rig> rig,
                                     std::shared_ptr<const Heightmap> ground,
                                     mocap::BakeOptions options) {
  if (Status usable = io::CheckExportPath(path, clip_path, "clip"); !usable)
    return MakeError(usable.error());
  options.terrain = ground.get();
  Result<mocap::Baker> baker = mocap::Baker::Create(rig, options);
  if (!baker) return MakeError(baker.error());
  ClipExport out;
  out.path_ = path;
  out.rig_ = std::move(rig);
  out.ground_ = std::move(ground);
  out.frame_count_ = baker.value().frame_count();
  out.baker_.emplace(std::move(baker).value());
  return out;
}

bool ClipExport::Advance(int frames) {
  if (!running()) return true;
  if (!baker_->Step(std::max(frames, 1))) {
    frames_done_ = baker_->frames_done();
    return false;
  }
  frames_done_ = baker_->frames_done();
  const Status written = baker_->Write(path_);
  state_ = written ? State::kDone : State::kFailed;
  if (!written) error_ = written.error();
  baker_.reset();
  return true;
}

void ClipExport::Cancel(const std::string& why) {
  if (!running()) return;
  state_ = State::kFailed;
  error_ = why;
  baker_.reset();
}

float ClipExport::progress() const {
  return frame_count_ > 0 ? static_cast<float>(frames_done_) / static_cast<float>(frame_count_)
                          : 0.0f;
}

nlohmann::json ClipExport::Json() const {
  const char* names[] = {"running", "done", "failed"};
  nlohmann::json j = {{"path", path_},
                      {"state", names[static_cast<int>(state_)]},
                      {"progress", state_json::Num(progress())},
                      {"frames", frame_count_},
                      {"frames_done", frames_done_}};
  if (state_ == State::kFailed) j["error"] = error_;
  return j;
}

}  // namespace fabrik
