#include "scenes/markers/markers_config.h"

#include <algorithm>
#include <filesystem>

namespace fabrik {

std::vector<std::string> PackagedTakes() {
  std::vector<std::string> takes;
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator(kPackagedTakeFolder, ec)) {
    const auto ext = entry.path().extension();
    if ((ext == ".csm" || ext == ".trc") && entry.is_regular_file(ec)) {
      takes.push_back(entry.path().string());
    }
  }
  std::sort(takes.begin(), takes.end());
  return takes;
}

}  // namespace fabrik
