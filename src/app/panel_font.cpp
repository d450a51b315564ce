#include "app/panel_font.h"

#include <imgui.h>

#include <cstdio>
#include <cstring>
#include <filesystem>

namespace fabrik {
namespace {

// The first four bytes of a TrueType font, an OpenType font with CFF outlines, an old Apple
// TrueType font and a TrueType collection.
bool StartsAsAFont(const unsigned char* data) {
  static constexpr unsigned char kTags[][4] = {
      {0x00, 0x01, 0x00, 0x00}, {'O', 'T', 'T', 'O'}, {'t', 'r', 'u', 'e'}, {'t', 't', 'c', 'f'}};
  for (const auto& tag : kTags) {
    if (std::memcmp(data, tag, 4) == 0) return true;
  }
  return false;
}

}  // namespace

bool AddFontFile(ImFontAtlas& atlas, const char* path, float size) {
  std::FILE* f = std::fopen(path, "rb");
  if (f == nullptr) return false;
  long bytes = -1;
  if (std::fseek(f, 0, SEEK_END) == 0) bytes = std::ftell(f);
  constexpr long kMaxFontBytes = 64L << 20;
  void* data = (bytes >= 4 && bytes <= kMaxFontBytes && std::fseek(f, 0, SEEK_SET) == 0)
                   ? ImGui::MemAlloc(static_cast<std::size_t>(bytes))
                   : nullptr;
  const bool read = data != nullptr && std::fread(data, 1, static_cast<std::size_t>(bytes), f) ==
                                           static_cast<std::size_t>(bytes);
  std::fclose(f);
  if (!read || !StartsAsAFont(static_cast<const unsigned char*>(data))) {
    ImGui::MemFree(data);
    return false;
  }
  // The atlas owns `data` from here and frees it with ImGui::MemFree.
  return atlas.AddFontFromMemoryTTF(data, static_cast<int>(bytes), size) != nullptr;
}

bool AddPanelFont(ImFontAtlas& atlas, const char* path, float size) {
  std::error_code ec;
  const bool exists = std::filesystem::exists(path, ec);
  if (exists && AddFontFile(atlas, path, size)) return true;
  if (exists)
    std::fprintf(stderr, "font: cannot read %s; using Dear ImGui's built-in font\n", path);
  atlas.AddFontDefault();
  return false;
}

}  // namespace fabrik
