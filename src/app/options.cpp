#include "app/options.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>
#include <optional>
#include <type_traits>
#include <utility>

#include "core/window_limits.h"
#include "ik/solver.h"
#include "lang/command.h"
#include "lang/text.h"

namespace fabrik {

std::optional<TargetMode> ParseMode(std::string_view name) {
  for (TargetMode m :
       {TargetMode::kDrag, TargetMode::kSpline, TargetMode::kConsole, TargetMode::kScript}) {
    if (name == ModeName(m)) return m;
  }
  return std::nullopt;
}

std::string EscapeControl(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (const char ch : text) {
    const auto c = static_cast<unsigned char>(ch);
    if (c == '\n') {
      out += "\\n";
    } else if (c == '\t') {
      out += "\\t";
    } else if (c == '\r') {
      out += "\\r";
    } else if (c < 0x20 || c == 0x7f) {
      char hex[8];
      std::snprintf(hex, sizeof hex, "\\x%02x", c);
      out += hex;
    } else {
      out += ch;
    }
  }
  return out;
}

namespace {

using OptError = std::optional<std::string>;

// The project's one number grammar (lang/text.h, docs/language.md: Numbers): plain decimal,
// no '+', no spaces, no hex, no thousands separators, the whole text used. NaN, inf and values
// T cannot hold are out of range, never wrapped.
enum class Parse { kOk, kMalformed, kOutOfRange };
template <typename T>
Parse ParseWhole(std::string_view word, T& out) {
  const text::Number n = std::is_integral_v<T> ? text::ParseInteger(word) : text::ParseReal(word);
  if (n.error == text::NumberError::kSyntax) return Parse::kMalformed;
  if (n.error != text::NumberError::kNone) return Parse::kOutOfRange;
  if constexpr (std::is_integral_v<T>) {
    // [min, -min): both bounds exact as doubles, unlike max.
    const double lo = static_cast<double>(std::numeric_limits<T>::min());
    if (!(n.value >= lo && n.value < -lo)) return Parse::kOutOfRange;
  } else if (!(std::fabs(n.value) <= static_cast<double>(std::numeric_limits<T>::max()))) {
    return Parse::kOutOfRange;
  }
  out = static_cast<T>(n.value);
  return Parse::kOk;
}

std::string Quote(std::string_view text) { return "'" + EscapeControl(text) + "'"; }

std::string Num(double v) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%g", v);
  return buffer;
}

// A decimal number in [lo, hi] (also written like 1e-3); `name` is the option.
template <typename T>
OptError ReadNumber(const std::string& name, const std::string& text, T lo, T hi, T& out) {
  T v{};
  const Parse result = ParseWhole(text, v);
  if (result == Parse::kMalformed) {
    return name + ": " + Quote(text) + " is not a " +
           (std::is_integral_v<T> ? "whole number" : "decimal number");
  }
  if (result == Parse::kOutOfRange || !(v >= lo && v <= hi)) {  // NaN and inf fail here too
    return name + ": " + Quote(text) + " is out of range (" + Num(double(lo)) + " to " +
           Num(double(hi)) + ")";
  }
  out = v;
  return std::nullopt;
}

// A decimal number within `range` (lang/number_range.h), as the float kept.
OptError ReadInRange(const std::string& name, const std::string& text, const NumberRange& range,
                     float& out) {
  double v = 0.0;
  const Parse result = ParseWhole(text, v);
  if (result == Parse::kMalformed) return name + ": " + Quote(text) + " is not a decimal number";
  if (result == Parse::kOutOfRange || !range.Contains(v)) {
    return name + ": " + Quote(text) + " is out of range (" + std::string(range.text) + ")";
  }
  out = static_cast<float>(v);
  return std::nullopt;
}

// The solver library's names (ik/solver.h), joined by `sep`: "fabrik|ccd|...".
std::string SolverList(std::string_view sep) {
  std::string out;
  for (SolverKind kind : AllSolvers())
    out += (out.empty() ? "" : std::string(sep)) + SolverName(kind);
  return out;
}

// "A,B,C" -> lengths, each in [kMinLength, kMaxLength]; no empty item.
OptError ParseLengths(const std::string& text, std::vector<float>& out) {
  out.clear();
  if (text.empty()) return std::string("--lengths: expected A,B,C,... with at least one length");
  std::size_t start = 0;
  for (int index = 1;; ++index) {
    const std::size_t comma = text.find(',', start);
    const std::string item =
        text.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
    if (item.empty()) {
      return "--lengths: item " + std::to_string(index) + " is empty in " + Quote(text);
    }
    float v = 0.0f;
    if (auto e = ReadNumber("--lengths", item, kMinLength, kMaxLength, v)) return e;
    out.push_back(v);
    if (out.size() > 9999) return std::string("--lengths: at most 9999 segments");
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  return std::nullopt;
}

// "WxH", each a whole number, within kMinWindowSize .. kMaxWindowSize.
OptError ParseSize(const std::string& size, int& width, int& height) {
  const std::size_t x = size.find_first_of("xX");
  long long w = 0, h = 0;
  const Parse pw = x == std::string::npos ? Parse::kMalformed
                                          : ParseWhole(std::string_view(size).substr(0, x), w);
  const Parse ph = x == std::string::npos ? Parse::kMalformed
                                          : ParseWhole(std::string_view(size).substr(x + 1), h);
  if (pw == Parse::kMalformed || ph == Parse::kMalformed) {
    return "--size: expected WxH such as 1280x800, got " + Quote(size);
  }
  if (pw != Parse::kOk || ph != Parse::kOk || w < kMinWindowSize.x || h < kMinWindowSize.y ||
      w > kMaxWindowSize.x || h > kMaxWindowSize.y) {
    return "--size: " + Quote(size) + " is out of range (" + std::to_string(kMinWindowSize.x) +
           "x" + std::to_string(kMinWindowSize.y) + " to " + std::to_string(kMaxWindowSize.x) +
           "x" + std::to_string(kMaxWindowSize.y) + ")";
  }
  width = static_cast<int>(w);
  height = static_cast<int>(h);
  return std::nullopt;
}

// Whether the demo will be able to write `path` when it needs to (the state stream at start,
// the screenshot at the end): checked now so a typo fails before any window opens. An
// existing regular file is opened for writing without truncating it; for a new file the folder
// must exist and be writable (nothing is created). A FIFO or socket is refused (opening it
// could block the start for ever); a character device (/dev/null) only where `device_ok`.
OptError CheckWritable(const std::string& name, const std::string& path, bool device_ok) {
  if (path.empty()) return name + ": empty path";
  struct stat st {};
  if (::stat(path.c_str(), &st) == 0) {
    if (S_ISDIR(st.st_mode)) return name + ": " + Quote(path) + " is a directory";
    if (S_ISCHR(st.st_mode) && device_ok) return std::nullopt;
    if (!S_ISREG(st.st_mode)) {
      return name + ": " + Quote(path) + " is not a regular file" +
             (device_ok ? " or a character device" : "");
    }
    const int fd = ::open(path.c_str(), O_WRONLY | O_NOCTTY | O_CLOEXEC);
    if (fd < 0) return name + ": cannot write " + Quote(path) + ": " + std::strerror(errno);
    ::close(fd);
    return std::nullopt;
  }
  if (errno != ENOENT) return name + ": cannot write " + Quote(path) + ": " + std::strerror(errno);
  const std::size_t slash = path.find_last_of('/');
  const std::string folder =
      slash == std::string::npos ? "." : (slash == 0 ? "/" : path.substr(0, slash));
  if (slash != std::string::npos && slash + 1 == path.size()) {
    return name + ": " + Quote(path) + " names a folder, not a file";
  }
  if (::stat(folder.c_str(), &st) != 0 || !S_ISDIR(st.st_mode)) {
    return name + ": cannot write " + Quote(path) + ": folder " + Quote(folder) + " does not exist";
  }
  if (::access(folder.c_str(), W_OK | X_OK) != 0) {
    return name + ": cannot write " + Quote(path) + ": " + std::strerror(errno);
  }
  return std::nullopt;
}

// An existing folder the demo may write into (nothing is created).
OptError CheckFolder(const std::string& name, const std::string& path) {
  if (path.empty()) return name + ": empty path";
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) {
    return name + ": " + Quote(path) + ": " + std::strerror(errno);
  }
  if (!S_ISDIR(st.st_mode)) return name + ": " + Quote(path) + " is not a folder";
  if (::access(path.c_str(), W_OK | X_OK) != 0) {
    return name + ": cannot write in " + Quote(path) + ": " + std::strerror(errno);
  }
  return std::nullopt;
}

// An output that is one of the inputs, or another output, would overwrite it: `--script F
// --state-out F` would empty the script before it is read. Compared by file identity, so a
// link or another spelling of the same path is caught too; a character device (/dev/null)
// may be named twice.
OptError OutputOverwritesInput(const Options& o) {
  using Named = std::pair<const char*, const std::string*>;
  const Named inputs[] = {{"--script", &o.script_path},
                          {"--spline", &o.spline_path},
                          {"--terrain", &o.terrain_path},
                          {"--bvh", &o.bvh_path}};
  const Named outputs[] = {{"--state-out", &o.state_out_path},
                           {"--screenshot", &o.screenshot_path},
                           {"--export", &o.export_path}};
  auto regular_id = [](const std::string& path) -> std::optional<std::pair<dev_t, ino_t>> {
    struct stat st {};
    if (path.empty() || ::stat(path.c_str(), &st) != 0 || !S_ISREG(st.st_mode)) return {};
    return std::make_pair(st.st_dev, st.st_ino);
  };
  for (std::size_t i = 0; i < std::size(outputs); ++i) {
    const auto [out_name, out_path] = outputs[i];
    const auto out_id = regular_id(*out_path);
    if (!out_id) continue;
    for (const auto& [in_name, in_path] : inputs) {
      if (regular_id(*in_path) == out_id) {
        return std::string(out_name) + ": " + Quote(*out_path) + " is the file " + in_name +
               " reads; writing it would overwrite it";
      }
    }
    for (std::size_t k = i + 1; k < std::size(outputs); ++k) {
      if (regular_id(*outputs[k].second) == out_id) {
        return std::string(outputs[k].first) + ": " + Quote(*outputs[k].second) + " is the file " +
               out_name + " writes";
      }
    }
  }
  return std::nullopt;
}

OptError NoControl(const std::string& name, const std::string& text) {
  for (const char ch : text) {
    const auto c = static_cast<unsigned char>(ch);
    if (c < 0x20 || c == 0x7f) return name + ": " + Quote(text) + " contains a control character";
  }
  return std::nullopt;
}

}  // namespace

ParsedOptions ParseOptions(int argc, char** argv, std::span<const std::string_view> scenes) {
  ParsedOptions parsed;
  Options& o = parsed.options;
  CLI::App app{"fabrik-demo: interactive FABRIK inverse kinematics"};
  app.get_formatter()->column_width(34);
  // Numbers are taken as text and read strictly here (ReadNumber): plain decimal only, and
  // range errors that print the limits as docs/options.md states them.
  std::string mode, size, lengths, solver, scene, joints, length, moe, iterations, fixed_dt, frames,
      msaa, chains, terrain_size, terrain_height, bvh_scale, characters;
  app.add_option("--mode", mode, "target mode at start: drag|spline|console|script");
  app.add_option("--spline", o.spline_path, "load this spline file at start");
  app.add_option("--script", o.script_path, "load this script file at start");
  app.add_option("--joints", joints, "joint count, root included (2..10000)");
  app.add_option("--length", length, "every segment has this length (0.0001 <= L <= 1000)");
  app.add_option("--lengths", lengths, "per-segment lengths A,B,C,... (each 0.0001 to 1000)");
  app.add_option("--moe", moe,
                 "margin of error, world units (" + RangeAround(kMoeRange, "E") + ")");
  app.add_option("--max-iterations", iterations, "iteration cap per solve (1..100000)");
  app.add_option("--size", size, "window size WxH in screen coordinates");
  bool no_vsync = false;
  app.add_flag("--no-vsync", no_vsync, "render as fast as possible");
  app.add_option("--fixed-dt", fixed_dt, "advance simulated time by S seconds a frame (1e-6..1)");
  app.add_option("--frames", frames, "quit after N frames (1..1000000000)");
  app.add_option("--screenshot", o.screenshot_path, "write the last frame as PNG");
  app.add_option("--state-out", o.state_out_path, "write one JSON line per frame");
  std::string scene_list;
  for (std::string_view n : scenes) scene_list += (scene_list.empty() ? "" : "|") + std::string(n);
  app.add_option("--scene", scene, "scene at start: " + scene_list);
  app.add_option("--chains", chains, "chains in the field scene (1..100000, default 10000)");
  app.add_option("--terrain", o.terrain_path, "the walker's ground: an 8/16-bit gray PNG");
  app.add_option("--terrain-size", terrain_size,
                 "side S of the terrain square (0.001 <= S <= 1e5)");
  app.add_option("--terrain-height", terrain_height, "height H of white (0 <= H <= 1e4)");
  app.add_option("--bvh", o.bvh_path, "the mocap scene's clip: a BVH file (implies --scene mocap)");
  app.add_option("--bvh-scale", bvh_scale, "metres per BVH file unit (1e-6..1000; default: auto)");
  app.add_option("--characters", characters,
                 "characters in the crowd scene (1..5000, default 100)");
  app.add_option("--solver", solver, "solver at start: " + SolverList("|"));
  app.add_option("--exec", o.exec, "run a console command at start (repeatable)")
      ->allow_extra_args(false);
  app.add_option("--export", o.export_path,
                 "bake the mocap scene's clip to this BVH file and exit (no window)");
  app.add_flag("--hidden", o.hidden, "do not show the window (headless rendering)");
  app.add_option("--msaa", msaa, "multisample anti-aliasing samples: 0, 2, 4 or 8");
  app.add_flag("--no-settings", o.no_settings,
               "neither read nor write the saved settings (~/.config/fabrik-demo)");
  app.add_option("--screenshot-dir", o.screenshot_dir,
                 "folder for F12 screenshots (default: the working directory)");

  auto fail = [&](const std::string& message) {
    // One line whatever the user typed: control characters are shown escaped.
    std::string line = EscapeControl(message);
    while (!line.empty() && (line.back() == ' ' || line.back() == '.')) line.pop_back();
    parsed.error = line + " (see --help)";
    std::fprintf(stderr, "fabrik-demo: %s\n", parsed.error.c_str());
    parsed.exit_code = 2;
    return parsed;
  };
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp&) {
    std::printf("%s", app.help().c_str());
    parsed.exit_code = 0;
    return parsed;
  } catch (const CLI::ParseError& e) {
    std::string what = e.what();
    while (!what.empty() && what.back() == '\n') what.pop_back();
    return fail(what);
  }

  if (!mode.empty() && !ParseMode(mode)) {
    return fail("--mode: " + Quote(mode) + " is not one of drag, spline, console, script");
  }
  if (!joints.empty()) {
    if (auto e = ReadNumber("--joints", joints, 2, 10000, o.joints)) return fail(*e);
  }
  // Strictly, like every number: "0x10", "+5", "nan" and "inf" are refused.
  if (app.count("--chains")) {
    if (auto e = ReadNumber("--chains", chains, 1, 100000, o.chains)) return fail(*e);
  }
  if (app.count("--terrain-size")) {
    if (auto e = ReadNumber("--terrain-size", terrain_size, 1e-3f, 1e5f, o.terrain_size)) {
      return fail(*e);
    }
  }
  if (app.count("--terrain-height")) {
    if (auto e = ReadNumber("--terrain-height", terrain_height, 0.0f, 1e4f, o.terrain_height)) {
      return fail(*e);
    }
  }
  if (app.count("--bvh-scale")) {
    if (auto e = ReadNumber("--bvh-scale", bvh_scale, 1e-6f, 1e3f, o.bvh_scale)) return fail(*e);
  }
  if (app.count("--characters")) {
    if (auto e = ReadNumber("--characters", characters, 1, 5000, o.characters)) return fail(*e);
  }
  if (app.count("--bvh")) {
    if (o.bvh_path.empty()) return fail("--bvh: empty path");
    if (auto e = NoControl("--bvh", o.bvh_path)) return fail(*e);
    if (!app.count("--scene")) o.scene = "mocap";  // a clip is for the mocap scene
  }
  if (app.count("--length")) {
    if (auto e = ReadNumber("--length", length, kMinLength, kMaxLength, o.length)) return fail(*e);
  }
  if (app.count("--moe")) {
    if (auto e = ReadInRange("--moe", moe, kMoeRange, o.moe)) return fail(*e);
  }
  if (app.count("--max-iterations")) {
    if (auto e = ReadNumber("--max-iterations", iterations, 1, 100000, o.max_iterations)) {
      return fail(*e);
    }
  }
  if (app.count("--fixed-dt")) {
    if (auto e = ReadNumber("--fixed-dt", fixed_dt, 1e-6, 1.0, o.fixed_dt)) return fail(*e);
  }
  if (app.count("--frames")) {
    if (auto e = ReadNumber("--frames", frames, 1L, 1000000000L, o.frames)) return fail(*e);
  }
  if (app.count("--msaa")) {
    if (ParseWhole(msaa, o.msaa) != Parse::kOk ||
        (o.msaa != 0 && o.msaa != 2 && o.msaa != 4 && o.msaa != 8)) {
      return fail("--msaa: " + Quote(msaa) + " is not one of 0, 2, 4, 8");
    }
  }
  o.vsync = !no_vsync;
  if (app.count("--lengths")) {
    if (auto error = ParseLengths(lengths, o.lengths)) return fail(*error);
    if (app.count("--joints") && o.joints != static_cast<int>(o.lengths.size()) + 1) {
      return fail("--joints " + std::to_string(o.joints) + " disagrees with --lengths (" +
                  std::to_string(o.lengths.size()) + " segments)");
    }
    o.joints = static_cast<int>(o.lengths.size()) + 1;
  }
  // The field's chains take --joints (or --lengths' count) when given, else 10 joints each.
  if (app.count("--joints") || !o.lengths.empty()) o.field_joints = o.joints;
  // Checked when the field starts; `scene field` later refuses a too-large shape by itself.
  if (scene == "field" && static_cast<long>(o.chains) * o.field_joints > 2000000L) {
    return fail("--chains " + std::to_string(o.chains) + " x " + std::to_string(o.field_joints) +
                " joints is more than the field's 2000000 joints");
  }
  if (app.count("--size")) {
    if (auto error = ParseSize(size, o.width, o.height)) return fail(*error);
  }
  if (app.count("--scene")) {
    if (std::find(scenes.begin(), scenes.end(), scene) == scenes.end()) {
      std::string known;
      for (std::string_view n : scenes) known += (known.empty() ? "" : ", ") + std::string(n);
      return fail("--scene: unknown scene " + Quote(scene) + " (" + known + ")");
    }
    o.scene = scene;
  }
  if (app.count("--solver")) {
    if (!ParseSolverKind(solver)) {
      return fail("--solver: unknown solver " + Quote(solver) + " (" + SolverList(", ") + ")");
    }
    o.solver = solver;
  }
  for (const auto& [name, path] :
       {std::pair<const char*, const std::string*>{"--spline", &o.spline_path},
        {"--script", &o.script_path}}) {
    if (app.count(name)) {
      if (path->empty()) return fail(std::string(name) + ": empty path");
      if (auto e = NoControl(name, *path)) return fail(*e);
    }
  }
  for (const auto& [name, path] :
       {std::pair<const char*, const std::string*>{"--screenshot", &o.screenshot_path},
        {"--state-out", &o.state_out_path},
        {"--export", &o.export_path}}) {
    if (app.count(name)) {
      if (auto e = NoControl(name, *path)) return fail(*e);
      // A stream may be a device; a PNG or a BVH file is renamed in place.
      const bool device_ok = path == &o.state_out_path;
      if (auto e = CheckWritable(name, *path, device_ok)) return fail(*e);
    }
  }
  if (auto e = OutputOverwritesInput(o)) return fail(*e);
  // A headless export depends on the command line alone: no saved settings read or written.
  if (app.count("--export")) o.no_settings = true;
  if (app.count("--screenshot-dir")) {
    if (auto e = NoControl("--screenshot-dir", o.screenshot_dir)) return fail(*e);
    if (auto e = CheckFolder("--screenshot-dir", o.screenshot_dir)) return fail(*e);
  }
  for (const CLI::Option* option : app.get_options()) {
    if (option->count() > 0 && !option->get_lnames().empty()) {
      o.given.push_back("--" + option->get_lnames().front());
    }
  }
  for (std::size_t i = 0; i < o.exec.size(); ++i) {
    if (auto e = NoControl("--exec", o.exec[i])) return fail(*e);
  }
  if (!mode.empty()) {
    o.mode = *ParseMode(mode);
    o.mode_given = true;
  } else if (!o.script_path.empty()) {
    o.mode = TargetMode::kScript;
  } else if (!o.spline_path.empty()) {
    o.mode = TargetMode::kSpline;
  }
  return parsed;
}

}  // namespace fabrik
