#include "scenes/mocap/mocap_rig.h"

namespace fabrik {

Result<std::shared_ptr<const mocap::Rig>> LoadRig(const std::string& resolved_path, float scale) {
  mocap::ClipLoadOptions options;
  options.metres_per_unit = scale;
  Result<mocap::Clip> clip = mocap::LoadClipFile(resolved_path, options);
  if (!clip) return MakeError(clip.error());
  auto rig = mocap::MakeRig(std::move(clip).value());
  if (!rig) return MakeError(resolved_path + ": " + rig.error());
  return rig;
}

}  // namespace fabrik
