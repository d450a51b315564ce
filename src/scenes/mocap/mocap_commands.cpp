// The mocap scene's console commands (docs/mocap.md: The mocap scene), entries of the app's
// command table: `mocap` (load, play, pause, speed, frame, loop, scale, export), `reach`, `look`,
// `ik weight`, `character`, `retarget`, `ghost` and `follow`. Each parser writes its numbers back
// with 9 significant digits, so the apply step reads the same floats a script replays.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include "core/app_state.h"
#include "core/command_table.h"
#include "core/frame.h"
#include "core/saved_setting.h"
#include "core/scene_registry.h"
#include "lang/text.h"
#include "scenes/crowd/crowd_scene.h"
#include "scenes/mocap/mocap_scene.h"

namespace fabrik {
namespace {

using Args = std::span<const std::string>;

// Largest |coordinate| of a reach or look point, metres (the library's own limit).
constexpr float kMaxPointMetres = 1e4f;

std::string Canonical(float f) {
  char buf[32];
  std::snprintf(buf, sizeof(buf), "%.9g", static_cast<double>(f));
  return buf;
}

float Float(const std::string& word) { return std::strtof(word.c_str(), nullptr); }

// One real number in [lo, hi], written back canonically; else the one error line.
Result<std::string> Real(const std::string& what, const std::string& word, float lo, float hi,
                         const char* usage) {
  const text::Number n = text::ParseReal(word);
  const auto f = static_cast<float>(n.value);
  if (n.error != text::NumberError::kNone || !(f >= lo && f <= hi)) {
    return MakeError(what + ": expected a number from " + Canonical(lo) + " to " + Canonical(hi) +
                     ", got " + text::Quote(word) + " (usage: " + usage + ")");
  }
  return Canonical(f);
}

// Three coordinates X Y Z, world metres.
Result<std::vector<std::string>> Point(const std::string& what, Args xyz, const char* usage) {
  std::vector<std::string> out;
  for (const std::string& word : xyz) {
    auto v = Real(what, word, -kMaxPointMetres, kMaxPointMetres, usage);
    if (!v) return MakeError(v.error());
    out.push_back(std::move(v).value());
  }
  return out;
}

glm::vec3 PointOf(Args words) { return {Float(words[0]), Float(words[1]), Float(words[2])}; }

MocapScene* Mocap(AppState& state) { return state.scene.As<MocapScene>(); }

bool NeedMocap(const std::string& what, CommandOutput& out) {
  return out.Fail(what + ": the mocap scene is not on (type 'scene mocap')");
}

// --- mocap load PATH | play | pause | speed X | frame N | loop on|off | scale S|auto |
//     export PATH ---

constexpr const char* kMocapUsage =
    "mocap load PATH | mocap play|pause | mocap speed X | mocap frame N | mocap loop on|off | "
    "mocap scale S|auto | mocap export PATH";

Result<std::vector<std::string>> ParseMocap(Args args) {
  const std::string sub = args.empty() ? "" : text::Lower(args[0]);
  auto usage_error = [&](const std::string& what) {
    return MakeError("mocap: " + what + " (usage: " + kMocapUsage + ")");
  };
  if (sub == "play" || sub == "pause") {
    if (args.size() != 1) return usage_error(sub + " takes no argument");
    return std::vector<std::string>{sub};
  }
  if (args.size() != 2) {
    return usage_error(args.empty()
                           ? "expected load, play, pause, speed, frame, loop, scale or export"
                           : "expected " + text::Quote(args[0]) + " and one argument");
  }
  if (sub == "load" || sub == "export") {
    if (args[1].empty()) return MakeError("mocap " + sub + ": the path is empty");
    return std::vector<std::string>{sub, args[1]};
  }
  if (sub == "speed") {
    auto v = Real("mocap speed", args[1], kMinPlaybackSpeed, kMaxPlaybackSpeed, kMocapUsage);
    if (!v) return MakeError(v.error());
    return std::vector<std::string>{"speed", v.value()};
  }
  if (sub == "frame") {
    const text::Number n = text::ParseInteger(args[1]);
    if (n.error != text::NumberError::kNone || n.value < 0 || n.value > mocap::kMaxFrames) {
      return MakeError("mocap frame: expected a frame number from 0 to " +
                       std::to_string(mocap::kMaxFrames) + ", got " + text::Quote(args[1]));
    }
    return std::vector<std::string>{"frame", std::to_string(static_cast<long>(n.value))};
  }
  if (sub == "loop") {
    auto on = ParseOnOff("mocap loop", args.subspan(1));
    if (!on) return MakeError(on.error());
    return std::vector<std::string>{"loop", on.value() ? "on" : "off"};
  }
  if (sub == "scale") {
    if (text::Lower(args[1]) == "auto") return std::vector<std::string>{"scale", "auto"};
    auto v = Real("mocap scale", args[1], mocap::kMinScale, mocap::kMaxScale, kMocapUsage);
    if (!v) return MakeError(v.error());
    return std::vector<std::string>{"scale", v.value()};
  }
  return usage_error("unknown " + text::Quote(args[0]));
}

// Loads `path` with `scale` into the scene that plays clips: the mocap scene in place, the
// crowd by rebuilding it, any other scene by switching to the mocap scene. On failure the
// scene and the remembered clip are unchanged.
bool LoadClip(AppState& state, const std::string& path, float scale, CommandOutput& out) {
  const std::string resolved = ResolveDataPath(path, state.command_context.search_roots);
  const MocapConfig before = state.scene.configs.Get<MocapConfig>();
  bool ok = false;
  if (MocapScene* scene = Mocap(state)) {
    ok = scene->Load(state, path, resolved, scale);
  } else {
    state.scene.configs.Get<MocapConfig>().clip_path = path;
    state.scene.configs.Get<MocapConfig>().scale = scale;
    ok = SetScene(state, state.scene.name() == "crowd" ? "crowd" : "mocap");
  }
  if (!ok) {
    state.scene.configs.Get<MocapConfig>() = before;
    return out.Fail(state.message);
  }
  state.scene.configs.Get<MocapConfig>().clip_path = path;
  state.scene.configs.Get<MocapConfig>().scale = scale;
  out.Print("mocap: " + resolved);
  return true;
}

bool ApplyMocap(AppState& state, Args args, CommandOutput& out) {
  const std::string& sub = args[0];
  if (sub == "load") {
    return LoadClip(state, args[1], state.scene.configs.Get<MocapConfig>().scale, out);
  }
  if (sub == "scale") {
    const float scale = args[1] == "auto" ? 0.0f : Float(args[1]);
    if (!Mocap(state) && state.scene.name() != "crowd") {
      state.scene.configs.Get<MocapConfig>().scale = scale;  // the next clip loaded uses it
      out.Print("mocap scale " + args[1]);
      return true;
    }
    return LoadClip(state, state.scene.configs.Get<MocapConfig>().clip_path, scale, out);
  }
  MocapScene* scene = Mocap(state);
  if (scene == nullptr) return NeedMocap("mocap " + sub, out);
  if (sub == "export") {
    if (Status started = scene->StartExport(state, args[1]); !started) {
      return out.Fail("mocap export: " + started.error());
    }
    const int frames = scene->clip_export()->frame_count();
    out.Print("mocap export " + args[1] + ": baking " + std::to_string(frames) + " frames");
    return true;
  }
  Playback& p = scene->playback;
  if (sub == "play") {
    if (!p.loop && p.time >= scene->character().rig().clip.duration()) p.time = 0.0f;
    p.playing = true;
  } else if (sub == "pause") {
    p.playing = false;
  } else if (sub == "speed") {
    p.speed = Float(args[1]);
  } else if (sub == "frame") {
    scene->SetFrame(std::atoi(args[1].c_str()));
  } else if (sub == "loop") {
    p.loop = args[1] == "on";
  }
  out.Print("mocap " + sub + (args.size() > 1 ? " " + args[1] : std::string()));
  return true;
}

constexpr std::string_view kMocapDetails[] = {
    "  load PATH: a BVH clip (relative paths: the working directory, then the data folder);",
    "    a file that cannot be used gives one error and changes nothing.",
    "  play, pause; speed X (0.05..4 times real time); frame N (jump, clamped to the clip);",
    "  loop on|off; scale S|auto: metres per file unit, auto from the skeleton's height.",
    "  export PATH: the clip with the IK baked in, as BVH (the ground, weight and targets",
    "    now), 32 clip frames a frame; 'mocap export: wrote PATH' when complete.",
    "  The packaged clips are in /usr/share/assimp/models/BVH (package assimp-testmodels)."};
constexpr std::string_view kMocapKeywords[] = {"load",  "play", "pause", "speed",
                                               "frame", "loop", "scale", "export"};

// --- reach left|right X Y Z | reach left|right off | reach right target ---

constexpr const char* kReachUsage =
    "reach left|right X Y Z | reach left|right off | "
    "reach right target";

Result<std::vector<std::string>> ParseReach(Args args) {
  const std::string side = args.empty() ? "" : text::Lower(args[0]);
  if (side != "left" && side != "right") {
    return MakeError("reach: expected left or right" +
                     (args.empty() ? std::string() : ", got " + text::Quote(args[0])) +
                     " (usage: " + kReachUsage + ")");
  }
  if (args.size() == 2) {
    const std::string word = text::Lower(args[1]);
    if (word == "off" || (word == "target" && side == "right")) {
      return std::vector<std::string>{side, word};
    }
  }
  if (args.size() != 4) {
    return MakeError("reach " + side + ": expected X Y Z or off" +
                     std::string(side == "right" ? " or target" : "") + " (usage: " + kReachUsage +
                     ")");
  }
  auto xyz = Point("reach " + side, args.subspan(1), kReachUsage);
  if (!xyz) return xyz;
  xyz.value().insert(xyz.value().begin(), side);
  return xyz;
}

bool ApplyReach(AppState& state, Args args, CommandOutput& out) {
  MocapScene* scene = Mocap(state);
  if (scene == nullptr) return NeedMocap("reach", out);
  const mocap::Side side = args[0] == "left" ? mocap::kLeft : mocap::kRight;
  const std::string what = "reach " + args[0];
  Status done = args[1] == "target" ? scene->FollowTarget()
                : args[1] == "off"  ? scene->SetReach(state, side, std::nullopt)
                                    : scene->SetReach(state, side, PointOf(args.subspan(1)));
  if (!done) return out.Fail(what + ": " + done.error());
  std::string echo = what;
  for (std::size_t i = 1; i < args.size(); ++i) echo += " " + args[i];
  out.Print(echo);
  return true;
}

constexpr std::string_view kReachDetails[] = {
    "  World metres. The hand's target eases in over 0.3 s; one out of reach is pointed at.",
    "  The right hand's target is the app's target: drag it, or use the spline, console or",
    "  script mode. 'reach right target' follows the mode's target again; off lets go."};
constexpr std::string_view kReachKeywords[] = {"left", "right"};

// --- look X Y Z | look off ---

Result<std::vector<std::string>> ParseLook(Args args) {
  constexpr const char* kUsage = "look X Y Z | look off";
  if (args.size() == 1 && text::Lower(args[0]) == "off") return std::vector<std::string>{"off"};
  if (args.size() != 3) {
    return MakeError("look: expected X Y Z or off (usage: " + std::string(kUsage) + ")");
  }
  return Point("look", args, kUsage);
}

bool ApplyLook(AppState& state, Args args, CommandOutput& out) {
  MocapScene* scene = Mocap(state);
  if (scene == nullptr) return NeedMocap("look", out);
  const Status done =
      args[0] == "off" ? scene->SetLook(std::nullopt) : scene->SetLook(PointOf(args));
  if (!done) return out.Fail("look: " + done.error());
  out.Print(args[0] == "off" ? "look off" : "look " + args[0] + " " + args[1] + " " + args[2]);
  return true;
}

constexpr std::string_view kLookDetails[] = {
    "  The neck and head turn towards the point (world metres), at most 70 degrees from",
    "  the clip's direction, easing in and out over 0.3 s. Drag its marker to move it."};
constexpr std::string_view kLookKeywords[] = {"off"};

// --- ik weight W ---

Result<std::vector<std::string>> ParseIk(Args args) {
  constexpr const char* kUsage = "ik weight W";
  if (args.size() != 2 || text::Lower(args[0]) != "weight") {
    return MakeError("ik: expected weight W (usage: " + std::string(kUsage) + ")");
  }
  auto w = Real("ik weight", args[1], 0.0f, 1.0f, kUsage);
  if (!w) return MakeError(w.error());
  return std::vector<std::string>{"weight", w.value()};
}

bool ApplyIk(AppState& state, Args args, CommandOutput& out) {
  const float w = Float(args[1]);
  Status done = MakeError("the mocap or crowd scene is not on (type 'scene mocap')");
  if (MocapScene* scene = Mocap(state)) done = scene->SetIkWeight(w);
  if (CrowdScene* crowd = state.scene.As<CrowdScene>()) done = crowd->SetIkWeight(w);
  if (!done) return out.Fail("ik weight: " + done.error());
  out.Print("ik weight " + args[1]);
  return true;
}

constexpr std::string_view kIkDetails[] = {
    "  0 shows the clip itself, 1 the full IK (feet grounded, reach, look), between: blended."};
constexpr std::string_view kIkKeywords[] = {"weight"};

// --- character PATH | capsules; retarget on|off ---

constexpr const char* kCharacterUsage =
    "character PATH | character capsules | character skinning dq|linear";

Result<std::vector<std::string>> ParseCharacter(Args args) {
  if (args.size() == 2 && text::Lower(args[0]) == "skinning") {
    const std::string how = text::Lower(args[1]);
    if (how != "dq" && how != "linear") {
      return MakeError("character skinning: expected dq or linear, got " + text::Quote(args[1]) +
                       " (usage: " + std::string(kCharacterUsage) + ")");
    }
    return std::vector<std::string>{"skinning", how};
  }
  if (args.size() != 1 || args[0].empty()) {
    return MakeError("character: expected a model file or capsules (usage: " +
                     std::string(kCharacterUsage) + ")");
  }
  if (text::Lower(args[0]) == "capsules") return std::vector<std::string>{"capsules"};
  return std::vector<std::string>{args[0]};
}

// The crowd takes the model too (crowd_scene.h): all its clips on it, the nearest skinned.
bool ApplyCrowdCharacter(CrowdScene& crowd, AppState& state, Args args, CommandOutput& out) {
  if (args.size() == 2) return out.Fail("character skinning: the crowd skins by dual quaternions");
  const bool capsules = args[0] == "capsules";
  if (Status done = crowd.SetCharacter(state, capsules ? std::string() : args[0]); !done) {
    return out.Fail("character: " + done.error());
  }
  if (capsules) {
    out.Print("character capsules");
  } else {
    const character::Model& model = crowd.skin()->model();
    out.Print("character: " + args[0] + " (" + std::to_string(model.skeleton.bone_count()) +
              " bones, " + std::to_string(model.vertices.size()) + " vertices; the " +
              std::to_string(crowd.skinned().size()) + " nearest the camera's pivot skinned)");
  }
  return true;
}

bool ApplyCharacter(AppState& state, Args args, CommandOutput& out) {
  if (CrowdScene* crowd = state.scene.As<CrowdScene>()) {
    return ApplyCrowdCharacter(*crowd, state, args, out);
  }
  MocapScene* scene = Mocap(state);
  if (scene == nullptr) return NeedMocap("character", out);
  if (args.size() == 2) {
    scene->SetLinearSkinning(args[1] == "linear");
    out.Print("character skinning " + args[1]);
    return true;
  }
  const bool capsules = args[0] == "capsules";
  if (Status done = scene->SetCharacter(state, capsules ? std::string() : args[0]); !done) {
    return out.Fail("character: " + done.error());
  }
  if (capsules) {
    out.Print("character capsules");
  } else {
    const character::Model& model = scene->skin()->model();
    out.Print("character: " + args[0] + " (" + std::to_string(model.skeleton.bone_count()) +
              " bones, " + std::to_string(model.vertices.size()) + " vertices)");
  }
  return true;
}

constexpr std::string_view kCharacterDetails[] = {
    "  A skinned model (docs/characters.md: what loads), its bones following the clip after",
    "  the IK; the clip is reloaded scaled to the model's legs and restarts. capsules: the",
    "  clip's own bones as capsules. In the crowd scene every clip is reloaded on the model",
    "  and the 100 characters nearest the camera's pivot are skinned. The packaged human:",
    "  /usr/share/assimp/models/X/BCN_Epileptic.X (package assimp-testmodels).",
    "  skinning dq|linear: the GPU blends the bones by dual quaternions (default) or linearly."};
constexpr std::string_view kCharacterKeywords[] = {"capsules", "skinning"};

Result<std::vector<std::string>> ParseRetarget(Args args) {
  auto on = ParseOnOff("retarget", args);
  if (!on) return MakeError(on.error());
  return std::vector<std::string>{on.value() ? "on" : "off"};
}

bool ApplyRetarget(AppState& state, Args args, CommandOutput& out) {
  MocapScene* scene = Mocap(state);
  if (scene == nullptr) return NeedMocap("retarget", out);
  scene->SetRetarget(args[0] == "on");
  out.Print("retarget " + args[0]);
  return true;
}

constexpr std::string_view kRetargetDetails[] = {
    "  on: the skinned character's bones follow the clip (after the IK); off: it holds its",
    "  bind pose at the clip's pelvis."};

// --- ghost on|off, follow on|off: the mocap scene's view ---

Result<std::vector<std::string>> OnOffWords(std::string_view what, Args args) {
  auto on = ParseOnOff(what, args);
  if (!on) return MakeError(on.error());
  return std::vector<std::string>{on.value() ? "on" : "off"};
}

Result<std::vector<std::string>> ParseGhost(Args args) { return OnOffWords("ghost", args); }
Result<std::vector<std::string>> ParseFollow(Args args) { return OnOffWords("follow", args); }

// ghost and follow: one view flag of the scene each.
template <bool MocapScene::*kFlag>
bool ApplyViewFlag(AppState& state, Args args, CommandOutput& out) {
  const std::string name = kFlag == &MocapScene::ghost ? "ghost" : "follow";
  MocapScene* scene = Mocap(state);
  if (scene == nullptr) return NeedMocap(name, out);
  scene->*kFlag = args[0] == "on";
  out.Print(name + " " + args[0]);
  return true;
}

constexpr std::string_view kGhostDetails[] = {
    "  The clip's own pose, before IK, drawn faintly beside the corrected body."};
constexpr std::string_view kFollowDetails[] = {
    "  The camera's pivot moves with the character; orbit and zoom stay yours."};
constexpr std::string_view kOnOff[] = {"on", "off"};

// Saved: a clip other than the default, under "clip". It only matters to the scenes that play
// it: restored (`mocap load`, which switches to the mocap scene) only when the saved scene is
// one of them, before the scene line picks the saved one.
void RestoreClip(const nlohmann::json& v, const SettingValues& all, RestoreLines& out) {
  const auto scene = all.find("scene");
  if (scene != all.end() && (scene->second == "mocap" || scene->second == "crowd")) {
    out.now.push_back(SettingQuoted("mocap load", v.get<std::string>()));
  }
}
constexpr std::string_view kClipOverriddenBy[] = {"--bvh"};
const SavedSetting kClipSaved = {
    .key = "clip",
    .order = RestoreOrder::kSceneFile,
    .capture =
        [](const AppState& state) {
          return state.scene.configs.Get<MocapConfig>().clip_path != kDefaultClipPath
                     ? nlohmann::json(SettingPath(state.scene.configs.Get<MocapConfig>().clip_path))
                     : nlohmann::json();
        },
    .check = CheckSettingPath,
    .restore = RestoreClip,
    .overridden_by = kClipOverriddenBy};

// Saved: the skinned character's model, under "character", restored (`character PATH`) after
// every other setting, once the scene line has started the mocap or crowd scene, and only
// when the saved scene is one of them (the two scenes that draw it).
void RestoreCharacter(const nlohmann::json& v, const SettingValues& all, RestoreLines& out) {
  const auto scene = all.find("scene");
  if (scene != all.end() && (scene->second == "mocap" || scene->second == "crowd")) {
    out.last.push_back(SettingQuoted("character", v.get<std::string>()));
  }
}
constexpr std::string_view kCharacterOverriddenBy[] = {"--character"};
const SavedSetting kCharacterSaved = {
    .key = "character",
    .order = RestoreOrder::kSceneFile,
    .capture =
        [](const AppState& state) {
          const std::string& path = state.scene.configs.Get<MocapConfig>().character_path;
          return path.empty() ? nlohmann::json() : nlohmann::json(SettingPath(path));
        },
    .check = CheckSettingPath,
    .restore = RestoreCharacter,
    .overridden_by = kCharacterOverriddenBy};

// `mocap load` reads a clip and `mocap scale` re-measures it: a whole frame of a script's
// budget (CommandEntry::whole_frame).
bool MocapLineRereads(std::span<const std::string> args) {
  return !args.empty() && (args[0] == "load" || args[0] == "scale");
}

const CommandEntry kMocapEntries[] = {
    {{"mocap", kMocapUsage,
      "the motion-capture clip: load, play, pause, speed, frame, loop, export", kMocapDetails,
      ParseMocap, kMocapKeywords},
     ApplyMocap,
     nullptr,
     nullptr,
     &kClipSaved,
     MocapLineRereads},
    {{"reach", kReachUsage, "a hand of the mocap character reaches for a point", kReachDetails,
      ParseReach, kReachKeywords},
     ApplyReach},
    {{"look", "look X Y Z | look off", "the mocap character looks at a point", kLookDetails,
      ParseLook, kLookKeywords},
     ApplyLook},
    {{"ik", "ik weight W", "blend the mocap IK with the clip (0 clip .. 1 full IK)", kIkDetails,
      ParseIk, kIkKeywords},
     ApplyIk},
    {{"character", kCharacterUsage, "the mocap or crowd scene's body: a skinned model file, or capsules",
      kCharacterDetails, ParseCharacter, kCharacterKeywords},
     ApplyCharacter,
     nullptr,
     nullptr,
     &kCharacterSaved,
     EveryLineAWholeFrame},  // reads a model and the clip again
    {{"retarget", "retarget on|off", "the skinned character follows the clip (mocap scene)",
      kRetargetDetails, ParseRetarget, kOnOff},
     ApplyRetarget},
    {{"ghost", "ghost on|off", "draw the clip's own pose faintly (mocap scene)", kGhostDetails,
      ParseGhost, kOnOff},
     ApplyViewFlag<&MocapScene::ghost>},
    {{"follow", "follow on|off", "the camera follows the mocap character", kFollowDetails,
      ParseFollow, kOnOff},
     ApplyViewFlag<&MocapScene::follow>},
};

}  // namespace

std::span<const CommandEntry> MocapCommandEntries() { return kMocapEntries; }

}  // namespace fabrik
