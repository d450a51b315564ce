#include "core/step_view.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <glm/geometric.hpp>

#include "core/frame.h"
#include "ik/fabrik.h"

namespace fabrik {
namespace {

bool SamePose(std::span<const glm::vec3> a, std::span<const glm::vec3> b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin());
}

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
  s.result = Solve(state.solver, copy, state.target(), settings, &s.recording);
  s.step = 0;
  s.playing = s.playing && s.recording.reach_count() > 0;
}

void ShowStep(StepState& s) {
  const RecordingObserver& r = s.recording;
  const std::span<const glm::vec3> start = r.start_pose();
  s.pose.assign(start.begin(), start.end());
  s.ghost = s.pose;
  if (s.step >= 1) r.PoseAfterReach(s.step - 1, s.pose);
  if (s.step >= 2) r.PoseAfterReach(s.step - 2, s.ghost);
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

void StepBy(AppState& state, long reaches) {
  StepState& s = state.step;
  if (!s.active) return;
  const long total = static_cast<long>(s.recording.reach_count());
  s.step = static_cast<std::size_t>(std::clamp(static_cast<long>(s.step) + reaches, 0L, total));
  ShowStep(s);
}

void StepHalfPass(AppState& state, int direction) {
  StepState& s = state.step;
  const std::size_t n = s.recording.joint_count();
  if (!s.active || n == 0) return;
  // Steps sit on half-pass boundaries at multiples of n (0 = start, n = after half-pass 0).
  const std::size_t boundary =
      direction > 0 ? (s.step / n + 1) * n : (s.step == 0 ? 0 : (s.step - 1) / n * n);
  StepBy(state, static_cast<long>(boundary) - static_cast<long>(s.step));
}

void StepIteration(AppState& state, int direction) {
  StepState& s = state.step;
  const std::size_t n = s.recording.joint_count();
  if (!s.active || n == 0) return;
  const std::size_t per = 2 * n;  // FABRIK: backward + forward
  const std::size_t boundary =
      direction > 0 ? (s.step / per + 1) * per : (s.step == 0 ? 0 : (s.step - 1) / per * per);
  StepBy(state, static_cast<long>(boundary) - static_cast<long>(s.step));
}

void StepToStart(AppState& state) { StepBy(state, -static_cast<long>(state.step.step)); }
void StepToEnd(AppState& state) {
  StepBy(state, static_cast<long>(state.step.recording.reach_count()));
}

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
    if (s.step >= s.recording.reach_count()) s.playing = false;
  }
  ShowStep(s);
  state.last = s.result;
  if (s.step >= 1) {
    // Readouts follow the replay: distance of the shown effector to the target.
    state.last.distance = glm::length(s.pose.back() - state.target());
    state.last.iterations = s.recording.reach(s.step - 1).iteration;
    state.last.reached = state.last.distance <= state.settings.tolerance;
  }
}

std::string DescribeStep(const AppState& state) {
  const StepState& s = state.step;
  const RecordingObserver& r = s.recording;
  char buf[256];
  if (!r.recorded() || r.reach_count() == 0) {
    std::snprintf(buf, sizeof(buf), "nothing to step: the effector is already within %.4g",
                  state.settings.tolerance);
    return buf;
  }
  if (s.step == 0) {
    std::snprintf(buf, sizeof(buf), "start pose, %.4f from the target (%zu reaches recorded%s)",
                  r.start_distance(), r.reach_count(),
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
  switch (kind) {
    case SolverKind::kFabrik:
      return {1.00f, 0.55f, 0.15f, 1.0f};
    case SolverKind::kCcd:
      return {0.40f, 0.90f, 0.40f, 1.0f};
    case SolverKind::kJacobianTranspose:
      return {0.78f, 0.52f, 1.00f, 1.0f};
    case SolverKind::kDls:
      return {0.30f, 0.80f, 1.00f, 1.0f};
  }
  return glm::vec4(1.0f);
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
    SolveSettings settings = BoundedSettings(state, e.chain->joint_count());
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
