// data_dir.h - finds the folder holding shaders/ and assets/ from any working directory.
#pragma once

#include <optional>
#include <string>

namespace fabrik {

// Looks, in order, in $FABRIK_DATA_DIR, next to and above the executable (build/bin -> the
// source tree), the executable's ../share/fabrik, and the source tree the binary was built
// from. Returns the first folder containing shaders/mesh.vert.
std::optional<std::string> FindDataDir();

}  // namespace fabrik
