// report.cpp - fabrik-markers' JSON report (report.h).
#include "markers_cli/report.h"

#include <cmath>
#include <glm/geometric.hpp>
#include <nlohmann/json.hpp>

namespace fabrik::markers {

namespace {

using nlohmann::json;

double Mm(double metres) { return std::round(metres * 1e6) / 1e3; }  // to 0.001 mm

json FramesJson(const Take& take, const TakeSolution& solution) {
  json frames = json::array();
  for (int f = 0; f < take.frame_count; ++f) {
    json predicted = json::array(), rejected = json::array();
    for (int m = 0; m < take.marker_count(); ++m) {
      const MarkerState state = solution.states[take.index(f, m)];
      if (state == MarkerState::kPredicted) predicted.push_back(take.names[m]);
      if (state == MarkerState::kRejected) rejected.push_back(take.names[m]);
    }
    frames.push_back({{"frame", take.first_frame + f},
                      {"residual_rms_mm", Mm(solution.residual_rms[f])},
                      {"residual_max_mm", Mm(solution.residual_max[f])},
                      {"solve_us", std::round(solution.solve_us[f] * 10.0) / 10.0},
                      {"iterations", solution.iterations[f]},
                      {"predicted", predicted},
                      {"rejected", rejected}});
  }
  return frames;
}

// Per hidden window: the prediction's error against the recorded position, per frame of the
// window (mean over its markers), and the mean and worst over the window.
json HiddenJson(const ReportInput& in, const TakeSolution& solution) {
  json out = json::array();
  const Take& rec = *in.recorded;
  for (const HideSpec& spec : in.hidden) {
    json errors = json::array();
    double sum = 0.0, worst = 0.0;
    int count = 0;
    for (int number = spec.from; number <= spec.to; ++number) {
      const int f = number - rec.first_frame;
      double frame_sum = 0.0;
      int frame_count = 0;
      for (const std::string& name : spec.names) {
        const int m = rec.find(name);
        if (m < 0 || !rec.is_seen(f, m)) continue;
        const double e = glm::distance(solution.filled.position(f, m), rec.position(f, m));
        frame_sum += e, ++frame_count, sum += e, ++count, worst = std::max(worst, e);
      }
      errors.push_back(frame_count > 0 ? json(Mm(frame_sum / frame_count)) : json(nullptr));
    }
    out.push_back({{"markers", spec.names},
                   {"from", spec.from},
                   {"to", spec.to},
                   {"error_mm", errors},
                   {"mean_mm", count > 0 ? Mm(sum / count) : 0.0},
                   {"max_mm", Mm(worst)},
                   {"samples", count}});
  }
  return out;
}

json SummaryJson(const TakeSolution& solution, const Take& take) {
  const SolveSummary s = Summarise(solution);
  return {{"residual_rms_mean_mm", Mm(s.residual_rms_mean)},
          {"residual_rms_worst_mm", Mm(s.residual_rms_worst)},
          {"residual_rms_worst_frame", take.first_frame + s.residual_rms_worst_frame},
          {"residual_max_worst_mm", Mm(s.residual_max_worst)},
          {"bone_length_change_max_mm", std::round(s.bone_length_change_max * 1e7) / 1e4},
          {"joint_jump_max_mm", Mm(s.joint_jump_max)},
          {"joint_jump_max_frame", take.first_frame + s.joint_jump_max_frame},
          {"solve_us_mean", std::round(s.solve_us_mean * 10) / 10},
          {"solve_us_median", std::round(s.solve_us_median * 10) / 10},
          {"solve_us_max", std::round(s.solve_us_max * 10) / 10},
          {"iterations_mean", std::round(s.iterations_mean * 100) / 100}};
}

json SkeletonJson(const Calibration& cal) {
  json names = json::array(), parents = json::array(), lengths = json::array();
  for (int n = 0; n < kNodeCount; ++n) {
    names.push_back(kNodeNames[n]);
    parents.push_back(kNodeParents[n]);
    lengths.push_back(Mm(cal.bone_length[n]));
  }
  return {{"names", names},
          {"parents", parents},
          {"lengths_mm", lengths},
          {"calibration_frames", cal.frames_used}};
}

// Per marker: frames in each state and the mean and worst residual while seen.
json MarkersJson(const Take& take, const TakeSolution& solution) {
  json out = json::array();
  for (int m = 0; m < take.marker_count(); ++m) {
    int counts[4] = {};
    double sum = 0.0, worst = 0.0;
    for (int f = 0; f < take.frame_count; ++f) {
      const std::size_t i = take.index(f, m);
      ++counts[static_cast<int>(solution.states[i])];
      if (solution.residuals[i] >= 0.0f)
        sum += solution.residuals[i], worst = std::max<double>(worst, solution.residuals[i]);
    }
    out.push_back({{"name", take.names[m]},
                   {"home", solution.calibration.set.home[m] < 0
                                ? ""
                                : kSegmentNames[solution.calibration.set.home[m]]},
                   {"seen", counts[0]},
                   {"predicted", counts[1]},
                   {"rejected", counts[2]},
                   {"missing", counts[3]},
                   {"residual_mean_mm", counts[0] > 0 ? Mm(sum / counts[0]) : 0.0},
                   {"residual_max_mm", Mm(worst)}});
  }
  return out;
}

}  // namespace

std::string ReportJson(const ReportInput& in, const TakeSolution& solution) {
  const Take& take = *in.solved;
  json stretches = json::array();
  for (const Stretch& s : RejectedStretches(solution)) {
    stretches.push_back({{"marker", take.names[s.marker]},
                         {"from", take.first_frame + s.from},
                         {"to", take.first_frame + s.to},
                         {"frames", s.to - s.from + 1}});
  }
  json report = {{"input", in.input},
                 {"set", in.set},
                 {"frame_count", take.frame_count},
                 {"rate", take.rate},
                 {"markers", take.names},
                 {"noise_mm", in.noise_mm},
                 {"seed", in.seed},
                 {"skeleton", SkeletonJson(solution.calibration)},
                 {"summary", SummaryJson(solution, take)},
                 {"rejected", stretches},
                 {"marker_summary", MarkersJson(take, solution)},
                 {"hidden", HiddenJson(in, solution)},
                 {"frames", FramesJson(take, solution)}};
  return report.dump(1) + "\n";
}

}  // namespace fabrik::markers
