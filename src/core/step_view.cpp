#include "core/step_view.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <glm/geometric.hpp>

#include "core/frame.h"
#include "core/tool_passes.h"
#include "core/tool_solve.h"
#include "ik/fabrik.h"

namespace fabrik {
namespace {

bool SamePose(std::span<const glm::vec3> a, std::span<const glm::vec3> b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin());
}

// Collects the tools' steps (core/tool_passes.h) into the step view, reusing their storage.
class ToolStepRecorder final : public ToolStageSink {
 public:
  explicit ToolStepRecorder(StepState& s) : s_(s) { s_.tool_step_count = 0; }
  void OnStage(ToolStage stage, std::span<const glm::vec3> pose) override {
    if (s_.tool_step_count == s_.tool_steps.size()) s_.tool_steps.emplace_back();
    StepState::ToolStep& step = s_.tool_steps[s_.tool_step_count++];
    step.stage = stage;
    step.pose.assign(pose.begin(), pose.end());
  }

 private:
  StepState& s_;
};

void Record(AppState& state) {
  StepState& s = state.step;
  s.recorded_from.assign(state.chain.joints().begin(), state.chain.joints().end());
  s.recorded_target = state.target();
  // Room for every half-pass up to the cap, within the memory bound; a fresh observer when
  // the shape changes, so a large recording made earlier is freed rather than kept.
  const std::size_t joints = state.chain.joint_count();
  const std::size_t snapshots = StepState::kMaxRecordedPositions / std::max<std::size_t>(joints, 1);
  const int affordable = static_cast<int>(
      std::min<std::size_t>((std::max<std::size_t>(snapshots, 3) - 1) / 2, 1'000'000));
  const SolveSettings settings = BoundedSettings(state, joints);
  const int iterations = std::max(1, std::min(settings.max_iterations, affordable));
  if (s.reserved_joints != joints || s.reserved_iterations != iterations) {
    s.recording = RecordingObserver(joints, iterations);
    s.reserved_joints = joints;
    s.reserved_iterations = iterations;
  }
  Chain copy = state.chain;  // the real chain keeps the start pose while stepping
  s.recording.Clear();
  s.tool_step_count = 0;
  if (ToolPassesActive(state.tools)) {
    // The tools' own solve, on a copy of their settings and working space: the same passes
    // as the frame's (core/tool_passes.h), so the last step is the pose the frame would draw.
    s.tools = state.tools;
    ToolStepRecorder stages(s);
    s.result = SolveToolPasses(s.tools, state.solver, settings, copy, state.target(), &s.recording,
                               &stages);
  } else {
    s.result = Solve(state.solver, copy, state.target(), settings, &s.recording);
  }
  s.step = 0;
  s.playing = s.playing && s.total_steps() > 0;
}

// The pose before the solve: the recording's, or the chain's when the recording has none.
std::span<const glm::vec3> StartPose(const StepState& s) {
  const std::span<const glm::vec3> start = s.recording.start_pose();
  return start.size() == s.recorded_from.size() ? start
                                                : std::span<const glm::vec3>(s.recorded_from);
}

// The pose after step k (0: the start): the recorded reaches first, then the tools' steps.
void PoseAt(const StepState& s, std::size_t k, std::vector<glm::vec3>& out) {
  const std::size_t reaches = s.recording.reach_count();
  if (k > reaches) {
    const std::vector<glm::vec3>& pose = s.tool_steps[k - reaches - 1].pose;
    out.assign(pose.begin(), pose.end());
    return;
  }
  const std::span<const glm::vec3> start = StartPose(s);
  out.assign(start.begin(), start.end());
  if (k >= 1) s.recording.PoseAfterReach(k - 1, out);
}

void ShowStep(StepState& s) {
  PoseAt(s, s.step, s.pose);
  PoseAt(s, s.step >= 1 ? s.step - 1 : 0, s.ghost);
}

// What a tool's step did, for the caption, and where that leaves the effector.
std::string DescribeToolStep(const StepState& s, const StepState::ToolStep& step) {
  const ToolState& t = s.tools;
  char buf[160];
  std::string what;
  switch (step.stage) {
    case ToolStage::kStiffness:
      what =
          "stiffness: banded FABRIK passes (each joint kept in its band round its start bend; "
          "not recorded one by one) give this pose";
      break;
    case ToolStage::kTwoBone:
      what = std::string("two_bone: the law of cosines places the elbow") +
             (t.pole ? " (towards the pole)" : "") + " and the effector in one step" +
             (t.soften < 1.0f ? " (aiming at the softened target)" : "");
      break;
    case ToolStage::kAim: {
      const int k = std::min(t.aim_joints, static_cast<int>(step.pose.size()) - 1);
      std::snprintf(buf, sizeof(buf), "aim: the last %d joint%s turn", k, k == 1 ? "" : "s");
      what = std::string(buf) + " so the effector's axis points at the aim point";
      break;
    }
    case ToolStage::kTurnLimit:
      std::snprintf(buf, sizeof(buf), "%.4g", static_cast<double>(t.turn_limit_deg));
      what = "turn limit: each segment that turned more than " + std::string(buf) +
             " degrees from the start pose is turned back to exactly that";
      break;
    case ToolStage::kStretch:
      std::snprintf(buf, sizeof(buf), "%.4f", static_cast<double>(t.stretch_factor));
      what = "stretch: every segment scaled by " + std::string(buf) + " (the drawn pose)";
      break;
  }
  std::snprintf(buf, sizeof(buf), "; the effector is %.4f from the target",
                glm::length(step.pose.back() - s.recorded_target));
  return what + buf;
}

// Each pass kind's short name (the panel's list, the state JSON) and its description (the step
// caption), side by side.
struct PassLabel {
  const char* short_name;
  const char* description;
};

PassLabel LabelOf(PassKind kind) {
  switch (kind) {
    case PassKind::kBackward:
      return {"backward", "backward pass (effector to root)"};
    case PassKind::kForward:
      return {"forward", "forward pass (root to effector)"};
    case PassKind::kStraighten:
      return {"straighten", "out of reach: straightening"};
    case PassKind::kBendScale:
      return {"bend_scale", "bend-scale step (accelerated FABRIK)"};
  }
  return {"", ""};
}

const char* PassName(PassKind kind) { return LabelOf(kind).description; }

}  // namespace

bool SetStepView(AppState& state, bool on) {
  StepState& s = state.step;
  if (on && !state.scene.free_chain()) {
    SetMessage(state, "step: the step view works on the chain scene only ('scene chain')", true);
    return false;
  }
  if (on == s.active) return true;
  s.active = on;
  s.playing = false;
  if (on) {
    // A glide in progress ends where it was going: the recording chases the final target.
    state.targeting.Settle();
    Record(state);
    ShowStep(s);
  }
  return true;
}

void RefreshStepRecording(AppState& state) {
  StepState& s = state.step;
  if (!s.active) return;
  if (s.recorded_target != state.target() || !SamePose(s.recorded_from, state.chain.joints())) {
    Record(state);
    ShowStep(s);
  }
}

void RerecordStep(AppState& state) {
  if (!state.step.active) return;
  Record(state);
  ShowStep(state.step);
}

void StepBy(AppState& state, long reaches) {
  StepState& s = state.step;
  if (!s.active) return;
  const long total = static_cast<long>(s.total_steps());
  s.step = static_cast<std::size_t>(std::clamp(static_cast<long>(s.step) + reaches, 0L, total));
  ShowStep(s);
}

// Past the recorded passes (the tools' steps), or with none recorded, pass and iteration
// steps move one step; a pass step never jumps from the passes into the tools' steps.
bool InToolSteps(const StepState& s, int direction) {
  const std::size_t reaches = s.recording.reach_count();
  return s.recording.joint_count() == 0 || (direction > 0 ? s.step >= reaches : s.step > reaches);
}

long ClampToPasses(const StepState& s, std::size_t boundary) {
  return static_cast<long>(std::min(boundary, s.recording.reach_count())) -
         static_cast<long>(s.step);
}

void StepHalfPass(AppState& state, int direction) {
  StepState& s = state.step;
  const std::size_t n = s.recording.joint_count();
  if (!s.active) return;
  if (InToolSteps(s, direction)) return StepBy(state, direction > 0 ? 1 : -1);
  // Steps sit on half-pass boundaries at multiples of n (0 = start, n = after half-pass 0).
  const std::size_t boundary =
      direction > 0 ? (s.step / n + 1) * n : (s.step == 0 ? 0 : (s.step - 1) / n * n);
  StepBy(state, ClampToPasses(s, boundary));
}

void StepIteration(AppState& state, int direction) {
  StepState& s = state.step;
  const std::size_t n = s.recording.joint_count();
  if (!s.active) return;
  if (InToolSteps(s, direction)) return StepBy(state, direction > 0 ? 1 : -1);
  const std::size_t per = 2 * n;  // FABRIK: backward + forward
  const std::size_t boundary =
      direction > 0 ? (s.step / per + 1) * per : (s.step == 0 ? 0 : (s.step - 1) / per * per);
  StepBy(state, ClampToPasses(s, boundary));
}

void StepToStart(AppState& state) { StepBy(state, -static_cast<long>(state.step.step)); }
void StepToEnd(AppState& state) { StepBy(state, static_cast<long>(state.step.total_steps())); }

void UpdateStepView(AppState& state) {
  StepState& s = state.step;
  // A new target (a drag, a typed command) or a rebuilt chain: record a fresh solve from
  // the chain's pose, with the cursor at the start.
  RefreshStepRecording(state);
  if (s.playing) {
    s.play_accumulator += state.timing.dt * s.reaches_per_second;
    const long whole = static_cast<long>(s.play_accumulator);
    s.play_accumulator -= static_cast<float>(whole);
    if (whole > 0) StepBy(state, whole);
    if (s.step >= s.total_steps()) s.playing = false;
  }
  ShowStep(s);
  state.last = s.result;
  if (s.step >= 1 && !s.pose.empty()) {
    // Readouts follow the replay: distance of the shown effector to the target.
    state.last.distance = glm::length(s.pose.back() - state.target());
    if (s.step <= s.recording.reach_count()) {
      state.last.iterations = s.recording.reach(s.step - 1).iteration;
    }
    state.last.reached = state.last.distance <= state.settings.tolerance;
  }
}

std::string DescribeStep(const AppState& state) {
  const StepState& s = state.step;
  const RecordingObserver& r = s.recording;
  char buf[256];
  if (s.step > r.reach_count()) {
    return DescribeToolStep(s, s.tool_steps[s.step - r.reach_count() - 1]);
  }
  if (s.total_steps() == 0) {
    std::snprintf(buf, sizeof(buf), "nothing to step: the effector is already within %.4g",
                  state.settings.tolerance);
    return buf;
  }
  if (s.step == 0) {
    const std::span<const glm::vec3> start = StartPose(s);
    std::snprintf(buf, sizeof(buf), "start pose, %.4f from the target (%zu reaches recorded%s%s)",
                  start.empty() ? 0.0f : glm::length(start.back() - s.recorded_target),
                  r.reach_count(), s.tool_step_count > 0 ? ", then the tools' steps" : "",
                  r.truncated() ? "; the solve went on past the recording's memory bound" : "");
    return buf;
  }
  const RecordingObserver::Reach reach = r.reach(s.step - 1);
  const std::size_t n = r.joint_count();
  const std::size_t j = reach.joint;
  if (reach.kind == PassKind::kStraighten) {
    std::snprintf(buf, sizeof(buf), "%s: joint %zu laid on the line to the target",
                  PassName(reach.kind), j);
  } else if (reach.kind == PassKind::kBendScale) {
    // One whole-chain move, replayed joint by joint from the root (fabrik_accelerated.h).
    std::snprintf(buf, sizeof(buf),
                  "iteration %d, %s: every bend scaled by one factor and the chain turned "
                  "about the root so the effector lands on the target; joint %zu placed",
                  reach.iteration, PassName(reach.kind), j);
  } else if (reach.kind == PassKind::kBackward && j == n - 1) {
    std::snprintf(buf, sizeof(buf), "iteration %d, %s: the effector is put on the target",
                  reach.iteration, PassName(reach.kind));
  } else if (reach.kind == PassKind::kForward && j == 0) {
    std::snprintf(buf, sizeof(buf), "iteration %d, %s: the root goes back to its fixed place",
                  reach.iteration, PassName(reach.kind));
  } else {
    const std::size_t anchor = reach.kind == PassKind::kBackward ? j + 1 : j - 1;
    const float length = state.chain.lengths()[std::min(j, anchor)];
    std::snprintf(buf, sizeof(buf),
                  "iteration %d, %s: joint %zu slides along the line to joint %zu until it "
                  "is %.3f (the segment's length) from it",
                  reach.iteration, PassName(reach.kind), j, anchor, length);
  }
  return buf;
}

std::span<const glm::vec3> DisplayedPose(const AppState& state) {
  return state.scene.current ? state.scene.current->Pose(state) : state.chain.joints();
}

bool SetRace(AppState& state, bool on) {
  RaceState& race = state.race;
  if (on && !state.scene.free_chain()) {
    SetMessage(state, "race: the race works on the chain scene only ('scene chain')", true);
    return false;
  }
  race.active = on;
  race.entries.clear();
  if (!on) return true;
  for (SolverKind kind : AllSolvers()) {
    RaceEntry entry;
    entry.kind = kind;
    entry.chain = state.chain;
    race.entries.push_back(entry);
    // Textbook and accelerated FABRIK side by side (docs/accelerated-fabrik.md).
    if (kind == SolverKind::kFabrik) {
      entry.accelerate = true;
      race.entries.push_back(std::move(entry));
    }
  }
  return true;
}

glm::vec4 RacerColor(SolverKind kind) {
  // By the solver's place in the library's list (ik/solver.h: fabrik, ccd,
  // jacobian_transpose, dls, ...); a solver beyond the palette takes its colours again.
  static constexpr glm::vec4 kPalette[] = {{1.00f, 0.55f, 0.15f, 1.0f},
                                           {0.40f, 0.90f, 0.40f, 1.0f},
                                           {0.78f, 0.52f, 1.00f, 1.0f},
                                           {0.30f, 0.80f, 1.00f, 1.0f},
                                           {0.95f, 0.85f, 0.30f, 1.0f}};
  const std::span<const SolverKind> all = AllSolvers();
  const auto at = static_cast<std::size_t>(std::find(all.begin(), all.end(), kind) - all.begin());
  return kPalette[at % std::size(kPalette)];
}

glm::vec4 RacerColor(const RaceEntry& entry) {
  return entry.accelerate ? glm::vec4(1.00f, 0.25f, 0.35f, 1.0f) : RacerColor(entry.kind);
}

const char* RacerName(const RaceEntry& entry) {
  return entry.accelerate ? "fabrik_accelerated" : SolverName(entry.kind);
}

const char* PassShortName(PassKind kind) { return LabelOf(kind).short_name; }

void UpdateRace(AppState& state) {
  RaceState& race = state.race;
  if (!race.active) return;
  for (RaceEntry& e : race.entries) {
    // A rebuilt main chain restarts the racers from its pose.
    if (!e.chain || e.chain->joint_count() != state.chain.joint_count() ||
        !std::equal(e.chain->lengths().begin(), e.chain->lengths().end(),
                    state.chain.lengths().begin())) {
      e.chain = state.chain;
    }
    const auto start = std::chrono::steady_clock::now();
    // The racers share one solve's budget, so a long chain's race costs a frame what one
    // capped solve does (docs/limits.md), not one per racer.
    SolveSettings settings = BoundedSettings(state, e.chain->joint_count(), race.entries.size());
    settings.accelerate = e.accelerate;  // the race shows both FABRIKs whatever the setting
    const SolveResult r = Solve(e.kind, *e.chain, state.target(), settings);
    e.solve_us =
        std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - start).count();
    if (!r.ok) continue;
    e.last = r;
    e.iteration_history.Push(static_cast<float>(r.iterations));
    e.solve_us_history.Push(static_cast<float>(e.solve_us));
  }
}

}  // namespace fabrik
