// The mocap scene's command-line options (docs/options.md): its rows, with the checks of the
// files they name; StartMocap (mocap_scene.cpp) takes the values into MocapConfig.
#include <utility>

#include "character/model.h"
#include "mocap/character.h"
#include "mocap/clip.h"
#include "scenes/mocap/mocap_config.h"

namespace fabrik {
namespace {

// A clip that cannot be used exits 2 at start (docs/mocap.md: The mocap scene).
std::string CheckMocapClipFile(const std::string& path, const SceneOptionValues& values) {
  mocap::ClipLoadOptions load;
  load.metres_per_unit = static_cast<float>(values.Number("--bvh-scale", 0.0));
  Result<mocap::Clip> clip = mocap::LoadClipFile(path, load);
  if (!clip) return clip.error();
  const std::string source = clip.value().source();
  if (auto rig = mocap::MakeRig(std::move(clip).value()); !rig) {
    // Most of MakeRig's errors name the clip already; the path is said once.
    const std::string& e = rig.error();
    return e.rfind(source, 0) == 0 ? e : source + ": " + e;
  }
  return {};
}

// The same for a skinned character (docs/characters.md: Errors).
std::string CheckMocapCharacterFile(const std::string& path, const SceneOptionValues&) {
  auto model = character::LoadModelFile(path);
  return model ? std::string() : model.error();
}

// --bvh plays a clip, --character dresses it: either starts the scene. The crowd scene shares
// MocapConfig, so --characters is here too.
constexpr SceneOption kMocapOptionRows[] = {
    {"--bvh", "the mocap scene's clip: a BVH file (implies --scene mocap)",
     SceneOptionKind::kInput, 0.0, 0.0, true, CheckMocapClipFile},
    {"--bvh-scale", "metres per BVH file unit (1e-6..1000; default: auto)",
     SceneOptionKind::kDecimal, mocap::kMinScale, mocap::kMaxScale},
    {"--character", "the mocap scene's skinned character: a model file (default: capsules)",
     SceneOptionKind::kInput, 0.0, 0.0, true, CheckMocapCharacterFile},
    {"--characters", "characters in the crowd scene (1..5000, default 100)",
     SceneOptionKind::kWhole, 1, kMaxCharacters},
};

}  // namespace

std::span<const SceneOption> MocapOptionRows() { return kMocapOptionRows; }

}  // namespace fabrik
