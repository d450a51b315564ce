// data_dir.h - finds the folder holding shaders/ and assets/ from any working directory.
#pragma once

#include <optional>
#include <string>

namespace fabrik {

// Looks, in order, in $FABRIK_DATA_DIR, the executable's ../share/fabrik (an installed demo),
// next to and above the executable (build/bin -> the source tree), and, for an executable
// inside the build tree it was built in, the source tree. An installed demo therefore uses
// only $FABRIK_DATA_DIR or its prefix's share/fabrik. Returns the first folder containing shaders/mesh.vert.
std::optional<std::string> FindDataDir();

}  // namespace fabrik
