// take_edit.cpp - hiding markers and adding noise (take_edit.h).
#include "markers/take_edit.h"

#include <charconv>
#include <cmath>
#include <random>

namespace fabrik::markers {

namespace {

bool ParseInt(std::string_view s, int& value) {
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), value);
  return !s.empty() && ec == std::errc() && end == s.data() + s.size();
}

}  // namespace

Result<HideSpec> ParseHideSpec(std::string_view text) {
  const std::string shown(text.substr(0, 80));
  const std::size_t colon = text.rfind(':');
  if (colon == std::string_view::npos)
    return MakeError("--hide " + shown + ": expected NAMES:FROM-TO");
  const std::string_view range = text.substr(colon + 1);
  const std::size_t dash = range.find('-', 1);
  HideSpec spec;
  if (dash == std::string_view::npos || !ParseInt(range.substr(0, dash), spec.from) ||
      !ParseInt(range.substr(dash + 1), spec.to)) {
    return MakeError("--hide " + shown + ": FROM-TO must be two whole frame numbers");
  }
  if (spec.from > spec.to) return MakeError("--hide " + shown + ": FROM is after TO");
  std::string_view names = text.substr(0, colon);
  for (std::size_t start = 0; start <= names.size();) {
    std::size_t comma = names.find(',', start);
    if (comma == std::string_view::npos) comma = names.size();
    const std::string name(names.substr(start, comma - start));
    if (const char* problem = CheckMarkerName(name))
      return MakeError("--hide " + shown + ": " + problem);
    spec.names.push_back(name);
    start = comma + 1;
  }
  return spec;
}

Status HideMarkers(Take& take, const HideSpec& spec) {
  std::vector<int> markers;
  for (const std::string& name : spec.names) {
    const int m = take.find(name);
    if (m < 0) return MakeError("--hide: " + take.source + " has no marker " + name);
    markers.push_back(m);
  }
  const int last = take.first_frame + take.frame_count - 1;
  if (spec.from < take.first_frame || spec.to > last) {
    return MakeError("--hide: frames " + std::to_string(spec.from) + "-" + std::to_string(spec.to) +
                     " are outside the take's " + std::to_string(take.first_frame) + "-" +
                     std::to_string(last));
  }
  Take edited = take;
  for (int f = spec.from - take.first_frame; f <= spec.to - take.first_frame; ++f) {
    for (int m : markers) edited.seen[edited.index(f, m)] = 0;
  }
  if (Status valid = ValidateTake(edited); !valid.ok())
    return MakeError("--hide: " + valid.error());
  take = std::move(edited);
  return Ok{};
}

Status AddNoise(Take& take, double sigma_mm, std::uint64_t seed) {
  if (!(sigma_mm >= 0.0 && sigma_mm <= 1000.0)) {
    return MakeError("--noise must be between 0 and 1000 mm");
  }
  std::mt19937_64 generator(seed);
  std::normal_distribution<double> normal(0.0, sigma_mm * 0.001);
  for (std::size_t i = 0; i < take.positions.size(); ++i) {
    if (!take.seen[i]) continue;
    for (int k = 0; k < 3; ++k) take.positions[i][k] += static_cast<float>(normal(generator));
  }
  return Ok{};
}

}  // namespace fabrik::markers
