// mocap_config.h - what the mocap and crowd scenes start from, kept in the app state while
// another scene is on (docs/mocap.md: The mocap scene): the clip's path and scale, the crowd's
// size, and the clips Debian's assimp-testmodels package ships.
#pragma once

#include <span>
#include <string>
#include <vector>

#include "core/scene_options.h"

namespace fabrik {

// The folder of the packaged clips (assimp-testmodels) and the default clip.
inline constexpr const char* kPackagedClipFolder = "/usr/share/assimp/models/BVH";
inline constexpr const char* kDefaultClipPath = "/usr/share/assimp/models/BVH/01_01.bvh";
// The packaged skinned human (assimp-testmodels; docs/characters.md), the panel's picker.
inline constexpr const char* kPackagedHumanPath = "/usr/share/assimp/models/X/BCN_Epileptic.X";

// The crowd's size: `characters N` and `--characters N` take 1..kMaxCharacters.
inline constexpr int kDefaultCharacters = 100;
inline constexpr int kMaxCharacters = 5000;

struct MocapConfig {
  std::string clip_path = kDefaultClipPath;  // as written (relative paths: the data folder)
  float scale = 0.0f;  // metres per file unit; 0: chosen from the skeleton's height (clip.h)
  int characters = kDefaultCharacters;
  // The mocap scene's skinned character (mocap_skin.h), as written; "" draws capsules.
  std::string character_path;
};

// The scene's command-line options (mocap_options.cpp): --bvh, --bvh-scale, --character and
// the crowd's --characters, in --help's order.
std::span<const SceneOption> MocapOptionRows();

// The *.bvh files in kPackagedClipFolder, full paths, sorted; empty when the package is not
// installed.
std::vector<std::string> PackagedClips();

}  // namespace fabrik
