// startup.h - the AppState the demo starts with, from its command-line options
// (docs/options.md). No window is needed: the shell opens one afterwards, and
// tests/app_core starts the core the same way.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "core/app_state.h"
#include "core/scene_options.h"
#include "ik/result.h"

namespace fabrik {

// What the core takes from the command line (app/options.h parses and range-checks it).
struct StartOptions {
  TargetMode mode = TargetMode::kDrag;
  std::string spline_path;  // "" = none
  std::string script_path;  // "" = none
  int joints = 8;
  std::vector<float> lengths;  // per segment; empty = joints - 1 copies of `length`
  float length = 1.0f;
  float moe = 0.01f;
  int max_iterations = 10;
  double fixed_dt = 0.0;  // 0 = real time
  std::string scene = "chain";
  std::string terrain_path;       // "" = the default terrain, loaded when the walker starts
  float terrain_size = 40.0f;     // S (docs/walker.md: Terrain)
  float terrain_height = 3.0f;    // H
  // The scenes' own options given (SceneEntry::options), read by their SceneEntry::start.
  SceneOptionValues scene_options;
  // The options given ("--joints"), for a scene that takes a shared one only when given (the
  // field's chains take --joints or --lengths' count, else their own).
  std::vector<std::string> given;
  std::string solver = "fabrik";
  std::vector<std::string> exec;  // console lines run at start, in order

  // Saved settings (core/settings.h), applied before `exec`; a failing one prints its error
  // and the start goes on.
  std::vector<AppCommand> saved;
  std::string settings_problem;      // the settings file's one problem line, printed as an error
  std::string screenshot_dir = ".";  // where the screenshot key writes (--screenshot-dir)
};

// Builds the start-up state: the chain bent once towards a pleasant target, the spline and
// script loaded (paths relative to the working directory, then `data_dir`), the saved
// settings applied, the scene set, then every --exec line applied in order as console lines. Fails
// with one line naming the problem (an unknown solver, an unreadable file, an --exec line's error),
// which the demo reports with exit code 2.
Result<std::unique_ptr<AppState>> StartApp(const StartOptions& options,
                                           const std::string& data_dir);

}  // namespace fabrik
