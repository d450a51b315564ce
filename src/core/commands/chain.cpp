// The chain's built-in commands, the app's half: how target, mode, joints, length, lengths,
// moe and iterations are carried out (each struct's apply, registered by its place in Command)
// and how the settings file keeps them (SavedSetting). Their language half (help, parser,
// Format, Validate, CommandSpec) is in lang/commands/chain.cpp; the group's entries at the end
// (Typed<T>) are what core/command_table.cpp's kGroups lists.
#include <algorithm>
#include <cstdio>

#include "core/builtin_table.h"
#include "core/frame.h"
#include "core/orient.h"
#include "core/step_view.h"
#include "ik/chain_rebuild.h"

namespace fabrik {
namespace {

// What the applies print.
std::string VecText(const glm::vec3& v) {
  char buf[128];
  std::snprintf(buf, sizeof(buf), "%.4g %.4g %.4g", v.x, v.y, v.z);
  return buf;
}

std::string Fmt(const char* fmt, double a) {
  char buf[128];
  std::snprintf(buf, sizeof(buf), fmt, a);
  return buf;
}

}  // namespace

bool ApplyBuiltin(AppState& state, const cmd::Target& c, CommandOutput& out) {
  if (out.source() == CommandSource::kScript) {
    state.script.target = c.position;  // the angles: `orient` in scripts
    return true;
  }
  if (c.angles_deg && !SetOrientation(state, c.angles_deg)) return false;
  if (state.mode != TargetMode::kConsole) SetMode(state, TargetMode::kConsole);
  state.typed.typed = c.position;
  if (state.step.active) {
    // Stepping: take the target at once and record the solve towards it.
    state.targeting.Jump(c.position);
    RefreshStepRecording(state);
  } else {
    // Glide to the typed target rather than teleporting the chain's goal.
    state.targeting.BeginGlide();
  }
  out.Print("target " + VecText(c.position) +
            (c.angles_deg ? " yaw pitch roll " + VecText(*c.angles_deg) : std::string()));
  return true;
}

bool ApplyBuiltin(AppState& state, const cmd::Mode& c, CommandOutput& out) {
  SetMode(state, c.mode);
  out.Print("mode " + std::string(ModeName(c.mode)));
  return true;
}

namespace {
// Saved as "mode": "drag" ...; restored last, so it starts what the restored files loaded.
bool IsModeName(const std::string& word) {
  const std::span<const std::string_view> names = ModeNames();
  return std::find(names.begin(), names.end(), word) != names.end();
}
constexpr std::string_view kModeOverriddenBy[] = {"--spline", "--script", "--mode"};
const SavedSetting kModeSaved = {
    .key = "mode",
    .order = RestoreOrder::kMode,
    .capture =
        [](const AppState& state) { return nlohmann::json(std::string(ModeName(state.mode))); },
    .check =
        [](const nlohmann::json& v) {
          return CheckSettingWord(v, IsModeName, "drag, spline, console or script");
        },
    .command = "mode",
    .overridden_by = kModeOverriddenBy};
}  // namespace

bool ApplyBuiltin(AppState& state, const cmd::Joints& c, CommandOutput& out) {
  // Commands apply in order, so a script's "joints" and "length" lines at the same time
  // build on each other.
  std::vector<float> lengths = state.lengths;
  lengths.resize(static_cast<std::size_t>(c.count - 1), state.uniform_length);
  if (!ApplyLengths(state, std::move(lengths))) return out.Fail(state.message);
  out.Print("joints " + std::to_string(c.count));
  return true;
}

bool ApplyBuiltin(AppState& state, const cmd::Length& c, CommandOutput& out) {
  if (!ApplyLengths(state, UniformLengths(static_cast<int>(state.lengths.size()), c.length))) {
    return out.Fail(state.message);
  }
  state.uniform_length = c.length;
  out.Print(Fmt("every segment %.4g long", c.length));
  return true;
}

namespace {
// The options that set the chain's shape, which the saved length and lengths yield to.
constexpr std::string_view kShapeOverriddenBy[] = {"--joints", "--length", "--lengths"};
const SavedSetting kLengthSaved = {
    .key = "length",
    .order = RestoreOrder::kChainShape,
    .capture = [](const AppState& state) { return nlohmann::json(state.uniform_length); },
    .check =
        [](const nlohmann::json& v) {
          return CheckSettingReal(v, kMinSegmentLength, kMaxSegmentLength, false,
                                  "from 0.0001 to 1000");
        },
    .command = "length",
    .overridden_by = kShapeOverriddenBy};
}  // namespace

bool ApplyBuiltin(AppState& state, const cmd::Lengths& c, CommandOutput& out) {
  if (!ApplyLengths(state, c.lengths)) return out.Fail(state.message);
  out.Print("lengths set: " + std::to_string(c.lengths.size() + 1) + " joints");
  return true;
}

namespace {
// Saved: the chain scene's lengths, also while another scene has its own chain.
nlohmann::json CaptureLengths(const AppState& state) {
  const std::vector<float>& lengths = state.scene.free_chain() || state.scene.chain_lengths.empty()
                                          ? state.lengths
                                          : state.scene.chain_lengths;
  return lengths.empty() ? nlohmann::json() : nlohmann::json(lengths);
}
Result<nlohmann::json> CheckLengths(const nlohmann::json& v) {
  bool ok = v.is_array() && !v.empty() && v.size() < static_cast<std::size_t>(kMaxJoints);
  std::vector<float> lengths;
  for (std::size_t i = 0; ok && i < v.size(); ++i) {
    double d = 0.0;
    ok = SettingNumber(v[i], kMinSegmentLength, kMaxSegmentLength, false, d);
    lengths.push_back(static_cast<float>(d));
  }
  if (!ok) return MakeError("expected 1 to 9999 numbers from 0.0001 to 1000");
  return nlohmann::json(lengths);
}
const SavedSetting kLengthsSaved = {.key = "lengths",
                                    .order = RestoreOrder::kChainShape,
                                    .capture = CaptureLengths,
                                    .check = CheckLengths,
                                    .command = "lengths",
                                    .overridden_by = kShapeOverriddenBy};
}  // namespace

bool ApplyBuiltin(AppState& state, const cmd::Moe& c, CommandOutput& out) {
  state.settings.tolerance = c.tolerance;
  out.Print(Fmt("margin of error %.6g", c.tolerance));
  return true;
}

namespace {
constexpr std::string_view kMoeOverriddenBy[] = {"--moe"};
const SavedSetting kMoeSaved = {
    .key = "moe",
    .order = RestoreOrder::kSolve,
    .capture = [](const AppState& state) { return nlohmann::json(state.settings.tolerance); },
    .check = [](const nlohmann::json& v) { return CheckSettingNumber(v, kMoeRange); },
    .command = "moe",
    .overridden_by = kMoeOverriddenBy};
}  // namespace

bool ApplyBuiltin(AppState& state, const cmd::Iterations& c, CommandOutput& out) {
  state.settings.max_iterations = c.max_iterations;
  out.Print("iteration cap " + std::to_string(c.max_iterations));
  return true;
}

namespace {
// Saved under the option's older name, max_iterations (files written before keep loading).
constexpr std::string_view kIterationsOverriddenBy[] = {"--max-iterations"};
const SavedSetting kIterationsSaved = {
    .key = "max_iterations",
    .order = RestoreOrder::kSolve,
    .capture = [](const AppState& state) { return nlohmann::json(state.settings.max_iterations); },
    .check =
        [](const nlohmann::json& v) {
          return CheckSettingWhole(v, kMinIterations, kMaxIterations,
                                   "expected a whole number from 1 to 100000");
        },
    .command = "iterations",
    .overridden_by = kIterationsOverriddenBy};
}  // namespace

namespace {
// The group's entries, in the order of its CommandSpecs (lang/commands/chain.cpp).
constexpr CommandEntry kChainEntries[] = {Typed<cmd::Target>(),
                                          Typed<cmd::Mode>(&kModeSaved),
                                          Typed<cmd::Joints>(),
                                          Typed<cmd::Length>(&kLengthSaved),
                                          Typed<cmd::Lengths>(&kLengthsSaved),
                                          Typed<cmd::Moe>(&kMoeSaved),
                                          Typed<cmd::Iterations>(&kIterationsSaved)};
}  // namespace

std::span<const CommandEntry> ChainCommandEntries() { return kChainEntries; }

}  // namespace fabrik
