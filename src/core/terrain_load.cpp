#include "core/terrain_load.h"

#include "core/frame.h"
#include "terrain/heightmap_png.h"

namespace fabrik {

bool LoadTerrain(AppState& state, const std::string& path, const std::string& resolved_path,
                 float size, float height) {
  // Load into a Result first: only a good image replaces anything (docs/walker.md: Terrain).
  Result<Heightmap> loaded = LoadHeightmapPng(resolved_path, size, height);
  if (!loaded) {
    SetMessage(state, "terrain load: " + loaded.error(), true);
    return false;
  }
  auto map = std::make_shared<const Heightmap>(std::move(loaded).value());
  if (state.scene.current) {
    const Status moved = state.scene.current->UseTerrain(state, map);
    if (!moved) {
      SetMessage(state, "terrain load: " + moved.error(), true);
      return false;
    }
  }
  state.terrain.map = std::move(map);
  state.terrain.path = path;
  state.terrain.size = size;
  state.terrain.height = height;
  ++state.terrain.revision;
  return true;
}

std::shared_ptr<const Heightmap> EnsureTerrain(AppState& state) {
  TerrainState& t = state.terrain;
  if (t.map) return t.map;
  Result<Heightmap> loaded = LoadHeightmapPng(
      ResolveDataPath(kDefaultTerrainPath, state.command_context.search_roots), t.size, t.height);
  if (loaded) {
    t.map = std::make_shared<const Heightmap>(std::move(loaded).value());
    t.path = kDefaultTerrainPath;
  } else {
    // No default file (an odd install): flat ground still lets the walker walk.
    Result<Heightmap> flat = Heightmap::Flat(t.size);
    if (!flat) flat = Heightmap::Flat(40.0f);
    t.map = std::make_shared<const Heightmap>(std::move(flat).value());
    t.path.clear();
    SetMessage(state, "terrain: " + loaded.error() + "; using flat ground", true);
  }
  ++t.revision;
  return t.map;
}

}  // namespace fabrik
