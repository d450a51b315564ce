// The console commands of docs/rotations.md (`skin on|off`, `axes on|off` and
// `orient off|YAW PITCH ROLL`), as entries of the app's command table.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "core/app_state.h"
#include "core/command_table.h"
#include "targets/text.h"

namespace fabrik {
namespace {

using Args = std::span<const std::string>;

// on|off, as the canonical word; `what` names the command in the error.
Result<std::vector<std::string>> ParseOnOff(std::string_view what, Args args) {
  const std::string usage = " (usage: " + std::string(what) + " on|off)";
  if (args.size() != 1) {
    return MakeError(std::string(what) + ": expected on or off, got " +
                     std::to_string(args.size()) + " arguments" + usage);
  }
  const std::string word = text::Lower(args[0]);
  if (word != "on" && word != "off") {
    return MakeError(std::string(what) + ": expected on or off, got " + text::Quote(args[0]) +
                     usage);
  }
  return std::vector<std::string>{word};
}

Result<std::vector<std::string>> ParseSkin(Args args) { return ParseOnOff("skin", args); }
Result<std::vector<std::string>> ParseAxes(Args args) { return ParseOnOff("axes", args); }

bool ApplySkin(AppState& state, Args args, CommandOutput& out) {
  state.orient.skin = args[0] == "on";
  std::string text = std::string("skin ") + (state.orient.skin ? "on" : "off");
  if (state.orient.skin && !state.scene.free_chain()) text += " (drawn in the chain scene)";
  out.Print(std::move(text));
  return true;
}

bool ApplyAxes(AppState& state, Args args, CommandOutput& out) {
  state.orient.axes = args[0] == "on";
  std::string text = std::string("axes ") + (state.orient.axes ? "on" : "off");
  if (state.orient.axes && !state.orient.has_rotations) {
    text += " (drawn in the chain, arm and creature scenes)";
  }
  out.Print(std::move(text));
  return true;
}

// orient off | orient YAW PITCH ROLL: the angles are written back with 9 significant digits,
// so the apply step reads the same floats.
Result<std::vector<std::string>> ParseOrient(Args args) {
  constexpr const char* kUsage = " (usage: orient off | orient YAW PITCH ROLL)";
  if (args.size() == 1 && text::Lower(args[0]) == "off") return std::vector<std::string>{"off"};
  if (args.size() != 3) {
    return MakeError(
        "orient: expected off or three angles in degrees, got " +
        (args.size() == 1 ? text::Quote(args[0]) : std::to_string(args.size()) + " arguments") +
        kUsage);
  }
  std::vector<std::string> out;
  const char* what[] = {"orient YAW", "orient PITCH", "orient ROLL"};
  for (std::size_t i = 0; i < 3; ++i) {
    const text::Number n = text::ParseReal(args[i]);
    const auto f = static_cast<float>(n.value);
    if (n.error != text::NumberError::kNone || !(std::fabs(f) <= kMaxTargetAngleDegrees)) {
      return MakeError(std::string(what[i]) +
                       ": expected an angle in degrees from -3600 to 3600, got " +
                       text::Quote(args[i]));
    }
    char buf[32];
    std::snprintf(buf, sizeof(buf), "%.9g", static_cast<double>(f));
    out.emplace_back(buf);
  }
  return out;
}

bool ApplyOrient(AppState& state, Args args, CommandOutput& out) {
  if (args[0] == "off") {
    SetOrientation(state, std::nullopt);
    out.Print("orient off");
    return true;
  }
  const glm::vec3 angles(std::strtof(args[0].c_str(), nullptr),
                         std::strtof(args[1].c_str(), nullptr),
                         std::strtof(args[2].c_str(), nullptr));
  if (!SetOrientation(state, angles)) return out.Fail("orient: the angles are out of range");
  out.Print("orient yaw " + args[0] + " pitch " + args[1] + " roll " + args[2]);
  return true;
}

constexpr std::string_view kSkinDetails[] = {
    "  The chain scene draws a tentacle skinned on the bones (dual quaternion skinning)",
    "  instead of the bones and joints; other scenes keep their bones."};
constexpr std::string_view kAxesDetails[] = {
    "  Small frames at every bone's start: X red, Y green (along the bone), Z blue.",
    "  Chain, arm and creature scenes."};
constexpr std::string_view kOrientDetails[] = {
    "  The rotation the end effector should take, degrees: R = Ry(yaw) Rx(pitch) Rz(roll),",
    "  all 0 points the last bone up (+Y). 'target X Y Z YAW PITCH ROLL' sets both.",
    "  In drag mode Shift+wheel turns the yaw, Ctrl+wheel the pitch, Alt+wheel the roll."};
constexpr std::string_view kOnOff[] = {"on", "off"};
constexpr std::string_view kOrientKeywords[] = {"off"};

const AppCommandEntry kEntries[] = {
    {{"skin", "skin on|off", "the chain scene as a skinned tentacle", kSkinDetails, ParseSkin,
      kOnOff},
     ApplySkin},
    {{"axes", "axes on|off", "draw every bone's frame (RGB axes)", kAxesDetails, ParseAxes, kOnOff},
     ApplyAxes},
    {{"orient", "orient off | orient YAW PITCH ROLL", "the end effector's target rotation",
      kOrientDetails, ParseOrient, kOrientKeywords},
     ApplyOrient},
};

}  // namespace

std::span<const AppCommandEntry> OrientCommandEntries() { return kEntries; }

}  // namespace fabrik
