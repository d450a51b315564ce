// creature_panel_commands.h - what the creature scene's panel sends
// (scenes/creature/creature_shell.cpp) as typed app commands; the frame's apply step
// (core/apply.cpp) hands them to ApplyPanelCommand below, which changes the CreatureScene by them
// and ignores them in any other scene. They travel as app::ScenePanelEdit (core/app_command.h).
#pragma once

namespace fabrik {
struct AppState;
}  // namespace fabrik

namespace fabrik::app {

// The creature effector (0-based index into its targets) that the target modes drive; its
// target becomes the app's target. An index out of range changes nothing.
struct CreaturePrimary {
  int index = 0;
};

// A creature effector's weight in the centroid rule (unitless), clamped to [0, 5]. An index
// out of range or a non-finite weight changes nothing.
struct EffectorWeight {
  int index = 0;
  float weight = 1.0f;
};

// Applied at the frame's apply step only (creature_panel_commands.cpp): changes the scene when
// it is the current one, as each struct above says; ignored in any other scene.
void ApplyPanelCommand(AppState& state, const CreaturePrimary& command);
void ApplyPanelCommand(AppState& state, const EffectorWeight& command);

}  // namespace fabrik::app
