#include "solve_cli/solve_request.h"

#include <algorithm>
#include <charconv>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <glm/geometric.hpp>
#include <limits>
#include <string>
#include <system_error>
#include <utility>

#include "ik/free_root.h"
#include "solve_cli/json_line.h"
#include "solve_cli/line_reader.h"
#include "solve_cli/solve_extended.h"
#include "solve_cli/solve_tools.h"

namespace fabrik::tools {
namespace {

// The local frame keeps points within 2^20 chain lengths (solve_frame.h).
constexpr double kFarLocal = 1048576.0;

std::string KnownSolvers() {
  std::string names;
  for (SolverKind kind : AllSolvers()) {
    if (!names.empty()) names += ", ";
    names += SolverName(kind);
  }
  return names + ", two_bone (3-joint chains)";
}

}  // namespace

const Json* Field(const Json& object, const char* name) {
  const auto it = object.find(name);
  return it == object.end() ? nullptr : &*it;
}

// The shortest decimal that reads back as `f`, as the double JSON will print: 0.1f becomes
// 0.1 rather than 0.10000000149011612.
double Shortest(float f) {
  char buffer[64];
  const auto written = std::to_chars(buffer, buffer + sizeof buffer, f);
  double d = static_cast<double>(f);
  if (written.ec == std::errc()) std::from_chars(buffer, written.ptr, d);
  return d;
}

namespace {

Result<double> ReadCoordinate(const Json& value, const std::string& where) {
  if (!value.is_number()) {
    return MakeError(where + " must be a number, got " + value.type_name());
  }
  const double d = value.get<double>();
  if (!std::isfinite(d)) return MakeError(where + " is not finite");
  if (!std::isfinite(static_cast<float>(d))) {
    return MakeError(where + " = " + SafeDump(value) +
                     " is not finite in single precision (|value| must be below 3.4e38)");
  }
  return d;
}

}  // namespace

Result<float> ReadFloat(const Json& value, const std::string& where) {
  auto d = ReadCoordinate(value, where);
  if (!d) return MakeError(d.error());
  return static_cast<float>(d.value());
}

Result<glm::dvec3> ReadPosition(const Json& value, const std::string& where) {
  if (!value.is_array() || value.size() != 3) {
    return MakeError(where + " must be [x, y, z] (an array of 3 numbers), got " +
                     (value.is_array() ? "an array of " + std::to_string(value.size())
                                       : std::string(value.type_name())));
  }
  glm::dvec3 p(0.0);
  for (int k = 0; k < 3; ++k) {
    Result<double> c = ReadCoordinate(value[k], where + "[" + std::to_string(k) + "]");
    if (!c.ok()) return MakeError(c.error());
    p[k] = c.value();
  }
  return p;
}

Result<glm::vec3> ReadPoint(const Json& value, const std::string& where) {
  auto p = ReadPosition(value, where);
  if (!p) return MakeError(p.error());
  return glm::vec3(p.value());
}

Result<long long> ReadInteger(const Json& value, const std::string& where, long long lo,
                              long long hi) {
  const std::string range = " (" + std::to_string(lo) + " to " + std::to_string(hi) + ")";
  if (!value.is_number_integer()) {
    return MakeError(where + " must be an integer" + range + ", got " + SafeDump(value));
  }
  // nlohmann keeps integers above INT64_MAX as unsigned: compare each kind as itself.
  if (value.is_number_unsigned()) {
    const std::uint64_t u = value.get<std::uint64_t>();
    if (hi < 0 || u > static_cast<std::uint64_t>(hi) ||
        (lo > 0 && u < static_cast<std::uint64_t>(lo))) {
      return MakeError(where + " = " + SafeDump(value) + " is out of range" + range);
    }
    return static_cast<long long>(u);
  }
  const std::int64_t i = value.get<std::int64_t>();
  if (i < lo || i > hi)
    return MakeError(where + " = " + SafeDump(value) + " is out of range" + range);
  return static_cast<long long>(i);
}

Result<double> ReadTolerance(const Json& request) {
  const Json* tolerance = Field(request, "tolerance");
  if (tolerance == nullptr) return MakeError("missing field \"tolerance\"");
  Result<double> tol = ReadCoordinate(*tolerance, "tolerance");
  if (!tol.ok()) return MakeError(tol.error());
  if (!(static_cast<float>(tol.value()) > 0.0f)) {
    return MakeError("tolerance must be > 0, got " + SafeDump(*tolerance) +
                     (tol.value() > 0.0 ? " (0 in single precision)" : ""));
  }
  return tol.value();
}

Result<int> ReadMaxIterations(const Json& request) {
  const Json* iterations = Field(request, "max_iterations");
  if (iterations == nullptr) return MakeError("missing field \"max_iterations\"");
  if (!iterations->is_number()) {
    return MakeError(std::string("max_iterations must be an integer, got ") +
                     iterations->type_name());
  }
  // Compared as a double (10.0 is allowed); integers beyond 2^53 are far above the limit.
  const double n = iterations->get<double>();
  if (n != std::floor(n)) {
    return MakeError("max_iterations must be an integer, got " + SafeDump(*iterations));
  }
  if (n < 1.0) return MakeError("max_iterations must be >= 1, got " + SafeDump(*iterations));
  if (n > static_cast<double>(kMaxIterationsLimit)) {
    return MakeError("max_iterations must be <= " + std::to_string(kMaxIterationsLimit) + ", got " +
                     SafeDump(*iterations));
  }
  return static_cast<int>(n);
}

int WorkCap(std::size_t count, int max_iterations) {
  const double cap = std::floor(kMaxWork / static_cast<double>(std::max<std::size_t>(count, 1)));
  return static_cast<int>(std::max(1.0, std::min(static_cast<double>(max_iterations), cap)));
}

Result<std::vector<glm::dvec3>> ReadJoints(const Json& request) {
  std::vector<glm::dvec3> out;
  const Json* joints = Field(request, "joints");
  if (joints == nullptr) return MakeError("missing field \"joints\"");
  if (!joints->is_array()) {
    return MakeError(std::string("\"joints\" must be an array of [x, y, z] points, got ") +
                     joints->type_name());
  }
  if (joints->size() > kMaxJoints) {
    return MakeError("a chain may have at most " + std::to_string(kMaxJoints) + " joints, got " +
                     std::to_string(joints->size()) + " (docs/fabrik-solve.md: Limits)");
  }
  out.reserve(joints->size());
  for (std::size_t i = 0; i < joints->size(); ++i) {
    Result<glm::dvec3> p = ReadPosition((*joints)[i], "joints[" + std::to_string(i) + "]");
    if (!p.ok()) return MakeError(p.error());
    out.push_back(p.value());
  }
  if (out.size() < 2) {
    return MakeError("a chain needs at least 2 joints, got " + std::to_string(out.size()));
  }
  return out;
}

Result<SolveRequest> ReadChainRequest(const Json& request) {
  SolveRequest out;
  auto joints = ReadJoints(request);
  if (!joints) return MakeError(joints.error());
  out.joints = std::move(joints).value();

  const Json* target = Field(request, "target");
  if (target == nullptr) return MakeError("missing field \"target\"");
  Result<glm::dvec3> t = ReadPosition(*target, "target");
  if (!t.ok()) return MakeError(t.error());
  out.target = t.value();

  auto tol = ReadTolerance(request);
  if (!tol) return MakeError(tol.error());
  out.tolerance = tol.value();
  auto iterations = ReadMaxIterations(request);
  if (!iterations) return MakeError(iterations.error());
  out.max_iterations = iterations.value();

  if (const Json* solver = Field(request, "solver")) {
    if (!solver->is_string()) {
      return MakeError(std::string("solver must be a string, got ") + solver->type_name());
    }
    const std::string& name = solver->get_ref<const std::string&>();
    const std::optional<SolverKind> kind = ParseSolverKind(name);
    if (!kind) {
      return MakeError("unknown solver " + SafeDump(Json(name)) + " (known: " + KnownSolvers() +
                       ")");
    }
    out.solver = *kind;
  }
  // docs/fabrik-solve.md: The headless solver - accelerated FABRIK (fabrik_accelerated.h) on
  // request.
  if (const Json* accelerate = Field(request, "accelerate")) {
    if (!accelerate->is_boolean()) {
      return MakeError(std::string("accelerate must be true or false, got ") +
                       SafeDump(*accelerate));
    }
    out.accelerate = accelerate->get<bool>();
    if (out.accelerate && out.solver != SolverKind::kFabrik) {
      return MakeError("accelerate applies to the fabrik solver only");
    }
  }
  // docs/fabrik-solve.md: The headless solver - a free root, pulled by its head (ik/free_root.h).
  if (const Json* free_root = Field(request, "free_root")) {
    if (!free_root->is_boolean()) {
      return MakeError(std::string("free_root must be true or false, got ") + SafeDump(*free_root));
    }
    out.free_root = free_root->get<bool>();
    if (out.free_root && (out.solver != SolverKind::kFabrik || out.accelerate)) {
      return MakeError(
          "free_root is the backward pass of the textbook fabrik solver: it takes no other "
          "solver and no accelerate");
    }
  }
  return out;
}

Result<LocalChain> SetUpChain(const SolveRequest& request) {
  auto points = ChainToLocal(request.joints);
  if (!points) return MakeError(points.error());
  const LocalFrame frame = points.value().frame;
  const double total = points.value().total_length;
  Result<Chain> made = Chain::FromJoints(std::move(points.value().local));
  if (!made) return MakeError(made.error());
  LocalChain out{frame, std::move(made).value(), frame.ToLocal(request.target), {}, total, false};
  // A tolerance below the smallest float in local units still means "as close as possible".
  out.settings.tolerance = std::max(static_cast<float>(request.tolerance / frame.scale()),
                                    std::numeric_limits<float>::denorm_min());
  out.settings.max_iterations = WorkCap(out.chain.joint_count(), request.max_iterations);
  out.capped = out.settings.max_iterations < request.max_iterations;
  out.settings.accelerate = request.accelerate;
  return out;
}

Json ChainAnswer(const LocalChain& local, const SolveRequest& request, int iterations,
                 std::span<const glm::vec3> pose) {
  if (pose.size() != local.chain.joint_count()) pose = local.chain.joints();
  Json joints = Json::array();
  for (const glm::vec3& p : pose) joints.push_back(local.frame.PointJson(p));
  const double distance = glm::length(local.frame.ToWorld(pose.back()) - request.target);
  const bool reached = distance <= request.tolerance;
  const bool reachable = glm::length(request.target - request.joints.front()) <= local.total_length;
  Json answer = {{"ok", true},
                 {"joints", std::move(joints)},
                 {"iterations", iterations},
                 {"distance", local.frame.Number(distance)},
                 {"reached", reached},
                 {"reachable", reachable}};
  if (local.capped && !reached && iterations >= local.settings.max_iterations) {
    answer["work_limited"] = true;
  }
  return answer;
}

Json ErrorResponse(const std::string& message, const RequestId& id) {
  return WithId({{"ok", false}, {"error", message}}, id);
}

Json WithId(Json response, const RequestId& id) {
  if (id) response["id"] = *id;
  return response;
}

namespace {

Json HandlePlain(const Json& request, const RequestId& id) {
  Result<SolveRequest> parsed = ReadChainRequest(request);
  if (!parsed.ok()) return ErrorResponse(parsed.error(), id);
  const SolveRequest& r = parsed.value();
  Result<LocalChain> set_up = SetUpChain(r);
  if (!set_up) return ErrorResponse(set_up.error(), id);
  LocalChain& local = set_up.value();

  // A free root follows its head anywhere, but the local frame keeps targets within 2^20
  // chain lengths of the root (solve_frame.h); beyond that the head could not land on it.
  if (r.free_root && glm::length(r.target - r.joints.front()) > kFarLocal * local.frame.scale()) {
    return ErrorResponse(
        "free_root: the target is more than 2^20 times the chain's length from the root", id);
  }
  const auto start = std::chrono::steady_clock::now();
  const SolveResult result = r.free_root
                                 ? PullChain(local.chain, local.target)
                                 : Solve(r.solver, local.chain, local.target, local.settings);
  const auto stop = std::chrono::steady_clock::now();
  if (!result.ok) {
    return ErrorResponse(result.error ? result.error : "the solver rejected the request", id);
  }
  Json answer = ChainAnswer(local, r, result.iterations);
  if (r.free_root) {
    answer["reachable"] = true;  // the root follows: every target is within reach
    answer["free_root"] = true;
  }
  answer["solver"] = SolverName(r.solver);
  answer["solve_us"] = std::chrono::duration<double, std::micro>(stop - start).count();
  return WithId(std::move(answer), id);
}

}  // namespace

std::string TooLongResponse(long long line_number) {
  return SafeDump(ErrorResponse("line " + std::to_string(line_number) + " is longer than " +
                                    std::to_string(kMaxLineBytes) +
                                    " bytes (8 MiB): refused unread (docs/fabrik-solve.md: Limits)",
                                std::nullopt));
}

std::optional<std::string> HandleLine(std::string_view line) {
  if (line.find_first_not_of(" \t\r\n") == std::string_view::npos) return std::nullopt;
  RequestId id;
  Result<JsonLine> parsed = ParseJsonLine(line, &id);
  if (!parsed) return SafeDump(ErrorResponse(parsed.error(), id));
  const Json& request = parsed.value().value;
  if (!request.is_object()) {
    return SafeDump(ErrorResponse(
        std::string("a request must be a JSON object, got ") + request.type_name(), id));
  }
  // The peers' everyday tools (two_bone, soften, ...): solve_tools.cpp, which refuses the
  // extended fields with them.
  if (IsToolRequest(request)) return SafeDump(HandleToolRequest(request, id));
  // A free root is a plain chain's option: refused with the extended fields, not ignored.
  if (const Json* free_root = Field(request, "free_root");
      free_root && free_root->is_boolean() && free_root->get<bool>()) {
    for (const char* name : {"nodes", "constraints", "pole", "base"}) {
      if (Field(request, name) != nullptr) {
        return SafeDump(ErrorResponse(
            std::string("free_root applies to a plain chain, not with \"") + name + "\"", id));
      }
    }
  }
  // Trees ("nodes") and constrained chains ("constraints", "pole", "base"): solve_extended.cpp.
  if (std::optional<Json> extended = HandleExtendedRequest(request, id)) {
    return SafeDump(*extended);
  }
  return SafeDump(HandlePlain(request, id));
}

}  // namespace fabrik::tools
