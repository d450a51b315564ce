// saved_setting.h - how the settings file (docs/settings.md) keeps one command's value, said
// by the command's own entry in the registry (core/command_table.h): its `setting` (a typed
// built-in's, Typed<T>(&kSaved), or an app command's), the simpler `saved` of an app command,
// or a flag's `flag.saved`. The settings code (core/settings.h) loops over the table these
// make and names no command.
//
// A value goes round like this: `capture` gives it from the state as JSON (written under
// `key`); when read back, `check` holds it to the command's ranges and gives the value kept
// (as `capture` would have written it) or why it was ignored; at the next start `restore`
// turns it into console lines, applied through the same apply step as typed lines, in the
// order of `order`.
#pragma once

#include <functional>
#include <map>
#include <nlohmann/json.hpp>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "ik/result.h"
#include "lang/number_range.h"

namespace fabrik {

struct AppState;

// The values read from or captured for settings.json, by key; each one passed its setting's
// `check` (or came from its `capture`).
using SettingValues = std::map<std::string, nlohmann::json, std::less<>>;

// When a saved value is restored at start, earliest first; settings with the same order are
// restored in the table's order. The chain's shape comes first (the solver and the tools
// work on it), the files before the scene (a scene switch keeps a loaded spline or script),
// the mode last (it starts what the files loaded).
enum class RestoreOrder {
  kChainShape,  // length, lengths
  kSolver,      // solver
  kFlag,        // the saved on/off flags (FlagPart::saved)
  kCommand,     // the saved app commands (CommandEntry::saved)
  kSolve,       // moe, iterations
  kFile,        // spline, script
  kSceneFile,   // a scene's own file (the mocap clip), before the scene line picks the scene
  kScene,       // scene
  kMode,        // mode
};

// The console lines that restore the settings: `now` in RestoreOrder, `last` after every
// other setting's lines (a restored script pauses after the mode line has played it).
struct RestoreLines {
  std::vector<std::string> now;
  std::vector<std::string> last;
};

// One saved setting. `capture` and `check` are set, and `command` or `restore`.
struct SavedSetting {
  std::string_view key;  // its key in settings.json; never changed (old files must load)
  RestoreOrder order = RestoreOrder::kCommand;
  // The current value, or null JSON when nothing is saved (a default, no file loaded).
  nlohmann::json (*capture)(const AppState& state) = nullptr;
  // A value from the file, any JSON at all: the value kept, canonical (what `capture` writes
  // for the same state), or why it is ignored ("expected a number > 0 and <= 100"), which the
  // settings' problem line shows as "KEY (WHY)".
  Result<nlohmann::json> (*check)(const nlohmann::json& value) = nullptr;
  // How `value` (one that passed `check`) is restored: most settings by the one line
  // `COMMAND VALUE` (SettingText: "moe 0.01", "lengths 1 1 0.5", "accelerate on"); the
  // command's first word(s) here.
  std::string_view command{};
  // Or, when set, this appends the lines that restore `value`; `all` holds the other saved
  // values, for a restore that depends on them (the script waits unless the mode is script).
  void (*restore)(const nlohmann::json& value, const SettingValues& all,
                  RestoreLines& out) = nullptr;
  // The command-line options that set the value themselves ("--moe"): given, the saved value
  // is dropped so the option wins.
  std::span<const std::string_view> overridden_by{};
};

// A setting of the table (SettingsTable): a SavedSetting, or one made from a flag's or an app
// command's `saved`, which need the entry they came from.
struct SettingRow {
  std::string key;
  RestoreOrder order = RestoreOrder::kCommand;
  std::function<nlohmann::json(const AppState&)> capture;
  std::function<Result<nlohmann::json>(const nlohmann::json&)> check;
  std::function<void(const nlohmann::json&, const SettingValues&, RestoreLines&)> restore;
  std::span<const std::string_view> overridden_by;
};

// Every saved setting, in RestoreOrder (the order the settings code checks, captures and
// restores them), from the command registry's entries (core/command_table.h): the typed
// built-ins', the app commands' and the flags'. Built once.
std::span<const SettingRow> SettingsTable();

// ---- Helpers for writing a SavedSetting ----

// A number within [lo, hi] ((lo, hi] when lo_open) both as the double read and as the float
// it is kept as, so a value that rounds out of the range as a float (1e-50 for a range above
// 0) is refused rather than kept as 0. Sets `out` when true.
bool SettingNumber(const nlohmann::json& value, double lo, double hi, bool lo_open, double& out);
// The same, as a check: the float as JSON, or "expected a number RANGE".
Result<nlohmann::json> CheckSettingReal(const nlohmann::json& value, double lo, double hi,
                                        bool lo_open, std::string_view range);
// A number within `range` (NumberRange::Contains), as the float kept, or "expected a number
// RANGE" with the range's text.
Result<nlohmann::json> CheckSettingNumber(const nlohmann::json& value, const NumberRange& range);
// A whole number in [lo, hi] (a JSON integer, not 2.0), or `expected`.
Result<nlohmann::json> CheckSettingWhole(const nlohmann::json& value, long lo, long hi,
                                         std::string_view expected);
// A string for which `valid` holds, or "expected WHAT".
Result<nlohmann::json> CheckSettingWord(const nlohmann::json& value,
                                        bool (*valid)(const std::string&), std::string_view what);
// A path a console line `load "PATH"` reads back unchanged (1..4096 bytes, no control
// character or '"'), or "expected a path".
Result<nlohmann::json> CheckSettingPath(const nlohmann::json& value);

// A saved value as the words of its restoring line: a string as it is, a float as SettingReal,
// a whole number in decimal, true/false as on/off, an array's items separated by spaces.
std::string SettingText(const nlohmann::json& value);
// A float written so that it reads back as the same float ("%.9g").
std::string SettingReal(float v);
// `words "PATH"`: settings paths never hold '"' or control characters, so quoting is enough.
std::string SettingQuoted(std::string_view words, const std::string& path);
// A relative path that names a file from the working directory, absolute (so the next start
// finds it from any folder); other paths (found under the data folder) as written.
std::string SettingPath(const std::string& path);

}  // namespace fabrik
