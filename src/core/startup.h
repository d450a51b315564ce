// startup.h - the AppState the demo starts with, from its command-line options
// (docs/options.md). No window is needed: the shell opens one afterwards, and
// tests/app_core starts the core the same way.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "core/app_state.h"
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
  int chains = 10000;             // the field scene's chain count (--chains)
  int field_joints = 10;          // the field scene's joints per chain (--joints, when given)
  std::string terrain_path;       // "" = the default terrain, loaded when the walker starts
  float terrain_size = 40.0f;     // S (docs/walker.md: Terrain)
  float terrain_height = 3.0f;    // H
  std::string bvh_path;           // the mocap scene's clip; "" = the default (mocap_config.h)
  float bvh_scale = 0.0f;         // metres per file unit; 0 = from the skeleton's height
  int characters = 100;           // the crowd scene's size
  std::string character_path;     // the mocap scene's skinned character; "" = capsules
  std::string walker_model_path;  // the walker scene's quadruped model; "" = the spider
  std::string markers_path;       // the markers scene's take; "" = the default (markers_config.h)
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
