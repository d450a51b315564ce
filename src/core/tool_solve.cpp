#include "core/tool_solve.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <nlohmann/json.hpp>
#include <numbers>

#include "core/app_state.h"
#include "core/frame.h"
#include "core/json_util.h"
#include "core/tool_passes.h"
#include "ik/spline_ik.h"

namespace fabrik {
namespace {

bool SplineIkApplies(const AppState& state) {
  return state.tools.spline_ik && state.spline.follower.has_spline();
}

void Record(AppState& state, const SolveResult& result) {
  state.last = result;
  state.iteration_history.Push(static_cast<float>(result.iterations));
  state.solve_us_history.Push(static_cast<float>(state.solve_us));
}

// The snake: the loaded spline sampled backwards from the follower's point, a quarter of the
// mean segment apart, for a little more than the chain's length (an open curve stops at its
// start); the chain is laid along that trail head first, so the head sits on the spline
// target and the body follows the path it came along. A chain longer than the trail goes on
// straight past the tail's end, as ik/spline_ik.h continues a chain past a curve's end.
void LaySnake(AppState& state) {
  ToolState& t = state.tools;
  const Spline& curve = state.spline.follower.spline();
  const std::size_t n = state.chain.joint_count();
  const double chain_length = state.chain.total_length();
  const double s = state.spline.follower.distance();
  const double step = std::max(chain_length / (4.0 * static_cast<double>(n - 1)),
                               static_cast<double>(curve.length()) / 4000.0);
  t.trail.clear();
  t.trail.push_back(curve.PointAtDistance(s));
  for (int j = 1; j <= 4000; ++j) {
    const double back = s - j * step;
    if (!curve.closed() && back <= 0.0) {
      t.trail.push_back(curve.PointAtDistance(0.0));
      break;
    }
    t.trail.push_back(curve.PointAtDistance(back));
    if (j * step > 1.25 * chain_length + step) break;
  }
  // At the very start of an open curve: a short tail straight back along the curve's start.
  if (glm::length(t.trail.back() - t.trail.front()) < 1e-4f * static_cast<float>(chain_length)) {
    const glm::vec3 head = t.trail.front();
    const glm::vec3 ahead = curve.PointAtDistance(std::min(s + step, double(curve.length())));
    glm::vec3 back = head - (ahead - head);
    if (glm::length(back - head) < 1e-6f) back = head - glm::vec3(0.0f, 1.0f, 0.0f);
    t.trail.clear();
    t.trail.push_back(head);
    t.trail.push_back(back);
  }
  Result<Spline> trail = Spline::Create(t.trail, false);
  if (!trail) {
    SetMessage(state, "spline ik: " + trail.error(), true);
    return;
  }
  const std::span<const float> lengths = state.chain.lengths();
  t.reversed.assign(lengths.rbegin(), lengths.rend());
  t.laid.resize(n);
  const SplineIkResult laid =
      LayAlongCurve(trail.value(), t.reversed, CurveFit::kKeepLengths, t.laid);
  if (!laid.ok) {
    SetMessage(state, std::string("spline ik: ") + laid.error, true);
    return;
  }
  std::span<glm::vec3> p = state.chain.pose_for_solver();
  for (std::size_t i = 0; i < n; ++i) p[n - 1 - i] = t.laid[i];
  t.root_moved = true;
  t.on_curve = laid.on_curve;
  SolveResult result;
  result.iterations = 1;
  result.distance = SafeDistance(state.chain.effector(), state.target());
  result.reached = result.distance <= state.settings.tolerance;
  result.reachable = true;
  Record(state, result);
}

}  // namespace

bool AnyStiffness(const ToolState& tools) {
  return std::any_of(tools.stiffness.begin(), tools.stiffness.end(),
                     [](float s) { return s > 0.0f; });
}

bool ToolPassesActive(const ToolState& t) {
  return t.soften < 1.0f || t.stretch > 1.0f || t.turn_limit_deg > 0.0f || AnyStiffness(t) ||
         t.two_bone || t.aim_at.has_value();
}

bool ToolsActive(const AppState& state) {
  return ToolPassesActive(state.tools) || SplineIkApplies(state);
}

void RestoreRootAfterSnake(AppState& state) {
  ToolState& t = state.tools;
  if (!t.root_moved || SplineIkApplies(state)) return;
  t.root_moved = false;
  auto chain = Chain::Straight(glm::vec3(0.0f), glm::vec3(0.0f, 1.0f, 0.0f), state.lengths);
  if (chain) state.chain = std::move(chain).value();
}

bool SolveWithTools(AppState& state) {
  ToolState& t = state.tools;
  t.stretch_factor = 1.0f;
  t.soft_target.reset();
  t.aim_error_deg.reset();
  t.on_curve = 0;
  RestoreRootAfterSnake(state);
  if (!ToolsActive(state)) return false;
  const auto clock = std::chrono::steady_clock::now();
  if (SplineIkApplies(state)) {
    LaySnake(state);
    RecordSolveTime(state, clock);
    return true;
  }
  Chain& chain = state.chain;
  const std::size_t n = chain.joint_count();
  if (t.two_bone && n != 3) {
    // The joint count changed under it (`joints N`): the selected solver takes over.
    t.two_bone = false;
    SetMessage(state,
               std::string("two_bone needs a chain of exactly 3 joints: back to solver ") +
                   SolverName(state.solver),
               true);
  }
  if (!t.stiffness.empty() && t.stiffness.size() != n) t.stiffness.clear();
  if (t.aim_at && t.aim_joints > static_cast<int>(n) - 1) {
    // Fewer segments than the aim's joints (`joints N`): all of them turn.
    t.aim_joints = static_cast<int>(n) - 1;
    SetMessage(state,
               "aim: the chain has " + std::to_string(n - 1) + " segments now, so aim joints " +
                   std::to_string(n - 1),
               false);
  }
  const SolveResult result = SolveToolPasses(t, state.solver, BoundedSettings(state, n), chain,
                                             state.target(), nullptr, nullptr);
  RecordSolveTime(state, clock);
  if (!result.ok) {
    SetMessage(state, std::string("solve rejected: ") + result.error, true);
    return true;
  }
  Record(state, result);
  return true;
}

void WriteToolFields(const AppState& state, nlohmann::json& j) {
  const ToolState& t = state.tools;
  j["soften"] = state_json::Num(t.soften);
  j["stretch"] = state_json::Num(t.stretch);
  j["stretch_factor"] = state_json::Num(t.stretch_factor);
  j["turn_limit"] = state_json::Num(t.turn_limit_deg);
  nlohmann::json stiffness = nlohmann::json::array();
  for (float v : t.stiffness) stiffness.push_back(state_json::Num(v));
  j["stiffness"] = std::move(stiffness);
  j["pole"] = t.pole ? state_json::Vec(*t.pole) : nlohmann::json(nullptr);
  j["soft_target"] = t.soft_target ? state_json::Vec(*t.soft_target) : nlohmann::json(nullptr);
  j["on_curve"] = t.on_curve;
  j["aim"] = t.aim_at ? nlohmann::json{{"at", state_json::Vec(*t.aim_at)},
                                       {"axis", state_json::Vec(t.aim_axis)},
                                       {"joints", t.aim_joints}}
                      : nlohmann::json(nullptr);
  j["aim_error_deg"] =
      t.aim_error_deg ? state_json::Num(*t.aim_error_deg) : nlohmann::json(nullptr);
}

std::span<const glm::vec3> ToolPose(const AppState& state) {
  const ToolState& t = state.tools;
  if (t.stretch_factor > 1.0f && t.stretched.size() == state.chain.joint_count()) {
    return t.stretched;
  }
  return state.chain.joints();
}

}  // namespace fabrik
