// report.h - fabrik-markers' JSON report (docs/markers.md, "The report").
#pragma once

#include <string>
#include <vector>

#include "markers/take.h"
#include "markers/take_edit.h"
#include "markers/take_solve.h"

namespace fabrik::markers {

struct ReportInput {
  std::string input, set;
  const Take* recorded = nullptr;  // the take as read (before hiding and noise)
  const Take* solved = nullptr;    // the take solved (hidden markers removed, noise added)
  std::vector<HideSpec> hidden;
  double noise_mm = 0.0;
  unsigned long long seed = 0;
};

// The report as one JSON document (pretty-printed).
std::string ReportJson(const ReportInput& input, const TakeSolution& solution);

}  // namespace fabrik::markers
