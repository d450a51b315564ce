// The crowd scene's console command `characters N` (docs/mocap.md: The crowd scene), an
// entry of the app's command table.
#include <string>
#include <vector>

#include "core/app_state.h"
#include "core/command_table.h"
#include "core/scene_registry.h"
#include "lang/text.h"
#include "scenes/crowd/crowd_scene.h"

namespace fabrik {
namespace {

using Args = std::span<const std::string>;

Result<std::vector<std::string>> ParseCharacters(Args args) {
  const text::Number n = args.size() == 1 ? text::ParseInteger(args[0]) : text::Number{};
  if (n.error != text::NumberError::kNone || n.value < 1 || n.value > kMaxCharacters) {
    return MakeError("characters: expected a whole number from 1 to " +
                     std::to_string(kMaxCharacters) +
                     (args.size() == 1 ? ", got " + text::Quote(args[0]) : std::string()) +
                     " (usage: characters N)");
  }
  return std::vector<std::string>{std::to_string(static_cast<int>(n.value))};
}

bool ApplyCharacters(AppState& state, Args args, CommandOutput& out) {
  const int before = state.scene.configs.Get<MocapConfig>().characters;
  state.scene.configs.Get<MocapConfig>().characters = std::stoi(args[0]);
  // In the crowd, rebuild it now; elsewhere the next `scene crowd` uses the new size.
  if (state.scene.name() == "crowd" && !SetScene(state, "crowd")) {
    state.scene.configs.Get<MocapConfig>().characters = before;
    return out.Fail(state.message);
  }
  out.Print("characters " + args[0] +
            (state.scene.name() == "crowd" ? "" : " (used by the crowd scene)"));
  return true;
}

constexpr std::string_view kCharactersDetails[] = {
    "  The crowd scene's size, 1 to 5000 (default 100): characters at random places and",
    "  headings on the terrain, their legs solved together by the batched solver."};

const CommandEntry kCrowdEntries[] = {
    {{"characters",
      "characters N",
      "the crowd scene's number of characters",
      kCharactersDetails,
      ParseCharacters,
      {}},
     ApplyCharacters,
     nullptr,
     nullptr,
     nullptr,
     EveryLineAWholeFrame},
};

}  // namespace

std::span<const CommandEntry> CrowdCommandEntries() { return kCrowdEntries; }

}  // namespace fabrik
