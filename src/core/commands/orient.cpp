// The console commands of docs/rotations.md (`skin on|off`, `axes on|off` and
// `orient off|YAW PITCH ROLL`), as entries of the command registry: orient an app command,
// skin and axes flags (their `flag` part set).
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "core/app_state.h"
#include "core/command_table.h"
#include "lang/text.h"

namespace fabrik {
namespace {

using Args = std::span<const std::string>;

bool& Skin(AppState& state) { return state.orient.skin; }
bool& Axes(AppState& state) { return state.orient.axes; }

std::string SkinNote(const AppState& state, bool on) {
  return on && !state.scene.free_chain() ? " (drawn in the chain scene)" : "";
}

std::string AxesNote(const AppState& state, bool on) {
  return on && !state.orient.has_rotations ? " (drawn in the chain, arm and creature scenes)" : "";
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
constexpr std::string_view kOrientKeywords[] = {"off"};

const CommandEntry kOrientEntries[] = {
    {{"orient", "orient off | orient YAW PITCH ROLL", "the end effector's target rotation",
      kOrientDetails, ParseOrient, kOrientKeywords},
     ApplyOrient},
    {.language = OnOffLanguage("skin", "skin on|off", "the chain scene as a skinned tentacle",
                               kSkinDetails),
     .flag = {.field = Skin, .note = SkinNote}},
    {.language =
         OnOffLanguage("axes", "axes on|off", "draw every bone's frame (RGB axes)", kAxesDetails),
     .flag = {.field = Axes, .note = AxesNote}},
};

}  // namespace

std::span<const CommandEntry> OrientCommandEntries() { return kOrientEntries; }

}  // namespace fabrik
