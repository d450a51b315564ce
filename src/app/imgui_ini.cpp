#include "app/imgui_ini.h"

#include <imgui.h>
#include <sys/stat.h>

#include <cstdio>
#include <fstream>
#include <sstream>

#include "core/settings.h"
#include "io/file_write.h"

namespace fabrik {

bool LoadImGuiIni(const std::string& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) return true;  // none yet: written on exit
  // A FIFO or device would block the read or never end: left alone, not read or written.
  if (!S_ISREG(st.st_mode)) {
    std::fprintf(stderr, "fabrik-demo: settings: %s is not a regular file; ignored it\n",
                 path.c_str());
    return false;
  }
  if (static_cast<unsigned long long>(st.st_size) > kMaxSettingsBytes) {
    std::fprintf(stderr, "fabrik-demo: settings: %s is larger than 1 MiB; ignored it\n",
                 path.c_str());
    return true;  // replaced by the layout of this session
  }
  std::ifstream in(path, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  const std::string s = text.str();
  ImGui::LoadIniSettingsFromMemory(s.data(), s.size());
  return true;
}

std::string SaveImGuiIni(const std::string& path) {
  std::size_t size = 0;
  const char* text = ImGui::SaveIniSettingsToMemory(&size);
  const Status written = io::WriteFileAtomic(path, std::string_view(text, size));
  return written ? std::string() : "settings: " + written.error();
}

}  // namespace fabrik
