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
    // An installed demo (prefix/bin) first, so a prefix inside a source tree still uses the
    // installed data; then build/bin -> the source tree.
    candidates.push_back(dir / ".." / "share" / "fabrik");
    candidates.push_back(dir);
    candidates.push_back(dir / "..");
    candidates.push_back(dir / ".." / "..");
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
