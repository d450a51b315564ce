// libFuzzer target: fabrik-solve's request reader, fed whole input streams (any bytes, split
// into lines by the bounded line reader with a small limit, so over-long lines are exercised).
// Checks, for every line (docs/fabrik-solve.md): no crash; blank lines get no answer,
// every other line exactly one answer that is one line of valid JSON with "ok"; an error has
// a non-empty "error" and no pose; an answer has only finite numbers (a NaN would be written
// as null), as many points as the request had, and keeps every segment's length to 1e-5 of
// the total length (times the reported factor for a stretched chain or a fitted curve). The peers' tools
// (docs/tools.md: two_bone, soften, stretch, max_turn_deg, stiffness, curve) are reached through
// the seeds in the corpus.
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

#include "solve_cli/line_reader.h"
#include "solve_cli/solve_request.h"

namespace {

using Json = nlohmann::ordered_json;

void Check(bool condition, const char* what, const std::string& line) {
  if (!condition) {
    std::fprintf(stderr, "fuzz_solve_request: broken promise: %s\nline: %s\n", what,
                 line.substr(0, 2000).c_str());
    std::abort();
  }
}

bool AllFinite(const Json& v) {
  if (v.is_number()) return std::isfinite(v.get<double>());
  if (v.is_null()) return false;
  if (v.is_array() || v.is_object()) {
    for (const auto& e : v) {
      if (!AllFinite(e)) return false;
    }
  }
  return true;
}

double Distance(const Json& a, const Json& b) {
  double s = 0.0;
  for (int k = 0; k < 3; ++k) {
    const double d = a[k].get<double>() - b[k].get<double>();
    s += d * d;
  }
  return std::sqrt(s);
}

// Segment lengths of the answer against the request's (parents[i] = i - 1 for a chain),
// each multiplied by `factor` (a stretched chain's "stretch").
void CheckLengths(const Json& in, const Json& out, const std::vector<long long>& parents,
                  const std::string& line, double factor = 1.0) {
  Check(in.size() == out.size(), "answer has a different number of points", line);
  double total = 0.0;
  for (std::size_t i = 1; i < in.size(); ++i) {
    total += Distance(in[i], in[static_cast<std::size_t>(parents[i])]);
  }
  for (std::size_t i = 1; i < in.size(); ++i) {
    const auto p = static_cast<std::size_t>(parents[i]);
    const double want = Distance(in[i], in[p]) * factor;
    const double got = Distance(out[i], out[p]);
    Check(std::fabs(got - want) <= 1e-5 * total * factor, "a segment length was not kept", line);
  }
}

void CheckAnswer(const std::string& line, const std::string& response) {
  Check(response.find('\n') == std::string::npos, "answer spans lines", line);
  const Json answer = Json::parse(response, nullptr, false);
  Check(answer.is_object(), "answer is not a JSON object", line);
  const auto ok = answer.find("ok");
  Check(ok != answer.end() && ok->is_boolean(), "answer without a boolean \"ok\"", line);
  if (!ok->get<bool>()) {
    const auto error = answer.find("error");
    Check(error != answer.end() && error->is_string() && !error->get<std::string>().empty(),
          "error answer without a message", line);
    Check(!answer.contains("joints") && !answer.contains("positions"), "error with a pose", line);
    return;
  }
  for (const char* key : {"joints", "positions", "distance", "distances", "iterations"}) {
    if (answer.contains(key)) Check(AllFinite(answer[key]), "non-finite number in answer", line);
  }
  const Json request = Json::parse(line, nullptr, false);
  Check(request.is_object(), "answered a line that is not a JSON object", line);
  if (answer.contains("joints")) {
    const Json& joints = request["joints"];
    std::vector<long long> parents(joints.size());
    for (std::size_t i = 0; i < parents.size(); ++i) parents[i] = static_cast<long long>(i) - 1;
    // A stretched chain (docs/tools.md) scales every segment by the reported factor, which
    // lies between 1 and the requested maximum.
    double factor = 1.0;
    if (answer.contains("stretch")) {
      factor = answer["stretch"].get<double>();
      Check(factor >= 1.0 && factor <= request["stretch"].get<double>() * (1.0 + 1e-6),
            "stretch factor outside 1..stretch", line);
    }
    // Spline IK with fit stretch scales every segment by its reported factor.
    if (answer.contains("fit_scale")) {
      factor = answer["fit_scale"].get<double>();
      Check(factor > 0.0, "fit_scale not positive", line);
    }
    CheckLengths(joints, answer["joints"], parents, line, factor);
  } else {
    Check(answer.contains("positions"), "answer without a pose", line);
    Json nodes = Json::array();
    std::vector<long long> parents;
    for (const Json& n : request["nodes"]) {
      nodes.push_back(n["position"]);
      parents.push_back(n["parent"].get<long long>());
    }
    CheckLengths(nodes, answer["positions"], parents, line);
  }
}

// Iteration caps above this are lowered so one input cannot take seconds; the work bound
// itself is tested by tests/cli/test_fabrik_solve_hostile.py.
bool TooSlow(const std::string& line) {
  const Json request = Json::parse(line, nullptr, false);
  if (!request.is_object()) return false;
  const auto it = request.find("max_iterations");
  return it != request.end() && it->is_number() && it->get<double>() > 100.0;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::istringstream in(std::string(reinterpret_cast<const char*>(data), size));
  std::string line;
  for (long long number = 1;; ++number) {
    const auto status = fabrik::tools::ReadLine(in, line, 4096);
    if (status == fabrik::tools::LineStatus::kEnd) break;
    if (status == fabrik::tools::LineStatus::kTooLong) {
      CheckAnswer("", fabrik::tools::TooLongResponse(number));
      continue;
    }
    if (TooSlow(line)) continue;
    const std::optional<std::string> response = fabrik::tools::HandleLine(line);
    const bool blank = line.find_first_not_of(" \t\r\n") == std::string::npos;
    Check(response.has_value() != blank, "blank line answered or other line not answered", line);
    if (response) CheckAnswer(line, *response);
  }
  return 0;
}
