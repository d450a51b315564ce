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

// Samples gray / max_gray of a decoded single-channel image of width x height pixels, averaged
// down in blocks of `factor` x `factor` pixels (the last block of a row or column takes what is
// left). The image is only drawn and sampled at a coarse grid, so a large one is kept at
// most Heightmap::kMaxStoredSide per side: 4 MiB of samples for an 8192 x 8192 file, not 256.
template <typename T>
std::vector<float> Downsample(const T* pixels, int width, int height, int factor,
                              float max_gray) {
  const int out_w = (width + factor - 1) / factor;
  const int out_h = (height + factor - 1) / factor;
  std::vector<float> samples(std::size_t(out_w) * std::size_t(out_h));
  for (int b = 0; b < out_h; ++b) {
    const int j0 = b * factor, j1 = std::min(height, j0 + factor);
    for (int a = 0; a < out_w; ++a) {
      const int i0 = a * factor, i1 = std::min(width, i0 + factor);
      double sum = 0.0;  // exact for up to 2^37 16-bit samples
      for (int j = j0; j < j1; ++j) {
        const T* row = pixels + std::size_t(j) * std::size_t(width);
        for (int i = i0; i < i1; ++i) sum += double(row[i]);
      }
      const double mean = sum / (double(j1 - j0) * double(i1 - i0));
      samples[std::size_t(b) * std::size_t(out_w) + std::size_t(a)] =
          std::min(1.0f, float(mean / double(max_gray)));
    }
  }
  return samples;
}

// stb_image's reason for a failure, printable: for an unknown chunk it quotes the chunk's
// four type bytes from the file as they are, which may be a newline or any other byte, and a
// message is one line of text.
std::string FailureReason() {
  std::string reason = stbi_failure_reason() != nullptr ? stbi_failure_reason() : "unknown";
  for (char& c : reason) {
    if (static_cast<unsigned char>(c) < 0x20 || static_cast<unsigned char>(c) >= 0x7f) c = '?';
  }
  return reason;
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
    return MakeError(label + ": unreadable PNG header (" + FailureReason() + ")");
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
  const int factor = (std::max(width, height) + Heightmap::kMaxStoredSide - 1) /
                     Heightmap::kMaxStoredSide;
  int w = 0, h = 0, c = 0;
  std::vector<float> samples;
  if (sixteen) {
    std::unique_ptr<stbi_us, StbFree> pixels(
        stbi_load_16_from_memory(bytes.data(), length, &w, &h, &c, 1));
    if (!pixels) {
      return MakeError(label + ": corrupt PNG data (" + FailureReason() + ")");
    }
    if (w != width || h != height) return MakeError(label + ": inconsistent PNG size");
    samples = Downsample(pixels.get(), w, h, factor, 65535.0f);
  } else {
    std::unique_ptr<stbi_uc, StbFree> pixels(
        stbi_load_from_memory(bytes.data(), length, &w, &h, &c, 1));
    if (!pixels) {
      return MakeError(label + ": corrupt PNG data (" + FailureReason() + ")");
    }
    if (w != width || h != height) return MakeError(label + ": inconsistent PNG size");
    samples = Downsample(pixels.get(), w, h, factor, 255.0f);
  }
  const int kept_w = (width + factor - 1) / factor, kept_h = (height + factor - 1) / factor;
  Result<Heightmap> map =
      Heightmap::FromSamples(kept_w, kept_h, std::move(samples), size, height_scale);
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
  std::ifstream file(path, std::ios::binary);
  if (!file) return MakeError(label + ": cannot open the file (missing or unreadable)");
  // Read to the end rather than trusting the size the file system states: files under /proc
  // state 0 bytes yet have contents (they are not empty). One byte past the limit tells a file
  // that is too large without reading all of it.
  std::vector<unsigned char> bytes;
  const std::uintmax_t stated = std::filesystem::file_size(path, ec);
  if (!ec) bytes.reserve(std::min<std::uintmax_t>(stated, kMaxHeightmapFileBytes) + 1);
  std::array<char, 1 << 16> chunk{};
  while (bytes.size() <= kMaxHeightmapFileBytes) {
    file.read(chunk.data(), chunk.size());
    const std::streamsize got = file.gcount();
    bytes.insert(bytes.end(), chunk.begin(), chunk.begin() + got);
    if (!file) break;
  }
  if (file.bad()) return MakeError(label + ": cannot read the file");
  if (bytes.size() > kMaxHeightmapFileBytes) {
    return MakeError(label + ": the file is larger than 64 MiB");
  }
  return DecodeHeightmapPng(bytes, path, size, height_scale);
}

}  // namespace fabrik
