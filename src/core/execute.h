// execute.h - carrying out parsed console and script commands on the AppState. Called only
// from the apply step (core/apply.cpp); everything else enqueues (core/app_command.h).
//
// Parsing (lang/command.h) has already validated every value, so carrying a command out
// cannot fail on its values; what can still be refused (a solver or scene this build does
// not have) is reported as an error line and changes nothing.
#pragma once

#include <cstddef>
#include <string_view>

#include "core/app_state.h"

namespace fabrik {

// Parses and runs one line (echoed to the console log for kConsole and kStartup, with the
// result or the error). Returns false on an error, having changed nothing.
bool RunConsoleLine(AppState& state, std::string_view line,
                    CommandSource source = CommandSource::kConsole);

// Runs an already parsed command. Output (unless kQuiet) and errors go to the console log.
bool Execute(AppState& state, const Command& command, CommandSource source);

void ConsolePrint(AppState& state, std::string text,
                  ConsoleLine::Kind kind = ConsoleLine::Kind::kOutput);

// Loads a spline into the follower (used by `spline load`, the panel and --spline).
// The most points the followed spline's curve is drawn with (UseSpline).
inline constexpr std::size_t kMaxSplineDrawPoints = 20'000;
void UseSpline(AppState& state, Spline spline, const std::string& path);
// Loads and starts a script (used by `script run`, the panel and --script).
void UseScript(AppState& state, std::shared_ptr<const Script> script, const std::string& path);

}  // namespace fabrik
