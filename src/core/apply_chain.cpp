// Applying the commands that set the target, its mode and the chain's shape and settings
// (the language half is lang/commands_chain.cpp).
#include <cstdio>

#include "core/command_apply.h"
#include "core/frame.h"
#include "core/orient.h"
#include "core/step_view.h"
#include "ik/chain_rebuild.h"

namespace fabrik {
namespace {

std::string Vec(const glm::vec3& v) {
  char buf[128];
  std::snprintf(buf, sizeof(buf), "%.4g %.4g %.4g", v.x, v.y, v.z);
  return buf;
}

std::string Fmt(const char* fmt, double a) {
  char buf[128];
  std::snprintf(buf, sizeof(buf), fmt, a);
  return buf;
}

}  // namespace

bool Apply(AppState& state, const cmd::Target& c, CommandOutput& out) {
  if (out.source() == CommandSource::kScript) {
    state.script.target = c.position;  // the angles: `orient` in scripts
    return true;
  }
  if (c.angles_deg && !SetOrientation(state, c.angles_deg)) return false;
  if (state.mode != TargetMode::kConsole) SetMode(state, TargetMode::kConsole);
  state.typed.typed = c.position;
  if (state.step.active) {
    // Stepping: take the target at once and record the solve towards it.
    state.targeting.Jump(c.position);
    RefreshStepRecording(state);
  } else {
    // Glide to the typed target rather than teleporting the chain's goal.
    state.targeting.BeginGlide();
  }
  out.Print("target " + Vec(c.position) +
            (c.angles_deg ? " yaw pitch roll " + Vec(*c.angles_deg) : std::string()));
  return true;
}

bool Apply(AppState& state, const cmd::Mode& c, CommandOutput& out) {
  SetMode(state, c.mode);
  out.Print("mode " + std::string(ModeName(c.mode)));
  return true;
}

bool Apply(AppState& state, const cmd::Joints& c, CommandOutput& out) {
  // Commands apply in order, so a script's "joints" and "length" lines at the same time
  // build on each other.
  std::vector<float> lengths = state.lengths;
  lengths.resize(static_cast<std::size_t>(c.count - 1), state.uniform_length);
  if (!ApplyLengths(state, std::move(lengths))) return out.Fail(state.message);
  out.Print("joints " + std::to_string(c.count));
  return true;
}

bool Apply(AppState& state, const cmd::Length& c, CommandOutput& out) {
  if (!ApplyLengths(state, UniformLengths(static_cast<int>(state.lengths.size()), c.length))) {
    return out.Fail(state.message);
  }
  state.uniform_length = c.length;
  out.Print(Fmt("every segment %.4g long", c.length));
  return true;
}

bool Apply(AppState& state, const cmd::Lengths& c, CommandOutput& out) {
  if (!ApplyLengths(state, c.lengths)) return out.Fail(state.message);
  out.Print("lengths set: " + std::to_string(c.lengths.size() + 1) + " joints");
  return true;
}

bool Apply(AppState& state, const cmd::Moe& c, CommandOutput& out) {
  state.settings.tolerance = c.tolerance;
  out.Print(Fmt("margin of error %.6g", c.tolerance));
  return true;
}

bool Apply(AppState& state, const cmd::Iterations& c, CommandOutput& out) {
  state.settings.max_iterations = c.max_iterations;
  out.Print("iteration cap " + std::to_string(c.max_iterations));
  return true;
}

}  // namespace fabrik
