// The solver's on/off flags, as entries of the app's command table: `accelerate on|off`
// (docs/accelerated-fabrik.md).
#include "core/app_state.h"
#include "core/command_table.h"

namespace fabrik {
namespace {

constexpr std::string_view kAccelerateDetails[] = {
    "  FABRIK, the arm's constrained FABRIK and the step view take bend-scale steps",
    "  (whole-chain moves) when on; the race shows both FABRIKs whatever this says."};

bool& Accelerate(AppState& state) { return state.settings.accelerate; }

const CommandEntry kSolveEntries[] = {
    {.language =
         OnOffLanguage("accelerate", "accelerate on|off",
                       "accelerated FABRIK (bend-scale steps) or the textbook", kAccelerateDetails),
     .flag = {.field = Accelerate,
              .initial = kAccelerateByDefault,  // the library's one default (ik/solve_types.h)
              .on_text = "accelerate on: FABRIK with bend-scale steps",
              .off_text = "accelerate off: textbook FABRIK",
              .saved = true}},
};

}  // namespace

std::span<const CommandEntry> SolveCommandEntries() { return kSolveEntries; }

}  // namespace fabrik
