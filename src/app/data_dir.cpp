#include "app/data_dir.h"

#include <cstdlib>
#include <filesystem>
#include <system_error>
#include <vector>

namespace fabrik {

std::optional<std::string> FindDataDir() {
  namespace fs = std::filesystem;
  std::vector<fs::path> candidates;
  if (const char* env = std::getenv("FABRIK_DATA_DIR")) candidates.emplace_back(env);
  std::error_code ec;
  const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  if (!ec) {
    const fs::path dir = exe.parent_path();
    candidates.push_back(dir);
    candidates.push_back(dir / "..");
    candidates.push_back(dir / ".." / "..");
    candidates.push_back(dir / ".." / "share" / "fabrik");
  }
#ifdef FABRIK_SOURCE_DIR
  candidates.emplace_back(FABRIK_SOURCE_DIR);
#endif
  for (const fs::path& c : candidates) {
    if (fs::exists(c / "shaders" / "mesh.vert", ec)) {
      return fs::weakly_canonical(c, ec).string();
    }
  }
  return std::nullopt;
}

}  // namespace fabrik
