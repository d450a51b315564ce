// take_solve.h - a whole take solved frame by frame, and the figures measured on it
// (docs/markers.md, "The program").
#pragma once

#include <array>
#include <string>
#include <vector>

#include "ik/result.h"
#include "markers/calibrate.h"
#include "markers/solve.h"

namespace fabrik::markers {

struct TakeSolution {
  Calibration calibration;
  std::vector<std::array<glm::vec3, kNodeCount>> joints;  // per frame, world metres
  std::vector<std::array<Pose, kSegmentCount>> segments;  // per frame
  // The gap-filled take: recorded where seen, predicted where missing, hidden or rejected
  // (markers on no segment keep their gaps).
  Take filled;
  std::vector<MarkerState> states;  // [frame * markers + marker]
  std::vector<float> residuals;     // [frame * markers + marker]: metres when kSeen, else -1
  std::vector<float> residual_rms, residual_max;  // per frame, metres
  std::vector<float> solve_us;                    // per frame, wall time of Solve
  std::vector<int> iterations;                    // per frame, SolveTree's
};

// Calibrates on `take` and solves every frame in order (a TakeSolveRun advanced to the end).
// Fails, naming the problem, when the set names markers the take lacks or the calibration
// fails.
Result<TakeSolution> SolveTake(const Take& take, const MarkerSet& set);

// A take solved a few frames at a time, so that a caller with a frame budget (the demo's
// export) can spread the work: frame for frame the solve SolveTake does, the same solution
// once every frame is solved. Holds its own copy of the take.
class TakeSolveRun {
 public:
  // Starts on `take` with `calibration` (Calibrate's, for this take and its bound set).
  // Fails, naming the problem, when the calibration does not make a solver (markers/solve.h).
  static Result<TakeSolveRun> Start(Take take, const Calibration& calibration);

  // Solves up to `frames` (>= 1) more frames in order. Returns true once every frame is
  // solved (at once for a take without frames).
  bool Advance(int frames);

  bool done() const { return frames_done_ >= take_.frame_count; }
  int frames_done() const { return frames_done_; }
  int frame_count() const { return take_.frame_count; }
  // The frames solved so far; the whole take's solution once done().
  const TakeSolution& solution() const { return out_; }
  // Moves the solution out (the run is then spent).
  TakeSolution Release() && { return std::move(out_); }

 private:
  TakeSolveRun(Take take, MarkerSolver solver, const Calibration& calibration);

  Take take_;
  MarkerSolver solver_;
  TakeSolution out_;
  int frames_done_ = 0;
};

struct SolveSummary {
  double residual_rms_mean = 0, residual_rms_worst = 0, residual_max_worst = 0;  // metres
  int residual_rms_worst_frame = 0;                                              // 0-based
  double bone_length_change_max = 0;  // metres, over frames and bones
  double joint_jump_max = 0;          // metres between consecutive frames
  int joint_jump_max_frame = 0;
  double solve_us_mean = 0, solve_us_median = 0, solve_us_max = 0;
  double iterations_mean = 0;
};
SolveSummary Summarise(const TakeSolution& solution);

// A run of consecutive frames in which a marker was rejected (0-based, inclusive).
struct Stretch {
  int marker = 0;
  int from = 0, to = 0;
};
// Runs shorter than `min_frames` are left out.
std::vector<Stretch> RejectedStretches(const TakeSolution& solution, int min_frames = 1);

}  // namespace fabrik::markers
