// fabrik-markers: a marker take solved headless (docs/markers.md, "The program"): CSM or TRC in,
// the solved skeleton as BVH, the gap-filled markers as TRC and a JSON report out.
#include <CLI/CLI.hpp>
#include <iostream>
#include <optional>
#include <string>
#include <vector>

#include "io/file_write.h"
#include "markers/csm.h"
#include "markers/skeleton_bvh.h"
#include "markers/take_edit.h"
#include "markers/take_file.h"
#include "markers/take_solve.h"
#include "markers/text_file.h"
#include "markers/trc.h"
#include "markers_cli/report.h"

namespace {

using namespace fabrik::markers;

struct Options {
  std::string input, set, bvh, trc, report;
  std::vector<std::string> hide;
  std::optional<double> noise_mm;
  std::optional<unsigned long long> seed;
};

fabrik::Status Prepare(const Options& o, Take& take, std::vector<HideSpec>& hidden) {
  for (const std::string& text : o.hide) {
    fabrik::Result<HideSpec> spec = ParseHideSpec(text);
    if (!spec.ok()) return fabrik::MakeError(spec.error());
    if (fabrik::Status s = HideMarkers(take, spec.value()); !s.ok()) return s;
    hidden.push_back(spec.value());
  }
  if (o.noise_mm.has_value()) return AddNoise(take, *o.noise_mm, o.seed.value_or(1));
  return fabrik::Ok{};
}

fabrik::Status WriteOutputs(const Options& o, const ReportInput& report_input,
                            const TakeSolution& solution) {
  if (!o.bvh.empty()) {
    if (fabrik::Status s = WriteBvhFile(SkeletonBvh(solution), o.bvh); !s.ok()) return s;
  }
  if (!o.trc.empty()) {
    if (fabrik::Status s = WriteTrcFile(solution.filled, o.trc); !s.ok()) return s;
  }
  if (!o.report.empty()) {
    return fabrik::io::WriteFileAtomic(o.report, ReportJson(report_input, solution));
  }
  return fabrik::Ok{};
}

int Run(const Options& o) {
  fabrik::Result<Take> read = ReadTakeFile(o.input);
  if (!read.ok()) return std::cerr << "fabrik-markers: " << read.error() << "\n", 2;
  const Take recorded = read.value();
  Take take = std::move(read).value();
  std::vector<HideSpec> hidden;
  if (fabrik::Status s = Prepare(o, take, hidden); !s.ok()) {
    return std::cerr << "fabrik-markers: " << s.error() << "\n", 2;
  }
  fabrik::Result<MarkerSet> set = o.set.empty() ? LoadDefaultMarkerSet() : LoadMarkerSetFile(o.set);
  if (!set.ok()) return std::cerr << "fabrik-markers: " << set.error() << "\n", 2;
  fabrik::Result<TakeSolution> solution = SolveTake(take, set.value());
  if (!solution.ok()) return std::cerr << "fabrik-markers: " << solution.error() << "\n", 2;
  ReportInput report{o.input, set.value().source,       &recorded,         &take,
                     hidden,  o.noise_mm.value_or(0.0), o.seed.value_or(1)};
  if (fabrik::Status s = WriteOutputs(o, report, solution.value()); !s.ok()) {
    return std::cerr << "fabrik-markers: " << s.error() << "\n", 2;
  }
  const SolveSummary sum = Summarise(solution.value());
  std::cout << "fabrik-markers: " << take.frame_count << " frames, residual RMS mean "
            << sum.residual_rms_mean * 1000 << " mm (worst frame " << sum.residual_rms_worst * 1000
            << " mm), solve " << sum.solve_us_mean << " us a frame\n";
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{
      "fabrik-markers: fits a skeleton to an optical marker take with FABRIK (docs/markers.md).\n"
      "IN is a CSM file (read through Assimp) or a TRC file. The skeleton is calibrated from\n"
      "the take, then every frame is solved in order using nothing after it.",
      "fabrik-markers"};
  Options o;
  app.add_option("IN", o.input, "the marker take (.csm or .trc)")->required();
  app.add_option("--set", o.set, "marker set file (default: assets/markers/cmu.txt)");
  app.add_option("--hide", o.hide,
                 "NAMES:FROM-TO: hide these comma-separated markers over frames FROM..TO "
                 "(numbered as the file numbers them, inclusive); repeatable");
  app.add_option("--noise", o.noise_mm, "add Gaussian noise of MM millimetres to every coordinate");
  app.add_option("--seed", o.seed, "seed of the noise (default 1)");
  app.add_option("--bvh", o.bvh, "write the solved skeleton as BVH");
  app.add_option("--trc", o.trc, "write the gap-filled markers as TRC");
  app.add_option("--report", o.report, "write the JSON report");
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    std::cerr << "fabrik-markers: " << e.what() << " (see --help)\n";
    return 2;
  }
  if (o.seed.has_value() && !o.noise_mm.has_value()) {
    std::cerr << "fabrik-markers: --seed needs --noise\n";
    return 2;
  }
  return Run(o);
}
