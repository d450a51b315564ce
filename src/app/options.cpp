#include "app/options.h"

#include <CLI/CLI.hpp>
#include <cmath>
#include <cstdio>
#include <sstream>

namespace fabrik {

std::optional<TargetMode> ParseMode(std::string_view name) {
  for (TargetMode m :
       {TargetMode::kDrag, TargetMode::kSpline, TargetMode::kConsole, TargetMode::kScript}) {
    if (name == ModeName(m)) return m;
  }
  return std::nullopt;
}

namespace {

// "A,B,C" -> floats; each must be finite and in (0, 1000].
std::optional<std::string> ParseLengths(const std::string& text, std::vector<float>& out) {
  std::stringstream in(text);
  std::string item;
  out.clear();
  while (std::getline(in, item, ',')) {
    char* end = nullptr;
    const float v = std::strtof(item.c_str(), &end);
    if (item.empty() || end == item.c_str() || *end != '\0') {
      return "--lengths: '" + item + "' is not a number";
    }
    if (!std::isfinite(v) || v <= 0.0f || v > 1000.0f) {
      return "--lengths: " + item + " is out of range (0, 1000]";
    }
    out.push_back(v);
  }
  if (out.empty()) return std::string("--lengths: expected A,B,C,... with at least one length");
  if (out.size() > 9999) return std::string("--lengths: at most 9999 segments");
  return std::nullopt;
}

}  // namespace

ParsedOptions ParseOptions(int argc, char** argv) {
  ParsedOptions parsed;
  Options& o = parsed.options;
  CLI::App app{"fabrik-demo: interactive FABRIK inverse kinematics"};
  app.get_formatter()->column_width(34);
  std::string mode, size, lengths, solver, scene;
  app.add_option("--mode", mode, "target mode at start: drag|spline|console|script")
      ->check(CLI::IsMember({"drag", "spline", "console", "script"}));
  app.add_option("--spline", o.spline_path, "load this spline file at start");
  app.add_option("--script", o.script_path, "load this script file at start");
  app.add_option("--joints", o.joints, "joint count, root included (2..10000)")
      ->check(CLI::Range(2, 10000));
  app.add_option("--length", o.length, "every segment has this length (0 < L <= 1000)")
      ->check(CLI::Range(1e-6f, 1000.0f));
  app.add_option("--lengths", lengths, "per-segment lengths A,B,C,...");
  app.add_option("--moe", o.moe, "margin of error, world units (0 < E <= 100)")
      ->check(CLI::Range(1e-7f, 100.0f));
  app.add_option("--max-iterations", o.max_iterations, "iteration cap per solve (1..100000)")
      ->check(CLI::Range(1, 100000));
  app.add_option("--size", size, "window size WxH in screen coordinates");
  bool no_vsync = false;
  app.add_flag("--no-vsync", no_vsync, "render as fast as possible");
  app.add_option("--fixed-dt", o.fixed_dt, "advance simulated time by S seconds a frame")
      ->check(CLI::Range(1e-6, 1.0));
  app.add_option("--frames", o.frames, "quit after N frames")->check(CLI::Range(1L, 1000000000L));
  app.add_option("--screenshot", o.screenshot_path, "write the last frame as PNG");
  app.add_option("--state-out", o.state_out_path, "write one JSON line per frame");
  app.add_option("--scene", scene, "scene at start: chain|arm|creature|walker");
  app.add_option("--terrain", o.terrain_path, "the walker's ground: an 8/16-bit gray PNG");
  app.add_option("--terrain-size", o.terrain_size, "side S of the terrain square (0 < S <= 1e5)")
      ->check(CLI::Range(1e-3f, 1e5f));
  app.add_option("--terrain-height", o.terrain_height, "height H of white (0 <= H <= 1e4)")
      ->check(CLI::Range(0.0f, 1e4f));
  app.add_option("--solver", solver, "solver at start: fabrik|ccd|jacobian_transpose|dls");
  app.add_option("--exec", o.exec, "run a console command at start (repeatable)")
      ->allow_extra_args(false);
  app.add_flag("--hidden", o.hidden, "do not show the window (headless rendering)");
  app.add_option("--msaa", o.msaa, "multisample anti-aliasing samples: 0, 2, 4 or 8")
      ->check(CLI::IsMember({0, 2, 4, 8}));

  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp&) {
    std::printf("%s", app.help().c_str());
    parsed.exit_code = 0;
    return parsed;
  } catch (const CLI::ParseError& e) {
    std::string what = e.what();
    if (const auto nl = what.find('\n'); nl != std::string::npos) what.resize(nl);
    std::fprintf(stderr, "fabrik-demo: %s (see --help)\n", what.c_str());
    parsed.exit_code = 2;
    return parsed;
  }
  auto fail = [&](const std::string& message) {
    std::fprintf(stderr, "fabrik-demo: %s (see --help)\n", message.c_str());
    parsed.exit_code = 2;
    return parsed;
  };
  if (!std::isfinite(o.length)) return fail("--length must be finite");
  if (!std::isfinite(o.moe)) return fail("--moe must be finite");
  if (!std::isfinite(o.fixed_dt)) return fail("--fixed-dt must be finite");
  o.vsync = !no_vsync;
  if (!lengths.empty()) {
    if (auto error = ParseLengths(lengths, o.lengths)) return fail(*error);
    if (app.count("--joints") && o.joints != static_cast<int>(o.lengths.size()) + 1) {
      return fail("--joints " + std::to_string(o.joints) + " disagrees with --lengths (" +
                  std::to_string(o.lengths.size()) + " segments)");
    }
    o.joints = static_cast<int>(o.lengths.size()) + 1;
  }
  if (!size.empty()) {
    int w = 0, h = 0;
    char x = 0, extra = 0;
    if (std::sscanf(size.c_str(), "%d%c%d%c", &w, &x, &h, &extra) != 3 || (x != 'x' && x != 'X')) {
      return fail("--size: expected WxH such as 1280x800, got '" + size + "'");
    }
    if (w < 200 || h < 150 || w > 16384 || h > 16384) {
      return fail("--size: " + size + " is out of range (200x150 to 16384x16384)");
    }
    o.width = w;
    o.height = h;
  }
  if (!scene.empty()) {
    if (scene != "chain" && scene != "arm" && scene != "creature" && scene != "walker") {
      return fail("--scene: unknown scene '" + scene + "' (chain, arm, creature, walker)");
    }
    o.scene = scene;
  }
  if (!solver.empty()) o.solver = solver;  // checked against the library's list by the app
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
