// The console commands of record and replay, the free root and the 2D view (docs/settings.md:
// Record and replay; docs/scenes.md: Free root, The 2D view): record start PATH | record stop, root
// free|fixed, view 2d|3d. One CommandEntry each (core/command_table.h).
#include <array>
#include <string>
#include <vector>

#include "core/app_state.h"
#include "core/command_table.h"
#include "core/frame.h"
#include "core/free_root_state.h"
#include "core/target_recording.h"
#include "core/view_2d.h"
#include "lang/text.h"

namespace fabrik {
namespace {

using Args = std::span<const std::string>;

// One word out of two choices, case-insensitive, returned in lower case.
Result<std::vector<std::string>> ParseChoice(Args args, const char* command, const char* a,
                                             const char* b) {
  const std::string usage = std::string(" (usage: ") + command + " " + a + "|" + b + ")";
  if (args.size() != 1) {
    return MakeError(std::string(command) + ": expected " + a + " or " + b + usage);
  }
  const std::string word = text::Lower(args[0]);
  if (word != a && word != b) {
    return MakeError(std::string(command) + ": expected " + a + " or " + b + ", got " +
                     text::Quote(args[0]) + usage);
  }
  return std::vector<std::string>{word};
}

Result<std::vector<std::string>> ParseRecord(Args args) {
  constexpr const char* kUsage = " (usage: record start PATH | record stop)";
  const std::string sub = args.empty() ? "" : text::Lower(args[0]);
  if (sub == "stop") {
    if (args.size() != 1) return MakeError(std::string("record stop: takes nothing more") + kUsage);
    return std::vector<std::string>{sub};
  }
  if (sub == "start") {
    if (args.size() != 2) {
      return MakeError(std::string("record start: expected one PATH") + kUsage);
    }
    if (args[1].empty()) return MakeError("record start: the path is empty");
    return std::vector<std::string>{sub, args[1]};
  }
  return MakeError(std::string("record: expected start PATH or stop") +
                   (args.empty() ? std::string() : ", got " + text::Quote(args[0])) + kUsage);
}

bool ApplyRecord(AppState& state, Args args, CommandOutput& out) {
  if (args[0] == "stop") {
    const std::string path = state.recording.path();
    if (!StopRecording(state)) return out.Fail(state.message);
    out.Print("record: " + path + " written (" +
              std::to_string(state.recording.recorder().lines()) +
              " script lines; replay with: script run " + path + ")");
    return true;
  }
  if (!StartRecording(state, args[1])) return out.Fail(state.message);
  out.Print("record: recording the target to " + args[1] + " (record stop to finish)");
  return true;
}

constexpr std::string_view kRecordDetails[] = {
    "  Writes the target's path, as it moves in any mode, to PATH as a script:",
    "  'at 0 target X Y Z', then 'at T target X Y Z over D' glides from 1 s on; samples a",
    "  glide reproduces within 0.001 units are dropped. 'script run PATH' replays it.",
    "  Refused while a script plays. The file is completed on record stop and on exit."};
constexpr std::string_view kRecordKeywords[] = {"start", "stop"};

Result<std::vector<std::string>> ParseRoot(Args args) {
  return ParseChoice(args, "root", "free", "fixed");
}

bool ApplyRoot(AppState& state, Args args, CommandOutput& out) {
  const bool free = args[0] == "free";
  SetRootFree(state, free);
  out.Print(free ? std::string("root free: the chain is pulled by its head like a rope") +
                       (state.scene.free_chain() ? "" : " (in the chain scene)")
                 : "root fixed: the root stays where it is");
  return true;
}

constexpr std::string_view kRootDetails[] = {
    "  free: in the chain scene the target pulls the head and the root follows (FABRIK's",
    "  backward pass alone); the root's trail is drawn. The step view and race turn off.",
    "  fixed: the root is pinned where it is now and the selected solver takes over."};
constexpr std::string_view kRootKeywords[] = {"free", "fixed"};

Result<std::vector<std::string>> ParseView(Args args) {
  return ParseChoice(args, "view", "2d", "3d");
}

bool ApplyView(AppState& state, Args args, CommandOutput& out) {
  const bool planar = args[0] == "2d";
  SetView2d(state, planar);
  out.Print(planar ? "view 2d: looking down -Z at the XY plane; targets stay at z = 0"
                   : "view 3d: the orbit camera");
  return true;
}

constexpr std::string_view kViewDetails[] = {
    "  2d: an orthographic camera looking down -Z at the XY plane; targets and drags stay",
    "  at z = 0 and the chain is laid flat there. Zoom and pan work; orbit does not.",
    "  3d: the perspective orbit camera."};
constexpr std::string_view kViewKeywords[] = {"2d", "3d"};

const std::array<CommandEntry, 3> kRecordEntries = {{
    {{"record", "record start PATH | record stop", "record the target's path as a script",
      kRecordDetails, ParseRecord, kRecordKeywords},
     ApplyRecord},
    {{"root", "root free|fixed", "a free root pulled like a rope, or a fixed one", kRootDetails,
      ParseRoot, kRootKeywords},
     ApplyRoot},
    {{"view", "view 2d|3d", "the 2D view of the XY plane, or the 3D orbit camera", kViewDetails,
      ParseView, kViewKeywords},
     ApplyView},
}};

}  // namespace

std::span<const CommandEntry> RecordViewEntries() { return kRecordEntries; }

}  // namespace fabrik
