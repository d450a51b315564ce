// terrain_load.h - the app's ground for the walker scene (docs/walker.md: Terrain): `--terrain`,
// `terrain load PATH [S H]`, and the default file.
#pragma once

#include <memory>
#include <string>

#include "core/app_state.h"

namespace fabrik {

// The terrain the demo ships, relative to the data folder.
inline constexpr const char* kDefaultTerrainPath = "assets/terrain/hills.png";

// Loads the PNG at `resolved_path` (the user wrote `path`) with side `size` and height
// `height` into state.terrain, and puts a running walker on it. On any problem (unreadable,
// not an 8/16-bit gray PNG, bad S or H) sets an error message naming the file and the problem
// and returns false with the state unchanged.
bool LoadTerrain(AppState& state, const std::string& path, const std::string& resolved_path,
                 float size, float height);

// The current ground: state.terrain.map, loading the default file (or, if that fails, flat
// ground of side state.terrain.size) the first time. Never null.
std::shared_ptr<const Heightmap> EnsureTerrain(AppState& state);

}  // namespace fabrik
