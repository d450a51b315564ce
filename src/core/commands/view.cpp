// The built-in commands about the view and the demo itself, the app's half: how clear, step,
// race and quit are carried out (each struct's apply, registered by its place in Command).
// Their language half is in lang/commands/view.cpp; the group's entries at the end
// (Typed<T>) are what core/command_table.cpp's kGroups lists.
#include "core/builtin_table.h"
#include "core/step_view.h"

namespace fabrik {
bool ApplyBuiltin(AppState& state, const cmd::Clear&, CommandOutput&) {
  state.console.log.clear();
  return true;
}

bool ApplyBuiltin(AppState& state, const cmd::Step& c, CommandOutput& out) {
  using A = cmd::StepAction;
  if (c.action != A::kOff && !SetStepView(state, true)) return out.Fail(state.message);
  switch (c.action) {
    case A::kOn:
      break;
    case A::kOff:
      SetStepView(state, false);
      break;
    case A::kNext:
      StepBy(state, c.count);
      break;
    case A::kPrev:
      StepBy(state, -c.count);
      break;
    case A::kPass:
      StepHalfPass(state, +1);
      break;
    case A::kBack:
      StepHalfPass(state, -1);
      break;
    case A::kIteration:
      StepIteration(state, +1);
      break;
    case A::kStart:
      StepToStart(state);
      break;
    case A::kEnd:
      StepToEnd(state);
      break;
    case A::kPlay:
      state.step.playing = true;
      break;
    case A::kPause:
      state.step.playing = false;
      break;
  }
  if (state.step.active) out.Print(DescribeStep(state));
  return true;
}

bool ApplyBuiltin(AppState& state, const cmd::Race& c, CommandOutput& out) {
  if (!SetRace(state, c.on)) return out.Fail(state.message);
  out.Print(c.on ? "race on: every solver chases the target" : "race off");
  return true;
}

bool ApplyBuiltin(AppState& state, const cmd::Quit&, CommandOutput&) {
  state.quit_requested = true;
  return true;
}

namespace {
// The group's entries, in the order of its CommandSpecs (lang/commands/view.cpp); the settings
// file keeps none of them.
constexpr CommandEntry kViewEntries[] = {Typed<cmd::Clear>(), Typed<cmd::Step>(),
                                         Typed<cmd::Race>(), Typed<cmd::Quit>()};
}  // namespace

std::span<const CommandEntry> ViewCommandEntries() { return kViewEntries; }

}  // namespace fabrik
