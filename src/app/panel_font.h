// panel_font.h - the panel's font: a proportional TrueType font when it can be read, else
// Dear ImGui's built-in bitmap font. No window or OpenGL context is needed (tested by
// tests/app_shell).
#pragma once

struct ImFontAtlas;

namespace fabrik {

// The font the panel prefers: DejaVu Sans (Debian's fonts-dejavu-core).
inline constexpr const char* kPanelFontPath = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf";

// Adds the TrueType font at `path`, `size` pixels high, to `atlas`. The demo reads the file
// itself (at most 64 MiB) rather than through ImGui's AddFontFromFileTTF, which ends the
// program (an assertion) when it cannot load the file, e.g. when memory is short under a
// tight limit. False, with the atlas unchanged, when the file cannot be opened or read, is
// empty or too large, memory runs out, or it does not start as a TrueType or OpenType font.
bool AddFontFile(ImFontAtlas& atlas, const char* path, float size);

// The panel's font into `atlas`: the font at `path` when AddFontFile takes it, else Dear
// ImGui's built-in font, after one line on stderr naming `path` ("font: cannot read PATH;
// using Dear ImGui's built-in font") when the file exists. True when the file's font is used.
bool AddPanelFont(ImFontAtlas& atlas, const char* path, float size);

}  // namespace fabrik
