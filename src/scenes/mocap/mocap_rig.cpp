#include "scenes/mocap/mocap_rig.h"

namespace fabrik {

Result<std::shared_ptr<const mocap::Rig>> LoadRig(const std::string& resolved_path, float scale) {
  mocap::ClipLoadOptions options;
  options.metres_per_unit = scale;
  Result<mocap::Clip> clip = mocap::LoadClipFile(resolved_path, options);
  if (!clip) return MakeError(clip.error());
  auto rig = mocap::MakeRig(std::move(clip).value());
  // Most of MakeRig's errors name the clip already; the path is said once.
  if (!rig) {
    const std::string& e = rig.error();
    return MakeError(e.rfind(resolved_path, 0) == 0 ? e : resolved_path + ": " + e);
  }
  return rig;
}

}  // namespace fabrik
