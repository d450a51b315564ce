// options.h - the demo's command line (docs/options.md), parsed with CLI11.
// Numbers are plain decimal (no hex, sign '+', spaces or trailing text) within the ranges
// docs/options.md states; paths and --exec lines may not hold control characters; --screenshot and
// --state-out must be writable (checked at parse time, nothing is created). Every error is
// one line on stderr naming the option, control characters shown escaped (\n, \x01).
#pragma once

#include <glm/vec3.hpp>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/scene_options.h"
#include "lang/command.h"  // TargetMode, ModeName

namespace fabrik {

std::optional<TargetMode> ParseMode(std::string_view name);

// Segment length range of --length and --lengths, world units: the console's (command.h).
inline constexpr float kMinLength = kMinSegmentLength;
inline constexpr float kMaxLength = kMaxSegmentLength;

// `text` with control characters written as \n, \t, \r or \xNN, for one-line messages.
std::string EscapeControl(std::string_view text);

struct Options {
  TargetMode mode = TargetMode::kDrag;
  bool mode_given = false;
  std::string spline_path;
  std::string script_path;
  int joints = 8;
  std::vector<float> lengths;  // per segment; empty = joints - 1 copies of `length`
  float length = 1.0f;
  float moe = 0.01f;
  int max_iterations = 10;
  int width = 1280;
  int height = 800;
  bool vsync = true;
  double fixed_dt = 0.0;  // 0 = real time
  long frames = 0;        // 0 = run until closed
  std::string screenshot_path;
  std::string state_out_path;
  std::string scene = "chain";
  std::string terrain_path;       // --terrain: a gray PNG heightmap (docs/walker.md: Terrain)
  float terrain_size = 40.0f;     // --terrain-size S
  float terrain_height = 3.0f;    // --terrain-height H
  // The scenes' own options given (OptionScene::options), by name: a number or a path.
  SceneOptionValues scene_options;
  std::string solver = "fabrik";
  std::vector<std::string> exec;  // console lines run at start, in order
  // --export OUT: write the scene's export (the mocap scene's baked clip) and exit, without
  // a window (docs/mocap.md: Exporting from the demo); "" = run the demo.
  std::string export_path;
  bool hidden = false;  // no visible window (still renders offscreen-sized)
  int msaa = 4;         // multisample count; 0 disables

  // Saved settings and screenshots (docs/settings.md).
  bool no_settings = false;          // --no-settings: neither read nor write them
  std::string screenshot_dir = ".";  // --screenshot-dir: where F12 writes
  std::vector<std::string> given;    // the options given ("--scene"), which saved ones yield to
};

// A scene as the command line sees it. The app passes one per registered scene
// (OptionScenes, app/scene_shell.h): its name, its SceneEntry's rows and its shell's check.
struct OptionScene {
  std::string_view name;
  // The scene's own options (core/scene_options.h), listed by --help after the app's terrain
  // options in the registry's order, each read by its kind into Options::scene_options. Those
  // with implies_scene start this scene when --scene is not given (--bvh, --character).
  std::span<const SceneOption> options{};
  // The options this scene cannot start with, as one line naming them, or "" when it can;
  // asked only when the scene is the one starting. Null: any options do.
  std::string (*check)(const Options& options) = nullptr;
};

// Parses argv. On --help prints usage and returns exit code 0 in `exit_code`; on a bad option
// prints one line naming the problem and sets exit code 2. Otherwise exit_code is empty.
// `scenes` are the scenes --scene accepts, in the order its help and error list them (the
// app's scene registry, scenes/registry.h).
struct ParsedOptions {
  Options options;
  std::optional<int> exit_code;
  std::string error;  // for exit code 2: the line printed (without "fabrik-demo: " and newline)
};
ParsedOptions ParseOptions(int argc, char** argv, std::span<const OptionScene> scenes);

}  // namespace fabrik
