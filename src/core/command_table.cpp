#include "core/command_table.h"

#include <array>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <filesystem>
#include <string>
#include <vector>

#include "core/app_state.h"
#include "core/commands.h"
#include "core/frame.h"
#include "core/scene_field.h"
#include "core/scene_registry.h"
#include "core/scene_walker.h"
#include "core/terrain_load.h"
#include "targets/text.h"

namespace fabrik {
namespace {

using Args = std::span<const std::string>;

// echo TEXT ...: prints its words, so that a script can narrate what it shows.
Result<std::vector<std::string>> ParseEcho(Args args) {
  if (args.empty()) return MakeError("echo: expected some text (usage: echo TEXT ...)");
  return std::vector<std::string>(args.begin(), args.end());
}

bool ApplyEcho(AppState&, Args args, CommandOutput& out) {
  std::string text;
  for (const std::string& a : args) text += (text.empty() ? "" : " ") + a;
  out.Print(std::move(text));
  return true;
}

// chains N [JOINTS]: the field scene's shape (docs/field.md "The field scene").
Result<std::vector<std::string>> ParseChains(Args args) {
  if (args.empty() || args.size() > 2) {
    return MakeError(
        "chains: expected a chain count and optionally joints per chain (usage: "
        "chains N [JOINTS])");
  }
  std::vector<std::string> out;
  const int low[] = {kFieldMinChains, 2};
  const int high[] = {kFieldMaxChains, kMaxJoints};
  const char* what[] = {"chain count", "joints per chain"};
  for (std::size_t i = 0; i < args.size(); ++i) {
    std::size_t used = 0;
    long v = 0;
    try {
      v = std::stol(args[i], &used);
    } catch (const std::exception&) {
      used = 0;
    }
    if (used != args[i].size() || v < low[i] || v > high[i]) {
      return MakeError("chains: " + std::string(what[i]) + " '" + args[i] +
                       "' is not a whole "
                       "number from " +
                       std::to_string(low[i]) + " to " + std::to_string(high[i]));
    }
    out.push_back(std::to_string(v));
  }
  return out;
}

bool ApplyChains(AppState& state, Args args, CommandOutput& out) {
  const FieldConfig before = state.field;
  FieldConfig next = before;
  next.chains = std::stoi(args[0]);
  if (args.size() > 1) next.joints = std::stoi(args[1]);
  if (static_cast<long>(next.chains) * next.joints > kFieldMaxTotalJoints) {
    return out.Fail("chains: " + args[0] + " chains x " + std::to_string(next.joints) +
                    " joints is more than " + std::to_string(kFieldMaxTotalJoints) + " joints");
  }
  state.field = next;
  // In the field, rebuild it now; elsewhere the next `scene field` uses the new shape.
  if (state.scene.name() == "field" && !SetScene(state, "field")) {
    state.field = before;
    return out.Fail(state.message);
  }
  out.Print("field: " + std::to_string(next.chains) + " chains x " + std::to_string(next.joints) +
            " joints");
  return true;
}

constexpr std::string_view kChainsDetails[] = {
    "  The field scene's chain count (1 to 100000) and joints per chain (default 10);",
    "  chains x joints at most 2000000. In the field it is rebuilt at once."};

constexpr std::string_view kEchoDetails[] = {
    "  In a script: 'at 3 echo now the arm' prints when the line fires."};

// terrain load PATH [S H] (docs/walker.md: The walker scene): S in (0, 1e5], H in [0, 1e4]; the
// numbers are written back with 9 significant digits so the apply step reads the same floats.
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
      bool lo_open;
      float hi;
      const char* description;
    };
    const Bound bounds[] = {{"terrain load S", 0.0f, true, 1e5f, "a number > 0 and <= 1e5"},
                            {"terrain load H", 0.0f, false, 1e4f, "a number >= 0 and <= 1e4"}};
    for (int k = 0; k < 2; ++k) {
      const std::string& word = args[static_cast<std::size_t>(2 + k)];
      const Bound& b = bounds[k];
      const text::Number n = text::ParseReal(word);
      const auto f = static_cast<float>(n.value);
      const bool in_range =
          n.error == text::NumberError::kNone && (b.lo_open ? f > b.lo : f >= b.lo) && f <= b.hi;
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
            (state.scene.name() == "walker" ? "" : " (shown in the walker scene)"));
  return true;
}

constexpr std::string_view kTerrainDetails[] = {
    "  An 8- or 16-bit grayscale PNG covering [-S/2, S/2] in X and Z; white is H high.",
    "  S in (0, 1e5] and H in [0, 1e4] (default: the current ones, at start 40 and 3).",
    "  A file that cannot be used is refused with a message; nothing changes."};
constexpr std::string_view kTerrainKeywords[] = {"load"};

// walker debug on|off, walker leg N|none: the walker scene's debug views (as the panel's).
Result<std::vector<std::string>> ParseWalker(Args args) {
  constexpr const char* kUsage = " (usage: walker debug on|off | walker leg N|none)";
  const std::string sub = args.empty() ? "" : text::Lower(args[0]);
  if (args.size() != 2 || (sub != "debug" && sub != "leg")) {
    return MakeError("walker: expected debug on|off or leg N|none" + std::string(kUsage));
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
  if (scene == nullptr || !scene->walker) {
    return out.Fail("walker: only in the walker scene (type 'scene walker')");
  }
  if (args[0] == "debug") {
    scene->SetDebug(args[1] == "on", scene->step_leg);
    out.Print(std::string("walker debug ") + (scene->show_pre_solve ? "on" : "off"));
    return true;
  }
  const int legs = static_cast<int>(scene->walker->legs().size());
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
    "  walker leg N|none     record leg N's solves and draw them half-pass by half-pass"};
constexpr std::string_view kWalkerKeywords[] = {"debug", "leg"};

// One entry per command.
const std::array<AppCommandEntry, 4> kTable = {{
    {{"echo",
      "echo TEXT ...",
      "print the text (scripts narrate with it)",
      kEchoDetails,
      ParseEcho,
      {}},
     ApplyEcho},
    {{"chains",
      "chains N [JOINTS]",
      "the field scene's chain count and joints per chain",
      kChainsDetails,
      ParseChains,
      {}},
     ApplyChains},
    {{"terrain", "terrain load PATH [S H]", "the walker's ground from a gray PNG", kTerrainDetails,
      ParseTerrain, kTerrainKeywords},
     ApplyTerrain},
    {{"walker", "walker debug on|off | walker leg N|none", "the walker scene's debug views",
      kWalkerDetails, ParseWalker, kWalkerKeywords},
     ApplyWalker},
}};

// Every group of entries, in the order `help` lists them. A file that adds commands exposes
// a function returning its entries (declared in command_table.h) and is listed here once.
using EntryGroup = std::span<const AppCommandEntry> (*)();
std::span<const AppCommandEntry> CoreEntries() { return kTable; }
constexpr EntryGroup kGroups[] = {
    CoreEntries,
    OrientCommandEntries,
    CaptureCommandEntries,
    RecordViewEntries,
    ToolCommandEntries,
};

// Every group of flags, in the order `help` lists them (after the entries above). A file that
// adds flags exposes a function returning them (declared in command_table.h), listed here once.
using FlagGroup = std::span<const FlagEntry> (*)();
constexpr FlagGroup kFlagGroups[] = {
    SolveFlagEntries,
    OrientFlagEntries,
    ToolFlagEntries,
};

constexpr std::string_view kOnOff[] = {"on", "off"};

struct Table {
  std::vector<FlagEntry> flags;
  std::vector<AppCommandEntry> entries;
  std::vector<CommandExtension> language;  // the entries' language halves, same order
};

// Built once, on first use (the groups are constants; nothing is added later).
const Table& TheTable() {
  static const Table table = [] {
    Table t;
    for (EntryGroup group : kGroups) {
      for (const AppCommandEntry& e : group()) {
        t.entries.push_back(e);
        t.language.push_back(e.language);
      }
    }
    for (FlagGroup group : kFlagGroups) {
      for (const FlagEntry& f : group()) t.flags.push_back(f);
    }
    // After every flag is in place, so that the pointers to them stay valid.
    for (const FlagEntry& f : t.flags) {
      const CommandExtension language{.name = f.name,
                                      .usage = f.usage,
                                      .summary = f.summary,
                                      .details = f.details,
                                      .keywords = kOnOff,
                                      .on_off = true};
      t.entries.push_back(AppCommandEntry{language, nullptr, &f});
      t.language.push_back(language);
    }
    return t;
  }();
  return table;
}

}  // namespace

void CommandOutput::Print(std::string text) {
  if (source_ != CommandSource::kQuiet) ConsolePrint(state_, std::move(text));
}

bool CommandOutput::Fail(const std::string& text) {
  ConsolePrint(state_, text, ConsoleLine::Kind::kError);
  SetMessage(state_, text, true);
  return false;
}

std::span<const AppCommandEntry> AppCommandTable() { return TheTable().entries; }
std::span<const FlagEntry> FlagTable() { return TheTable().flags; }

const FlagEntry* FindFlag(std::string_view name) {
  for (const FlagEntry& f : TheTable().flags) {
    if (f.name == name) return &f;
  }
  return nullptr;
}

// `field` gives a mutable reference so one accessor serves both setting and reading; reading
// through it changes nothing.
bool FlagValue(const AppState& state, const FlagEntry& flag) {
  return flag.field(const_cast<AppState&>(state));
}

void SetInitialFlags(AppState& state) {
  for (const FlagEntry& f : FlagTable()) f.field(state) = f.initial;
}
std::span<const CommandExtension> AppCommandLanguage() { return TheTable().language; }

const AppCommandEntry* FindAppCommand(std::string_view name) {
  for (const AppCommandEntry& e : TheTable().entries) {
    if (e.language.name == name) return &e;
  }
  return nullptr;
}

}  // namespace fabrik
