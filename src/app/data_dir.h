// data_dir.h - finds the folder holding shaders/ and assets/ from any working directory.
#pragma once

#include <optional>
#include <string>

namespace fabrik {

// Looks, in order, in $FABRIK_DATA_DIR, the executable's ../share/fabrik (an installed demo),
// next to and above the executable (build/bin -> the source tree), and the source tree the
// binary was built from. Returns the first folder containing shaders/mesh.vert.
std::optional<std::string> FindDataDir();

}  // namespace fabrik
