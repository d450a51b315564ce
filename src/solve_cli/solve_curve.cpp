// fabrik-solve's spline IK requests ("curve"): see solve_tools.h.
#include <chrono>
#include <glm/geometric.hpp>
#include <string>
#include <vector>

#include "ik/catmull_rom.h"
#include "ik/spline_ik.h"
#include "solve_cli/json_line.h"
#include "solve_cli/solve_tools.h"

namespace fabrik::tools {
namespace {

// Fields that solve towards a target; a curve request lays the chain instead, so they would be
// silently meaningless: refused.
constexpr const char* kNotWithCurve[] = {"solver",    "soften",    "stretch",     "max_turn_deg",
                                         "stiffness", "pole",      "constraints", "base",
                                         "nodes",     "free_root", "accelerate",  "aim"};

Result<CurveFit> ReadFit(const Json& request) {
  const Json* fit = Field(request, "fit");
  if (fit == nullptr) return CurveFit::kKeepLengths;
  if (fit->is_string() && fit->get_ref<const std::string&>() == "stretch")
    return CurveFit::kStretch;
  if (fit->is_string() && fit->get_ref<const std::string&>() == "none") {
    return CurveFit::kKeepLengths;
  }
  return MakeError("fit must be \"stretch\" or \"none\", got " + SafeDump(*fit));
}

// The curve's points in the chain's local frame, checked as Spline::Create would clean them,
// but refused with a reason instead of dropped.
Result<std::vector<glm::vec3>> ReadCurve(const Json& curve, const LocalFrame& frame) {
  if (!curve.is_array()) {
    return MakeError(std::string("\"curve\" must be an array of [x, y, z] points, got ") +
                     curve.type_name());
  }
  if (curve.size() < 2) {
    return MakeError("a curve needs at least 2 points, got " + std::to_string(curve.size()));
  }
  if (curve.size() > Spline::kMaxPoints) {
    return MakeError("a curve may have at most " + std::to_string(Spline::kMaxPoints) +
                     " points, got " + std::to_string(curve.size()));
  }
  std::vector<glm::vec3> points;
  points.reserve(curve.size());
  for (std::size_t i = 0; i < curve.size(); ++i) {
    const std::string where = "curve[" + std::to_string(i) + "]";
    auto p = ReadPosition(curve[i], where);
    if (!p) return MakeError(p.error());
    const glm::dvec3 local = (p.value() - frame.origin()) / frame.scale();
    const double far = std::max({std::fabs(local.x), std::fabs(local.y), std::fabs(local.z)});
    if (!(far <= Spline::kMaxCoordinate)) {
      return MakeError(where +
                       " is too far from the root (about a million times the chain's length)");
    }
    points.push_back(glm::vec3(local));
    if (i > 0 && glm::distance(points[i], points[i - 1]) <= Spline::kMinPointSpacing) {
      return MakeError(where + " coincides with curve[" + std::to_string(i - 1) +
                       "] (closer than 1e-5 of the chain's length)");
    }
  }
  return points;
}

}  // namespace

Json HandleCurveRequest(const Json& request, const RequestId& id) {
  for (const char* name : kNotWithCurve) {
    if (Field(request, name) != nullptr) {
      return ErrorResponse(std::string("\"") + name +
                               "\" cannot be combined with \"curve\" (spline IK lays the chain "
                               "along the curve; it does not solve towards a target)",
                           id);
    }
  }
  auto joints = ReadJoints(request);
  if (!joints) return ErrorResponse(joints.error(), id);
  if (joints.value().size() > kMaxCurveJoints) {
    return ErrorResponse("spline IK takes at most " + std::to_string(kMaxCurveJoints) +
                             " joints, got " + std::to_string(joints.value().size()),
                         id);
  }
  auto fit = ReadFit(request);
  if (!fit) return ErrorResponse(fit.error(), id);
  auto local = ChainToLocal(joints.value());
  if (!local) return ErrorResponse(local.error(), id);
  const LocalFrame& frame = local.value().frame;
  auto chain = Chain::FromJoints(std::move(local.value().local));
  if (!chain) return ErrorResponse(chain.error(), id);
  auto points = ReadCurve(*Field(request, "curve"), frame);
  if (!points) return ErrorResponse(points.error(), id);
  auto spline = Spline::Create(std::move(points).value(), false);
  if (!spline) return ErrorResponse("curve: " + spline.error(), id);

  std::vector<glm::vec3> pose(chain.value().joint_count());
  const auto start = std::chrono::steady_clock::now();
  const SplineIkResult laid =
      LayAlongCurve(spline.value(), chain.value().lengths(), fit.value(), pose);
  const auto stop = std::chrono::steady_clock::now();
  if (!laid.ok) return ErrorResponse(laid.error, id);

  Json out = Json::array();
  for (const glm::vec3& p : pose) out.push_back(frame.PointJson(p));
  Json answer = {{"ok", true},
                 {"joints", std::move(out)},
                 {"solver", "spline_ik"},
                 {"on_curve", laid.on_curve},
                 {"covered", frame.Number(double(laid.covered) * frame.scale())},
                 {"curve_length", frame.Number(double(spline.value().length()) * frame.scale())}};
  if (fit.value() == CurveFit::kStretch) answer["fit_scale"] = Shortest(laid.scale);
  answer["solve_us"] = std::chrono::duration<double, std::micro>(stop - start).count();
  return WithId(std::move(answer), id);
}

}  // namespace fabrik::tools
