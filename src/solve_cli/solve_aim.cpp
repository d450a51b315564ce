// fabrik-solve's look-at requests ("aim"): see solve_tools.h.
#include <algorithm>
#include <chrono>
#include <numbers>
#include <string>
#include <vector>

#include "ik/aim.h"
#include "solve_cli/json_line.h"
#include "solve_cli/solve_tools.h"

namespace fabrik::tools {
namespace {

// Fields that solve towards a target or lay the chain otherwise: refused beside "aim".
constexpr const char* kNotWithAim[] = {"solver",    "soften", "stretch",   "max_turn_deg",
                                       "stiffness", "pole",   "curve",     "constraints",
                                       "base",      "nodes",  "free_root", "accelerate"};

}  // namespace

Json HandleAimRequest(const Json& request, const RequestId& id) {
  for (const char* name : kNotWithAim) {
    if (Field(request, name) != nullptr) {
      return ErrorResponse(std::string("\"") + name + "\" cannot be combined with \"aim\"", id);
    }
  }
  const Json& aim = *Field(request, "aim");
  if (!aim.is_object()) {
    return ErrorResponse("\"aim\" must be an object {\"axis\": [x, y, z], \"at\": [x, y, z]}", id);
  }
  auto joints = ReadJoints(request);
  if (!joints) return ErrorResponse(joints.error(), id);
  // Each pass re-reads the frames of the whole chain once per aiming joint.
  if (joints.value().size() > kMaxCurveJoints) {
    return ErrorResponse("aim takes at most " + std::to_string(kMaxCurveJoints) + " joints, got " +
                             std::to_string(joints.value().size()),
                         id);
  }
  auto local = ChainToLocal(joints.value());
  if (!local) return ErrorResponse(local.error(), id);
  const LocalFrame frame = local.value().frame;
  auto made = Chain::FromJoints(std::move(local.value().local));
  if (!made) return ErrorResponse(made.error(), id);
  Chain& chain = made.value();

  AimTarget target;
  const Json* axis = Field(aim, "axis");
  const Json* at = Field(aim, "at");
  if (axis == nullptr || at == nullptr) return ErrorResponse("aim needs \"axis\" and \"at\"", id);
  auto a = ReadPoint(*axis, "aim.axis");
  if (!a) return ErrorResponse(a.error(), id);
  if (a.value() == glm::vec3(0.0f)) return ErrorResponse("aim.axis must be non-zero", id);
  target.axis = a.value();
  auto p = ReadPosition(*at, "aim.at");
  if (!p) return ErrorResponse(p.error(), id);
  target.at = frame.ToLocal(p.value());
  const auto segments = static_cast<long long>(chain.segment_count());
  if (const Json* k = Field(aim, "joints")) {
    auto n = ReadInteger(*k, "aim.joints", 1, std::min(segments, kMaxAimJoints));
    if (!n) return ErrorResponse(n.error(), id);
    target.joints = static_cast<int>(n.value());
  }
  std::vector<float> weights;
  if (const Json* w = Field(aim, "weights")) {
    if (!w->is_array() || w->size() != static_cast<std::size_t>(target.joints)) {
      return ErrorResponse("aim.weights must be an array of one number >= 0 per aiming joint (" +
                               std::to_string(target.joints) + ")",
                           id);
    }
    double sum = 0.0;
    for (std::size_t i = 0; i < w->size(); ++i) {
      auto f = ReadFloat((*w)[i], "aim.weights[" + std::to_string(i) + "]");
      if (!f) return ErrorResponse(f.error(), id);
      if (!(f.value() >= 0.0f)) {
        return ErrorResponse("aim.weights[" + std::to_string(i) + "] must be >= 0", id);
      }
      weights.push_back(f.value());
      sum += f.value();
    }
    if (!(sum > 0.0)) return ErrorResponse("aim.weights must not all be 0", id);
    target.weights = weights;
  }

  AimSolver solver;
  const auto start = std::chrono::steady_clock::now();
  const AimResult result = solver.Solve(chain, target);
  const auto stop = std::chrono::steady_clock::now();
  if (!result.ok) return ErrorResponse(result.error, id);
  Json out = Json::array();
  for (const glm::vec3& q : chain.joints()) out.push_back(frame.PointJson(q));
  Json answer = {{"ok", true},
                 {"joints", std::move(out)},
                 {"solver", "aim"},
                 {"aim_error_deg", Shortest(result.angle * 180.0f / std::numbers::pi_v<float>)},
                 {"reached", result.reached},
                 {"passes", result.passes}};
  answer["solve_us"] = std::chrono::duration<double, std::micro>(stop - start).count();
  return WithId(std::move(answer), id);
}

}  // namespace fabrik::tools
