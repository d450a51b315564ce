// markers_config.h - what the markers scene starts from, kept in the app state while another
// scene is on (docs/markers.md, "The markers scene"): the take's path, and the takes Debian's
// assimp-testmodels package ships.
#pragma once

#include <string>
#include <vector>

namespace fabrik {

// The folder of the packaged takes (assimp-testmodels) and the default take: the fencer.
inline constexpr const char* kPackagedTakeFolder = "/usr/share/assimp/models/CSM";
inline constexpr const char* kDefaultTakePath = "/usr/share/assimp/models/CSM/ThomasFechten.csm";

struct MarkersConfig {
  std::string take_path = kDefaultTakePath;  // as written (relative paths: the data folder)
};

// The *.csm and *.trc files in kPackagedTakeFolder, full paths, sorted; empty when the package
// is not installed.
std::vector<std::string> PackagedTakes();

}  // namespace fabrik
