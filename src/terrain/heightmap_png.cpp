#include "terrain/heightmap_png.h"

#include <stb_image.h>

#include <algorithm>
#include <array>
#include <climits>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <memory>
#include <vector>

namespace fabrik {
namespace {

constexpr std::array<unsigned char, 8> kPngSignature = {0x89, 'P',  'N',  'G',
                                                        '\r', '\n', 0x1a, '\n'};

struct StbFree {
  void operator()(void* pixels) const { stbi_image_free(pixels); }
};

// Samples gray / max_gray of a decoded single-channel image.
template <typename T>
std::vector<float> Normalise(const T* pixels, std::size_t count, float max_gray) {
  std::vector<float> samples(count);
  for (std::size_t k = 0; k < count; ++k) samples[k] = float(pixels[k]) / max_gray;
  return samples;
}

std::string ChannelProblem(int channels) {
  switch (channels) {
    case 2:
      return "has gray + alpha channels";
    case 3:
      return "is a colour (RGB) or paletted image";
    case 4:
      return "is a colour image with alpha (RGBA)";
    default:
      return "has " + std::to_string(channels) + " channels";
  }
}

}  // namespace

Result<Heightmap> DecodeHeightmapPng(std::span<const unsigned char> bytes, const std::string& name,
                                     float size, float height_scale) {
  const std::string label = "terrain '" + name + "'";
  Status scale = ValidateTerrainScale(size, height_scale);
  if (!scale) return MakeError(label + ": " + scale.error());
  if (bytes.empty()) return MakeError(label + ": the file is empty");
  if (bytes.size() > kMaxHeightmapFileBytes || bytes.size() > std::size_t(INT_MAX)) {
    return MakeError(label + ": the file is larger than 64 MiB");
  }
  if (bytes.size() < kPngSignature.size() ||
      !std::equal(kPngSignature.begin(), kPngSignature.end(), bytes.begin())) {
    return MakeError(label + ": not a PNG file (the PNG signature is missing)");
  }
  const int length = int(bytes.size());
  // The size as the IHDR chunk states it (bytes 16..23, big-endian), checked first: stb_image
  // refuses sides above 2^24 itself, as "unknown image type", which would hide the reason.
  if (bytes.size() >= 24 && std::equal(bytes.begin() + 12, bytes.begin() + 16, "IHDR")) {
    auto be32 = [&](std::size_t at) {
      return (std::uint32_t(bytes[at]) << 24) | (std::uint32_t(bytes[at + 1]) << 16) |
             (std::uint32_t(bytes[at + 2]) << 8) | std::uint32_t(bytes[at + 3]);
    };
    const std::uint32_t w = be32(16), h = be32(20);
    if (w < 1 || h < 1 || w > std::uint32_t(Heightmap::kMaxSide) ||
        h > std::uint32_t(Heightmap::kMaxSide)) {
      return MakeError(label + ": " + std::to_string(w) + " x " + std::to_string(h) +
                       " pixels is an absurd size (each side must be 1 to " +
                       std::to_string(Heightmap::kMaxSide) + ")");
    }
  }
  int width = 0, height = 0, channels = 0;
  // The header alone: sizes and channel count are checked before anything is decoded.
  if (!stbi_info_from_memory(bytes.data(), length, &width, &height, &channels)) {
    return MakeError(label + ": unreadable PNG header (" + stbi_failure_reason() + ")");
  }
  if (width < 1 || height < 1 || width > Heightmap::kMaxSide || height > Heightmap::kMaxSide) {
    return MakeError(label + ": " + std::to_string(width) + " x " + std::to_string(height) +
                     " pixels is an absurd size (each side must be 1 to " +
                     std::to_string(Heightmap::kMaxSide) + ")");
  }
  if (channels != 1) {
    return MakeError(label + " " + ChannelProblem(channels) +
                     "; a heightmap must be a grayscale PNG (8 or 16 bits)");
  }
  const bool sixteen = stbi_is_16_bit_from_memory(bytes.data(), length) != 0;
  int w = 0, h = 0, c = 0;
  std::vector<float> samples;
  if (sixteen) {
    std::unique_ptr<stbi_us, StbFree> pixels(
        stbi_load_16_from_memory(bytes.data(), length, &w, &h, &c, 1));
    if (!pixels) {
      return MakeError(label + ": corrupt PNG data (" + stbi_failure_reason() + ")");
    }
    if (w != width || h != height) return MakeError(label + ": inconsistent PNG size");
    samples = Normalise(pixels.get(), std::size_t(w) * std::size_t(h), 65535.0f);
  } else {
    std::unique_ptr<stbi_uc, StbFree> pixels(
        stbi_load_from_memory(bytes.data(), length, &w, &h, &c, 1));
    if (!pixels) {
      return MakeError(label + ": corrupt PNG data (" + stbi_failure_reason() + ")");
    }
    if (w != width || h != height) return MakeError(label + ": inconsistent PNG size");
    samples = Normalise(pixels.get(), std::size_t(w) * std::size_t(h), 255.0f);
  }
  Result<Heightmap> map =
      Heightmap::FromSamples(width, height, std::move(samples), size, height_scale);
  if (!map) return MakeError(label + ": " + map.error());
  return map;
}

Result<Heightmap> LoadHeightmapPng(const std::string& path, float size, float height_scale) {
  const std::string label = "terrain '" + path + "'";
  Status scale = ValidateTerrainScale(size, height_scale);
  if (!scale) return MakeError(label + ": " + scale.error());
  std::error_code ec;
  if (std::filesystem::exists(path, ec) && !std::filesystem::is_regular_file(path, ec)) {
    return MakeError(label + ": not a regular file");
  }
  std::ifstream file(path, std::ios::binary | std::ios::ate);
  if (!file) return MakeError(label + ": cannot open the file (missing or unreadable)");
  const std::streamoff end = file.tellg();
  if (end < 0) return MakeError(label + ": cannot read the file (not a regular file?)");
  if (std::uintmax_t(end) > kMaxHeightmapFileBytes) {
    return MakeError(label + ": the file is larger than 64 MiB");
  }
  std::vector<unsigned char> bytes(static_cast<std::size_t>(end));
  file.seekg(0);
  if (!bytes.empty() && !file.read(reinterpret_cast<char*>(bytes.data()), end)) {
    return MakeError(label + ": cannot read the file");
  }
  return DecodeHeightmapPng(bytes, path, size, height_scale);
}

}  // namespace fabrik
