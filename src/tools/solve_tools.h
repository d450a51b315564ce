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
// Order: soften the target, solve (two_bone, stiffness or the named solver), limit the turn,
// stretch. These are plain-chain tools: "constraints", "base", "nodes" and "free_root": true
// are refused with them, and "pole" is taken by two_bone only. Errors name the field and the
// allowed range ("soften must be a number with 0 < soften <= 1, got 0"), as for plain lines.
// The answer has the plain fields ("joints", "iterations", "distance", "reached",
// "reachable", "solver", "solve_us") plus those named above; distance and reached are
// measured to the request's target, never to the softened one.
#pragma once

#include "tools/solve_request.h"

namespace fabrik::tools {

// True when `request` (an object) uses one of the fields above ("pole" alone is not one).
bool IsToolRequest(const Json& request);

// The response for such a request.
Json HandleToolRequest(const Json& request, const RequestId& id);

}  // namespace fabrik::tools
