// scene_options.h - a scene's own command-line options (docs/options.md,
// docs/architecture.md: Scenes). A scene declares its rows in its folder (SceneEntry::options);
// the app's option parser (app/options.h) lists them in --help after the app's own, reads each
// value by its kind and hands the values over as SceneOptionValues, which the start-up passes to
// the scene's SceneEntry::start (StartOptions::scene_options) after running each given file's
// check. No field of StartOptions names a scene's option.
#pragma once

#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace fabrik {

class SceneOptionValues;

// How the app reads an option's value.
enum class SceneOptionKind {
  kWhole,    // a whole number in [lowest, highest]
  kDecimal,  // a decimal number in [lowest, highest], kept as a float
  kInput,    // a file read at start: not empty, no control character; then `check`
};

// One row of the command line that a scene contributes, in the order --help lists them.
struct SceneOption {
  std::string_view name;  // "--chains"
  std::string_view help;  // --help's words, the range as the bounds below state it
  SceneOptionKind kind = SceneOptionKind::kWhole;
  // kWhole, kDecimal: the range, from the constants the scene's commands check, so an option
  // and its command agree.
  double lowest = 0.0;
  double highest = 0.0;
  // Given without --scene, the option starts the scene (--bvh starts the mocap scene).
  bool implies_scene = false;
  // kInput: whether the file at `path` (resolved against the data folder) can be used, read
  // at start whatever the scene: "" when it can, else the problem, printed after "NAME: " with
  // exit code 2. `values` holds the scene's other values (--bvh reads --bvh-scale). Null: none.
  std::string (*check)(const std::string& path, const SceneOptionValues& values) = nullptr;
};

// One value given on the command line: a number (kWhole, kDecimal) or a path (kInput).
struct SceneOptionValue {
  std::string name;  // "--chains"
  double number = 0.0;
  std::string text;
};

// The scene options given on the command line, by name; an option not given is absent and its
// scene keeps its own default.
class SceneOptionValues {
 public:
  void SetNumber(std::string_view name, double number);
  void SetText(std::string_view name, std::string text);
  bool Given(std::string_view name) const;
  // The number given for `name`, or `fallback`.
  double Number(std::string_view name, double fallback) const;
  // The text given for `name`, or "".
  const std::string& Text(std::string_view name) const;
  // Every value, in the order they were set.
  std::span<const SceneOptionValue> all() const { return values_; }

 private:
  SceneOptionValue& Slot(std::string_view name);
  const SceneOptionValue* Find(std::string_view name) const;
  std::vector<SceneOptionValue> values_;
};

}  // namespace fabrik
