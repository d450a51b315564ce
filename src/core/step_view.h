// step_view.h - the step-through view and the solver race, driven from the frame's solve step.
#pragma once

#include <glm/vec4.hpp>
#include <string>

#include "core/app_state.h"

namespace fabrik {

// Turns the step view on (recording a solve from the chain's current pose towards the
// current target) or off. Only the chain scene has a step view: turning it on elsewhere
// changes nothing and returns false, with the reason in state.message.
bool SetStepView(AppState& state, bool on);
// Records a fresh solve if the target or the chain changed since the last recording.
void RefreshStepRecording(AppState& state);
// A tool's setting changed (core/commands/tools.cpp): while the view is on, records again from
// the chain's pose with the cursor at the start; off, does nothing.
void RerecordStep(AppState& state);
// Moves the step cursor by `reaches` (negative goes back), clamped to the recording.
void StepBy(AppState& state, long reaches);
// Moves to the start of the next (+1) or previous (-1) half-pass or iteration.
void StepHalfPass(AppState& state, int direction);
void StepIteration(AppState& state, int direction);
void StepToStart(AppState& state);
void StepToEnd(AppState& state);
// Called at the solve step instead of the normal solve while the step view is on:
// re-records if the target or the chain changed, advances autoplay, updates the shown pose.
void UpdateStepView(AppState& state);
// A sentence describing the current reach, for the panel and the on-screen label.
std::string DescribeStep(const AppState& state);
// The pose to draw: the step view's pose while it is on, else the chain's.
std::span<const glm::vec3> DisplayedPose(const AppState& state);

// Each solver's colour in the race (scene and table).
glm::vec4 RacerColor(SolverKind kind);
// A racer's colour and name: the solver's, except that the accelerated FABRIK racer has its
// own colour and is called "fabrik_accelerated".
glm::vec4 RacerColor(const RaceEntry& entry);
const char* RacerName(const RaceEntry& entry);
// Short name of a half-pass kind for tables and the state line: "backward", "forward",
// "straighten", "bend_scale".
const char* PassShortName(PassKind kind);

// Starts or stops the race (every solver on its own copy of the chain). Only the chain scene
// races: starting it elsewhere changes nothing and returns false, reason in state.message.
bool SetRace(AppState& state, bool on);
// Solves every racer towards the current target (called after the main solve).
void UpdateRace(AppState& state);

}  // namespace fabrik
