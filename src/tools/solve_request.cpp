#include "tools/solve_request.h"

#include <charconv>
#include <chrono>
#include <cmath>
#include <string>
#include <system_error>
#include <utility>

#include "ik/chain.h"
#include "tools/solve_extended.h"

namespace fabrik::tools {
namespace {

using json = nlohmann::ordered_json;

std::string Quoted(std::string_view s) { return json(std::string(s)).dump(); }

// "[json.exception.parse_error.101] parse error at ..." -> "parse error at ...": the bracketed
// id means nothing to a person.
std::string WithoutExceptionId(const char* what) {
  std::string_view s(what);
  if (!s.empty() && s.front() == '[') {
    const std::size_t close = s.find("] ");
    if (close != std::string_view::npos) s.remove_prefix(close + 2);
  }
  return std::string(s);
}

const json* Field(const json& object, const char* name) {
  const auto it = object.find(name);
  return it == object.end() ? nullptr : &*it;
}

std::string KnownSolvers() {
  std::string names;
  for (SolverKind kind : AllSolvers()) {
    if (!names.empty()) names += ", ";
    names += SolverName(kind);
  }
  return names;
}

}  // namespace

// The shortest decimal that reads back as `f`, as the double JSON will print: 0.1f becomes
// 0.1 rather than 0.10000000149011612.
double Shortest(float f) {
  char buffer[64];
  const auto written = std::to_chars(buffer, buffer + sizeof buffer, f);
  double d = static_cast<double>(f);
  if (written.ec == std::errc()) std::from_chars(buffer, written.ptr, d);
  return d;
}

// A JSON number that must be finite in single precision; `where` names it in errors.
Result<float> ReadFloat(const json& value, const std::string& where) {
  if (!value.is_number()) {
    return MakeError(where + " must be a number, got " + value.type_name());
  }
  const double d = value.get<double>();
  if (!std::isfinite(d)) return MakeError(where + " is not finite");
  const float f = static_cast<float>(d);
  if (!std::isfinite(f)) {
    return MakeError(where + " = " + value.dump() +
                     " is not finite in single precision (|value| must be below 3.4e38)");
  }
  return f;
}

Result<glm::vec3> ReadPoint(const json& value, const std::string& where) {
  if (!value.is_array() || value.size() != 3) {
    return MakeError(where + " must be [x, y, z] (an array of 3 numbers), got " +
                     (value.is_array() ? "an array of " + std::to_string(value.size())
                                       : std::string(value.type_name())));
  }
  glm::vec3 p(0.0f);
  for (int k = 0; k < 3; ++k) {
    Result<float> c = ReadFloat(value[k], where + "[" + std::to_string(k) + "]");
    if (!c.ok()) return MakeError(c.error());
    p[k] = c.value();
  }
  return p;
}

json PointJson(const glm::vec3& p) {
  return json::array({Shortest(p.x), Shortest(p.y), Shortest(p.z)});
}

json ErrorResponse(const std::string& message, const json& id) {
  json response = {{"ok", false}, {"error", message}};
  if (!id.is_null()) response["id"] = id;
  return response;
}

Result<SolveRequest> ParseRequest(std::string_view line, json* id) {
  json request;
  try {
    request = json::parse(line);
  } catch (const json::out_of_range& e) {
    // The parser's only out_of_range is a number too large for a double (1e999): valid
    // JSON, but infinite.
    return MakeError(WithoutExceptionId(e.what()) + ": not finite (NaN and inf are not allowed)");
  } catch (const json::exception& e) {
    std::string message = "malformed JSON: " + WithoutExceptionId(e.what());
    if (line.find("NaN") != std::string_view::npos ||
        line.find("Infinity") != std::string_view::npos) {
      message += " (JSON has no NaN or Infinity; they are not allowed here anyway)";
    }
    return MakeError(std::move(message));
  }
  if (!request.is_object()) {
    return MakeError(std::string("a request must be a JSON object, got ") + request.type_name());
  }
  if (id != nullptr) {
    if (const json* given = Field(request, "id")) *id = *given;
  }

  SolveRequest out;
  const json* joints = Field(request, "joints");
  if (joints == nullptr) return MakeError("missing field \"joints\"");
  if (!joints->is_array()) {
    return MakeError(std::string("\"joints\" must be an array of [x, y, z] points, got ") +
                     joints->type_name());
  }
  out.joints.reserve(joints->size());
  for (std::size_t i = 0; i < joints->size(); ++i) {
    Result<glm::vec3> p = ReadPoint((*joints)[i], "joints[" + std::to_string(i) + "]");
    if (!p.ok()) return MakeError(p.error());
    out.joints.push_back(p.value());
  }
  if (out.joints.size() < 2) {
    return MakeError("a chain needs at least 2 joints, got " + std::to_string(out.joints.size()));
  }

  const json* target = Field(request, "target");
  if (target == nullptr) return MakeError("missing field \"target\"");
  Result<glm::vec3> t = ReadPoint(*target, "target");
  if (!t.ok()) return MakeError(t.error());
  out.target = t.value();

  const json* tolerance = Field(request, "tolerance");
  if (tolerance == nullptr) return MakeError("missing field \"tolerance\"");
  Result<float> tol = ReadFloat(*tolerance, "tolerance");
  if (!tol.ok()) return MakeError(tol.error());
  if (!(tol.value() > 0.0f)) {
    return MakeError("tolerance must be > 0, got " + tolerance->dump() +
                     (tolerance->get<double>() > 0.0 ? " (0 in single precision)" : ""));
  }
  out.settings.tolerance = tol.value();

  const json* iterations = Field(request, "max_iterations");
  if (iterations == nullptr) return MakeError("missing field \"max_iterations\"");
  if (!iterations->is_number()) {
    return MakeError(std::string("max_iterations must be an integer, got ") +
                     iterations->type_name());
  }
  const double n = iterations->get<double>();
  if (n != std::floor(n)) {
    return MakeError("max_iterations must be an integer, got " + iterations->dump());
  }
  if (n < 1.0) return MakeError("max_iterations must be >= 1, got " + iterations->dump());
  if (n > static_cast<double>(kMaxIterationsLimit)) {
    return MakeError("max_iterations must be <= " + std::to_string(kMaxIterationsLimit) + ", got " +
                     iterations->dump());
  }
  out.settings.max_iterations = static_cast<int>(n);

  if (const json* solver = Field(request, "solver")) {
    if (!solver->is_string()) {
      return MakeError(std::string("solver must be a string, got ") + solver->type_name());
    }
    const std::string& name = solver->get_ref<const std::string&>();
    const std::optional<SolverKind> kind = ParseSolverKind(name);
    if (!kind) {
      return MakeError("unknown solver " + Quoted(name) + " (known: " + KnownSolvers() + ")");
    }
    out.solver = *kind;
  }
  // README: The headless solver - accelerated FABRIK (fabrik_accelerated.h) on request.
  if (const json* accelerate = Field(request, "accelerate")) {
    if (!accelerate->is_boolean()) {
      return MakeError(std::string("accelerate must be true or false, got ") + accelerate->dump());
    }
    out.settings.accelerate = accelerate->get<bool>();
    if (out.settings.accelerate && out.solver != SolverKind::kFabrik) {
      return MakeError("accelerate applies to the fabrik solver only");
    }
  }
  return out;
}

std::optional<std::string> HandleLine(std::string_view line) {
  if (line.find_first_not_of(" \t\r\n") == std::string_view::npos) return std::nullopt;
  // Trees ("nodes") and constrained chains ("constraints", "pole", "base"): solve_extended.cpp.
  if (std::optional<std::string> extended = HandleExtendedLine(line)) return extended;

  json id;
  Result<SolveRequest> parsed = ParseRequest(line, &id);
  if (!parsed.ok()) return ErrorResponse(parsed.error(), id).dump();
  SolveRequest& request = parsed.value();

  // Zero-length segments and chains too large for float are reported by the chain itself,
  // e.g. "joints[2] coincides with joints[1]: zero-length segment".
  Result<Chain> made = Chain::FromJoints(std::move(request.joints));
  if (!made.ok()) return ErrorResponse(made.error(), id).dump();
  Chain& chain = made.value();

  const auto start = std::chrono::steady_clock::now();
  const SolveResult result = Solve(request.solver, chain, request.target, request.settings);
  const auto stop = std::chrono::steady_clock::now();
  if (!result.ok) {
    return ErrorResponse(result.error ? result.error : "the solver rejected the request", id)
        .dump();
  }

  json joints = json::array();
  for (const glm::vec3& p : chain.joints()) joints.push_back(PointJson(p));
  json response = {{"ok", true},
                   {"joints", std::move(joints)},
                   {"iterations", result.iterations},
                   {"distance", Shortest(result.distance)},
                   {"reached", result.reached},
                   {"reachable", result.reachable},
                   {"solver", SolverName(request.solver)},
                   {"solve_us", std::chrono::duration<double, std::micro>(stop - start).count()}};
  if (!id.is_null()) response["id"] = id;
  return response.dump();
}

}  // namespace fabrik::tools
