// The field scene's own command, `chains N [JOINTS]` (docs/field.md "The field scene"): one
// CommandEntry, listed in the command table through the field's registry line.
#include <exception>
#include <string>
#include <vector>

#include "core/app_state.h"
#include "core/command_table.h"
#include "core/scene_registry.h"
#include "scenes/field/field_scene.h"

namespace fabrik {
namespace {

using Args = std::span<const std::string>;

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
  const FieldConfig before = state.scene.configs.Get<FieldConfig>();
  FieldConfig next = before;
  next.chains = std::stoi(args[0]);
  if (args.size() > 1) next.joints = std::stoi(args[1]);
  if (static_cast<long>(next.chains) * next.joints > kFieldMaxTotalJoints) {
    return out.Fail("chains: " + args[0] + " chains x " + std::to_string(next.joints) +
                    " joints is more than " + std::to_string(kFieldMaxTotalJoints) + " joints");
  }
  state.scene.configs.Get<FieldConfig>() = next;
  // In the field, rebuild it now; elsewhere the next `scene field` uses the new shape.
  if (state.scene.name() == "field" && !SetScene(state, "field")) {
    state.scene.configs.Get<FieldConfig>() = before;
    return out.Fail(state.message);
  }
  out.Print("field: " + std::to_string(next.chains) + " chains x " + std::to_string(next.joints) +
            " joints");
  return true;
}

constexpr std::string_view kChainsDetails[] = {
    "  The field scene's chain count (1 to 100000) and joints per chain (default 10);",
    "  chains x joints at most 2000000. In the field it is rebuilt at once."};

const CommandEntry kFieldEntries[] = {
    {{"chains",
      "chains N [JOINTS]",
      "the field scene's chain count and joints per chain",
      kChainsDetails,
      ParseChains,
      {}},
     ApplyChains,
     nullptr,
     nullptr,
     nullptr,
     EveryLineAWholeFrame},
};

}  // namespace

std::span<const CommandEntry> FieldCommandEntries() { return kFieldEntries; }

}  // namespace fabrik
