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
#include <memory>
#include <optional>
#include <type_traits>
#include <utility>
#include <vector>

#include "core/window_limits.h"
#include "ik/solver.h"
#include "io/writable_path.h"
#include "lang/command.h"
#include "lang/text.h"
#include "terrain/heightmap.h"

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
  using Kind = io::WritablePath::Kind;
  const io::WritablePath at = io::InspectWritablePath(path);
  switch (at.kind) {
    case Kind::kEmpty:
      return name + ": empty path";
    case Kind::kFolder:
      return name + ": " + Quote(path) + " is a directory";
    case Kind::kCharDevice:
    case Kind::kOther:
      if (at.kind == Kind::kCharDevice && device_ok) return std::nullopt;
      return name + ": " + Quote(path) + " is not a regular file" +
             (device_ok ? " or a character device" : "");
    case Kind::kRegular: {
      const int fd = ::open(path.c_str(), O_WRONLY | O_NOCTTY | O_CLOEXEC);
      if (fd < 0) return name + ": cannot write " + Quote(path) + ": " + std::strerror(errno);
      ::close(fd);
      return std::nullopt;
    }
    case Kind::kStatError:
      return name + ": cannot write " + Quote(path) + ": " + std::strerror(at.error);
    case Kind::kMissing:
      break;
  }
  if (at.trailing_slash) return name + ": " + Quote(path) + " names a folder, not a file";
  if (!at.folder_exists) {
    return name + ": cannot write " + Quote(path) + ": folder " + Quote(at.folder) +
           " does not exist";
  }
  if (at.folder_error != 0) {
    return name + ": cannot write " + Quote(path) + ": " + std::strerror(at.folder_error);
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
  std::vector<Named> inputs = {
      {"--script", &o.script_path}, {"--spline", &o.spline_path}, {"--terrain", &o.terrain_path}};
  for (const SceneOptionValue& v : o.scene_options.all()) {
    if (!v.text.empty()) inputs.push_back({v.name.c_str(), &v.text});  // a scene's files
  }
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

namespace {

// What is done with an option's value once CLI11 has split the command line.
enum class Use {
  kFlag,    // a bool set by its presence
  kRead,    // text read strictly by the row's `read` (numbers, the size, the mode, ...)
  kInput,   // a file read at start: no control character, not empty
  kOutput,  // a file written (renamed into place): writable now
  kStream,  // the state stream: writable now, a character device too
  kFolder,  // an existing writable folder
  kLines,   // --exec: console lines, no control character
  kScene,   // a scene's own option (core/scene_options.h), read by its kind
};

// One option of the demo's command line, in the order --help lists them.
struct OptionRow {
  std::string name;
  std::string help;
  Use use;
  // kRead: checks `text` and stores it in `o`, or says why not (naming the option).
  OptError (*read)(const std::string& text, Options& o) = nullptr;
  std::string Options::*path = nullptr;  // kInput, kOutput, kStream, kFolder
  bool Options::*flag = nullptr;         // kFlag: set to `flag_value` when given
  bool flag_value = true;
  const SceneOption* scene = nullptr;  // kScene: the scene's row
};

// "2..10000": a whole-number range for the help text.
std::string Dots(const NumberRange& range) { return Num(range.lowest) + ".." + Num(range.highest); }

template <class T>
OptError ReadIn(const char* name, const std::string& text, const NumberRange& range, T& out) {
  return ReadNumber(name, text, static_cast<T>(range.lowest), static_cast<T>(range.highest), out);
}

// The app's option table (docs/options.md): one row per option, so longer than 100 lines. The
// scenes' own rows (SceneEntry::options) follow the terrain's (ParseOptions inserts them). The
// terrain's numbers take their bounds from Heightmap's, as `terrain load` does; the terrain is
// the core's (AppState::terrain), shared by every scene that stands on it, so its rows are
// here rather than one scene's.
std::vector<OptionRow> OptionRows(const std::string& scene_list) {
  using O = Options;
  return {
      {"--mode", "target mode at start: drag|spline|console|script", Use::kRead,
       [](const std::string& t, O& o) -> OptError {
         if (const auto m = ParseMode(t)) {
           o.mode = *m;
           o.mode_given = true;
           return std::nullopt;
         }
         return "--mode: " + Quote(t) + " is not one of drag, spline, console, script";
       }},
      {"--spline", "load this spline file at start", Use::kInput, nullptr, &O::spline_path},
      {"--script", "load this script file at start", Use::kInput, nullptr, &O::script_path},
      {"--joints", "joint count, root included (" + Dots(kJointsRange) + ")", Use::kRead,
       [](const std::string& t, O& o) { return ReadIn("--joints", t, kJointsRange, o.joints); }},
      {"--length", "every segment has this length (0.0001 <= L <= 1000)", Use::kRead,
       [](const std::string& t, O& o) {
         return ReadIn("--length", t, kSegmentLengthRange, o.length);
       }},
      {"--lengths", "per-segment lengths A,B,C,... (each 0.0001 to 1000)", Use::kRead,
       [](const std::string& t, O& o) { return ParseLengths(t, o.lengths); }},
      {"--moe", "margin of error, world units (" + RangeAround(kMoeRange, "E") + ")", Use::kRead,
       [](const std::string& t, O& o) { return ReadInRange("--moe", t, kMoeRange, o.moe); }},
      {"--max-iterations", "iteration cap per solve (" + Dots(kIterationsRange) + ")", Use::kRead,
       [](const std::string& t, O& o) {
         return ReadIn("--max-iterations", t, kIterationsRange, o.max_iterations);
       }},
      {"--size", "window size WxH in screen coordinates", Use::kRead,
       [](const std::string& t, O& o) { return ParseSize(t, o.width, o.height); }},
      {"--no-vsync", "render as fast as possible", Use::kFlag, nullptr, nullptr, &O::vsync, false},
      {"--fixed-dt", "advance simulated time by S seconds a frame (1e-6..1)", Use::kRead,
       [](const std::string& t, O& o) {
         return ReadNumber("--fixed-dt", t, 1e-6, 1.0, o.fixed_dt);
       }},
      {"--frames", "quit after N frames (1..1000000000)", Use::kRead,
       [](const std::string& t, O& o) {
         return ReadNumber("--frames", t, 1L, 1000000000L, o.frames);
       }},
      {"--screenshot", "write the last frame as PNG", Use::kOutput, nullptr, &O::screenshot_path},
      {"--state-out", "write one JSON line per frame", Use::kStream, nullptr, &O::state_out_path},
      {"--scene", "scene at start: " + scene_list, Use::kRead,
       [](const std::string& t, O& o) -> OptError {
         o.scene = t;  // checked against the registry's names below
         return std::nullopt;
       }},
      {"--terrain", "the ground of the walker, mocap and crowd scenes: an 8/16-bit gray PNG", Use::kInput, nullptr,
       &O::terrain_path},
      {"--terrain-size", "side S of the terrain square (0.001 <= S <= 1e5)", Use::kRead,
       [](const std::string& t, O& o) {
         return ReadNumber("--terrain-size", t, Heightmap::kMinSize, Heightmap::kMaxSize,
                           o.terrain_size);
       }},
      {"--terrain-height", "height H of white (0 <= H <= 1e4)", Use::kRead,
       [](const std::string& t, O& o) {
         return ReadNumber("--terrain-height", t, 0.0f, Heightmap::kMaxHeight, o.terrain_height);
       }},
      {"--solver", "solver at start: " + SolverList("|"), Use::kRead,
       [](const std::string& t, O& o) -> OptError {
         if (!ParseSolverKind(t)) {
           return "--solver: unknown solver " + Quote(t) + " (" + SolverList(", ") + ")";
         }
         o.solver = t;
         return std::nullopt;
       }},
      {"--exec", "run a console command at start (repeatable)", Use::kLines},
      {"--export", "bake the mocap scene's clip to this BVH file and exit (no window)",
       Use::kOutput, nullptr, &O::export_path},
      {"--hidden", "do not show the window (headless rendering)", Use::kFlag, nullptr, nullptr,
       &O::hidden},
      {"--msaa", "multisample anti-aliasing samples: 0, 2, 4 or 8", Use::kRead,
       [](const std::string& t, O& o) -> OptError {
         if (ParseWhole(t, o.msaa) != Parse::kOk ||
             (o.msaa != 0 && o.msaa != 2 && o.msaa != 4 && o.msaa != 8)) {
           return "--msaa: " + Quote(t) + " is not one of 0, 2, 4, 8";
         }
         return std::nullopt;
       }},
      {"--no-settings", "neither read nor write the saved settings (~/.config/fabrik-demo)",
       Use::kFlag, nullptr, nullptr, &O::no_settings},
      {"--screenshot-dir", "folder for F12 screenshots (default: the working directory)",
       Use::kFolder, nullptr, &O::screenshot_dir},
  };
}

// A number within a scene option's bounds, read as the int or float the scene keeps.
template <class T>
OptError ReadSceneNumber(const SceneOption& row, const std::string& name, const std::string& text,
                         SceneOptionValues& values) {
  T v{};
  if (auto e = ReadNumber(name, text, static_cast<T>(row.lowest), static_cast<T>(row.highest), v)) {
    return e;
  }
  values.SetNumber(name, v);
  return std::nullopt;
}

// A scene's option by its kind (core/scene_options.h): a number within the row's bounds, as
// the int or float the scene keeps, or a path. The file itself is checked at start.
OptError ReadSceneOption(const SceneOption& row, const std::string& text,
                         SceneOptionValues& values) {
  const std::string name(row.name);
  switch (row.kind) {
    case SceneOptionKind::kWhole:
      return ReadSceneNumber<int>(row, name, text, values);
    case SceneOptionKind::kDecimal:
      return ReadSceneNumber<float>(row, name, text, values);
    case SceneOptionKind::kInput:
      if (text.empty()) return name + ": empty path";
      if (auto e = NoControl(name, text)) return e;
      values.SetText(name, text);
      return std::nullopt;
  }
  return std::nullopt;
}

// Checks one option given on the command line, in the table's order; `text` holds what
// CLI11 read for a kRead row.
OptError CheckRow(const OptionRow& row, const std::string& text, Options& o) {
  switch (row.use) {
    case Use::kFlag:
      o.*row.flag = row.flag_value;
      return std::nullopt;
    case Use::kRead:
      return row.read(text, o);
    case Use::kLines:
      for (const std::string& line : o.exec) {
        if (auto e = NoControl(row.name, line)) return e;
      }
      return std::nullopt;
    case Use::kInput:
      if ((o.*row.path).empty()) return std::string(row.name) + ": empty path";
      return NoControl(row.name, o.*row.path);
    case Use::kOutput:
    case Use::kStream:
      if (auto e = NoControl(row.name, o.*row.path)) return e;
      // A stream may be a device; a PNG or a BVH file is renamed in place.
      return CheckWritable(row.name, o.*row.path, row.use == Use::kStream);
    case Use::kFolder:
      if (auto e = NoControl(row.name, o.*row.path)) return e;
      return CheckFolder(row.name, o.*row.path);
    case Use::kScene:
      return ReadSceneOption(*row.scene, text, o.scene_options);
  }
  return std::nullopt;
}

// What the options say together, once each has been read: --lengths against --joints, the
// scene (given, or implied by an option such as --bvh) and its own check, the outputs
// against the inputs, and the mode a file implies.
OptError CheckTogether(const CLI::App& app, std::span<const OptionScene> scenes, Options& o) {
  if (app.count("--lengths")) {
    if (app.count("--joints") && o.joints != static_cast<int>(o.lengths.size()) + 1) {
      return "--joints " + std::to_string(o.joints) + " disagrees with --lengths (" +
             std::to_string(o.lengths.size()) + " segments)";
    }
    o.joints = static_cast<int>(o.lengths.size()) + 1;
  }
  if (app.count("--scene")) {
    auto known = [&](const OptionScene& s) { return s.name == o.scene; };
    if (std::none_of(scenes.begin(), scenes.end(), known)) {
      std::string names;
      for (const OptionScene& s : scenes)
        names += (names.empty() ? "" : ", ") + std::string(s.name);
      return "--scene: unknown scene " + Quote(o.scene) + " (" + names + ")";
    }
  } else {
    for (const OptionScene& s : scenes) {
      for (const SceneOption& option : s.options) {
        if (option.implies_scene && app.count(std::string(option.name))) o.scene = s.name;
      }
    }
  }
  for (const OptionScene& s : scenes) {
    if (s.name != o.scene || s.check == nullptr) continue;
    const std::string problem = s.check(o);
    if (!problem.empty()) return problem;
  }
  if (auto e = OutputOverwritesInput(o)) return e;
  // A headless export depends on the command line alone: no saved settings read or written.
  if (app.count("--export")) o.no_settings = true;
  if (!o.mode_given) {
    if (!o.script_path.empty()) {
      o.mode = TargetMode::kScript;
    } else if (!o.spline_path.empty()) {
      o.mode = TargetMode::kSpline;
    }
  }
  return std::nullopt;
}

// The app's rows with every scene's own after the terrain's, in the registry's order: a scene's
// options stand together in --help.
std::vector<OptionRow> AllOptionRows(const std::string& scene_list,
                                     std::span<const OptionScene> scenes) {
  std::vector<OptionRow> rows = OptionRows(scene_list);
  auto at = std::find_if(rows.begin(), rows.end(),
                         [](const OptionRow& row) { return row.name == "--terrain-height"; });
  std::vector<OptionRow> own;
  for (const OptionScene& s : scenes) {
    for (const SceneOption& option : s.options) {
      OptionRow row{std::string(option.name), std::string(option.help), Use::kScene};
      row.scene = &option;
      own.push_back(std::move(row));
    }
  }
  rows.insert(at == rows.end() ? at : at + 1, own.begin(), own.end());
  return rows;
}

}  // namespace

ParsedOptions ParseOptions(int argc, char** argv, std::span<const OptionScene> scenes) {
  ParsedOptions parsed;
  Options& o = parsed.options;
  CLI::App app{"fabrik-demo: interactive FABRIK inverse kinematics"};
  app.get_formatter()->column_width(34);
  std::string scene_list;
  for (const OptionScene& s : scenes)
    scene_list += (scene_list.empty() ? "" : "|") + std::string(s.name);
  const std::vector<OptionRow> rows = AllOptionRows(scene_list, scenes);
  // kRead values are taken as text and read strictly after parsing (ReadNumber): plain decimal
  // only, and range errors that print the limits as docs/options.md states them.
  std::vector<std::string> texts(rows.size());
  auto given = std::make_unique<bool[]>(rows.size());  // a flag's presence (CheckRow sets it)
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const OptionRow& row = rows[i];
    if (row.use == Use::kFlag) {
      app.add_flag(row.name, given[i], row.help);
    } else if (row.use == Use::kRead || row.use == Use::kScene) {
      app.add_option(row.name, texts[i], row.help);
    } else if (row.use == Use::kLines) {
      app.add_option(row.name, o.exec, row.help)->allow_extra_args(false);
    } else {
      app.add_option(row.name, o.*row.path, row.help);
    }
  }
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
  for (std::size_t i = 0; i < rows.size(); ++i) {
    if (app.count(rows[i].name) == 0) continue;
    if (auto e = CheckRow(rows[i], texts[i], o)) return fail(*e);
    o.given.push_back(rows[i].name);
  }
  if (auto e = CheckTogether(app, scenes, o)) return fail(*e);
  return parsed;
}

}  // namespace fabrik
