// heightmap_png.h - reading a terrain heightmap from an 8- or 16-bit grayscale PNG (stb_image).
//
// docs/walker.md: Terrain. The file must be a PNG (checked by its signature) with one gray channel,
// 8 or 16 bits per sample, each side 1 to Heightmap::kMaxSide pixels, at most
// kMaxHeightmapFileBytes long. Anything else - a missing or unreadable file, an empty, truncated or
// corrupt one, a colour, gray+alpha or paletted image, an absurd size - is refused with one message
// that names the file and the problem; nothing is ever partly loaded and nothing crashes. Sizes are
// checked from the header before any pixel is decoded. An image with a side above
// Heightmap::kMaxStoredSide is averaged down to at most that (the heightmap's width() and
// height() are then the kept sizes; it still covers the same square).
#pragma once

#include <cstddef>
#include <span>
#include <string>

#include "ik/result.h"
#include "terrain/heightmap.h"

namespace fabrik {

// Largest heightmap file accepted, bytes (64 MiB).
inline constexpr std::size_t kMaxHeightmapFileBytes = std::size_t{64} << 20;

// Reads `path` and decodes it (DecodeHeightmapPng). `size` and `height_scale` as Heightmap
// (S and H of the mapping); they are validated first.
Result<Heightmap> LoadHeightmapPng(const std::string& path, float size, float height_scale);

// Decodes PNG bytes already in memory; `name` only labels the messages.
Result<Heightmap> DecodeHeightmapPng(std::span<const unsigned char> bytes, const std::string& name,
                                     float size, float height_scale);

}  // namespace fabrik
