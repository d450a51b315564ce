// The chain scene's everyday IK tools as console commands (docs/tools.md: In the demo):
// soften R|off, stretch S|off, turn limit A|off, stiffness I S|off, pole X Y Z|off and
// aim X Y Z [axis AX AY AZ] [joints K]|off as app commands and `spline ik on|off` as a flag,
// one CommandEntry each; `solver two_bone` is the solver command's
// (core/commands/session.cpp). Each sets ToolState (core/tool_state.h); the chain scene's solve
// reads it (core/tool_solve.h). A bad value is one error line and changes nothing.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <string>
#include <vector>

#include "core/app_state.h"
#include "core/command_table.h"
#include "core/step_view.h"
#include "core/tool_solve.h"
#include "lang/text.h"

namespace fabrik {
namespace {

using Args = std::span<const std::string>;
using Words = Result<std::vector<std::string>>;

// The shortest decimal that reads back as the same float (0.8, not 0.800000012), so the
// apply step and the settings file see exactly the value that was parsed.
std::string Canonical(float value) {
  char buf[32];
  for (int digits = 6; digits <= 9; ++digits) {
    std::snprintf(buf, sizeof(buf), "%.*g", digits, static_cast<double>(value));
    if (std::strtof(buf, nullptr) == value) break;
  }
  return buf;
}

// One real number word within [low, high] (low excluded when `open_low`), or the error
// "COMMAND: expected WHAT, got 'WORD' (usage: USAGE)".
Words OneNumber(Args args, const char* command, const char* what, const char* usage, double low,
                bool open_low, double high) {
  const std::string tail = std::string(" (usage: ") + usage + ")";
  if (args.size() != 1) {
    return MakeError(std::string(command) + ": expected " + what + ", got " +
                     std::to_string(args.size()) + " arguments" + tail);
  }
  if (text::Lower(args[0]) == "off") return std::vector<std::string>{"off"};
  const text::Number n = text::ParseReal(args[0]);
  // Checked as the float the tools keep (a tiny ratio would round to 0).
  const double v = static_cast<float>(n.value);
  if (n.error != text::NumberError::kNone || (open_low ? !(v > low) : !(v >= low)) ||
      !(v <= high)) {
    return MakeError(std::string(command) + ": expected " + what + ", got " + text::Quote(args[0]) +
                     tail);
  }
  return std::vector<std::string>{Canonical(static_cast<float>(v))};
}

float Value(const std::string& word) { return std::strtof(word.c_str(), nullptr); }

// A tool's apply, then a fresh step-view recording with the new setting when it took.
template <bool (*Apply)(AppState&, Args, CommandOutput&)>
bool AndRestep(AppState& state, Args args, CommandOutput& out) {
  if (!Apply(state, args, out)) return false;
  RerecordStep(state);
  return true;
}

std::string SceneNote(const AppState& state) {
  return state.scene.free_chain() ? "" : " (the chain scene uses it)";
}

// ---- soften R|off ----
constexpr const char* kSoftenUsage = "soften R|off";
Words ParseSoften(Args args) {
  return OneNumber(args, "soften", "a ratio R with 0 < R <= 1, or off", kSoftenUsage, 0.0, true,
                   1.0);
}
bool ApplySoftenNow(AppState& state, Args args, CommandOutput& out) {
  const float r = args[0] == "off" ? 1.0f : Value(args[0]);
  if (r < 1.0f && state.tools.stretch > 1.0f) {
    return out.Fail("soften: not with stretch, which reaches past the reach (stretch off first)");
  }
  state.tools.soften = r;
  out.Print(r < 1.0f ? "soften " + args[0] + ": beyond " + args[0] +
                           " x reach the effector eases towards the target" + SceneNote(state)
                     : std::string("soften off"));
  return true;
}
std::string SavedSoften(const AppState& state) {
  return state.tools.soften < 1.0f ? Canonical(state.tools.soften) : "";
}

// ---- stretch S|off ----
constexpr const char* kStretchUsage = "stretch S|off";
Words ParseStretch(Args args) {
  return OneNumber(args, "stretch", "a factor S with 1 <= S <= 10, or off", kStretchUsage, 1.0,
                   false, ToolState::kMaxStretch);
}
bool ApplyStretchNow(AppState& state, Args args, CommandOutput& out) {
  const float s = args[0] == "off" ? 1.0f : Value(args[0]);
  if (s > 1.0f && state.tools.soften < 1.0f) {
    return out.Fail("stretch: not with soften, which keeps the effector short (soften off first)");
  }
  if (s > 1.0f && AnyStiffness(state.tools)) {
    return out.Fail(
        "stretch: not with stiffness, which does not lay the chain straight "
        "(stiffness off first)");
  }
  state.tools.stretch = s;
  out.Print(s > 1.0f ? "stretch " + args[0] + ": segments grow up to " + args[0] +
                           " x to reach a far target" + SceneNote(state)
                     : std::string("stretch off"));
  return true;
}
std::string SavedStretch(const AppState& state) {
  return state.tools.stretch > 1.0f ? Canonical(state.tools.stretch) : "";
}

// ---- turn limit A|off ----
constexpr const char* kTurnUsage = "turn limit A|off";
Words ParseTurn(Args args) {
  if (args.empty() || text::Lower(args[0]) != "limit") {
    return MakeError(std::string("turn: expected limit A or limit off") +
                     (args.empty() ? std::string() : ", got " + text::Quote(args[0])) +
                     " (usage: " + kTurnUsage + ")");
  }
  Words value =
      OneNumber(args.subspan(1), "turn limit", "an angle A in degrees, 0 < A <= 180, or off",
                kTurnUsage, 0.0, true, 180.0);
  if (!value.ok()) return value;
  return std::vector<std::string>{"limit", value.value()[0]};
}
bool ApplyTurnNow(AppState& state, Args args, CommandOutput& out) {
  state.tools.turn_limit_deg = args[1] == "off" ? 0.0f : Value(args[1]);
  out.Print(args[1] == "off"
                ? std::string("turn limit off")
                : "turn limit " + args[1] +
                      ": no segment turns more than that many degrees a frame" + SceneNote(state));
  return true;
}
std::string SavedTurn(const AppState& state) {
  return state.tools.turn_limit_deg > 0.0f ? "limit " + Canonical(state.tools.turn_limit_deg) : "";
}

// ---- stiffness I S | stiffness off ----
constexpr const char* kStiffnessUsage = "stiffness I S | stiffness off";
Words ParseStiffness(Args args) {
  const std::string tail = std::string(" (usage: ") + kStiffnessUsage + ")";
  if (args.size() == 1 && text::Lower(args[0]) == "off") return std::vector<std::string>{"off"};
  if (args.size() != 2) {
    return MakeError("stiffness: expected a joint index and a stiffness, or off" + tail);
  }
  const text::Number i = text::ParseInteger(args[0]);
  if (i.error != text::NumberError::kNone || i.value < 0 || i.value >= kMaxJoints) {
    return MakeError("stiffness: expected a joint index from 0, got " + text::Quote(args[0]) +
                     tail);
  }
  Words s = OneNumber(args.subspan(1), "stiffness", "a stiffness from 0 to 1", kStiffnessUsage, 0.0,
                      false, 1.0);
  if (!s.ok()) return s;
  if (s.value()[0] == "off") {
    return MakeError("stiffness: expected a stiffness from 0 to 1, got 'off'" + tail);
  }
  return std::vector<std::string>{std::to_string(static_cast<long>(i.value)), s.value()[0]};
}
bool ApplyStiffnessNow(AppState& state, Args args, CommandOutput& out) {
  ToolState& t = state.tools;
  if (args[0] == "off") {
    t.stiffness.clear();
    out.Print("stiffness off: every joint free");
    return true;
  }
  const std::size_t n = state.chain.joint_count();
  const long joint = std::strtol(args[0].c_str(), nullptr, 10);
  if (joint < 0 || static_cast<std::size_t>(joint) + 1 >= n) {
    return out.Fail("stiffness: joint " + args[0] + " has no bend to keep (joints 0 to " +
                    std::to_string(n - 2) + " of this chain; the effector has none)");
  }
  const float s = Value(args[1]);
  if (s > 0.0f && t.stretch > 1.0f) {
    return out.Fail("stiffness: not with stretch (stretch off first)");
  }
  if (t.stiffness.size() != n) t.stiffness.assign(n, 0.0f);
  t.stiffness[static_cast<std::size_t>(joint)] = s;
  out.Print("stiffness " + args[0] + " " + args[1] +
            (joint == 0 ? ": the first segment's turn is bounded" : ": that joint keeps its bend") +
            SceneNote(state));
  return true;
}

// ---- pole X Y Z | pole off ----
constexpr const char* kPoleUsage = "pole X Y Z | pole off";
Words ParsePole(Args args) {
  const std::string tail = std::string(" (usage: ") + kPoleUsage + ")";
  if (args.size() == 1 && text::Lower(args[0]) == "off") return std::vector<std::string>{"off"};
  if (args.size() != 3) return MakeError("pole: expected X Y Z or off" + tail);
  std::vector<std::string> out;
  for (const std::string& word : args) {
    const text::Number n = text::ParseReal(word);
    if (n.error != text::NumberError::kNone || !(std::fabs(n.value) <= 1e6)) {
      return MakeError("pole: expected a coordinate from -1e6 to 1e6, got " + text::Quote(word) +
                       tail);
    }
    out.push_back(Canonical(static_cast<float>(n.value)));
  }
  return out;
}
bool ApplyPoleNow(AppState& state, Args args, CommandOutput& out) {
  if (args[0] == "off") {
    state.tools.pole.reset();
    out.Print("pole off: two_bone keeps the current bend plane");
    return true;
  }
  state.tools.pole = glm::vec3(Value(args[0]), Value(args[1]), Value(args[2]));
  out.Print("pole " + args[0] + " " + args[1] + " " + args[2] +
            ": two_bone bends its elbow towards it" +
            (state.tools.two_bone ? "" : " (solver two_bone uses it)"));
  return true;
}

// ---- aim X Y Z [axis AX AY AZ] [joints K] | aim axis AX AY AZ | aim joints K | aim off ----
constexpr const char* kAimUsage =
    "aim X Y Z [axis AX AY AZ] [joints K] | aim axis AX AY AZ | aim joints K | aim off";

// Three coordinates from args[at], each within 1e6, as canonical words appended to `out`;
// false with `error` set naming `what`.
bool ThreeNumbers(Args args, std::size_t at, const char* what, std::vector<std::string>& out,
                  std::string& error) {
  const std::string tail = std::string(" (usage: ") + kAimUsage + ")";
  if (args.size() < at + 3) {
    error = std::string("aim: expected three numbers for ") + what + tail;
    return false;
  }
  for (std::size_t i = at; i < at + 3; ++i) {
    const text::Number n = text::ParseReal(args[i]);
    if (n.error != text::NumberError::kNone || !(std::fabs(n.value) <= 1e6)) {
      error = std::string("aim: expected ") + what + " coordinates from -1e6 to 1e6, got " +
              text::Quote(args[i]) + tail;
      return false;
    }
    out.push_back(Canonical(static_cast<float>(n.value)));
  }
  return true;
}

// Canonical words: the point's three numbers if given, then "axis" and three numbers, then
// "joints" and K, each at most once; or "off". A leading "at" is read and dropped.
Words ParseAim(Args args) {
  const std::string tail = std::string(" (usage: ") + kAimUsage + ")";
  if (args.size() == 1 && text::Lower(args[0]) == "off") return std::vector<std::string>{"off"};
  if (args.empty()) return MakeError("aim: expected X Y Z, axis AX AY AZ, joints K or off" + tail);
  std::vector<std::string> out;
  std::string error;
  std::size_t i = text::Lower(args[0]) == "at" ? 1 : 0;
  const std::string first = i < args.size() ? text::Lower(args[i]) : "";
  if (first != "axis" && first != "joints") {
    if (!ThreeNumbers(args, i, "the point's", out, error)) return MakeError(error);
    i += 3;
  }
  bool axis = false, joints = false;
  while (i < args.size()) {
    const std::string word = text::Lower(args[i]);
    if (word == "axis" && !axis) {
      axis = true;
      out.push_back("axis");
      if (!ThreeNumbers(args, i + 1, "the axis's", out, error)) return MakeError(error);
      if (Value(out[out.size() - 1]) == 0.0f && Value(out[out.size() - 2]) == 0.0f &&
          Value(out[out.size() - 3]) == 0.0f) {
        return MakeError("aim: the axis must not be zero, got 0 0 0" + tail);
      }
      i += 4;
    } else if (word == "joints" && !joints) {
      joints = true;
      const text::Number k = i + 1 < args.size() ? text::ParseInteger(args[i + 1]) : text::Number{};
      if (i + 1 >= args.size() || k.error != text::NumberError::kNone || k.value < 1 ||
          k.value > ToolState::kMaxAimJoints) {
        return MakeError("aim: expected joints K with K from 1 to " +
                         std::to_string(ToolState::kMaxAimJoints) + ", got " +
                         (i + 1 < args.size() ? text::Quote(args[i + 1]) : "nothing") + tail);
      }
      out.push_back("joints");
      out.push_back(std::to_string(static_cast<long>(k.value)));
      i += 2;
    } else {
      return MakeError("aim: expected axis or joints (each once), got " + text::Quote(args[i]) +
                       tail);
    }
  }
  return out;
}

std::string Triple(const glm::vec3& v) {
  return Canonical(v.x) + " " + Canonical(v.y) + " " + Canonical(v.z);
}

bool ApplyAimNow(AppState& state, Args args, CommandOutput& out) {
  ToolState& t = state.tools;
  if (args[0] == "off") {
    t.aim_at.reset();
    t.aim_error_deg.reset();
    out.Print("aim off");
    return true;
  }
  // Read everything first, so that a refused line changes nothing.
  std::optional<glm::vec3> at;
  glm::vec3 axis = t.aim_axis;
  int joints = t.aim_joints;
  std::size_t i = 0;
  if (args[0] != "axis" && args[0] != "joints") {
    at = glm::vec3(Value(args[0]), Value(args[1]), Value(args[2]));
    i = 3;
  }
  for (; i < args.size(); ++i) {
    if (args[i] == "axis") {
      axis = glm::vec3(Value(args[i + 1]), Value(args[i + 2]), Value(args[i + 3]));
      i += 3;
    } else if (args[i] == "joints") {
      joints = static_cast<int>(std::strtol(args[i + 1].c_str(), nullptr, 10));
      ++i;
    }
  }
  const int segments = static_cast<int>(state.chain.joint_count()) - 1;
  if (joints > segments) {
    return out.Fail("aim: joints " + std::to_string(joints) + " is more than this chain's " +
                    std::to_string(segments) + " segments (1 to " + std::to_string(segments) + ")");
  }
  if (at) t.aim_at = at;
  t.aim_axis = axis;
  t.aim_joints = joints;
  const std::string what = "axis " + Triple(axis) + " of the effector turned by the last " +
                           std::to_string(joints) + (joints == 1 ? " joint" : " joints");
  out.Print(t.aim_at ? "aim " + Triple(*t.aim_at) + ": " + what + " points at it" + SceneNote(state)
                     : "aim: " + what + " (off until aim X Y Z)");
  return true;
}
std::string SavedAim(const AppState& state) {
  const ToolState& t = state.tools;
  if (!t.aim_at) return "";
  return Triple(*t.aim_at) + " axis " + Triple(t.aim_axis) + " joints " +
         std::to_string(t.aim_joints);
}

constexpr std::string_view kOff[] = {"off"};
constexpr std::string_view kLimit[] = {"limit"};
constexpr std::string_view kSoftenDetails[] = {
    "  Beyond R x reach the effector approaches the target asymptotically instead of",
    "  snapping straight (ozz-animation's soften). Any solver; 1 or off: none."};
constexpr std::string_view kStretchDetails[] = {
    "  A target past the reach, up to S x reach, is reached by scaling every segment by one",
    "  factor (drawn warmer); farther, the chain is stretched by S towards it. 1 or off: none.",
    "  Not with soften or stiffness."};
constexpr std::string_view kTurnDetails[] = {
    "  No segment's direction turns by more than A degrees in one frame, so a jumping target",
    "  is followed smoothly over several frames (an anti-jitter clamp)."};
constexpr std::string_view kStiffnessDetails[] = {
    "  Joint I (0 = root) keeps its bend angle within (1 - S) x 180 degrees of the pose",
    "  when it was set; 1 keeps it, 0 frees it. The textbook FABRIK passes with bands, then",
    "  rigid stiff runs if they stall. Cleared when the joint count changes."};
constexpr std::string_view kAimKeywords[] = {"off", "axis", "joints", "at"};
constexpr std::string_view kAimDetails[] = {
    "  Look-at, after the position solve: the last K joints (default 1) turn so that the axis",
    "  AX AY AZ, fixed in the effector's frame (+Y along the last bone, the default), points",
    "  from the effector at X Y Z. K >= 2 aims any axis; 1 is dependable for +Y. The turn moves",
    "  the effector off the target by what the aim needs. Chain scene."};
constexpr std::string_view kPoleDetails[] = {
    "  The point the two_bone solver's elbow bends towards (world units)."};

bool& SplineIk(AppState& state) { return state.tools.spline_ik; }

std::string SplineIkNote(const AppState& state, bool on) {
  if (!on) return "";
  if (!state.spline.follower.has_spline()) return " (no spline loaded yet: spline load PATH)";
  return SceneNote(state);
}

constexpr std::string_view kSplineIkDetails[] = {
    "  The chain lies along the loaded spline behind the spline target, every joint on the",
    "  curve and every length kept: a snake following the path. Chain scene."};

const CommandEntry kToolsEntries[] = {
    {{"soften", kSoftenUsage, "ease the effector in near full reach", kSoftenDetails, ParseSoften,
      kOff},
     AndRestep<ApplySoftenNow>,
     nullptr,
     SavedSoften},
    {{"stretch", kStretchUsage, "let segments stretch to reach past the reach", kStretchDetails,
      ParseStretch, kOff},
     AndRestep<ApplyStretchNow>,
     nullptr,
     SavedStretch},
    {{"turn", kTurnUsage, "at most A degrees of turn per segment per frame", kTurnDetails,
      ParseTurn, kLimit},
     AndRestep<ApplyTurnNow>,
     nullptr,
     SavedTurn},
    {{"stiffness", kStiffnessUsage, "how much joint I keeps its bend (0..1)", kStiffnessDetails,
      ParseStiffness, kOff},
     AndRestep<ApplyStiffnessNow>},
    {{"pole", kPoleUsage, "the two_bone solver's elbow pole", kPoleDetails, ParsePole, kOff},
     AndRestep<ApplyPoleNow>},
    {{"aim", kAimUsage, "look-at: turn the last joints to aim an axis at a point", kAimDetails,
      ParseAim, kAimKeywords},
     AndRestep<ApplyAimNow>,
     nullptr,
     SavedAim},
    {.language = OnOffLanguage("spline ik", "spline ik on|off",
                               "lay the chain along the spline (a snake)", kSplineIkDetails),
     .flag = {.field = SplineIk,
              .on_text = "spline ik on: the chain follows the spline",
              .off_text = "spline ik off",
              .note = SplineIkNote,
              .saved = true}},
};

}  // namespace

bool SelectTwoBone(AppState& state, CommandOutput& out) {
  const std::size_t n = state.chain.joint_count();
  if (state.scene.controls().two_bone) {
    // The arm: its shoulder, elbow and wrist (scenes/arm/arm_scene.h: SolveArmElbow).
    state.tools.two_bone = true;
    out.Print(
        "solver two_bone: shoulder, elbow and wrist by the law of cosines, the hand along the "
        "line from the shoulder to the target (hinge limits not applied)");
    RerecordStep(state);
    return true;
  }
  if (!state.scene.free_chain()) {
    return out.Fail(
        "solver two_bone: the chain scene's (3 joints) and the arm's ('scene chain' or "
        "'scene arm' first)");
  }
  if (n != 3) {
    return out.Fail("solver two_bone: needs a chain of exactly 3 joints, this one has " +
                    std::to_string(n) + " ('joints 3' first)");
  }
  state.tools.two_bone = true;
  out.Print("solver two_bone: the law of cosines in one step" +
            std::string(state.tools.pole ? " (elbow towards the pole)" : ""));
  RerecordStep(state);
  return true;
}

std::span<const CommandEntry> ToolCommandEntries() { return kToolsEntries; }

}  // namespace fabrik
