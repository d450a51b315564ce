// Reading, checking and writing settings.json (docs/settings.md).
// The file is the user's to edit, so everything in it is treated as hostile: a value is used
// only after its type and range are checked here, and a file that is not a settings file at
// all is ignored whole with one line saying why.
#include <unistd.h>

#include <array>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "camera/orbit_camera.h"
#include "core/settings.h"
#include "io/file_write.h"

namespace fabrik {
namespace {

using nlohmann::json;

// A settings file nests two levels (window.size); anything deeper is not one.
constexpr int kMaxDepth = 4;

// Checks one field; on a problem, returns a short reason for the one-line report.
struct Checker {
  const json& root;
  std::vector<std::string> ignored;

  const json* Get(const char* key) const {
    const auto it = root.find(key);
    return it == root.end() ? nullptr : &*it;
  }
  void Ignore(const char* key, const std::string& why) {
    ignored.push_back(std::string(key) + " (" + why + ")");
  }
  // Two whole numbers [a, b] within the bounds.
  std::optional<glm::ivec2> Pair(const json& parent, const char* key, glm::ivec2 lo, glm::ivec2 hi,
                                 const char* what) {
    const auto it = parent.find(key);
    if (it == parent.end()) return std::nullopt;
    Result<json> a = MakeError(""), b = MakeError("");
    if (it->is_array() && it->size() == 2) {
      a = CheckSettingWhole((*it)[0], lo.x, hi.x, "");
      b = CheckSettingWhole((*it)[1], lo.y, hi.y, "");
    }
    if (!a.ok() || !b.ok()) {
      Ignore(key, std::string("expected ") + what);
      return std::nullopt;
    }
    return glm::ivec2(a.value().get<int>(), b.value().get<int>());
  }
};

SettingsRead Unread(std::string problem) {
  SettingsRead read;
  read.problem = std::move(problem);
  read.ignored_whole = true;
  return read;
}

void CheckCamera(Checker& check, Settings& out) {
  const json* v = check.Get("camera");
  if (v == nullptr) return;
  SavedCamera cam;
  double yaw = 0.0, pitch = 0.0, distance = 0.0, p[3] = {0.0, 0.0, 0.0};
  const double pivot_max = OrbitCamera::kMaxPivot;
  bool ok = v->is_object() && v->contains("pivot") && v->contains("yaw") && v->contains("pitch") &&
            v->contains("distance");
  ok = ok && (*v)["pivot"].is_array() && (*v)["pivot"].size() == 3;
  for (int i = 0; ok && i < 3; ++i) {
    ok = SettingNumber((*v)["pivot"][static_cast<std::size_t>(i)], -pivot_max, pivot_max, false,
                       p[i]);
  }
  ok =
      ok && SettingNumber((*v)["yaw"], -1e3, 1e3, false, yaw) &&
      SettingNumber((*v)["pitch"], -OrbitCamera::kMaxPitch, OrbitCamera::kMaxPitch, false, pitch) &&
      SettingNumber((*v)["distance"], OrbitCamera::kMinDistance, OrbitCamera::kMaxDistance, false,
                    distance);
  if (!ok) {
    check.Ignore("camera", "expected pivot [X, Y, Z], yaw, pitch and distance in range");
    return;
  }
  cam.pivot =
      glm::vec3(static_cast<float>(p[0]), static_cast<float>(p[1]), static_cast<float>(p[2]));
  cam.yaw = static_cast<float>(yaw);
  cam.pitch = static_cast<float>(pitch);
  cam.distance = static_cast<float>(distance);
  out.camera = cam;
}

void CheckWindow(Checker& check, Settings& out) {
  const json* v = check.Get("window");
  if (v == nullptr) return;
  if (!v->is_object()) {
    check.Ignore("window", "expected an object with size and position");
    return;
  }
  out.window_size =
      check.Pair(*v, "size", kMinWindowSize, kMaxWindowSize, "[W, H] from 200x150 to 4096x4096");
  out.window_position = check.Pair(*v, "position", {-100000, -100000}, {100000, 100000},
                                   "[X, Y], each within +-100000");
}

}  // namespace

std::optional<std::string> SettingsFolder() {
  // XDG Base Directory Specification: a relative $XDG_CONFIG_HOME is invalid and ignored.
  const char* xdg = std::getenv("XDG_CONFIG_HOME");
  if (xdg != nullptr && xdg[0] == '/') return std::string(xdg) + "/fabrik-demo";
  // $HOME must be a folder that exists: the demo makes .config/fabrik-demo inside it, never
  // a home folder of its own (HOME=/nonexistent/x would otherwise be created).
  const char* home = std::getenv("HOME");
  std::error_code ec;
  if (home != nullptr && home[0] == '/' && std::filesystem::is_directory(home, ec)) {
    return std::string(home) + "/.config/fabrik-demo";
  }
  return std::nullopt;
}

std::string NoSettingsFolderReason() {
  const char* home = std::getenv("HOME");
  if (home == nullptr || home[0] != '/') return {};
  return "settings: $HOME (" + std::string(home) +
         ") is not an existing folder; settings are neither read nor saved";
}

SettingsRead ParseSettings(std::string_view text, const std::string& name) {
  SettingsRead read;
  const std::string prefix = "settings: " + name + " ";
  if (text.size() > kMaxSettingsBytes) {
    read.problem = prefix + "is larger than 1 MiB; ignored it, using the defaults";
    read.ignored_whole = true;
    return read;
  }
  bool too_deep = false;
  // Values nested too deep are dropped as they are parsed, so a hostile file never builds a
  // deep tree.
  const json::parser_callback_t limit = [&](int depth, json::parse_event_t, json&) {
    if (depth > kMaxDepth) too_deep = true;
    return depth <= kMaxDepth;
  };
  json root = json::parse(text.begin(), text.end(), limit, /*allow_exceptions=*/false);
  if (root.is_discarded()) {
    read.problem = prefix + "is not valid JSON; ignored it, using the defaults";
    read.ignored_whole = true;
    return read;
  }
  if (too_deep || !root.is_object()) {
    read.problem = prefix + "is not a settings object; ignored it, using the defaults";
    read.ignored_whole = true;
    return read;
  }
  Checker check{root, {}};
  Settings& s = read.settings;
  // Each command's value, checked by its own entry.
  for (const SettingRow& row : SettingsTable()) {
    const json* v = check.Get(row.key.c_str());
    if (v == nullptr) continue;
    Result<json> kept = row.check(*v);
    if (kept.ok()) {
      s.values[row.key] = std::move(kept.value());
    } else {
      check.Ignore(row.key.c_str(), kept.error());
    }
  }
  CheckCamera(check, s);
  CheckWindow(check, s);
  if (!check.ignored.empty()) {
    std::string list;
    for (const std::string& f : check.ignored) list += (list.empty() ? "" : ", ") + f;
    read.problem = prefix + "ignored " + list + "; kept the rest";
  }
  return read;
}

static SettingsRead ReadWholeSettingsFile(const std::string& path) {
  std::error_code ec;
  if (!std::filesystem::exists(path, ec)) return {};
  // A FIFO or device would block the start or never end: only a regular file is read.
  if (!std::filesystem::is_regular_file(path, ec)) {
    // Never replaced either: the settings writer refuses what is not a regular file.
    SettingsRead read;
    read.problem = "settings: " + path + " is not a regular file; ignored it, using the defaults";
    return read;
  }
  const auto size = std::filesystem::file_size(path, ec);
  if (!ec && size > kMaxSettingsBytes) {
    return Unread("settings: " + path + " is larger than 1 MiB; ignored it, using the defaults");
  }
  std::ifstream in(path, std::ios::binary);
  std::string text;
  // In chunks, stopping past the limit: a file that grew (or a device) is still bounded, and
  // a file of a few kilobytes does not cost a buffer of the limit's size.
  std::array<char, 16 * 1024> chunk;
  while (in && text.size() <= kMaxSettingsBytes) {
    in.read(chunk.data(), static_cast<std::streamsize>(chunk.size()));
    text.append(chunk.data(), static_cast<std::size_t>(in.gcount()));
  }
  if (!in && !in.eof()) {
    return Unread("settings: cannot read " + path + "; ignored it, using the defaults");
  }
  return ParseSettings(text, path);
}

SettingsRead ReadSettingsFile(const std::string& path) {
  SettingsRead read = ReadWholeSettingsFile(path);
  // A file that was there but not used is never replaced by what this session saves: it is
  // kept as settings.json.bak first (io/file_write.h, WriteOptions::back_up).
  if (read.ignored_whole) {
    read.unread = io::IdentifyFile(path);
    if (read.unread) read.problem += " (it is kept as " + path + ".bak when settings are saved)";
  }
  return read;
}

std::string SettingsJson(const Settings& s) {
  json j = json::object();
  j["version"] = 1;
  for (const auto& [key, value] : s.values) j[key] = value;
  if (s.camera) {
    j["camera"] = {{"pivot", {s.camera->pivot.x, s.camera->pivot.y, s.camera->pivot.z}},
                   {"yaw", s.camera->yaw},
                   {"pitch", s.camera->pitch},
                   {"distance", s.camera->distance}};
  }
  if (s.window_size || s.window_position) {
    json w = json::object();
    if (s.window_size) w["size"] = {s.window_size->x, s.window_size->y};
    if (s.window_position) w["position"] = {s.window_position->x, s.window_position->y};
    j["window"] = std::move(w);
  }
  // Non-finite floats cannot reach here (every field was checked or captured from a state
  // that holds none); "replace" keeps any invalid UTF-8 in a path from throwing.
  return j.dump(2, ' ', false, json::error_handler_t::replace) + "\n";
}

Status WriteSettingsFile(const std::string& path, const Settings& settings,
                         std::optional<io::FileId> keep) {
  namespace fs = std::filesystem;
  std::error_code ec;
  const fs::path target(path);
  if (target.has_parent_path()) fs::create_directories(target.parent_path(), ec);
  if (ec)
    return MakeError("settings: cannot create " + target.parent_path().string() + ": " +
                     ec.message());
  // Through a temporary file renamed over the target (a symlink is written through); the
  // file that could not be read is kept as a backup first.
  io::WriteOptions options;
  options.back_up = keep;
  const Status written = io::WriteFileAtomic(path, SettingsJson(settings), options);
  if (!written) return MakeError("settings: " + written.error());
  return Ok{};
}

}  // namespace fabrik
