// The walker scene's own commands (docs/walker.md: The walker scene): `terrain load` for its
// ground and `walker debug|leg` for its debug views, one CommandEntry each, listed in the
// command table through the walker's registry line.
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include "core/app_state.h"
#include "core/command_table.h"
#include "core/scene_registry.h"
#include "core/terrain_load.h"
#include "lang/text.h"
#include "scenes/walker/walker_scene.h"
#include "terrain/heightmap.h"

namespace fabrik {
namespace {

using Args = std::span<const std::string>;

// terrain load PATH [S H] (docs/walker.md: The walker scene): S in [0.001, 1e5], H in [0, 1e4]
// (the heightmap's own bounds, so what parses loads); the numbers are written back with 9
// significant digits so the apply step reads the same floats.
Result<std::vector<std::string>> ParseTerrain(Args args) {
  constexpr const char* kUsage = " (usage: terrain load PATH [S H])";
  if (args.empty() || text::Lower(args[0]) != "load") {
    return MakeError(std::string("terrain: expected load") +
                     (args.empty() ? std::string() : ", got " + text::Quote(args[0])) + kUsage);
  }
  if (args.size() != 2 && args.size() != 4) {
    return MakeError("terrain load: expected PATH or PATH S H, got " +
                     std::to_string(args.size() - 1) + " arguments" + kUsage);
  }
  if (args[1].empty()) return MakeError("terrain load: the path is empty");
  std::vector<std::string> out = {"load", args[1]};
  if (args.size() == 4) {
    struct Bound {
      const char* what;
      float lo;
      float hi;
      const char* description;
    };
    const Bound bounds[] = {
        {"terrain load S", Heightmap::kMinSize, Heightmap::kMaxSize, "a number from 0.001 to 1e5"},
        {"terrain load H", 0.0f, Heightmap::kMaxHeight, "a number from 0 to 1e4"}};
    for (int k = 0; k < 2; ++k) {
      const std::string& word = args[static_cast<std::size_t>(2 + k)];
      const Bound& b = bounds[k];
      const text::Number n = text::ParseReal(word);
      const auto f = static_cast<float>(n.value);
      const bool in_range = n.error == text::NumberError::kNone && f >= b.lo && f <= b.hi;
      if (!in_range) {
        return MakeError(std::string(b.what) + ": expected " + b.description + ", got " +
                         text::Quote(word));
      }
      char buf[32];
      std::snprintf(buf, sizeof(buf), "%.9g", static_cast<double>(f));
      out.emplace_back(buf);
    }
  }
  return out;
}

bool ApplyTerrain(AppState& state, Args args, CommandOutput& out) {
  const std::string& path = args[1];
  const std::string resolved = ResolveDataPath(path, state.command_context.search_roots);
  std::error_code ec;
  if (!std::filesystem::exists(resolved, ec)) {
    std::string looked = "the working directory";
    for (const std::string& root : state.command_context.search_roots) looked += ", " + root;
    return out.Fail("terrain load: cannot find " + text::Quote(path) + " (looked in " + looked +
                    ")");
  }
  const bool scaled = args.size() == 4;
  const float size = scaled ? std::strtof(args[2].c_str(), nullptr) : state.terrain.size;
  const float height = scaled ? std::strtof(args[3].c_str(), nullptr) : state.terrain.height;
  if (!LoadTerrain(state, path, resolved, size, height)) return out.Fail(state.message);
  char buf[96];
  std::snprintf(buf, sizeof(buf), ": %.4g x %.4g, %.4g high", static_cast<double>(size),
                static_cast<double>(size), static_cast<double>(height));
  out.Print("terrain " + resolved + buf +
            (SceneOnTerrain(state.scene.name())
                 ? ""
                 : " (shown in the " + ScenesOnTerrainText() + " scenes)"));
  return true;
}

constexpr std::string_view kTerrainDetails[] = {
    "  An 8- or 16-bit grayscale PNG covering [-S/2, S/2] in X and Z; white is H high.",
    "  S in [0.001, 1e5] and H in [0, 1e4] (default: the current ones, at start 40 and 3).",
    "  A file that cannot be used is refused with a message; nothing changes."};
constexpr std::string_view kTerrainKeywords[] = {"load"};

// walker debug on|off, walker leg N|none: the walker scene's debug views (as the panel's);
// walker model PATH|procedural: its body.
constexpr const char* kWalkerUsage =
    "walker debug on|off | walker leg N|none | walker model PATH|procedural";

Result<std::vector<std::string>> ParseWalker(Args args) {
  const std::string kUsage = std::string(" (usage: ") + kWalkerUsage + ")";
  const std::string sub = args.empty() ? "" : text::Lower(args[0]);
  if (args.size() != 2 || (sub != "debug" && sub != "leg" && sub != "model")) {
    return MakeError("walker: expected debug on|off, leg N|none or model PATH|procedural" + kUsage);
  }
  if (sub == "model") {
    if (args[1].empty()) return MakeError("walker model: the path is empty" + kUsage);
    if (text::Lower(args[1]) == "procedural") return std::vector<std::string>{sub, "procedural"};
    return std::vector<std::string>{sub, args[1]};
  }
  const std::string value = text::Lower(args[1]);
  if (sub == "debug") {
    Result<bool> on = ParseOnOff("walker debug", args.subspan(1));
    if (!on.ok()) return MakeError(on.error());
    return std::vector<std::string>{sub, on.value() ? "on" : "off"};
  }
  if (value == "none") return std::vector<std::string>{sub, value};
  const text::Number n = text::ParseInteger(value);
  if (n.error != text::NumberError::kNone || n.value < 0 || n.value > 63) {
    return MakeError("walker leg: expected a leg index from 0 or none, got " +
                     text::Quote(args[1]));
  }
  return std::vector<std::string>{sub, value};
}

bool ApplyWalker(AppState& state, Args args, CommandOutput& out) {
  WalkerScene* scene = state.scene.As<WalkerScene>();
  if (scene == nullptr || !scene->active()) {
    return out.Fail("walker: only in the walker scene (type 'scene walker')");
  }
  if (args[0] == "model") {
    const bool procedural = args[1] == "procedural";
    if (Status done = scene->SetModel(state, procedural ? std::string() : args[1]); !done) {
      return out.Fail("walker model: " + done.error());
    }
    if (procedural) {
      out.Print("walker model procedural");
    } else {
      const character::Model& m = scene->quadruped->model();
      out.Print("walker model: " + args[1] + " (" + std::to_string(m.skeleton.bone_count()) +
                " bones, " + std::to_string(m.vertices.size()) + " vertices)");
    }
    return true;
  }
  if (args[0] == "debug") {
    scene->SetDebug(args[1] == "on", scene->step_leg);
    out.Print(std::string("walker debug ") + (scene->show_pre_solve ? "on" : "off"));
    return true;
  }
  const int legs = scene->leg_count();
  const int leg = args[1] == "none" ? -1 : std::atoi(args[1].c_str());
  if (leg >= legs) {
    return out.Fail("walker leg: " + args[1] + " is not a leg (0.." + std::to_string(legs - 1) +
                    ")");
  }
  scene->SetDebug(scene->show_pre_solve, leg);
  out.Print(leg < 0 ? "walker leg none" : "walker leg " + std::to_string(leg) + " recorded");
  return true;
}

constexpr std::string_view kWalkerDetails[] = {
    "  walker debug on|off   every leg's chain before its solve, its pole and swing arc",
    "  walker leg N|none     record leg N's solves and draw them half-pass by half-pass",
    "  walker model PATH     a four-legged skinned model walks instead (its own walk and run,",
    "                        FABRIK on each leg); the packaged one:",
    "                        /usr/share/assimp/models/X/Testwuson.X (assimp-testmodels)",
    "  walker model procedural   the spider again"};
constexpr std::string_view kWalkerKeywords[] = {"debug", "leg", "model", "procedural"};

// `walker model` reads a model file: a whole frame of a script's budget.
bool WalkerLineRereads(std::span<const std::string> args) {
  return !args.empty() && args[0] == "model";
}

const CommandEntry kWalkerEntries[] = {
    {{"terrain", "terrain load PATH [S H]", "the ground (walker, mocap, crowd) from a gray PNG", kTerrainDetails,
      ParseTerrain, kTerrainKeywords},
     ApplyTerrain,
     nullptr,
     nullptr,
     nullptr,
     EveryLineAWholeFrame},
    {{"walker", kWalkerUsage, "the walker scene's body and debug views", kWalkerDetails,
      ParseWalker, kWalkerKeywords},
     ApplyWalker,
     nullptr,
     nullptr,
     nullptr,
     WalkerLineRereads},
};

}  // namespace

std::span<const CommandEntry> WalkerCommandEntries() { return kWalkerEntries; }

}  // namespace fabrik
