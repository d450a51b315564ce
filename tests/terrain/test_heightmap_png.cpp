// Loading heightmaps from PNG files: 8- and 16-bit gray, and every kind of bad file.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "terrain/heightmap_png.h"
#include "terrain_test_util.h"

namespace fabrik {
namespace {

using testing::TempDir;

void ExpectError(const Result<Heightmap>& map, const std::string& part) {
  ASSERT_FALSE(map.ok());
  EXPECT_NE(map.error().find(part), std::string::npos) << map.error();
}

TEST(HeightmapPng, Reads8BitGrayWithTheMapping) {
  TempDir dir;
  // 3 x 2: row 0 (top) = 0, 51, 255; row 1 = 102, 204, 0.
  const std::vector<std::uint8_t> px = {0, 51, 255, 102, 204, 0};
  ASSERT_TRUE(testing::WritePng8(dir.File("g8.png"), 3, 2, 1, px));
  Result<Heightmap> map = LoadHeightmapPng(dir.File("g8.png"), 6.0f, 5.0f);
  ASSERT_TRUE(map.ok()) << map.error();
  ASSERT_EQ(map.value().width(), 3);
  ASSERT_EQ(map.value().height(), 2);
  for (int j = 0; j < 2; ++j) {
    for (int i = 0; i < 3; ++i) {
      const glm::vec2 c = map.value().PixelCentre(i, j);
      EXPECT_NEAR(map.value().HeightAt(c.x, c.y), px[std::size_t(j * 3 + i)] / 255.0f * 5.0f,
                  1e-5f);
    }
  }
  // Pixel (2, 0) is the top right: x = 2, z = -1.5.
  EXPECT_FLOAT_EQ(map.value().HeightAt(2.0f, -1.5f), 5.0f);
}

TEST(HeightmapPng, Reads16BitGrayAtFullPrecision) {
  TempDir dir;
  const std::vector<std::uint16_t> px = {0, 1, 65535, 40000, 12345, 65534};
  ASSERT_TRUE(testing::WritePngGray16(dir.File("g16.png"), 2, 3, px));
  Result<Heightmap> map = LoadHeightmapPng(dir.File("g16.png"), 40.0f, 3.0f);
  ASSERT_TRUE(map.ok()) << map.error();
  ASSERT_EQ(map.value().width(), 2);
  ASSERT_EQ(map.value().height(), 3);
  for (std::size_t k = 0; k < px.size(); ++k) {
    EXPECT_FLOAT_EQ(map.value().samples()[k], px[k] / 65535.0f) << k;
  }
  // One 16-bit step apart is resolved (8 bits would merge 0 and 1).
  EXPECT_GT(map.value().PixelHeight(1, 0), map.value().PixelHeight(0, 0));
}

TEST(HeightmapPng, ALargeImageIsAveragedDownToTheStoredSide) {
  TempDir dir;
  // 2050 x 3 pixels: over twice kMaxStoredSide wide, so blocks of 3 x 3 are averaged (the last
  // block of each row holds 1 column). Column i has gray i % 7 * 1000 in every row.
  const int w = 2 * Heightmap::kMaxStoredSide + 2, h = 3;
  std::vector<std::uint16_t> px(std::size_t(w) * h);
  for (int j = 0; j < h; ++j) {
    for (int i = 0; i < w; ++i) px[std::size_t(j * w + i)] = std::uint16_t(i % 7 * 1000);
  }
  ASSERT_TRUE(testing::WritePngGray16(dir.File("wide.png"), w, h, px));
  Result<Heightmap> map = LoadHeightmapPng(dir.File("wide.png"), 40.0f, 3.0f);
  ASSERT_TRUE(map.ok()) << map.error();
  EXPECT_EQ(map.value().width(), 684);  // ceil(2050 / 3)
  EXPECT_EQ(map.value().height(), 1);
  EXPECT_EQ(map.value().size(), 40.0f);  // the same square
  for (int a = 0; a < map.value().width(); ++a) {
    double sum = 0.0;
    int n = 0;
    for (int i = 3 * a; i < std::min(w, 3 * a + 3); ++i, ++n) sum += i % 7 * 1000;
    EXPECT_NEAR(map.value().samples()[std::size_t(a)], sum / n / 65535.0, 1e-6) << a;
  }
}

TEST(HeightmapPng, AFileUnderProcIsReadToItsEndNotCalledEmpty) {
  // /proc files state a size of 0 but have contents: not a PNG, and not "empty".
  Result<Heightmap> map = LoadHeightmapPng("/proc/self/environ", 40.0f, 3.0f);
  ExpectError(map, "not a PNG file");
}

TEST(HeightmapPng, AnUnknownChunkWithControlBytesIsOnePrintableLine) {
  // Found by fuzz_terrain_png: stb_image names an unknown chunk by its four type bytes from
  // the file, here "\x00\x1a\n\x00"-like bytes, which put a newline into the message.
  const unsigned char bytes[] = {
      0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00, 0x00, 0x0d, 0x49,
      0x48, 0x44, 0x52, 0x00, 0x00, 0x00, 0x28, 0x00, 0x00, 0x00, 0x03, 0x08, 0x00,
      0x00, 0x00, 0x00, 0xc4, 0xfe, 0x12, 0x44, 0x00, 0x00, 0x89, 0x50, 0x4e, 0x47,
      0x0d, 0x0a, 0x00, 0x1a, 0x0a, 0x00, 0x00, 0x00, 0x0d, 0x33};
  Result<Heightmap> map = DecodeHeightmapPng(bytes, "odd.png", 40.0f, 3.0f);
  ExpectError(map, "terrain 'odd.png': corrupt PNG data (");
  for (char c : map.error()) EXPECT_GE(static_cast<unsigned char>(c), 0x20) << map.error();
}

TEST(HeightmapPng, TheShippedTerrainLoads) {
  Result<Heightmap> map =
      LoadHeightmapPng(std::string(FABRIK_SOURCE_DIR) + "/assets/terrain/hills.png", 40.0f, 3.0f);
  ASSERT_TRUE(map.ok()) << map.error();
  EXPECT_EQ(map.value().width(), 256);
  float lo = 1e9f, hi = -1e9f;
  for (float s : map.value().samples()) {
    lo = std::min(lo, s);
    hi = std::max(hi, s);
  }
  EXPECT_LT(lo, 0.2f);  // gentle hills that use the height range
  EXPECT_GT(hi, 0.8f);
}

TEST(HeightmapPng, MissingFile) {
  ExpectError(LoadHeightmapPng("/nonexistent/dir/none.png", 40.0f, 3.0f), "cannot open");
}

TEST(HeightmapPng, DirectoryIsNotAFile) {
  TempDir dir;
  ExpectError(LoadHeightmapPng(dir.File(""), 40.0f, 3.0f), "not a regular file");
}

TEST(HeightmapPng, EmptyAndNonPngFiles) {
  TempDir dir;
  { std::ofstream(dir.File("empty.png")); }
  ExpectError(LoadHeightmapPng(dir.File("empty.png"), 40.0f, 3.0f), "empty");
  { std::ofstream(dir.File("text.png")) << "hello, not a picture"; }
  ExpectError(LoadHeightmapPng(dir.File("text.png"), 40.0f, 3.0f), "not a PNG");
}

TEST(HeightmapPng, TruncatedAndCorruptFiles) {
  TempDir dir;
  std::vector<std::uint8_t> px(64 * 64);
  for (std::size_t k = 0; k < px.size(); ++k) px[k] = std::uint8_t(k * 37);
  ASSERT_TRUE(testing::WritePng8(dir.File("good.png"), 64, 64, 1, px));
  std::ifstream in(dir.File("good.png"), std::ios::binary);
  const std::vector<char> bytes((std::istreambuf_iterator<char>(in)), {});
  ASSERT_GT(bytes.size(), 100u);
  for (std::size_t cut : {std::size_t{8}, std::size_t{20}, std::size_t{40}, bytes.size() / 2}) {
    const std::string path = dir.File("cut" + std::to_string(cut) + ".png");
    std::ofstream(path, std::ios::binary).write(bytes.data(), std::streamsize(cut));
    const Result<Heightmap> map = LoadHeightmapPng(path, 40.0f, 3.0f);
    ASSERT_FALSE(map.ok()) << "cut at " << cut;
    EXPECT_NE(map.error().find(path), std::string::npos) << map.error();
  }
  // Scrambled pixel data after an intact header.
  std::vector<char> scrambled = bytes;
  for (std::size_t k = 60; k < scrambled.size() - 12; ++k) scrambled[k] = char(k * 131);
  std::ofstream(dir.File("scrambled.png"), std::ios::binary)
      .write(scrambled.data(), std::streamsize(scrambled.size()));
  ExpectError(LoadHeightmapPng(dir.File("scrambled.png"), 40.0f, 3.0f), "corrupt");
}

TEST(HeightmapPng, ColourAndAlphaImagesAreRefused) {
  TempDir dir;
  const std::vector<std::uint8_t> px(4 * 4 * 4, 128);
  ASSERT_TRUE(testing::WritePng8(dir.File("rgb.png"), 4, 4, 3, px));
  ASSERT_TRUE(testing::WritePng8(dir.File("rgba.png"), 4, 4, 4, px));
  ASSERT_TRUE(testing::WritePng8(dir.File("ga.png"), 4, 4, 2, px));
  ExpectError(LoadHeightmapPng(dir.File("rgb.png"), 40.0f, 3.0f), "grayscale");
  ExpectError(LoadHeightmapPng(dir.File("rgba.png"), 40.0f, 3.0f), "grayscale");
  ExpectError(LoadHeightmapPng(dir.File("ga.png"), 40.0f, 3.0f), "alpha");
}

TEST(HeightmapPng, AbsurdSizeIsRefusedFromTheHeader) {
  TempDir dir;
  // A valid 1 x 1 gray PNG whose header is then edited to claim 100000 x 1 pixels; the size
  // check comes before decoding, so no memory is spent on it.
  ASSERT_TRUE(testing::WritePng8(dir.File("one.png"), 1, 1, 1, {7}));
  std::ifstream in(dir.File("one.png"), std::ios::binary);
  std::vector<char> bytes((std::istreambuf_iterator<char>(in)), {});
  ASSERT_GT(bytes.size(), 24u);
  const std::uint32_t width = 100000;  // IHDR width: big-endian at offset 16
  bytes[16] = char(width >> 24);
  bytes[17] = char(width >> 16);
  bytes[18] = char(width >> 8);
  bytes[19] = char(width);
  const Result<Heightmap> map = DecodeHeightmapPng(
      {reinterpret_cast<const unsigned char*>(bytes.data()), bytes.size()}, "huge", 40.0f, 3.0f);
  ASSERT_FALSE(map.ok());
  EXPECT_TRUE(map.error().find("absurd") != std::string::npos ||
              map.error().find("header") != std::string::npos)
      << map.error();
}

// Sides beyond stb_image's own limit (2^24) used to read "unknown image type": the message
// names the size and the bound whatever the size.
TEST(HeightmapPng, AbsurdSizeIsNamedAsSuchBeyondTheDecodersLimit) {
  TempDir dir;
  ASSERT_TRUE(testing::WritePng8(dir.File("one.png"), 1, 1, 1, {7}));
  std::ifstream in(dir.File("one.png"), std::ios::binary);
  const std::vector<char> original((std::istreambuf_iterator<char>(in)), {});
  ASSERT_GT(original.size(), 24u);
  for (const auto& [w, h] : {std::pair<std::uint32_t, std::uint32_t>{100000, 100000},
                             {20000000, 1}, {1, 4000000000u}, {0, 5}}) {
    std::vector<char> bytes = original;
    for (int k = 0; k < 4; ++k) {
      bytes[16 + k] = char(w >> (24 - 8 * k));
      bytes[20 + k] = char(h >> (24 - 8 * k));
    }
    const Result<Heightmap> map = DecodeHeightmapPng(
        {reinterpret_cast<const unsigned char*>(bytes.data()), bytes.size()}, "huge", 40.0f,
        3.0f);
    ASSERT_FALSE(map.ok());
    EXPECT_NE(map.error().find(std::to_string(w) + " x " + std::to_string(h) +
                               " pixels is an absurd size"),
              std::string::npos)
        << map.error();
  }
}

// Thousands of damaged copies of a valid 16-bit file (bytes flipped, cut short, chunks
// repeated): each one loads or gets a message naming the input, never a crash (run it under
// the asan preset to check memory too) and never a NaN height.
TEST(HeightmapPng, DamagedFilesNeverCrash) {
  TempDir dir;
  std::vector<std::uint16_t> px(24 * 17);
  for (std::size_t k = 0; k < px.size(); ++k) px[k] = std::uint16_t(k * 2654435761u >> 7);
  ASSERT_TRUE(testing::WritePngGray16(dir.File("src.png"), 24, 17, px));
  std::ifstream in(dir.File("src.png"), std::ios::binary);
  const std::vector<unsigned char> good((std::istreambuf_iterator<char>(in)), {});
  std::mt19937 rng(12345);
  int loaded = 0, refused = 0;
  for (int trial = 0; trial < 3000; ++trial) {
    std::vector<unsigned char> bytes = good;
    const int kind = trial % 3;
    if (kind == 0) {  // flip a few bytes anywhere (the signature included)
      for (int k = 0; k < 1 + trial % 4; ++k) bytes[rng() % bytes.size()] ^= std::uint8_t(rng());
    } else if (kind == 1) {  // cut short
      bytes.resize(rng() % bytes.size());
    } else {  // repeat a slice somewhere past the signature
      const std::size_t at = 8 + rng() % (bytes.size() - 8);
      const std::size_t len = 1 + rng() % 40;
      const std::vector<unsigned char> slice(
          bytes.begin() + std::ptrdiff_t(at),
          bytes.begin() + std::ptrdiff_t(std::min(at + len, bytes.size())));
      bytes.insert(bytes.begin() + std::ptrdiff_t(at), slice.begin(), slice.end());
    }
    const Result<Heightmap> map = DecodeHeightmapPng(bytes, "damaged", 10.0f, 2.0f);
    if (map.ok()) {
      ++loaded;
      for (float sample : map.value().samples()) ASSERT_TRUE(sample >= 0.0f && sample <= 1.0f);
      ASSERT_TRUE(std::isfinite(map.value().HeightAt(0.3f, -0.2f)));
    } else {
      ++refused;
      ASSERT_NE(map.error().find("terrain 'damaged'"), std::string::npos) << map.error();
    }
  }
  EXPECT_GT(refused, 1000);  // most damage is noticed
  EXPECT_EQ(loaded + refused, 3000);
}

TEST(HeightmapPng, BadScaleIsRefusedBeforeReading) {
  ExpectError(LoadHeightmapPng("/nonexistent.png", 0.0f, 3.0f), "terrain size");
  ExpectError(LoadHeightmapPng("/nonexistent.png", 40.0f, -1.0f), "terrain height");
}

}  // namespace
}  // namespace fabrik
