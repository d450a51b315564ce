// The panel's font (src/app/panel_font.h): a font file that cannot be used never ends the
// demo; the panel falls back to Dear ImGui's built-in font. No window or OpenGL is needed: a
// font atlas builds its pixels on the CPU.
#include <gtest/gtest.h>
#include <imgui.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "app/panel_font.h"

namespace fabrik {
namespace {

std::string WriteFile(const std::string& name, const std::string& bytes) {
  const std::string path = ::testing::TempDir() + name;
  std::ofstream(path, std::ios::binary) << bytes;
  return path;
}

// What the atlas holds after AddPanelFont(path), and what it printed.
struct Outcome {
  bool used_file = false;
  int fonts = 0;
  bool built = false;
  std::string printed;
};

Outcome AddPanelFontFrom(const std::string& path) {
  ImFontAtlas atlas;
  Outcome out;
  ::testing::internal::CaptureStderr();
  out.used_file = AddPanelFont(atlas, path.c_str(), 15.0f);
  out.printed = ::testing::internal::GetCapturedStderr();
  out.fonts = atlas.Fonts.Size;
  unsigned char* pixels = nullptr;
  int w = 0, h = 0;
  atlas.GetTexDataAsAlpha8(&pixels, &w, &h);
  out.built = pixels != nullptr && w > 0 && h > 0;
  return out;
}

TEST(PanelFont, TheInstalledFontIsUsed) {
  if (!std::filesystem::exists(kPanelFontPath)) GTEST_SKIP() << "no " << kPanelFontPath;
  const Outcome out = AddPanelFontFrom(kPanelFontPath);
  EXPECT_TRUE(out.used_file);
  EXPECT_EQ(out.fonts, 1);
  EXPECT_TRUE(out.built);
  EXPECT_EQ(out.printed, "");
}

TEST(PanelFont, AMissingFontFallsBackSilently) {
  const Outcome out = AddPanelFontFrom(::testing::TempDir() + "no-such-font.ttf");
  EXPECT_FALSE(out.used_file);
  EXPECT_EQ(out.fonts, 1);  // the built-in font
  EXPECT_TRUE(out.built);
  EXPECT_EQ(out.printed, "");
}

TEST(PanelFont, AFontThatCannotBeReadFallsBackWithOneLine) {
  const std::string folder = ::testing::TempDir() + "a-folder.ttf";
  std::filesystem::create_directories(folder);
  const std::string cases[] = {
      folder,                                         // opens, but nothing to read
      WriteFile("empty.ttf", ""),                     // no bytes
      WriteFile("short.ttf", "ab"),                   // shorter than a font's tag
      WriteFile("text.ttf", std::string(4096, 'x')),  // not a font
      WriteFile("png.ttf", std::string("\x89PNG\r\n\x1a\n") + std::string(100, '\0')),
  };
  for (const std::string& path : cases) {
    const Outcome out = AddPanelFontFrom(path);
    EXPECT_FALSE(out.used_file) << path;
    EXPECT_EQ(out.fonts, 1) << path;
    EXPECT_TRUE(out.built) << path;
    EXPECT_EQ(out.printed, "font: cannot read " + path + "; using Dear ImGui's built-in font\n");
  }
}

TEST(PanelFont, AFileLargerThanAnyFontIsNotRead) {
  // 64 MiB + 1 byte, sparse: the size alone refuses it, before any byte is read or allocated.
  const std::string path = ::testing::TempDir() + "huge.ttf";
  std::filesystem::resize_file(WriteFile("huge.ttf", std::string("\x00\x01\x00\x00", 4)),
                               (64u << 20) + 1);
  const Outcome out = AddPanelFontFrom(path);
  EXPECT_FALSE(out.used_file);
  EXPECT_EQ(out.fonts, 1);
  EXPECT_NE(out.printed.find("cannot read"), std::string::npos);
}

}  // namespace
}  // namespace fabrik
