#include "scenes/mocap/mocap_config.h"

#include <algorithm>
#include <filesystem>

namespace fabrik {

std::vector<std::string> PackagedClips() {
  std::vector<std::string> clips;
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator(kPackagedClipFolder, ec)) {
    if (entry.path().extension() == ".bvh" && entry.is_regular_file(ec)) {
      clips.push_back(entry.path().string());
    }
  }
  std::sort(clips.begin(), clips.end());
  return clips;
}

}  // namespace fabrik
