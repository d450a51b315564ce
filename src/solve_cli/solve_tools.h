// solve_tools.h - fabrik-solve requests that use the everyday IK tools other toolboxes have
// (docs/tools.md).
//
// A plain chain request (solve_request.h) plus any of:
//   "solver": "two_bone"   the analytic solver of ik/two_bone.h; the chain must have exactly 3
//                          joints. Takes "pole" ([x, y, z], a world point picking the bend
//                          plane); not "accelerate".
//   "soften": r            0 < r <= 1 (ik/soften.h): beyond r x reach the chain aims at a
//                          target pulled in so the effector approaches the target
//                          asymptotically. Any solver; 1 is no softening. The answer adds
//                          "soft_target": the point the chain aimed at, when it differs.
//   "stretch": S           S >= 1 (ik/stretch.h): beyond the reach every segment is scaled by
//                          one factor, up to S; the answer adds "stretch": the factor, its
//                          "joints" are the stretched pose, and "reachable" means within
//                          S x reach. Not with soften or stiffness.
//   "max_turn_deg": A      0 < A <= 180 (ik/turn_limit.h): no segment's direction turns more
//                          than A degrees from the request's pose. Any solver.
//   "stiffness": [s, ...]  one number in 0..1 per joint (ik/stiffness.h); textbook fabrik only.
//   "curve": [[x,y,z], ...] spline IK (ik/spline_ik.h): the chain is laid along the centripetal
//                          Catmull-Rom curve through these points (2 to 10,000; consecutive
//                          points at least 1e-5 of the chain's length apart, all within 1e6
//                          chain lengths of the root) from its first point - the root moves
//                          there - every joint on the curve, lengths kept; with "fit":
//                          "stretch" every length is scaled by one factor so the chain covers
//                          the whole curve ("fit": "none", the default, keeps them). At most
//                          kMaxCurveJoints joints. No other field of this list, nor "solver",
//                          "pole", "accelerate", "free_root" or the extended fields, may come
//                          with it; "target", "tolerance" and "max_iterations" are not needed
//                          and not used. The answer: "ok", "joints", "solver": "spline_ik",
//                          "on_curve" (joints on the curve; a chain longer than the curve
//                          continues straight past its end), "covered" (arc length to the last
//                          joint on the curve), "curve_length", "fit_scale" (with fit
//                          stretch), "solve_us".
//   "aim": {"axis": [x, y, z], "at": [x, y, z], "joints": k, "weights": [...]}
//                          look-at (ik/aim.h): the last k joints (1 to the segments, at most
//                          kMaxAimJoints; default 1; chains of at most kMaxCurveJoints) turn
//                          so the axis of the effector's frame (rotations.h; +Y along the last
//                          bone) points at `at`, shared by the weights (k numbers >= 0, not all
//                          0; default equal). Like "curve" it comes alone: no other field of
//                          this list, "solver", "pole", "accelerate", "free_root" or extended
//                          fields; "target", "tolerance", "max_iterations" are not used. The
//                          answer: "ok", "joints", "solver": "aim", "aim_error_deg",
//                          "reached" (within 0.5 degrees), "passes", "solve_us".
// Order: soften the target, solve (two_bone, stiffness or the named solver), limit the turn,
// stretch. These are plain-chain tools: "constraints", "base", "nodes" and "free_root": true
// are refused with them, and "pole" is taken by two_bone only. Errors name the field and the
// allowed range ("soften must be a number with 0 < soften <= 1, got 0"), as for plain lines.
// The answer has the plain fields ("joints", "iterations", "distance", "reached",
// "reachable", "solver", "solve_us") plus those named above; distance and reached are
// measured to the request's target, never to the softened one.
#pragma once

#include "solve_cli/solve_request.h"

namespace fabrik::tools {

// True when `request` (an object) uses one of the fields above ("pole" alone is not one).
bool IsToolRequest(const Json& request);

// The response for such a request.
Json HandleToolRequest(const Json& request, const RequestId& id);

// Most joints a "curve" (or "aim") request may have (each is placed by a few curve look-ups,
// several dozen times over with fit stretch).
inline constexpr std::size_t kMaxCurveJoints = 10'000;
// The response for a request with "curve" (solve_curve.cpp).
Json HandleCurveRequest(const Json& request, const RequestId& id);
// Most joints that may share an aim ("aim.joints"); the chain itself at most kMaxCurveJoints.
inline constexpr long long kMaxAimJoints = 32;
// The response for a request with "aim" (solve_aim.cpp).
Json HandleAimRequest(const Json& request, const RequestId& id);

}  // namespace fabrik::tools
