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
#if defined(FABRIK_SOURCE_DIR) && defined(FABRIK_BINARY_DIR)
  // The source tree only for a demo run from its build tree: an installed one (cmake
  // --install, the .deb) must find its own data or say so, not borrow the sources'.
  if (!ec) {
    const std::string exe_text = exe.lexically_normal().string();
    const std::string build = fs::path(FABRIK_BINARY_DIR).lexically_normal().string() + "/";
    if (exe_text.rfind(build, 0) == 0) candidates.emplace_back(FABRIK_SOURCE_DIR);
  }
#endif
  for (const fs::path& c : candidates) {
    if (fs::exists(c / "shaders" / "mesh.vert", ec)) {
      return fs::weakly_canonical(c, ec).string();
    }
  }
  return std::nullopt;
}

}  // namespace fabrik
