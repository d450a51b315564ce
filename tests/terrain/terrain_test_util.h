// terrain_test_util.h - temporary folders and PNG writers for the terrain tests.
#pragma once

#include <gtest/gtest.h>
#include <png.h>
#include <stb_image_write.h>
#include <unistd.h>

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

namespace fabrik::testing {

// A fresh folder under the system temp folder, removed with everything in it on destruction.
class TempDir {
 public:
  TempDir() {
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    path_ = std::filesystem::temp_directory_path() /
            ("fabrik_terrain_" + std::to_string(::getpid()) + "_" + info->name());
    std::filesystem::remove_all(path_);
    std::filesystem::create_directories(path_);
  }
  ~TempDir() {
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
  }
  std::string File(const std::string& name) const { return (path_ / name).string(); }

 private:
  std::filesystem::path path_;
};

// An 8-bit PNG with `channels` channels, written by stb_image_write; true on success.
inline bool WritePng8(const std::string& path, int width, int height, int channels,
                      const std::vector<std::uint8_t>& pixels) {
  return stbi_write_png(path.c_str(), width, height, channels, pixels.data(), width * channels) !=
         0;
}

// A 16-bit grayscale PNG written with libpng (stb_image_write only writes 8 bits).
inline bool WritePngGray16(const std::string& path, int width, int height,
                           const std::vector<std::uint16_t>& pixels) {
  png_image image{};
  image.version = PNG_IMAGE_VERSION;
  image.width = png_uint_32(width);
  image.height = png_uint_32(height);
  image.format = PNG_FORMAT_LINEAR_Y;  // one 16-bit gray channel, stored as given
  const bool ok = png_image_write_to_file(&image, path.c_str(), 0, pixels.data(),
                                          0 /* packed rows */, nullptr) != 0;
  png_image_free(&image);
  return ok;
}

}  // namespace fabrik::testing
