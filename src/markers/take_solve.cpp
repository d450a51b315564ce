// take_solve.cpp - a whole take solved, and its figures (take_solve.h).
#include "markers/take_solve.h"

#include <algorithm>
#include <chrono>
#include <glm/geometric.hpp>

namespace fabrik::markers {

Result<TakeSolution> SolveTake(const Take& take, const MarkerSet& set) {
  Result<BoundSet> bound = BindMarkerSet(set, take);
  if (!bound.ok()) return MakeError(bound.error());
  Result<Calibration> calibration = Calibrate(take, bound.value());
  if (!calibration.ok()) return MakeError(calibration.error());
  Result<TakeSolveRun> run = TakeSolveRun::Start(take, calibration.value());
  if (!run.ok()) return MakeError(run.error());
  run.value().Advance(std::max(take.frame_count, 1));
  return std::move(run).value().Release();
}

Result<TakeSolveRun> TakeSolveRun::Start(Take take, const Calibration& calibration) {
  Result<MarkerSolver> solver = MarkerSolver::Create(calibration, take.marker_count());
  if (!solver.ok()) return MakeError(solver.error());
  return TakeSolveRun(std::move(take), std::move(solver).value(), calibration);
}

TakeSolveRun::TakeSolveRun(Take take, MarkerSolver solver, const Calibration& calibration)
    : take_(std::move(take)), solver_(std::move(solver)) {
  out_.calibration = calibration;
  const std::size_t frames = static_cast<std::size_t>(take_.frame_count);
  out_.joints.resize(frames);
  out_.segments.resize(frames);
  out_.filled = take_;
  out_.states.resize(take_.positions.size());
  out_.residuals.resize(take_.positions.size());
  out_.residual_rms.resize(frames);
  out_.residual_max.resize(frames);
  out_.solve_us.resize(frames);
  out_.iterations.resize(frames);
}

bool TakeSolveRun::Advance(int frames) {
  const int end = std::min(take_.frame_count, frames_done_ + std::max(frames, 1));
  for (int f = frames_done_; f < end; ++f) {
    const auto start = std::chrono::steady_clock::now();
    const FrameSolution& s = solver_.Solve(take_, f);
    const auto stop = std::chrono::steady_clock::now();
    const auto fi = static_cast<std::size_t>(f);
    out_.solve_us[fi] = std::chrono::duration<float, std::micro>(stop - start).count();
    out_.joints[fi] = s.joints;
    out_.segments[fi] = s.segments;
    out_.residual_rms[fi] = s.residual_rms;
    out_.residual_max[fi] = s.residual_max;
    out_.iterations[fi] = s.iterations;
    for (int m = 0; m < take_.marker_count(); ++m) {
      const std::size_t i = take_.index(f, m);
      out_.states[i] = s.state[m];
      out_.residuals[i] = s.residual[m];
      out_.filled.positions[i] = s.estimate[m];
      out_.filled.seen[i] = s.state[m] != MarkerState::kMissing;
    }
  }
  frames_done_ = end;
  return done();
}

SolveSummary Summarise(const TakeSolution& solution) {
  SolveSummary sum;
  const std::size_t frames = solution.joints.size();
  if (frames == 0) return sum;
  for (std::size_t f = 0; f < frames; ++f) {
    sum.residual_rms_mean += solution.residual_rms[f] / static_cast<double>(frames);
    if (solution.residual_rms[f] > sum.residual_rms_worst) {
      sum.residual_rms_worst = solution.residual_rms[f];
      sum.residual_rms_worst_frame = static_cast<int>(f);
    }
    sum.residual_max_worst = std::max<double>(sum.residual_max_worst, solution.residual_max[f]);
    sum.solve_us_mean += solution.solve_us[f] / static_cast<double>(frames);
    sum.solve_us_max = std::max<double>(sum.solve_us_max, solution.solve_us[f]);
    sum.iterations_mean += solution.iterations[f] / static_cast<double>(frames);
    const auto& j = solution.joints[f];
    for (int n = 1; n < kNodeCount; ++n) {
      const double length = glm::distance(glm::dvec3(j[n]), glm::dvec3(j[kNodeParents[n]]));
      sum.bone_length_change_max = std::max(
          sum.bone_length_change_max, std::fabs(length - solution.calibration.bone_length[n]));
      if (f == 0) continue;
      const double jump = glm::distance(j[n], solution.joints[f - 1][n]);
      if (jump > sum.joint_jump_max)
        sum.joint_jump_max = jump, sum.joint_jump_max_frame = static_cast<int>(f);
    }
  }
  std::vector<float> times = solution.solve_us;
  std::nth_element(times.begin(), times.begin() + times.size() / 2, times.end());
  sum.solve_us_median = times[times.size() / 2];
  return sum;
}

std::vector<Stretch> RejectedStretches(const TakeSolution& solution, int min_frames) {
  std::vector<Stretch> out;
  const int frames = static_cast<int>(solution.joints.size());
  const int markers = solution.filled.marker_count();
  for (int m = 0; m < markers; ++m) {
    int start = -1;
    for (int f = 0; f <= frames; ++f) {
      const bool rejected =
          f < frames && solution.states[solution.filled.index(f, m)] == MarkerState::kRejected;
      if (rejected && start < 0) start = f;
      if (!rejected && start >= 0) {
        if (f - start >= min_frames) out.push_back({m, start, f - 1});
        start = -1;
      }
    }
  }
  return out;
}

}  // namespace fabrik::markers
