// The markers scene's console command (docs/markers.md, "The markers scene"), one entry of the
// app's command table: `markers` load, play, pause, speed, frame, loop, hide, export. The parser
// writes numbers back with 9 significant digits, so the apply step reads the same floats a
// script replays.
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "core/app_state.h"
#include "core/command_table.h"
#include "core/frame.h"
#include "core/saved_setting.h"
#include "core/scene_registry.h"
#include "lang/text.h"
#include "scenes/markers/markers_scene.h"

namespace fabrik {
namespace {

using MarkersArgs = std::span<const std::string>;

constexpr const char* kMarkersUsage =
    "markers load PATH | markers play|pause | markers speed X | markers frame N | "
    "markers loop on|off | markers hide NAMES|SEGMENT for SECONDS | markers export bvh|trc PATH";

std::string MarkersNumber(double v) {
  char buf[32];
  std::snprintf(buf, sizeof(buf), "%.9g", v);
  return buf;
}

Result<std::vector<std::string>> MarkersUsageError(const std::string& what) {
  return MakeError("markers: " + what + " (usage: " + kMarkersUsage + ")");
}

// A real number in [lo, hi] (lo itself excluded when `open_low`), written back canonically.
Result<std::string> MarkersReal(const std::string& what, const std::string& word, double lo,
                                double hi, bool open_low) {
  const text::Number n = text::ParseReal(word);
  const auto f = static_cast<float>(n.value);
  const bool low_ok = open_low ? f > lo : f >= lo;
  if (n.error != text::NumberError::kNone || !low_ok || !(f <= hi)) {
    return MakeError(what + ": expected a number " + (open_low ? "above " : "from ") +
                     MarkersNumber(lo) + (open_low ? " up to " : " to ") + MarkersNumber(hi) +
                     ", got " + text::Quote(word));
  }
  return MarkersNumber(f);
}

// hide NAME[,NAME...] ... for SECONDS -> {"hide", NAME, ..., "for", SECONDS}
Result<std::vector<std::string>> ParseMarkersHide(MarkersArgs args) {
  std::vector<std::string> out = {"hide"};
  std::size_t i = 1;
  for (; i < args.size() && text::Lower(args[i]) != "for"; ++i) {
    std::size_t begin = 0;
    const std::string& word = args[i];
    while (begin <= word.size()) {
      const std::size_t comma = std::min(word.find(',', begin), word.size());
      if (comma > begin) out.push_back(word.substr(begin, comma - begin));
      begin = comma + 1;
    }
  }
  if (out.size() == 1) return MarkersUsageError("hide: expected marker or segment names");
  if (i + 2 != args.size()) return MarkersUsageError("hide: expected 'for SECONDS' at the end");
  auto seconds = MarkersReal("markers hide", args[i + 1], 0.0, MarkersScene::kMaxHideSeconds, true);
  if (!seconds) return MakeError(seconds.error());
  out.push_back("for");
  out.push_back(seconds.value());
  return out;
}

Result<std::vector<std::string>> ParseMarkers(MarkersArgs args) {
  const std::string sub = args.empty() ? "" : text::Lower(args[0]);
  if (sub == "play" || sub == "pause") {
    if (args.size() != 1) return MarkersUsageError(sub + " takes no argument");
    return std::vector<std::string>{sub};
  }
  if (sub == "hide") return ParseMarkersHide(args);
  if (sub == "export") {
    const std::string kind = args.size() == 3 ? text::Lower(args[1]) : "";
    if (kind != "bvh" && kind != "trc")
      return MarkersUsageError("export: expected bvh or trc, then PATH");
    if (args[2].empty()) return MakeError("markers export: the path is empty");
    return std::vector<std::string>{"export", kind, args[2]};
  }
  if (args.size() != 2) {
    return MarkersUsageError(args.empty()
                                 ? "expected load, play, pause, speed, frame, loop, hide or export"
                                 : "expected " + text::Quote(args[0]) + " and one argument");
  }
  if (sub == "load") {
    if (args[1].empty()) return MakeError("markers load: the path is empty");
    return std::vector<std::string>{"load", args[1]};
  }
  if (sub == "speed") {
    auto v = MarkersReal("markers speed", args[1], kMinPlaybackSpeed, kMaxPlaybackSpeed, false);
    if (!v) return MakeError(v.error());
    return std::vector<std::string>{"speed", v.value()};
  }
  if (sub == "frame") {
    const text::Number n = text::ParseInteger(args[1]);
    if (n.error != text::NumberError::kNone || n.value < 0 || n.value > markers::kMaxFrames) {
      return MakeError("markers frame: expected a frame number from 0 to " +
                       std::to_string(markers::kMaxFrames) + ", got " + text::Quote(args[1]));
    }
    return std::vector<std::string>{"frame", std::to_string(static_cast<long>(n.value))};
  }
  if (sub == "loop") {
    auto on = ParseOnOff("markers loop", args.subspan(1));
    if (!on) return MakeError(on.error());
    return std::vector<std::string>{"loop", on.value() ? "on" : "off"};
  }
  return MarkersUsageError("unknown " + text::Quote(args[0]));
}

// Loads `path` into the markers scene: in place when it is on, else by switching to it. On
// failure the scene and the remembered take are unchanged.
bool LoadTake(AppState& state, const std::string& path, CommandOutput& out) {
  const std::string resolved = ResolveDataPath(path, state.command_context.search_roots);
  MarkersConfig& config = state.scene.configs.Get<MarkersConfig>();
  const MarkersConfig before = config;
  bool ok = false;
  if (MarkersScene* scene = state.scene.As<MarkersScene>()) {
    ok = scene->Load(state, path, resolved);
  } else {
    config.take_path = path;
    ok = SetScene(state, "markers");
  }
  if (!ok) {
    state.scene.configs.Get<MarkersConfig>() = before;
    return out.Fail(state.message);
  }
  state.scene.configs.Get<MarkersConfig>().take_path = path;
  const MarkersScene& scene = *state.scene.As<MarkersScene>();
  out.Print("markers: " + resolved + " (" + std::to_string(scene.take().marker_count()) +
            " markers, " + std::to_string(scene.take().frame_count) + " frames at " +
            MarkersNumber(scene.take().rate) + " Hz)");
  return true;
}

bool ApplyMarkersHide(MarkersScene& scene, MarkersArgs args, CommandOutput& out) {
  const std::vector<std::string> words(args.begin() + 1, args.end() - 2);
  const float seconds = std::strtof(args.back().c_str(), nullptr);
  Result<std::vector<std::string>> hidden = scene.Hide(words, seconds);
  if (!hidden) return out.Fail("markers hide: " + hidden.error());
  std::string names;
  for (const std::string& n : hidden.value()) names += (names.empty() ? "" : ",") + n;
  out.Print("markers hide " + names + " for " + args.back() + " s");
  return true;
}

bool ApplyMarkers(AppState& state, MarkersArgs args, CommandOutput& out) {
  const std::string& sub = args[0];
  if (sub == "load") return LoadTake(state, args[1], out);
  MarkersScene* scene = state.scene.As<MarkersScene>();
  if (scene == nullptr) {
    return out.Fail("markers " + sub + ": the markers scene is not on (type 'scene markers')");
  }
  if (sub == "hide") return ApplyMarkersHide(*scene, args, out);
  if (sub == "export") {
    if (Status started = scene->StartExport(args[1], args[2]); !started) {
      return out.Fail("markers export: " + started.error());
    }
    out.Print("markers export: solving " + std::to_string(scene->take().frame_count) +
              " frames into " + args[2] + " (the state line's markers.export has the progress)");
    return true;
  }
  Playback& p = scene->playback;
  if (sub == "play") {
    if (!p.loop && p.time >= scene->duration()) p.time = 0.0f;
    p.playing = true;
  } else if (sub == "pause") {
    p.playing = false;
  } else if (sub == "speed") {
    p.speed = std::strtof(args[1].c_str(), nullptr);
  } else if (sub == "frame") {
    scene->SetFrame(std::atoi(args[1].c_str()));
  } else if (sub == "loop") {
    p.loop = args[1] == "on";
  }
  out.Print("markers " + sub + (args.size() > 1 ? " " + args[1] : std::string()));
  return true;
}

// `load` reads and calibrates a take: a whole frame of a script's budget
// (CommandEntry::whole_frame). An export only starts (its work is spread over frames).
bool MarkersLineRereads(std::span<const std::string> args) {
  return !args.empty() && args[0] == "load";
}

constexpr std::string_view kMarkersDetails[] = {
    "  load PATH: a CSM or TRC marker take (relative paths: the working directory, then the",
    "    data folder), calibrated with the CMU marker set; a file that cannot be used gives",
    "    one error and changes nothing.",
    "  play, pause; speed X (0.05..4 times real time); frame N (jump, clamped to the take);",
    "  loop on|off.",
    "  hide NAMES|SEGMENT for SECONDS: markers (comma or space separated) or a segment",
    "    (pelvis, thorax, head, upperarm_l, forearm_l, hand_l, ..., foot_r) hidden from the",
    "    frame shown for SECONDS of the take (up to 60): the solve predicts them. A left",
    "    click on a marker hides it for 2 s.",
    "  export bvh|trc PATH: the whole take solved, as the skeleton's BVH or the gap-filled",
    "    markers' TRC, a few frames at a time while the demo runs, then written atomically",
    "    (progress: the state line's markers.export; leaving the scene cancels it).",
    "  The packaged take is in /usr/share/assimp/models/CSM (package assimp-testmodels)."};
constexpr std::string_view kMarkersKeywords[] = {"load",  "play", "pause", "speed",
                                                 "frame", "loop", "hide",  "export"};

// Saved: a take other than the default, under "take", restored (`markers load`, which switches
// to the markers scene) only when the saved scene is the markers scene, before the scene line.
void RestoreTake(const nlohmann::json& v, const SettingValues& all, RestoreLines& out) {
  const auto scene = all.find("scene");
  if (scene != all.end() && scene->second == "markers") {
    out.now.push_back(SettingQuoted("markers load", v.get<std::string>()));
  }
}
constexpr std::string_view kTakeOverriddenBy[] = {"--markers"};
const SavedSetting kTakeSaved = {
    .key = "take",
    .order = RestoreOrder::kSceneFile,
    .capture =
        [](const AppState& state) {
          const std::string& path = state.scene.configs.Get<MarkersConfig>().take_path;
          return path != kDefaultTakePath ? nlohmann::json(SettingPath(path)) : nlohmann::json();
        },
    .check = CheckSettingPath,
    .restore = RestoreTake,
    .overridden_by = kTakeOverriddenBy};

const CommandEntry kMarkersEntries[] = {
    {{"markers", kMarkersUsage,
      "the optical marker take: load, play, pause, speed, frame, loop, hide, export",
      kMarkersDetails, ParseMarkers, kMarkersKeywords},
     ApplyMarkers,
     nullptr,
     nullptr,
     &kTakeSaved,
     MarkersLineRereads},
};

}  // namespace

std::span<const CommandEntry> MarkersCommandEntries() { return kMarkersEntries; }

}  // namespace fabrik
