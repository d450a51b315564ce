// solve_tools.h - fabrik-solve requests that use the everyday IK tools other toolboxes have
// (docs/tools.md): the two-bone solver and softening (more fields are listed in
// docs/tools.md as they are added).
//
// A plain chain request (solve_request.h) plus any of:
//   "solver": "two_bone"   the analytic solver of ik/two_bone.h; the chain must have exactly 3
//                          joints. Takes "pole" ([x, y, z], a world point picking the bend
//                          plane) and "soften"; not "accelerate".
//   "soften": r            0 < r <= 1 (ik/soften.h): beyond r x reach the chain aims at a
//                          target pulled in so the effector approaches the target
//                          asymptotically. Any solver; 1 is no softening. The answer adds
//                          "soft_target": the point the chain aimed at, when it differs.
// These are plain-chain tools: "constraints", "base", "nodes" and "free_root": true are
// refused with them, and "pole" is taken by two_bone only. Errors name the field and the
// allowed range ("soften must be a number with 0 < soften <= 1, got 0"), as for plain lines.
// The answer has the plain fields ("joints", "iterations", "distance", "reached",
// "reachable", "solver", "solve_us") plus those named above; distance and reached are
// measured to the request's target, never to the softened one.
#pragma once

#include "tools/solve_request.h"

namespace fabrik::tools {

// True when `request` (an object) uses one of the fields above.
bool IsToolRequest(const Json& request);

// The response for such a request.
Json HandleToolRequest(const Json& request, const RequestId& id);

}  // namespace fabrik::tools
